//! request-echo: a small MCP server (revision 2026-07-28) over stdio, on serde_json.
//!
//! It keeps nothing between requests. Each request is checked on its own:
//! `params._meta` must be there, with a protocol version this server speaks
//! and the client's capabilities; whatever came before on the pipe does not
//! matter. Its one tool reports what the server read from that request alone.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::{self, BufRead, Write};

const PROTOCOL_VERSION: &str = "2026-07-28";

// ANCHOR: envelope
/// What one request's `params._meta` says: the only place this server learns any of it.
struct Envelope<'a> {
    version: &'a str,
    capabilities: &'a Map<String, Value>,
    client_info: Option<&'a Value>,
}

fn read_meta(params: &Value) -> Result<Envelope<'_>, &'static str> {
    let meta = params.get("_meta").and_then(Value::as_object).ok_or("params._meta is missing")?;
    let version = meta.get("io.modelcontextprotocol/protocolVersion").and_then(Value::as_str);
    let version = version.ok_or("params._meta has no io.modelcontextprotocol/protocolVersion")?;
    let capabilities = meta.get("io.modelcontextprotocol/clientCapabilities").and_then(Value::as_object);
    let capabilities = capabilities.ok_or("params._meta has no io.modelcontextprotocol/clientCapabilities")?;
    let client_info = meta.get("io.modelcontextprotocol/clientInfo");
    Ok(Envelope { version, capabilities, client_info })
}

fn handle(line: &str) -> Option<String> {
    let msg: Value = match serde_json::from_str(line) {
        Ok(msg) => msg,
        Err(why) => {
            eprintln!("request-echo: not JSON ({why})");
            return Some(error(Value::Null, -32700, "Parse error: the line is not valid JSON", None));
        }
    };
    let method = msg.get("method").and_then(Value::as_str);
    let (method, id) = match (method, msg.get("jsonrpc").and_then(Value::as_str), msg.get("id")) {
        (Some(method), Some("2.0"), None) => {
            eprintln!("request-echo: notification {method}; no reply");
            return None;
        }
        (Some(method), Some("2.0"), Some(id)) if is_id(id) => (method, id.clone()),
        // Not a JSON-RPC 2.0 request: -32600, with the id when it can be read.
        (_, _, id) => {
            let id = id.filter(|id| is_id(id)).cloned().unwrap_or(Value::Null);
            let message = "Invalid Request: not a JSON-RPC 2.0 request or notification";
            return Some(error(id, -32600, message, None));
        }
    };
    eprintln!("request-echo: request {method} id={id}");

    // A legacy client (2025-11-25 and earlier) opens with a handshake that this
    // revision does not have, and sends no params._meta. The error code is up to
    // the server; the message names the versions it speaks, because it may be
    // the only thing that client can show its user.
    if method == "initialize" {
        let message = format!("initialize is not supported: this server speaks only MCP {PROTOCOL_VERSION}");
        return Some(error(id, -32601, &message, None));
    }

    // Everything else needs params._meta, on this request, every time.
    let params = msg.get("params").unwrap_or(&Value::Null);
    let envelope = match read_meta(params) {
        Ok(envelope) => envelope,
        Err(why) => return Some(error(id, -32602, &format!("Invalid params: {why}"), None)),
    };
    if envelope.version != PROTOCOL_VERSION {
        // Negotiation by error: say what was asked for and what is on offer.
        let data = Unsupported { supported: [PROTOCOL_VERSION], requested: envelope.version };
        return Some(error(id, -32022, "Unsupported protocol version", Some(data)));
    }
    Some(match method {
        "server/discover" => result(id, discover()),
        "tools/list" => result(id, list_tools()),
        "tools/call" => call_tool(id, params, &envelope),
        _ => error(id, -32601, &format!("Method not found: {method}"), None),
    })
}
// ANCHOR_END: envelope

// ANCHOR: tool
/// `clientInfo` as the spec shapes it; anything else there reads as "not named".
#[derive(Deserialize)]
struct ClientInfo {
    name: String,
    version: String,
}

fn call_tool(id: Value, params: &Value, envelope: &Envelope) -> String {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return error(id, -32602, "Invalid params: tools/call needs a tool name", None);
    };
    if name != "show_request" {
        return error(id, -32602, &format!("Unknown tool: {name}"), None);
    }
    match params.get("arguments") {
        None => {}
        Some(Value::Object(arguments)) if arguments.is_empty() => {}
        // Arguments its inputSchema does not allow: a tool execution error the model can fix.
        Some(Value::Object(_)) => {
            let text = "Invalid arguments for tool show_request: it takes no arguments. Call it with {}.";
            return result(id, ToolResult::error(text.to_string()));
        }
        Some(_) => return error(id, -32602, "Invalid params: params.arguments must be an object", None),
    }
    // Everything in the answer comes from this request's _meta; nothing is
    // remembered from earlier requests, because nothing may be.
    let client = match envelope.client_info.map(ClientInfo::deserialize) {
        Some(Ok(ClientInfo { name, version })) => format!("{name} {version}"),
        _ => "not named".to_string(),
    };
    let names: Vec<&str> = envelope.capabilities.keys().map(String::as_str).collect();
    let capabilities = if names.is_empty() { "none declared".to_string() } else { names.join(", ") };
    let text = format!("protocol {}; client {client}; capabilities: {capabilities}", envelope.version);
    result(id, ToolResult::ok(text))
}
// ANCHOR_END: tool

/// A JSON-RPC id this server accepts: a string or an integer.
fn is_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolResult {
    result_type: &'static str,
    content: [Content; 1],
    is_error: bool,
}

#[derive(Serialize)]
struct Content {
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
}

impl ToolResult {
    fn ok(text: String) -> Self {
        ToolResult { result_type: "complete", content: [Content { kind: "text", text }], is_error: false }
    }

    fn error(text: String) -> Self {
        ToolResult { is_error: true, ..ToolResult::ok(text) }
    }
}

/// The result of server/discover and of tools/list share their caching hints, so one struct serves both.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Listing<T> {
    result_type: &'static str,
    #[serde(flatten)]
    body: T,
    ttl_ms: u32,
    cache_scope: &'static str,
}

fn listing<T>(body: T) -> Listing<T> {
    Listing { result_type: "complete", body, ttl_ms: 60_000, cache_scope: "public" }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ServerDescription {
    supported_versions: [&'static str; 1],
    capabilities: Capabilities,
}

#[derive(Serialize)]
struct Capabilities {
    tools: Map<String, Value>,
}

fn discover() -> Listing<ServerDescription> {
    let capabilities = Capabilities { tools: Map::new() };
    listing(ServerDescription { supported_versions: [PROTOCOL_VERSION], capabilities })
}

#[derive(Serialize)]
struct Tools {
    tools: [Tool; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: NoArguments,
}

/// The inputSchema of a tool that takes nothing: `{"type":"object","additionalProperties":false}`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NoArguments {
    #[serde(rename = "type")]
    kind: &'static str,
    additional_properties: bool,
}

fn list_tools() -> Listing<Tools> {
    listing(Tools {
        tools: [Tool {
            name: "show_request",
            title: "Show what the request said",
            description: "Reports what the server read from this request's _meta: the protocol version, \
                          the client's name and version, and the client capabilities it declared.",
            input_schema: NoArguments { kind: "object", additional_properties: false },
        }],
    })
}

/// A JSON-RPC response: `result` or `error`, never both.
#[derive(Serialize)]
struct Response<'a, T> {
    jsonrpc: &'static str,
    id: Value,
    #[serde(flatten)]
    outcome: Outcome<'a, T>,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Outcome<'a, T> {
    Result(Stamped<T>),
    Error(ErrorObject<'a>),
}

/// A result with `io.modelcontextprotocol/serverInfo` in its `_meta`, as every result carries it.
#[derive(Serialize)]
struct Stamped<T> {
    #[serde(flatten)]
    body: T,
    #[serde(rename = "_meta")]
    meta: ResultMeta,
}

#[derive(Serialize)]
struct ResultMeta {
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    server_info: ServerInfo,
}

#[derive(Serialize)]
struct ServerInfo {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct ErrorObject<'a> {
    code: i32,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Unsupported<'a>>,
}

/// The data of -32022: the versions on offer and the one asked for.
#[derive(Serialize)]
struct Unsupported<'a> {
    supported: [&'static str; 1],
    requested: &'a str,
}

fn result<T: Serialize>(id: Value, body: T) -> String {
    let meta = ResultMeta { server_info: ServerInfo { name: "request-echo", version: "1.0.0" } };
    let response = Response { jsonrpc: "2.0", id, outcome: Outcome::Result(Stamped { body, meta }) };
    serde_json::to_string(&response).expect("a response always serialises")
}

fn error(id: Value, code: i32, message: &str, data: Option<Unsupported<'_>>) -> String {
    // An error carries no result, so the result type is moot: ().
    let error = Outcome::<()>::Error(ErrorObject { code, message, data });
    let response = Response { jsonrpc: "2.0", id, outcome: error };
    serde_json::to_string(&response).expect("a response always serialises")
}

fn main() {
    let mut stdout = io::stdout().lock();
    // The loop ends at end of file, when the client closes our stdin. Bytes first, then
    // UTF-8: a line that is not UTF-8 is an error for that line only, and the next is read as usual.
    for raw in io::stdin().lock().split(b'\n') {
        let raw = match raw {
            Ok(raw) => raw,
            Err(err) => {
                eprintln!("request-echo: cannot read stdin: {err}");
                break;
            }
        };
        let line = raw.strip_suffix(b"\r").unwrap_or(&raw);
        let reply = match std::str::from_utf8(line) {
            Ok(line) => handle(line),
            Err(_) => Some(error(Value::Null, -32700, "Parse error: the line is not valid UTF-8", None)),
        };
        if let Some(reply) = reply {
            if let Err(err) = writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
                eprintln!("request-echo: stdout closed ({err}), exiting");
                return;
            }
        }
    }
    eprintln!("request-echo: stdin closed, exiting");
}
