// Streamable HTTP: rmcp's tower service on axum at /mcp, for 2026-07-28 clients only.

use std::{net::SocketAddr, sync::Arc};

use rmcp::transport::streamable_http_server::{
    session::never::NeverSessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio::signal::unix::{signal, SignalKind};

use crate::handler::Reference;

pub async fn serve(addr: SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    let port = addr.port();
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        // A reply with nothing before it is one JSON body; progress or a log line before it
        // turns the reply into an SSE stream, the only place request-scoped notifications go.
        .with_json_response(true)
        // The spec says servers MUST check Origin; rmcp checks it only once it has a list.
        .with_allowed_origins([format!("http://127.0.0.1:{port}"), format!("http://localhost:{port}")]);
    let stop = config.cancellation_token.clone();
    let service = StreamableHttpService::new(|| Ok(Reference), Arc::new(NeverSessionManager::default()), config);
    let app = axum::Router::new().nest_service("/mcp", service);

    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("conformance-reference: listening on http://{addr}/mcp");
    let mut terminate = signal(SignalKind::terminate())?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            terminate.recv().await;
            stop.cancel();
        })
        .await?;
    eprintln!("conformance-reference: stopped");
    Ok(())
}
