// rmcp-server: the first page's two tools (`add`, `shout`) served by rmcp, the official Rust SDK.
//
// rmcp owns the wire: it reads one JSON-RPC message per line from stdin, checks each request's
// `params._meta`, routes `tools/call` to the functions below, builds `inputSchema` from the
// argument types, and writes one reply per line to stdout. What is left here is the part no SDK
// can write for you: what each tool does, its name, its description, and how it fails.

// ANCHOR: tools
use rmcp::{
    handler::server::{tool::ToolCallContext, wrapper::Parameters},
    model::{CallToolRequestParams, CallToolResponse, MetaObject},
    schemars::JsonSchema,
    serde::Deserialize,
    service::{RequestContext, ServerInitializeError},
    tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler, ServiceExt,
};

/// The arguments of `add`. rmcp turns this type into the tool's `inputSchema`, and each
/// field's doc comment into that property's `description`.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct AddArgs {
    /// First addend
    a: i64,
    /// Second addend
    b: i64,
}

/// The arguments of `shout`.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct ShoutArgs {
    /// The text to upper-case
    text: String,
}

#[derive(Clone)]
struct Tools;

#[tool_router]
impl Tools {
    /// `Ok` becomes a result with `"isError":false`, `Err` a result with `"isError":true`:
    /// the tool ran and failed, and the model reads why.
    #[tool(
        title = "Add two integers",
        description = "Adds a and b. a, b and the sum must each fit in a 64-bit signed integer."
    )]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> Result<String, String> {
        tracing::info!(a, b, "add called"); // a log line for stderr, never for stdout
        match a.checked_add(b) {
            Some(sum) => Ok(format!("{a} + {b} = {sum}")),
            None => Err(format!("{a} + {b} overflows: the sum must fit in a 64-bit signed integer")),
        }
    }

    #[tool(title = "Shout", description = "Returns the text in upper case. The text must not be empty.")]
    fn shout(&self, Parameters(ShoutArgs { text }): Parameters<ShoutArgs>) -> Result<String, String> {
        if text.is_empty() {
            return Err("Nothing to shout: text is empty".to_string());
        }
        Ok(text.to_uppercase())
    }
}
// ANCHOR_END: tools

// ANCHOR: handler
/// `#[tool_handler]` writes `tools/list`, `tools/call` and `get_info` (name, version, the `tools`
/// capability); rmcp's defaults answer `server/discover` and everything else. rmcp puts serverInfo
/// in the `_meta` of the discover result only, so this server adds it to its other results itself.
#[tool_handler(name = "rmcp-server", version = "0.1.0", meta = self.result_meta())]
impl ServerHandler for Tools {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = ToolCallContext::new(self, request, context);
        let mut response = Self::tool_router().call(call).await?; // unknown tool: -32602
        if let CallToolResponse::Complete(result) = &mut response {
            result.meta = Some(self.result_meta());
        }
        Ok(response)
    }
}

impl Tools {
    /// `{"io.modelcontextprotocol/serverInfo": {...}}`, from the name and version in get_info().
    fn result_meta(&self) -> MetaObject {
        let info = rmcp::serde_json::to_value(self.get_info().server_info).expect("serializable");
        let mut meta = MetaObject::new();
        meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
        meta
    }
}
// ANCHOR_END: handler

// ANCHOR: logging
/// rmcp logs through `tracing`, and `tracing_subscriber::fmt()` writes to stdout unless told
/// otherwise: on a stdio server that is the wire. So: stderr, no colour codes, and no timestamps
/// (they would change on every run of the check, which records this stderr).
fn init_logging() {
    tracing_subscriber::fmt().with_writer(std::io::stderr).with_ansi(false).without_time().init();
}
// ANCHOR_END: logging

// ANCHOR: main
/// A current-thread runtime is all a stdio server needs. rmcp still runs each request as a task
/// of its own, so on a busy pipe replies can leave out of order: the `id` pairs them, not the order.
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    init_logging();
    // serve() returns once the first message has arrived; waiting() once stdin reaches EOF.
    let running = match Tools.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        // stdin closed before any message: nothing was asked, so exit 0 like any other EOF.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(error) => return Err(error.into()),
    };
    let reason = running.waiting().await?;
    tracing::info!(?reason, "stopped");
    Ok(())
}
// ANCHOR_END: main
