// streamable-http: one MCP server, two transports. With MCP_HTTP_ADDR unset it serves stdio like
// every other example; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves Streamable HTTP at
// http://127.0.0.1:PORT/mcp. The tools (tools.rs) are the same either way: only the wire differs.

mod http;
mod tools;

use rmcp::{service::ServerInitializeError, ServiceExt};

// ANCHOR: main
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    match std::env::var("MCP_HTTP_ADDR") {
        Ok(addr) => http::serve(addr.parse()?).await,
        Err(_) => serve_stdio().await,
    }
}

/// One JSON-RPC message per line on stdin and stdout, until stdin reaches EOF.
async fn serve_stdio() -> Result<(), Box<dyn std::error::Error>> {
    let running = match tools::Tools.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        // stdin closed before any message: nothing was asked, so exit 0 like any other EOF.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        // The first reply could not be written (stdout closed): the client has gone, which is no error here.
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("streamable-http: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
// ANCHOR_END: main
