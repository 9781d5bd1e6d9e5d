//! EXAMPLE_NAME: a minimal MCP 2026-07-28 server on stdio, one tool (`echo`). Replace the tool with yours.
//! Its Python twin, where the folder has one, gives the same replies, byte for byte (one answer key).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

const SERVER_NAME: &str = "EXAMPLE_NAME";

/// What the server reads from each line; `params` stays open (`Value`) because its shape depends on the method.
#[derive(Deserialize)]
struct Request {
    id: Option<Value>, // no id (or null): a notification, never answered
    method: String,
    #[serde(default)]
    params: Value,
}

/// One reply line. The derive writes the fields in this order; `json!` objects sort their keys.
#[derive(Serialize)]
struct Reply {
    jsonrpc: &'static str,
    id: Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Value>,
}

impl Reply {
    fn to(id: Value, answer: Result<Value, Value>) -> Reply {
        match answer {
            Ok(result) => Reply { jsonrpc: "2.0", id, result: Some(result), error: None },
            Err(error) => Reply { jsonrpc: "2.0", id, result: None, error: Some(error) },
        }
    }
}

fn result(mut body: Value) -> Result<Value, Value> {
    body["resultType"] = json!("complete");
    body["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": SERVER_NAME, "version": "0.1.0"}});
    Ok(body)
}

fn echo(arguments: &Value) -> Result<Value, Value> {
    match arguments["text"].as_str() {
        Some(text) => result(json!({"content": [{"type": "text", "text": text}]})),
        // Arguments that fail the tool's schema are a tool execution error the model can read and fix.
        None => result(json!({"content": [{"type": "text", "text": "echo: arguments.text must be a string"}],
                              "isError": true})),
    }
}

fn handle(method: &str, params: &Value) -> Result<Value, Value> {
    match method {
        "server/discover" => result(json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                                           "ttlMs": 60000, "cacheScope": "public"})),
        "tools/list" => result(json!({"tools": [{
            "name": "echo",
            "description": "Return the given text unchanged.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                            "additionalProperties": false},
        }], "ttlMs": 60000, "cacheScope": "public"})),
        "tools/call" if params["name"] == "echo" => echo(&params["arguments"]),
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or("");
            Err(json!({"code": -32602, "message": format!("Unknown tool: {name}")}))
        }
        other => Err(json!({"code": -32601, "message": format!("Method not found: {other}")})),
    }
}

/// One line in, at most one reply out. A line serde_json refuses (a lone surrogate such as "\ud800" included) is
/// a parse error with id null.
fn reply_to(line: &str) -> Option<Reply> {
    match serde_json::from_str::<Request>(line) {
        Ok(Request { id: None, .. }) => None,
        Ok(Request { id: Some(id), method, params }) => {
            eprintln!("{SERVER_NAME}: answered {method}"); // logs go to stderr, never stdout
            Some(Reply::to(id, handle(&method, &params)))
        }
        Err(_) => Some(Reply::to(Value::Null, Err(json!({"code": -32700, "message": "Parse error"})))),
    }
}

fn main() {
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let Ok(line) = line else { break };
        // Bytes that are not UTF-8 are refused whole, never patched with U+FFFD and acted on.
        let reply = match std::str::from_utf8(&line).map(str::trim) {
            Ok("") => continue, // a blank line is no message
            Ok(text) => reply_to(text),
            Err(_) => Some(Reply::to(Value::Null, Err(json!({"code": -32700, "message": "Parse error"})))),
        };
        let Some(reply) = reply else { continue };
        let sent = serde_json::to_writer(&mut stdout, &reply).map_err(io::Error::from);
        // The client waits for this line: flush it. A write that fails means the client has gone.
        if let Err(err) = sent.and_then(|()| writeln!(stdout)).and_then(|()| stdout.flush()) {
            eprintln!("{SERVER_NAME}: stdout closed ({err}), exiting");
            return;
        }
    }
    // End of stdin: the client has closed it, which is how a stdio server is told to stop.
}
