//! EXAMPLE_NAME: a minimal MCP 2026-07-28 server on stdio, one tool (`echo`). Replace the tool with yours.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::io::{self, BufRead, Write};

/// What the server reads from each line; `params` stays open (`Value`) because its shape depends on the method.
#[derive(Deserialize)]
struct Request {
    id: Option<Value>, // no id: a notification, never answered
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

#[derive(Deserialize)]
struct EchoArguments {
    text: String,
}

fn result(mut body: Value) -> Result<Value, Value> {
    body["resultType"] = json!("complete");
    body["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": "EXAMPLE_NAME", "version": "0.1.0"}});
    Ok(body)
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
        "tools/call" if params["name"] == "echo" => {
            match EchoArguments::deserialize(&params["arguments"]) {
                Ok(args) => result(json!({"content": [{"type": "text", "text": args.text}]})),
                // Arguments that fail the tool's schema are a tool execution error the model can read and fix.
                Err(why) => result(json!({"content": [{"type": "text", "text": format!("echo: {why}")}],
                                          "isError": true})),
            }
        }
        "tools/call" => {
            let name = params["name"].as_str().unwrap_or("");
            Err(json!({"code": -32602, "message": format!("Unknown tool: {name}")}))
        }
        other => Err(json!({"code": -32601, "message": format!("Method not found: {other}")})),
    }
}

fn main() -> io::Result<()> {
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().lines() {
        let line = line?;
        let reply = match serde_json::from_str::<Request>(&line) {
            Ok(Request { id: None, .. }) => continue,
            Ok(Request { id: Some(id), method, params }) => {
                eprintln!("answered {method}"); // logs go to stderr, never stdout
                match handle(&method, &params) {
                    Ok(result) => Reply { jsonrpc: "2.0", id, result: Some(result), error: None },
                    Err(error) => Reply { jsonrpc: "2.0", id, result: None, error: Some(error) },
                }
            }
            Err(_) => Reply { jsonrpc: "2.0", id: Value::Null, result: None,
                              error: Some(json!({"code": -32700, "message": "Parse error"})) },
        };
        writeln!(stdout, "{}", serde_json::to_string(&reply)?)?;
        stdout.flush()?; // the client waits for this line
    }
    Ok(())
}
