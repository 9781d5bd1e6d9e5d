// The resource server in front of the MCP endpoint: which tokens it accepts, what each tool needs,
// and the three answers a request can get before it reaches rmcp (401, 403, or through). rmcp has
// no resource-server middleware, so this is an axum layer of our own.

use std::sync::Arc;

use axum::{
    body::{to_bytes, Body},
    extract::{Request, State},
    http::{header, HeaderMap, StatusCode},
    middleware::Next,
    response::{IntoResponse, Response},
};
use rmcp::serde_json::{json, Value};

use crate::notes::Caller;

// ANCHOR: resource
/// Where clients are told to get tokens. No authorization server runs for this example: the test
/// tokens below stand for what one would have issued.
const AUTHORIZATION_SERVER: &str = "https://auth.example.com";
/// The server's canonical URI when MCP_RESOURCE_URL is unset: the public HTTPS address it would have
/// behind a TLS proxy. Configured, never taken from the request's Host header.
const DEFAULT_RESOURCE: &str = "https://notes.example.com/mcp";
/// Every scope the tools use, advertised in the metadata document.
const SCOPES: [&str; 2] = ["notes:read", "notes:write"];
/// The scope each tool needs; any other request needs only a valid token.
const TOOL_SCOPES: [(&str, &str); 2] = [("read_note", "notes:read"), ("add_note", "notes:write")];
/// What a request without a token is told to ask for: enough to read.
const BASIC_SCOPE: &str = "notes:read";

/// This server as an OAuth protected resource: its canonical URI and where its metadata lives.
pub struct Resource {
    pub uri: String,
    pub metadata_path: String,
    metadata_url: String,
}

impl Resource {
    pub fn from_env() -> Result<Self, String> {
        let uri = std::env::var("MCP_RESOURCE_URL").unwrap_or_else(|_| DEFAULT_RESOURCE.to_string());
        let (scheme, rest) = uri.split_once("://").ok_or(format!("MCP_RESOURCE_URL={uri} is not a URL"))?;
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        // RFC 9728 §3.1: the well-known segment goes between the host and the resource's path.
        let metadata_path = format!("/.well-known/oauth-protected-resource{path}");
        let metadata_url = format!("{scheme}://{authority}{metadata_path}");
        Ok(Resource { uri, metadata_path, metadata_url })
    }

    /// The protected resource metadata document (RFC 9728 §2), served at `metadata_path`.
    pub fn metadata(&self) -> String {
        let document = json!({
            "resource": self.uri,
            "authorization_servers": [AUTHORIZATION_SERVER],
            "scopes_supported": SCOPES,
            "bearer_methods_supported": ["header"],
        });
        document.to_string()
    }
}
// ANCHOR_END: resource

// ANCHOR: tokens
/// What the authorization server says about a token it issued (by introspection, or in a signed
/// JWT's `aud`, `sub` and `scope` claims): the test tokens, with their audience, the user they were
/// issued to, and their scopes. The two notes tokens were issued for this server, to two users;
/// `calendar-token` for another resource server.
fn introspect(token: &str, this_server: &str) -> Option<(String, &'static str, &'static [&'static str])> {
    match token {
        "write-token" => Some((this_server.to_string(), "alice", &["notes:read", "notes:write"])),
        "read-token" => Some((this_server.to_string(), "bob", &["notes:read"])),
        "calendar-token" => {
            Some(("https://calendar.example.com/mcp".to_string(), "alice", &["notes:read", "notes:write"]))
        }
        _ => None,
    }
}

/// Who the token speaks for and the scopes it grants here, or None: unknown, or issued for another
/// audience (RFC 8707).
fn granted(token: &str, resource: &Resource) -> Option<(Caller, &'static [&'static str])> {
    let (audience, subject, scopes) = introspect(token, &resource.uri)?;
    (audience == resource.uri).then(|| (Caller(subject.to_string()), scopes))
}
// ANCHOR_END: tokens

// ANCHOR: layer
/// Runs before rmcp on every request to /mcp: 401 without a token this server accepts, 403 when
/// the token lacks the scope the called tool needs, otherwise the request goes on, carrying the
/// token's subject as its Caller: the tools keep one notebook per caller (notes.rs).
pub async fn require_token(State(resource): State<Arc<Resource>>, request: Request, next: Next) -> Response {
    let Some(token) = bearer(request.headers()) else {
        let challenge = format!("Bearer resource_metadata=\"{}\", scope=\"{BASIC_SCOPE}\"", resource.metadata_url);
        return refuse(StatusCode::UNAUTHORIZED, challenge);
    };
    let Some((caller, scopes)) = granted(token, &resource) else {
        let challenge = format!(
            "Bearer error=\"invalid_token\", resource_metadata=\"{}\", \
             error_description=\"the token is not valid for this server\"",
            resource.metadata_url
        );
        return refuse(StatusCode::UNAUTHORIZED, challenge);
    };
    // The body names the tool; read it whole (rmcp's own limit is 4 MiB) and pass it on.
    let (mut parts, body) = request.into_parts();
    let Ok(bytes) = to_bytes(body, 4 * 1024 * 1024).await else {
        return StatusCode::PAYLOAD_TOO_LARGE.into_response();
    };
    let needed = needed_scopes(&bytes);
    if !needed.iter().all(|scope| scopes.contains(scope)) {
        let challenge = format!(
            "Bearer error=\"insufficient_scope\", scope=\"{}\", resource_metadata=\"{}\", \
             error_description=\"this call needs {}\"",
            needed.join(" "),
            resource.metadata_url,
            needed.join(" ")
        );
        return refuse(StatusCode::FORBIDDEN, challenge);
    }
    parts.extensions.insert(caller);
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// `Authorization: Bearer <token>` (the scheme is case-insensitive); never a query parameter.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(token.trim()).filter(|token| !token.is_empty())
}

/// The scopes a request body needs. The body is the source of truth, so this reads it rather than
/// the Mcp-Name header. A JSON array (a batch, which 2026-07-28 does not allow) needs every scope;
/// a body that is not JSON reaches no tool (rmcp refuses it), so it needs none.
fn needed_scopes(body: &[u8]) -> Vec<&'static str> {
    match rmcp::serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(message)) if message.get("method") == Some(&json!("tools/call")) => {
            let tool = message.get("params").and_then(|params| params.get("name"));
            TOOL_SCOPES.iter().filter(|(name, _)| tool == Some(&json!(name))).map(|(_, scope)| *scope).collect()
        }
        Ok(Value::Array(_)) => SCOPES.to_vec(),
        _ => Vec::new(),
    }
}

fn refuse(status: StatusCode, challenge: String) -> Response {
    (status, [(header::WWW_AUTHENTICATE, challenge)]).into_response()
}
// ANCHOR_END: layer
