// conformance-reference: one server that shows every feature a 2026-07-28 server can offer, under
// the names the official conformance suite calls (test_simple_text, test://static-text, ...).
// With MCP_HTTP_ADDR unset it serves stdio; with MCP_HTTP_ADDR=127.0.0.1:PORT, Streamable HTTP
// at http://127.0.0.1:PORT/mcp. content.rs holds the tools that answer at once, asks.rs the
// ones that need input from the client, catalog.rs the resources, prompts and completion,
// handler.rs the routing, seal.rs the signed requestState.

mod asks;
mod catalog;
mod content;
mod handler;
mod http;
mod seal;

use rmcp::{service::ServerInitializeError, ServiceExt};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    match std::env::var("MCP_HTTP_ADDR") {
        Ok(addr) => http::serve(addr.parse()?).await,
        Err(_) => serve_stdio().await,
    }
}

/// One JSON-RPC message per line on stdin and stdout, until stdin reaches EOF.
async fn serve_stdio() -> Result<(), Box<dyn std::error::Error>> {
    let running = match handler::Reference.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        // stdin closed before any message: nothing was asked, so exit 0 like any other EOF.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        // The first reply could not be written (stdout closed): the client has gone, which is no error here.
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("conformance-reference: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
