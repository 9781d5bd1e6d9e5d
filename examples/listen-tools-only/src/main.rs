// listen-tools-only: a tools-only rmcp 3.11 server, the kind `#[tool_router(server_handler)]` builds, asked to
// open a subscriptions/listen stream. Its tool list never changes, so it advertises no `listChanged`, and rmcp's
// default `accepted_subscription_filter` (None) answers the listen request with -32601, method not found.

// ANCHOR: server
use rmcp::{
    handler::server::wrapper::Parameters, schemars::JsonSchema, serde::Deserialize, service::ServerInitializeError,
    tool, tool_router, ServiceExt,
};

/// The arguments of `hello`.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct HelloArgs {
    /// Who to greet
    name: String,
}

#[derive(Clone)]
struct Tools;

#[tool_router(server_handler)]
impl Tools {
    #[tool(title = "Hello", description = "Greets someone, at once.")]
    fn hello(&self, Parameters(HelloArgs { name }): Parameters<HelloArgs>) -> String {
        format!("hello, {name}")
    }
}
// ANCHOR_END: server

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = match Tools.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        // The discover reply could not be written (stdout closed): the client has gone, which is no error here.
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("listen-tools-only: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
