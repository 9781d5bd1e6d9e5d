// Streamable HTTP: rmcp's tower service on axum at /mcp, stateless, for 2026-07-28 clients. Logs go to stderr.

// ANCHOR: http
use std::{net::SocketAddr, sync::Arc};

use rmcp::transport::streamable_http_server::{
    session::never::NeverSessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio::signal::unix::{signal, SignalKind};

use crate::Tools;

pub async fn serve(addr: SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false) // no sessions: a GET on /mcp gets 405
        // A reply with nothing before it is one JSON body; `wait`'s progress makes its reply an SSE stream, and rmcp
        // cancels the call's token when the client drops that stream.
        .with_json_response(true);
    let stop = config.cancellation_token.clone();
    let service = StreamableHttpService::new(|| Ok(Tools), Arc::new(NeverSessionManager::default()), config);
    let app = axum::Router::new().nest_service("/mcp", service);

    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("cancel-rmcp: listening on http://{addr}/mcp");
    let mut terminate = signal(SignalKind::terminate())?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            terminate.recv().await;
            stop.cancel(); // ends open SSE streams, so the shutdown need not wait for them
        })
        .await?;
    Ok(())
}
// ANCHOR_END: http
