// Streamable HTTP: rmcp's tower service at /mcp behind the token layer (auth.rs), and the protected
// resource metadata document beside it, which needs no token. Logs go to stderr.

// ANCHOR: http
use std::{net::SocketAddr, sync::Arc};

use axum::{http::header, middleware, routing::get};
use rmcp::transport::streamable_http_server::{
    session::never::NeverSessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio::signal::unix::{signal, SignalKind};

use crate::{auth, notes::Notes};

pub async fn serve(addr: SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    let port = addr.port();
    let resource = Arc::new(auth::Resource::from_env()?);
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_allowed_origins([format!("http://127.0.0.1:{port}"), format!("http://localhost:{port}")]);
    let stop = config.cancellation_token.clone();
    let notes = Notes::default(); // one store; each request's handler is a clone of this handle
    let service =
        StreamableHttpService::new(move || Ok(notes.clone()), Arc::new(NeverSessionManager::default()), config);
    let metadata = resource.metadata();
    let app = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(resource.clone(), auth::require_token))
        .route(
            &resource.metadata_path,
            get(|| async move { ([(header::CONTENT_TYPE, "application/json")], metadata) }),
        );

    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("authorization: listening on http://{addr}/mcp as {}", resource.uri);
    let mut terminate = signal(SignalKind::terminate())?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            terminate.recv().await;
            stop.cancel();
        })
        .await?;
    eprintln!("authorization: stopped");
    Ok(())
}
// ANCHOR_END: http
