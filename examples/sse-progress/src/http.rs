// Streamable HTTP: rmcp's tower service on axum at /mcp, for 2026-07-28 clients only, with SSE replies (rmcp's
// default). Logs go to stderr; stdout stays empty.

// ANCHOR: http
use std::{net::SocketAddr, sync::Arc};

use rmcp::transport::streamable_http_server::{
    session::never::NeverSessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio::signal::unix::{signal, SignalKind};

use crate::tools::Tools;

pub async fn serve(addr: SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    let port = addr.port();
    let config = StreamableHttpServerConfig::default()
        // No sessions, no GET stream: a GET or DELETE on /mcp gets 405, as 2026-07-28 asks.
        .with_legacy_session_mode(false)
        // No with_json_response(true): every reply with status 200 is an SSE stream, and a
        // handler's progress notifications go on it, before the result.
        .with_allowed_origins([format!("http://127.0.0.1:{port}"), format!("http://localhost:{port}")]);
    let stop = config.cancellation_token.clone();
    let service = StreamableHttpService::new(|| Ok(Tools), Arc::new(NeverSessionManager::default()), config);
    let app = axum::Router::new().nest_service("/mcp", service);

    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("sse-progress: listening on http://{addr}/mcp");
    let mut terminate = signal(SignalKind::terminate())?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            terminate.recv().await;
            stop.cancel(); // ends open SSE streams, so the shutdown need not wait for them
        })
        .await?;
    eprintln!("sse-progress: stopped");
    Ok(())
}
// ANCHOR_END: http
