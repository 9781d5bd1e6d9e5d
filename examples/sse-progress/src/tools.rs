// The two tools and the handler, the same on stdio and on Streamable HTTP: `count` reports progress when the
// request carries a progressToken, `hello` answers at once.

// ANCHOR: tools
use std::{borrow::Cow, time::Duration};

use rmcp::{
    handler::server::{tool::ToolCallContext, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResponse, Implementation, MetaObject, ProgressNotificationParam,
        ProtocolVersion, ServerCapabilities, ServerConfig,
    },
    schemars::JsonSchema,
    serde::Deserialize,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler,
};

#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct HelloArgs {
    /// Who to greet
    name: String,
}

#[derive(Clone)]
pub struct Tools;

#[tool_router]
impl Tools {
    #[tool(description = "Greets someone, at once.")]
    fn hello(&self, Parameters(HelloArgs { name }): Parameters<HelloArgs>) -> String {
        format!("hello, {name}")
    }

    #[tool(description = "Counts to three, reporting progress after each step when the request asks for it.")]
    async fn count(&self, context: RequestContext<RoleServer>) -> Result<String, String> {
        let token = context.meta.get_progress_token(); // None: the request carried no progressToken
        for step in 1..=3 {
            if let Some(token) = &token {
                let note = ProgressNotificationParam::new(token.clone(), f64::from(step))
                    .with_total(3.0)
                    .with_message(format!("step {step} of 3"));
                // On HTTP this goes on the request's own response stream, which it turns into SSE.
                context.peer.notify_progress(note).await.map_err(|e| e.to_string())?;
            }
            tokio::time::sleep(Duration::from_millis(50)).await; // the work
        }
        Ok("counted to 3".to_string())
    }
}
// ANCHOR_END: tools

/// `#[tool_handler]` writes `tools/list` and `tools/call`; the rest says what the Python twin says: this server
/// speaks 2026-07-28 only, its tool list never changes, serverInfo goes in every result's `_meta`, and an unknown
/// tool gets -32602 "Unknown tool: NAME".
#[tool_handler(meta = result_meta(self))]
impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        if let Some(tools) = capabilities.tools.as_mut() {
            tools.list_changed = Some(false); // no subscriptions/listen: no list_changed to send
        }
        ServerConfig::new(capabilities).with_server_info(Implementation::new("sse-progress", "0.1.0"))
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
        let call = ToolCallContext::new(self, request, context);
        let mut response = Self::tool_router().call(call).await?;
        if let CallToolResponse::Complete(result) = &mut response {
            result.meta = Some(result_meta(self));
        }
        Ok(response)
    }
}

/// `{"io.modelcontextprotocol/serverInfo": {...}}`, from the name and version in get_info().
fn result_meta(tools: &Tools) -> MetaObject {
    let info = rmcp::serde_json::to_value(tools.get_info().server_info).expect("serializable");
    let mut meta = MetaObject::new();
    meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
    meta
}
