// pagination: an MCP server (revision 2026-07-28) over stdio, for the page "Lists in pages". It
// offers five handbook pages as resources, and resources/list hands them out two at a time, each
// page linked to the next by an opaque cursor.
//
// One JSON-RPC message per line comes in on stdin; one reply per request goes out on stdout.
// stdout is the wire and carries nothing else; diagnostics go to stderr.

mod handbook;

use serde::Serialize;
use serde_json::{Map, Value};
use std::io::{self, BufRead, Write};

use handbook::{Contents, Document};

const VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "handbook";
const SERVER_VERSION: &str = "1.0.0";

/// One line in, at most one reply out. Notifications (no id) never get a reply.
fn handle(line: &str) -> Option<Reply> {
    let Ok(message) = serde_json::from_str::<Value>(line) else {
        return Some(Reply::error(Value::Null, RpcError::new(-32700, "Parse error")));
    };
    let Value::Object(message) = message else {
        return Some(Reply::error(Value::Null, RpcError::new(-32600, "Invalid Request: not an object")));
    };
    let method = message.get("method").and_then(Value::as_str);
    let Some(id) = message.get("id") else {
        eprintln!("{SERVER_NAME}: notification {}, no reply", method.unwrap_or("?"));
        return None;
    };
    if !(id.is_string() || id.is_i64()) {
        return Some(Reply::error(Value::Null, RpcError::new(-32600, "Invalid Request: bad id")));
    }
    let id = id.clone();
    let Some(method) = method else {
        return Some(Reply::error(id, RpcError::new(-32600, "Invalid Request: no method")));
    };
    let answer: fn(&Map<String, Value>) -> Result<Body, RpcError> = match method {
        "server/discover" => |_| Ok(discover()),
        "resources/list" => handbook::list_resources,
        "resources/read" => handbook::read_resource,
        _ => return Some(Reply::error(id, RpcError::new(-32601, format!("Method not found: {method}")))),
    };
    let no_params = Map::new();
    let params = message.get("params").and_then(Value::as_object).unwrap_or(&no_params);
    Some(match check_meta(params).and_then(|()| answer(params)) {
        Ok(body) => Reply { jsonrpc: "2.0", id, outcome: Outcome::Result(Complete::new(body)) },
        Err(error) => Reply::error(id, error),
    })
}

/// The members of each kind of result. `untagged` writes a variant as its fields alone, in the
/// order they are declared here.
#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum Body {
    Discover {
        supported_versions: [&'static str; 1],
        capabilities: Capabilities,
        ttl_ms: u32,
        cache_scope: &'static str,
    },
    /// The paging and caching members come before the list, so a reader sees them first; the order
    /// of members in a JSON object carries no meaning.
    Resources {
        #[serde(skip_serializing_if = "Option::is_none")]
        next_cursor: Option<String>,
        ttl_ms: u32,
        cache_scope: &'static str,
        resources: &'static [Document],
    },
    Read {
        ttl_ms: u32,
        cache_scope: &'static str,
        contents: [Contents; 1],
    },
}

/// `{"resources":{}}`: the one feature this server declares.
#[derive(Serialize)]
struct Capabilities {
    resources: Map<String, Value>,
}

fn discover() -> Body {
    let capabilities = Capabilities { resources: Map::new() };
    Body::Discover { supported_versions: [VERSION], capabilities, ttl_ms: 3_600_000, cache_scope: "public" }
}

/// `params._meta` must name the protocol version and the client's capabilities, every time.
fn check_meta(params: &Map<String, Value>) -> Result<(), RpcError> {
    let Some(meta) = params.get("_meta").and_then(Value::as_object) else {
        return Err(RpcError::new(-32602, "Invalid params: params._meta is required"));
    };
    let Some(version) = meta.get("io.modelcontextprotocol/protocolVersion").and_then(Value::as_str) else {
        let why = "Invalid params: params._meta needs a string io.modelcontextprotocol/protocolVersion";
        return Err(RpcError::new(-32602, why));
    };
    if !meta.get("io.modelcontextprotocol/clientCapabilities").is_some_and(Value::is_object) {
        let why = "Invalid params: params._meta needs an object io.modelcontextprotocol/clientCapabilities";
        return Err(RpcError::new(-32602, why));
    }
    if version != VERSION {
        let data = ErrorData::Version { supported: [VERSION], requested: version.to_string() };
        return Err(RpcError { code: -32022, message: "Unsupported protocol version".into(), data: Some(data) });
    }
    Ok(())
}

/// One line of the wire: `{"jsonrpc","id"}` and then either `"result"` or `"error"`.
#[derive(Serialize)]
struct Reply {
    jsonrpc: &'static str,
    id: Value,
    #[serde(flatten)]
    outcome: Outcome,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Outcome {
    Result(Complete),
    Error(RpcError),
}

impl Reply {
    fn error(id: Value, error: RpcError) -> Reply {
        Reply { jsonrpc: "2.0", id, outcome: Outcome::Error(error) }
    }
}

/// A result: resultType first, then the body's members, and `_meta` with serverInfo where rmcp
/// writes it (pagination-rmcp shares this answer key): right after resultType in a list result,
/// last in the others.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Complete {
    result_type: &'static str,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    list_meta: Option<ResultMeta>,
    #[serde(flatten)]
    body: Body,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<ResultMeta>,
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

impl Complete {
    fn new(body: Body) -> Complete {
        let meta = Some(ResultMeta { server_info: ServerInfo { name: SERVER_NAME, version: SERVER_VERSION } });
        let (list_meta, meta) = match body {
            Body::Resources { .. } => (meta, None),
            _ => (None, meta),
        };
        Complete { result_type: "complete", list_meta, body, meta }
    }
}

#[derive(Serialize)]
struct RpcError {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<ErrorData>,
}

/// What an error's data says: the URI that was not found, or the versions on both sides.
#[derive(Serialize)]
#[serde(untagged)]
enum ErrorData {
    Resource { uri: String },
    Version { supported: [&'static str; 1], requested: String },
}

impl RpcError {
    fn new(code: i32, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into(), data: None }
    }
}

fn main() {
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        // Bytes that are not UTF-8 are refused whole, never patched with U+FFFD and acted on.
        let reply = match std::str::from_utf8(&line).map(str::trim) {
            Ok("") => continue, // a blank line is no message
            Ok(request) => handle(request),
            Err(_) => Some(Reply::error(Value::Null, RpcError::new(-32700, "Parse error"))),
        };
        let Some(reply) = reply else {
            continue; // a notification: nothing to send
        };
        let sent = serde_json::to_writer(&mut stdout, &reply).map_err(io::Error::from);
        if let Err(err) = sent.and_then(|()| writeln!(stdout)).and_then(|()| stdout.flush()) {
            eprintln!("{SERVER_NAME}: stdout closed ({err}), exiting");
            return;
        }
    }
    // EOF on stdin: the client has closed it, which is how a stdio server is told to stop.
}
