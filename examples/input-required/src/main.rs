// input-required: one tool, book_table, that needs an answer from the user before it can finish.
// In 2026-07-28 a server never sends a request of its own: it returns `input_required` and the
// client retries the call with the answer. booking.rs holds the tool, state.rs the sealing.

mod booking;
mod state;

use std::borrow::Cow;

use rmcp::{
    handler::server::tool::ToolCallContext,
    model::{
        CallToolRequestParams, CallToolResponse, Implementation, MetaObject, ProtocolVersion, ServerCapabilities,
        ServerConfig,
    },
    service::{RequestContext, ServerInitializeError},
    tool_handler, ErrorData, RoleServer, ServerHandler, ServiceExt,
};

use booking::Booking;

// ANCHOR: handler
/// `#[tool_handler]` writes `tools/list` and routes `tools/call` to book_table. This server speaks
/// 2026-07-28 only (nothing older can receive `input_required`) and puts serverInfo in the
/// `_meta` of every result, the interim one included.
#[tool_handler(meta = result_meta(self))]
impl ServerHandler for Booking {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        if let Some(tools) = capabilities.tools.as_mut() {
            tools.list_changed = Some(false); // the one tool never changes
        }
        ServerConfig::new(capabilities).with_server_info(Implementation::new("input-required", "0.1.0"))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if Self::tool_router().get(&request.name).is_none() {
            return Err(ErrorData::invalid_params(format!("Unknown tool: {}", request.name), None));
        }
        let mut response = Self::tool_router().call(ToolCallContext::new(self, request, context)).await?;
        match &mut response {
            CallToolResponse::Complete(result) => result.meta = Some(result_meta(self)),
            CallToolResponse::InputRequired(result) => result.meta = Some(result_meta(self)),
            _ => {}
        }
        Ok(response)
    }
}

/// `{"io.modelcontextprotocol/serverInfo": {...}}`, from the name and version in get_info().
fn result_meta(booking: &Booking) -> MetaObject {
    let info = rmcp::serde_json::to_value(booking.get_info().server_info).expect("serializable");
    let mut meta = MetaObject::new();
    meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
    meta
}
// ANCHOR_END: handler

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = match Booking.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        // stdin closed before any message: nothing was asked, so exit 0 like any other EOF.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        // The first reply could not be written (stdout closed): the client has gone, which is no error here.
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("input-required: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
