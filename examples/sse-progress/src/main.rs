// sse-progress: a tool that reports progress, served over stdio or Streamable HTTP. With MCP_HTTP_ADDR unset it
// serves stdio; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves http://127.0.0.1:PORT/mcp, where a reply that has
// progress before it comes back as an SSE stream.

mod http;
mod tools;

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
    let running = match tools::Tools.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        // stdin closed before any message: nothing was asked, so exit 0 like any other EOF.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        // The first reply could not be written (stdout closed): the client has gone, which is no error here.
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("sse-progress: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
