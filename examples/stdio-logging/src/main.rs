//! wordcount: a small MCP server (revision 2026-07-28) over stdio, on serde_json.
//!
//! It talks a lot, and all of it goes to stderr: a line when it starts, one
//! for every message it reads, one for every reply it writes, one when it
//! stops. stdout carries JSON-RPC messages and nothing else, one per line.

use serde::Serialize;
use serde_json::Value;
use std::io::{self, BufRead, Write};

const PROTOCOL_VERSION: &str = "2026-07-28";
const SERVER_VERSION: &str = "1.0.0";

// ANCHOR: main
fn main() {
    eprintln!("wordcount: {SERVER_VERSION} started, reading stdin");
    let mut stdin = io::stdin().lock();
    let mut stdout = io::stdout().lock();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        // Framing: one message is everything up to the next b'\n'.
        match stdin.read_until(b'\n', &mut raw) {
            Ok(0) => break, // end of file: the client closed our stdin
            Ok(_) => {}
            Err(err) => {
                eprintln!("wordcount: cannot read stdin: {err}");
                break;
            }
        }
        let line = raw.strip_suffix(b"\n").unwrap_or(&raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let reply = match std::str::from_utf8(line) {
            Ok(line) => handle(line),
            Err(_) => Some(Reply::error(Value::Null, Failure::new(-32700, "Parse error: the line is not valid UTF-8"))),
        };
        if let Some(reply) = reply {
            // to_string writes compact JSON (to_string_pretty would not): no newline inside.
            let text = serde_json::to_string(&reply).expect("a reply always serialises");
            // flush: the client is waiting for this line. An error means the client has gone.
            if let Err(err) = writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
                eprintln!("wordcount: stdout closed ({err}), exiting");
                return;
            }
            eprintln!("wordcount: wrote {} bytes to stdout", text.len() + 1);
        }
    }
    eprintln!("wordcount: stdin closed, exiting with status 0");
}
// ANCHOR_END: main

fn handle(line: &str) -> Option<Reply> {
    let msg: Value = match serde_json::from_str(line) {
        Ok(msg) => msg,
        Err(why) => {
            eprintln!("wordcount: not JSON ({why}); answering -32700 with id null");
            return Some(Reply::error(Value::Null, Failure::new(-32700, "Parse error: the line is not valid JSON")));
        }
    };
    let id = msg.get("id");
    let method = match (msg["method"].as_str(), msg["jsonrpc"].as_str()) {
        (Some(method), Some("2.0")) if id.is_none_or(is_id) => method,
        // Not a JSON-RPC 2.0 request or notification: -32600, with the id if it can be read.
        _ => {
            let id = id.filter(|id| is_id(id)).cloned().unwrap_or(Value::Null);
            let failure = Failure::new(-32600, "Invalid Request: not a JSON-RPC 2.0 request or notification");
            return Some(Reply::error(id, failure));
        }
    };
    let Some(id) = id.cloned() else {
        notification(method, msg.get("params"));
        return None;
    };
    eprintln!("wordcount: read request {method} id={id}");
    let params = msg.get("params").unwrap_or(&Value::Null);
    let outcome = check_meta(params).and_then(|()| match method {
        "server/discover" => Ok(Answer::Discover(discover())),
        "tools/list" => Ok(Answer::Tools(list_tools())),
        "tools/call" => call_tool(params),
        _ => Err(Failure::new(-32601, format!("Method not found: {method}"))),
    });
    Some(match outcome {
        Ok(answer) => Reply::result(id, answer),
        Err(failure) => Reply::error(id, failure),
    })
}

/// The envelope every request carries in `params._meta`, checked on every request.
fn check_meta(params: &Value) -> Result<(), Failure> {
    let meta = &params["_meta"];
    if !meta.is_object() {
        return Err(Failure::new(-32602, "Invalid params: params._meta is missing"));
    }
    let Some(version) = meta["io.modelcontextprotocol/protocolVersion"].as_str() else {
        let message = "Invalid params: params._meta has no io.modelcontextprotocol/protocolVersion";
        return Err(Failure::new(-32602, message));
    };
    if !meta["io.modelcontextprotocol/clientCapabilities"].is_object() {
        let message = "Invalid params: params._meta has no io.modelcontextprotocol/clientCapabilities";
        return Err(Failure::new(-32602, message));
    }
    if version != PROTOCOL_VERSION {
        let data = VersionData { supported: [PROTOCOL_VERSION], requested: version.to_string() };
        return Err(Failure { data: Some(data), ..Failure::new(-32022, "Unsupported protocol version") });
    }
    Ok(())
}

// ANCHOR: notification
/// Notifications never get a reply, not even an error.
fn notification(method: &str, params: Option<&Value>) {
    if method != "notifications/cancelled" {
        eprintln!("wordcount: read notification {method}; ignoring it");
        return;
    }
    let target = params.and_then(|p| p.get("requestId")).map_or_else(|| "?".to_string(), Value::to_string);
    let reason = params.and_then(|p| p.get("reason")).and_then(Value::as_str).unwrap_or("none given");
    // This server answers each request before it reads the next line, so by the
    // time a cancellation is read the request it names is finished (or was never
    // sent). Either way there is nothing to stop, and nothing more to send.
    eprintln!("wordcount: read notifications/cancelled for id={target} (reason: {reason}); not in flight, ignoring");
}
// ANCHOR_END: notification

fn call_tool(params: &Value) -> Result<Answer, Failure> {
    match params["name"].as_str() {
        Some("count_words") => {}
        Some(name) => return Err(Failure::new(-32602, format!("Unknown tool: {name}"))),
        None => return Err(Failure::new(-32602, "Invalid params: tools/call needs a tool name")),
    }
    let no_arguments = serde_json::Map::new();
    let args = match params.get("arguments") {
        None => &no_arguments,
        Some(Value::Object(args)) => args,
        Some(_) => return Err(Failure::new(-32602, "Invalid params: params.arguments must be an object")),
    };
    // Arguments that do not fit the inputSchema are a tool execution error: a result with
    // isError true, which the model reads and can fix on its next call.
    let why = match (args.get("text"), args.keys().find(|key| *key != "text")) {
        (Some(Value::String(text)), None) => return Ok(Answer::Call(CallResult::ok(count(text)))),
        (Some(Value::String(_)), Some(extra)) => format!("unexpected property '{extra}'"),
        (Some(_), _) => "property 'text' must be a string".to_string(),
        (None, _) => "missing required property 'text'".to_string(),
    };
    let text = format!("Invalid arguments for tool count_words: {why}. It takes one argument, text, a string.");
    Ok(Answer::Call(CallResult::error(text)))
}

fn count(text: &str) -> String {
    let newlines = text.matches('\n').count();
    let lines = if text.is_empty() || text.ends_with('\n') { newlines } else { newlines + 1 };
    let words = text.split_whitespace().count();
    let chars = text.chars().count();
    // The reply text holds newlines; serde_json escapes them as \n, so the
    // message still fits on one line of stdout.
    format!("lines: {lines}\nwords: {words}\ncharacters: {chars}")
}

/// A JSON-RPC id this server accepts: a string or an integer.
fn is_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// One line of stdout. Untagged: each variant is written as its fields, `result` or `error`.
#[derive(Serialize)]
#[serde(untagged)]
enum Reply {
    Success { jsonrpc: &'static str, id: Value, result: Success },
    Error { jsonrpc: &'static str, id: Value, error: Failure },
}

impl Reply {
    fn result(id: Value, answer: Answer) -> Self {
        let server_info = ServerInfo { name: "wordcount", version: SERVER_VERSION };
        let result = Success { result_type: "complete", answer, meta: Meta { server_info } };
        Reply::Success { jsonrpc: "2.0", id, result }
    }

    fn error(id: Value, error: Failure) -> Self {
        Reply::Error { jsonrpc: "2.0", id, error }
    }
}

/// Every result here starts with `resultType` and ends with the `_meta` that names the server.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Success {
    result_type: &'static str,
    #[serde(flatten)]
    answer: Answer,
    #[serde(rename = "_meta")]
    meta: Meta,
}

#[derive(Serialize)]
struct Meta {
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    server_info: ServerInfo,
}

#[derive(Serialize)]
struct ServerInfo {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Failure {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<VersionData>,
}

impl Failure {
    fn new(code: i32, message: impl Into<String>) -> Self {
        Failure { code, message: message.into(), data: None }
    }
}

/// The data of -32022.
#[derive(Serialize)]
struct VersionData {
    supported: [&'static str; 1],
    requested: String,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Discover(Discover),
    Tools(ToolsList),
    Call(CallResult),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Discover {
    supported_versions: [&'static str; 1],
    capabilities: DeclaredCapabilities,
    ttl_ms: u32,
    cache_scope: &'static str,
}

#[derive(Serialize)]
struct DeclaredCapabilities {
    tools: Empty,
}

/// Written as `{}`.
#[derive(Serialize)]
struct Empty {}

fn discover() -> Discover {
    let capabilities = DeclaredCapabilities { tools: Empty {} };
    Discover { supported_versions: [PROTOCOL_VERSION], capabilities, ttl_ms: 60_000, cache_scope: "public" }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolsList {
    tools: [ToolDefinition; 1],
    ttl_ms: u32,
    cache_scope: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolDefinition {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: TextSchema,
}

/// `{"type":"object","properties":{"text":...},"required":["text"],"additionalProperties":false}`
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TextSchema {
    #[serde(rename = "type")]
    schema_type: &'static str,
    properties: TextProperty,
    required: [&'static str; 1],
    additional_properties: bool,
}

#[derive(Serialize)]
struct TextProperty {
    text: StringProperty,
}

#[derive(Serialize)]
struct StringProperty {
    #[serde(rename = "type")]
    schema_type: &'static str,
    description: &'static str,
}

fn list_tools() -> ToolsList {
    let text = StringProperty { schema_type: "string", description: "The text to count." };
    let count_words = ToolDefinition {
        name: "count_words",
        title: "Count words",
        description: "Counts the lines, words and characters (Unicode code points) in a text.",
        input_schema: TextSchema {
            schema_type: "object",
            properties: TextProperty { text },
            required: ["text"],
            additional_properties: false,
        },
    };
    ToolsList { tools: [count_words], ttl_ms: 60_000, cache_scope: "public" }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallResult {
    content: [TextBlock; 1],
    is_error: bool,
}

#[derive(Serialize)]
struct TextBlock {
    #[serde(rename = "type")]
    block_type: &'static str,
    text: String,
}

impl CallResult {
    fn ok(text: String) -> Self {
        CallResult { content: [TextBlock { block_type: "text", text }], is_error: false }
    }

    fn error(text: String) -> Self {
        CallResult { is_error: true, ..CallResult::ok(text) }
    }
}
