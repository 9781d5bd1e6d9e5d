// The binary: the library's Greeter on stdin/stdout. Tests start it as a child process
// (tests/stdio.rs, tests/answer_key.rs); the site's check runs it against transcript.jsonl.
use rmcp::{service::ServerInitializeError, ServiceExt};
use testing_rust::Greeter;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = match Greeter.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        // stdin closed before any message: nothing was asked, so exit 0 like any other EOF.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        // The first reply could not be written (stdout closed): the client has gone, which is no error here.
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("testing-rust: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
