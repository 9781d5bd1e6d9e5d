//! println-trap: a small MCP server (revision 2026-07-28) over stdio that makes, on purpose, the
//! classic mistake of a hand-written stdio server: one debug `println!` while it handles a request.
//! On stdio, stdout is the wire. That debug line reaches the client as a line that is not a
//! JSON-RPC message, which the spec forbids and no client can parse. The fix is `eprintln!`,
//! which writes to stderr, the channel the spec leaves to the server for log text.
//!
//! Otherwise it is a trimmed first server with one tool, `shout`, reading and writing its JSON
//! with serde_json. It trims error handling too: a message without a method or an id gets no reply,
//! and JSON that is not an object gets -32600 Invalid Request without a closer look.

use serde::Serialize;
use serde_json::{json, Map, Value};
use std::io::{self, BufRead, Write};

const PROTOCOL_VERSION: &str = "2026-07-28";

// ANCHOR: reply
#[derive(Serialize)]
struct Response {
    jsonrpc: &'static str,
    id: Value,
    #[serde(flatten)]
    body: Body,
}

/// Written as `"result": {...}` or `"error": {...}`.
#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Body {
    Result(Answer),
    Error(ErrorObject),
}

#[derive(Serialize)]
struct ErrorObject {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Unsupported>,
}

/// The data of -32022: the versions on offer and the one asked for.
#[derive(Serialize)]
struct Unsupported {
    supported: [&'static str; 1],
    requested: String,
}

/// The three results this server gives, each with its keys in wire order and `_meta` last.
#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum Answer {
    Discover {
        result_type: &'static str,
        supported_versions: [&'static str; 1],
        capabilities: Value,
        ttl_ms: u32,
        cache_scope: &'static str,
        #[serde(rename = "_meta")]
        meta: Value,
    },
    Tools {
        result_type: &'static str,
        tools: [ShoutTool; 1],
        ttl_ms: u32,
        cache_scope: &'static str,
        #[serde(rename = "_meta")]
        meta: Value,
    },
    Call {
        result_type: &'static str,
        content: [Text; 1],
        is_error: bool,
        #[serde(rename = "_meta")]
        meta: Value,
    },
}

fn server_info() -> Value {
    json!({"io.modelcontextprotocol/serverInfo": {"name": "println-trap", "version": "0.1.0"}})
}

fn reply(id: Value, body: Body) -> String {
    serde_json::to_string(&Response { jsonrpc: "2.0", id, body }).expect("a response always serialises")
}

fn error(id: Value, code: i32, message: impl Into<String>) -> String {
    reply(id, Body::Error(ErrorObject { code, message: message.into(), data: None }))
}
// ANCHOR_END: reply

// ANCHOR: envelope
/// Every request carries its own `params._meta`; says what is wrong with it, if anything.
fn check_meta(params: &Map<String, Value>) -> Result<(), ErrorObject> {
    let meta = params.get("_meta").and_then(Value::as_object);
    let version = meta.and_then(|m| m.get("io.modelcontextprotocol/protocolVersion")).and_then(Value::as_str);
    let caps = meta.and_then(|m| m.get("io.modelcontextprotocol/clientCapabilities"));
    let (Some(version), Some(_)) = (version, caps.and_then(Value::as_object)) else {
        let message = "Invalid params: params._meta is incomplete".to_string();
        return Err(ErrorObject { code: -32602, message, data: None });
    };
    if version != PROTOCOL_VERSION {
        let data = Unsupported { supported: [PROTOCOL_VERSION], requested: version.to_string() };
        let message = "Unsupported protocol version".to_string();
        return Err(ErrorObject { code: -32022, message, data: Some(data) });
    }
    Ok(())
}
// ANCHOR_END: envelope

// ANCHOR: the-mistake
fn handle(message: &Map<String, Value>) -> Option<String> {
    let method = message.get("method")?.as_str()?;
    let id = message.get("id")?.clone(); // no id: a notification, which gets no reply
    if !["server/discover", "tools/list", "tools/call"].contains(&method) {
        return Some(error(id, -32601, format!("Method not found: {method}")));
    }
    let no_params = Map::new();
    let params = message.get("params").and_then(Value::as_object).unwrap_or(&no_params);
    if let Err(error) = check_meta(params) {
        return Some(reply(id, Body::Error(error)));
    }
    Some(match method {
        "server/discover" => reply(id, Body::Result(discover())),
        "tools/list" => reply(id, Body::Result(tools())),
        "tools/call" => {
            // THE MISTAKE: a debug line on stdout, which is the wire. The client expects a
            // JSON-RPC message on every line and cannot parse this one; some clients log an error
            // and read on, others give up on the server. `eprintln!` would have used stderr.
            println!("got request {method} id={id}");
            call_tool(id, params)
        }
        _ => unreachable!("checked above"),
    })
}
// ANCHOR_END: the-mistake

// ANCHOR: tools
fn discover() -> Answer {
    Answer::Discover {
        result_type: "complete",
        supported_versions: [PROTOCOL_VERSION],
        capabilities: json!({"tools": {}}),
        ttl_ms: 3_600_000,
        cache_scope: "public",
        meta: server_info(),
    }
}

// The tool definition, from the inside out: a property, the schema that holds it, the tool.
#[derive(Serialize)]
struct Property {
    r#type: &'static str,
    description: &'static str,
}

#[derive(Serialize)]
struct ShoutProperties {
    text: Property,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShoutSchema {
    r#type: &'static str,
    properties: ShoutProperties,
    required: [&'static str; 1],
    additional_properties: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShoutTool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: ShoutSchema,
}

#[derive(Serialize)]
struct Text {
    r#type: &'static str,
    text: String,
}

fn tools() -> Answer {
    let text = Property { r#type: "string", description: "The text to upper-case" };
    let shout = ShoutTool {
        name: "shout",
        title: "Shout",
        description: "Returns the text in upper case. The text must not be empty.",
        input_schema: ShoutSchema {
            r#type: "object",
            properties: ShoutProperties { text },
            required: ["text"],
            additional_properties: false,
        },
    };
    let meta = server_info();
    Answer::Tools { result_type: "complete", tools: [shout], ttl_ms: 300_000, cache_scope: "public", meta }
}

fn call_tool(id: Value, params: &Map<String, Value>) -> String {
    let name = params.get("name").and_then(Value::as_str).unwrap_or_default();
    if name != "shout" {
        return error(id, -32602, format!("Unknown tool: {name}"));
    }
    let text = params.get("arguments").and_then(|args| args.get("text")).and_then(Value::as_str);
    let (text, is_error) = match text {
        Some(text) if !text.is_empty() => (text.to_uppercase(), false),
        _ => ("shout needs a non-empty string argument, text".to_string(), true),
    };
    let content = [Text { r#type: "text", text }];
    reply(id, Body::Result(Answer::Call { result_type: "complete", content, is_error, meta: server_info() }))
}
// ANCHOR_END: tools

// ANCHOR: read-loop
fn main() {
    for line in io::stdin().lock().lines() {
        let line = line.expect("cannot read stdin (or it is not UTF-8)");
        let reply = match serde_json::from_str(&line) {
            Ok(Value::Object(message)) => handle(&message),
            Ok(_) => Some(error(Value::Null, -32600, "Invalid Request")),
            Err(_) => Some(error(Value::Null, -32700, "Parse error")),
        };
        if let Some(reply) = reply {
            // The reply goes through the same stdout as println!, so the two stay in order.
            let mut stdout = io::stdout().lock();
            if let Err(err) = writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
                eprintln!("println-trap: stdout closed ({err}), exiting");
                return;
            }
        }
    }
}
// ANCHOR_END: read-loop
