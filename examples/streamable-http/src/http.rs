// Streamable HTTP: rmcp's tower service mounted on axum at /mcp, set up for 2026-07-28 clients
// only. Logs go to stderr; stdout stays empty.

// ANCHOR: http
use std::{net::SocketAddr, sync::Arc};

use rmcp::transport::streamable_http_server::{
    session::never::NeverSessionManager, StreamableHttpServerConfig, StreamableHttpService,
};
use tokio::signal::unix::{signal, SignalKind};

use crate::tools::Tools;

pub async fn serve(addr: SocketAddr) -> Result<(), Box<dyn std::error::Error>> {
    let (hosts, origins) = allowed(addr.port())?;
    let config = StreamableHttpServerConfig::default()
        // No sessions, no GET stream: a GET or DELETE on /mcp gets 405, as 2026-07-28 asks.
        .with_legacy_session_mode(false)
        // A reply with nothing before it is one JSON body, not a one-event SSE stream.
        .with_json_response(true)
        .with_allowed_hosts(hosts) // Host and Origin: see allowed() below
        .with_allowed_origins(origins); // rmcp checks Origin only once it has a list
    let stop = config.cancellation_token.clone();
    // The factory runs for each request: Tools holds no state, so a new one costs nothing.
    let service = StreamableHttpService::new(|| Ok(Tools), Arc::new(NeverSessionManager::default()), config);
    let app = axum::Router::new().nest_service("/mcp", service);

    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("streamable-http: listening on http://{addr}/mcp");
    let mut terminate = signal(SignalKind::terminate())?;
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            terminate.recv().await;
            stop.cancel(); // ends open SSE streams, so the shutdown need not wait for them
        })
        .await?;
    eprintln!("streamable-http: stopped");
    Ok(())
}
// ANCHOR_END: http

/// The Host and Origin values rmcp accepts: the local ones, and the public address a TLS proxy
/// serves this server at (MCP_PUBLIC_URL), if any.
type Allowed = (Vec<String>, Vec<String>);

fn allowed(port: u16) -> Result<Allowed, Box<dyn std::error::Error>> {
    let mut hosts = vec!["localhost".to_string(), "127.0.0.1".to_string(), "::1".to_string()];
    let mut origins = vec![format!("http://127.0.0.1:{port}"), format!("http://localhost:{port}")];
    // ANCHOR: public
    // Behind a TLS proxy at https://mcp.example.com, requests arrive with that Host and, from a
    // browser, that Origin: allow both, or rmcp answers 403 to every request the proxy passes on.
    if let Ok(public) = std::env::var("MCP_PUBLIC_URL") {
        let url: axum::http::Uri = public.parse()?;
        let host = url.host().ok_or("MCP_PUBLIC_URL has no host")?;
        hosts.push(host.to_string());
        origins.push(public.trim_end_matches('/').to_string());
    }
    // ANCHOR_END: public
    Ok((hosts, origins))
}
