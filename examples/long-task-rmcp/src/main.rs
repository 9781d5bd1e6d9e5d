// long-task-rmcp: long-task's transcript served by rmcp, the official Rust SDK. `count` reports progress three
// times, then answers; `hello` answers at once. rmcp runs each request as a task of its own, even on a
// current-thread runtime, so a `hello` sent while `count` is still counting is answered first.

// ANCHOR: tools
use std::time::Duration;

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
    #[tool(title = "Count to three", description = "Counts to three, slowly, reporting progress after each step.")]
    async fn count(&self, context: RequestContext<RoleServer>) -> Result<String, String> {
        let token = context.meta.get_progress_token(); // None: the request asked for no progress
        for step in 1..=3 {
            if let Some(token) = &token {
                let note = ProgressNotificationParam::new(token.clone(), f64::from(step))
                    .with_total(3.0)
                    .with_message(format!("step {step} of 3"));
                context.peer.notify_progress(note).await.map_err(|e| e.to_string())?;
            }
            tokio::time::sleep(Duration::from_millis(500)).await; // the work: about 1.5 s in all
        }
        Ok("counted to 3".to_string())
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
