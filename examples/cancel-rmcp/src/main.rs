// cancel-rmcp: long-task-cancel's transcript served by rmcp, the official Rust SDK. `wait` reports once that it
// started, then waits until the client cancels it; `hello` answers at once. rmcp runs each request as a task of its
// own: on notifications/cancelled it cancels that request's token, and drops the reply if one is still written.

// ANCHOR: tools
use rmcp::{
    handler::server::wrapper::Parameters,
    model::ProgressNotificationParam,
    schemars::JsonSchema,
    serde::Deserialize,
    service::{RequestContext, ServerInitializeError},
    tool, tool_router, RoleServer, ServiceExt,
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
    #[tool(title = "Wait", description = "Waits until it is cancelled; reports once that it started.")]
    async fn wait(&self, context: RequestContext<RoleServer>) -> Result<String, String> {
        // Progress only when the request carried params._meta.progressToken.
        if let Some(token) = context.meta.get_progress_token() {
            let started = ProgressNotificationParam::new(token, 0.0).with_message("waiting until cancelled");
            // notify_progress returns once rmcp's loop has seen the write done; a cancel may come first (the client
            // reads the line sooner), and awaiting only the send would then not notice it: watch both.
            tokio::select! {
                _ = context.ct.cancelled() => return Err("cancelled".to_string()),
                sent = context.peer.notify_progress(started) => sent.map_err(|e| e.to_string())?,
            }
        }
        context.ct.cancelled().await; // only a cancel ends it: no race on milliseconds
        Err("cancelled".to_string()) // never written: rmcp sends nothing more for a cancelled request
    }

    #[tool(title = "Hello", description = "Greets someone, at once.")]
    fn hello(&self, Parameters(HelloArgs { name }): Parameters<HelloArgs>) -> String {
        format!("hello, {name}")
    }
}
// ANCHOR_END: tools

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = match Tools.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
