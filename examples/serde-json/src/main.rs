// serde-json-server: the first page's MCP server (revision 2026-07-28, tools `add` and `shout`)
// rebuilt on serde_json. Same tools, same replies, same bytes on stdout for every well-formed
// request; the difference is that serde_json reads JSON, all of it, where the toy scanner of
// examples/first-server/main.rs only walked far enough to find a few values.
//
// It keeps the toy's serverInfo (name "first-server", version "0.1.0") on purpose: it is the same
// server, and keeping the name lets its answer keys be compared with the toy's byte for byte.

use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

// ANCHOR: reply
/// Results are Rust structs. `#[derive(Serialize)]` writes their fields in declaration order,
/// so the key order on the wire is the order below (a `serde_json::Map` would sort its keys).
#[derive(Serialize)]
struct Implementation {
    name: &'static str,
    version: &'static str,
}

const SERVER_INFO: Implementation = Implementation { name: "first-server", version: "0.1.0" };

#[derive(Serialize)]
struct ResultMeta {
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    server_info: Implementation,
}

/// `"resultType":"complete"`, a result's own members, then `_meta`, which every result carries.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WithMeta<R> {
    result_type: &'static str,
    #[serde(flatten)]
    body: R,
    #[serde(rename = "_meta")]
    meta: ResultMeta,
}

#[derive(Serialize)]
struct Success<R> {
    jsonrpc: &'static str,
    id: Value,
    result: WithMeta<R>,
}

#[derive(Serialize)]
struct Failure {
    jsonrpc: &'static str,
    id: Value,
    error: ErrorObject,
}

#[derive(Serialize)]
struct ErrorObject {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<VersionMismatch>,
}

/// The data of a -32022 error: what this server speaks and what the client asked for.
#[derive(Serialize)]
struct VersionMismatch {
    supported: [&'static str; 1],
    requested: String,
}

/// A success reply as one line of compact JSON.
fn result<R: Serialize>(id: Value, body: R) -> String {
    let result = WithMeta { result_type: "complete", body, meta: ResultMeta { server_info: SERVER_INFO } };
    let reply = Success { jsonrpc: "2.0", id, result };
    serde_json::to_string(&reply).expect("a reply always serialises")
}

/// An error reply as one line of compact JSON.
fn error(id: Value, code: i32, message: &str, data: Option<VersionMismatch>) -> String {
    let error = ErrorObject { code, message: message.to_string(), data };
    serde_json::to_string(&Failure { jsonrpc: "2.0", id, error }).expect("a reply always serialises")
}
// ANCHOR_END: reply

// ANCHOR: envelope
const VERSION: &str = "2026-07-28";
const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const LEGACY_HINT: &str = " (this server supports only protocol version 2026-07-28)";

/// Every request carries its own `params._meta`; the server never relies on an earlier request.
/// Fails with the error reply if this request's `_meta` will not do.
fn check_meta(id: &Value, params: Option<&Value>) -> Result<(), String> {
    let invalid = |why: &str| Err(error(id.clone(), -32602, &format!("Invalid params: {why}"), None));
    let Some(meta) = params.and_then(|p| p.get("_meta")).and_then(Value::as_object) else {
        return invalid("params._meta is required");
    };
    let Some(version) = meta.get(PROTOCOL_VERSION).and_then(Value::as_str) else {
        return invalid(&format!("params._meta needs a string {PROTOCOL_VERSION}"));
    };
    if !meta.get(CLIENT_CAPABILITIES).is_some_and(Value::is_object) {
        return invalid(&format!("params._meta needs an object {CLIENT_CAPABILITIES}"));
    }
    if version != VERSION {
        let data = VersionMismatch { supported: [VERSION], requested: version.to_string() };
        return Err(error(id.clone(), -32022, "Unsupported protocol version", Some(data)));
    }
    Ok(())
}
// ANCHOR_END: envelope

// ANCHOR: dispatch
/// One line in, at most one reply out. Notifications (no `id`) get no reply, ever.
fn handle(line: &str) -> Option<String> {
    // The whole line is parsed, or none of it: a cut-off line, trailing text after the object,
    // a bad escape or a lone surrogate is an error here, not something half-read.
    let message: Map<String, Value> = match serde_json::from_str(line) {
        Ok(Value::Object(message)) => message,
        Ok(_) => return Some(error(Value::Null, -32600, "Invalid Request: not an object", None)),
        Err(_) => return Some(error(Value::Null, -32700, "Parse error", None)),
    };
    let method = message.get("method").and_then(Value::as_str);
    let Some(raw_id) = message.get("id") else {
        // A notification such as notifications/cancelled. Each request here is answered before
        // the next line is read, so there is never anything left to cancel: log it and move on.
        eprintln!("serde-json-server: notification {}, no reply", method.unwrap_or("?"));
        return None;
    };
    let id = match raw_id {
        Value::String(_) => raw_id.clone(),
        Value::Number(n) if n.is_i64() => raw_id.clone(),
        _ => return Some(error(Value::Null, -32600, "Invalid Request: bad id", None)),
    };
    let Some(method) = method else {
        return Some(error(id, -32600, "Invalid Request: no method", None));
    };
    if !["server/discover", "tools/list", "tools/call"].contains(&method) {
        // A legacy client opens with `initialize`; tell it which version this server does speak.
        let hint = if method == "initialize" { LEGACY_HINT } else { "" };
        return Some(error(id, -32601, &format!("Method not found: {method}{hint}"), None));
    }
    let params = message.get("params");
    if let Err(reply) = check_meta(&id, params) {
        return Some(reply);
    }
    Some(match method {
        "server/discover" => result(id, discover()),
        "tools/list" => result(id, tools_list()),
        _ => call_tool(id, params.and_then(Value::as_object)),
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Discover {
    supported_versions: [&'static str; 1],
    capabilities: Capabilities,
    ttl_ms: u64,
    cache_scope: &'static str,
}

#[derive(Serialize)]
struct Capabilities {
    tools: Empty,
}

/// Serialises as `{}`.
#[derive(Serialize)]
struct Empty {}

fn discover() -> Discover {
    Discover {
        supported_versions: [VERSION],
        capabilities: Capabilities { tools: Empty {} },
        ttl_ms: 3_600_000,
        cache_scope: "public",
    }
}
// ANCHOR_END: dispatch

// ANCHOR: tools
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolsList {
    tools: Vec<Tool>,
    ttl_ms: u64,
    cache_scope: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: InputSchema,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InputSchema {
    #[serde(rename = "type")]
    kind: &'static str,
    properties: BTreeMap<&'static str, Property>, // a BTreeMap writes its keys sorted: "a", "b"
    required: Vec<&'static str>,
    additional_properties: bool,
}

#[derive(Serialize)]
struct Property {
    #[serde(rename = "type")]
    kind: &'static str,
    description: &'static str,
}

fn object_schema(properties: &[(&'static str, &'static str, &'static str)]) -> InputSchema {
    InputSchema {
        kind: "object",
        properties: properties
            .iter()
            .map(|&(name, kind, description)| (name, Property { kind, description }))
            .collect(),
        required: properties.iter().map(|&(name, _, _)| name).collect(),
        additional_properties: false,
    }
}

fn tools_list() -> ToolsList {
    let add = Tool {
        name: "add",
        title: "Add two integers",
        description: "Adds a and b. a, b and the sum must each fit in a 64-bit signed integer.",
        input_schema: object_schema(&[("a", "integer", "First addend"), ("b", "integer", "Second addend")]),
    };
    let shout = Tool {
        name: "shout",
        title: "Shout",
        description: "Returns the text in upper case. The text must not be empty.",
        input_schema: object_schema(&[("text", "string", "The text to upper-case")]),
    };
    ToolsList { tools: vec![add, shout], ttl_ms: 300_000, cache_scope: "public" }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallResult {
    content: Vec<TextContent>,
    is_error: bool,
}

#[derive(Serialize)]
struct TextContent {
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
}

/// tools/call. An unknown tool or a malformed call is a protocol error (JSON-RPC -32602);
/// a tool that ran and failed is a normal result with "isError":true, which the model can read.
fn call_tool(id: Value, params: Option<&Map<String, Value>>) -> String {
    let empty = Map::new();
    let params = params.unwrap_or(&empty);
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return error(id, -32602, "Invalid params: params.name must be a string", None);
    };
    let no_arguments = Value::Object(Map::new());
    let Some(args) = params.get("arguments").unwrap_or(&no_arguments).as_object() else {
        return error(id, -32602, "Invalid params: params.arguments must be an object", None);
    };
    let outcome = match name {
        "add" => add(args.get("a").and_then(Value::as_i64), args.get("b").and_then(Value::as_i64)),
        "shout" => shout(args.get("text").and_then(Value::as_str)),
        _ => return error(id, -32602, &format!("Unknown tool: {name}"), None),
    };
    let (text, is_error) = match outcome {
        Ok(text) => (text, false),
        Err(text) => (text, true),
    };
    let content = vec![TextContent { kind: "text", text }];
    result(id, CallResult { content, is_error })
}

fn add(a: Option<i64>, b: Option<i64>) -> Result<String, String> {
    let (Some(a), Some(b)) = (a, b) else {
        return Err("add needs two integers, a and b".to_string());
    };
    match a.checked_add(b) {
        Some(sum) => Ok(format!("{a} + {b} = {sum}")),
        None => Err(format!("{a} + {b} overflows: the sum must fit in a 64-bit signed integer")),
    }
}

fn shout(text: Option<&str>) -> Result<String, String> {
    match text {
        Some(text) if !text.is_empty() => Ok(text.to_uppercase()),
        Some(_) => Err("Nothing to shout: text is empty".to_string()),
        None => Err("shout needs a string argument, text".to_string()),
    }
}
// ANCHOR_END: tools

// ANCHOR: read-loop
fn main() {
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        let reply = match std::str::from_utf8(&line) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => handle(text.trim()),
            Err(_) => Some(error(Value::Null, -32700, "Parse error: not UTF-8", None)),
        };
        if let Some(reply) = reply {
            if let Err(err) = writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
                eprintln!("serde-json-server: stdout closed ({err}), exiting");
                return;
            }
        }
    }
    // stdin reached EOF: the client closed it, which is how a stdio server is told to stop.
}
// ANCHOR_END: read-loop
