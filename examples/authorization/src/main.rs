// authorization: a notes server that, over Streamable HTTP, is an OAuth 2.1 resource server. With
// MCP_HTTP_ADDR unset it serves stdio and asks for no token (the user who started it is the user it
// serves); with MCP_HTTP_ADDR=127.0.0.1:PORT every request to http://127.0.0.1:PORT/mcp needs a
// bearer token issued for this server (auth.rs). The tools (notes.rs) are the same either way.

mod auth;
mod http;
mod notes;

use rmcp::{service::ServerInitializeError, ServiceExt};

// ANCHOR: main
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    match std::env::var("MCP_HTTP_ADDR") {
        Ok(addr) => http::serve(addr.parse()?).await,
        Err(_) => serve_stdio().await,
    }
}

/// Over stdio there is no token to check: the client started this process as its user.
async fn serve_stdio() -> Result<(), Box<dyn std::error::Error>> {
    let running = match notes::Notes::default().serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        // stdin closed before any message: nothing was asked, so exit 0 like any other EOF.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("authorization: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
// ANCHOR_END: main
