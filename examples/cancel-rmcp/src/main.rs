// cancel-rmcp: long-task-cancel's transcript served by rmcp, the official Rust SDK. `wait` reports once that it
// started, then waits until the client cancels it; `hello` answers at once; `running` says how many `wait` calls are
// still running, so a run shows whether the cancel stopped the work. rmcp runs each request as a task of its own: on
// stdio's notifications/cancelled, and over Streamable HTTP (MCP_HTTP_ADDR set, src/http.rs) when the client closes
// the call's response stream, it cancels that request's token, and drops the reply if one is still written.

mod http;

// ANCHOR: tools
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use rmcp::{
    handler::server::wrapper::Parameters,
    model::ProgressNotificationParam,
    schemars::JsonSchema,
    serde::Deserialize,
    service::{RequestContext, ServerInitializeError},
    tool, tool_router, RoleServer, ServiceExt,
};

/// `wait` calls that have started and not ended: the work a cancel must stop. A static, because over HTTP each
/// request gets a fresh `Tools`.
static WAITING: AtomicUsize = AtomicUsize::new(0);

/// Counts one `wait` call while it lives: dropped when the call returns or when its task is dropped.
struct Running;

impl Running {
    fn start() -> Self {
        WAITING.fetch_add(1, Ordering::SeqCst);
        Running
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        WAITING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The arguments of `hello`.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct HelloArgs {
    /// Who to greet
    name: String,
}

#[derive(Clone)]
pub struct Tools;

#[tool_router(server_handler)]
impl Tools {
    #[tool(title = "Wait", description = "Waits until it is cancelled; reports once that it started.")]
    async fn wait(&self, context: RequestContext<RoleServer>) -> Result<String, String> {
        let _running = Running::start();
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

    #[tool(
        title = "Running",
        description = "How many wait calls are still running (a cancelled one gets up to 2 s to stop)."
    )]
    async fn running(&self) -> String {
        for _ in 0..200 {
            if WAITING.load(Ordering::SeqCst) == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        format!("wait calls running: {}", WAITING.load(Ordering::SeqCst))
    }
}
// ANCHOR_END: tools

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Ok(addr) = std::env::var("MCP_HTTP_ADDR") {
        return http::serve(addr.parse()?).await;
    }
    let running = match Tools.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
