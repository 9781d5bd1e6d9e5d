//! EXAMPLE_NAME: a minimal MCP 2026-07-28 server on stdio, one tool (`echo`). Replace the tool with yours.
//!
//! std only, so JSON is handled by a toy: `field` finds `"key":` and reads the value after it. It is good enough
//! for the transcript beside this file and nothing more; use serde_json in a real server.

use std::io::{self, BufRead, Write};

const META: &str = r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"EXAMPLE_NAME","version":"0.1.0"}}"#;

/// The raw JSON text of the first value after `"key":` (a string keeps its quotes), or None.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = &line[start..];
    let end = if rest.starts_with('"') {
        let mut escaped = false;
        rest.char_indices()
            .skip(1)
            .find(|&(_, c)| {
                let close = c == '"' && !escaped;
                escaped = c == '\\' && !escaped;
                close
            })
            .map(|(i, _)| i + 1)?
    } else {
        rest.find(|c| c == ',' || c == '}').unwrap_or(rest.len())
    };
    Some(&rest[..end])
}

/// The text after the `_meta` object, so that `field` does not find keys of clientInfo (which has a "name" too).
fn after_meta(line: &str) -> &str {
    let Some(start) = line.find("\"_meta\":{") else { return line };
    let (mut depth, mut in_string, mut escaped) = (0, false, false);
    for (i, c) in line[start + 8..].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '{' if !in_string => depth += 1,
            '}' if !in_string => {
                depth -= 1;
                if depth == 0 {
                    return &line[start + 8 + i + 1..];
                }
            }
            _ => {}
        }
    }
    line
}

fn handle(line: &str) -> Option<String> {
    let id = field(line, "id")?; // no id: a notification, never answered
    let method = field(line, "method").unwrap_or("\"\"");
    let body = match method {
        "\"server/discover\"" => format!(
            r#""result":{{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{{"tools":{{}}}},"ttlMs":60000,"cacheScope":"public",{META}}}"#
        ),
        "\"tools/list\"" => format!(
            r#""result":{{"resultType":"complete","tools":[{{"name":"echo","description":"Return the given text unchanged.","inputSchema":{{"type":"object","properties":{{"text":{{"type":"string"}}}},"required":["text"],"additionalProperties":false}}}}],"ttlMs":60000,"cacheScope":"public",{META}}}"#
        ),
        "\"tools/call\"" if field(after_meta(line), "name") == Some("\"echo\"") => {
            let text = field(after_meta(line), "text").unwrap_or("\"\"");
            format!(r#""result":{{"resultType":"complete","content":[{{"type":"text","text":{text}}}],{META}}}"#)
        }
        "\"tools/call\"" => {
            let name = field(after_meta(line), "name").unwrap_or("\"\"").trim_matches('"');
            format!(r#""error":{{"code":-32602,"message":"Unknown tool: {name}"}}"#)
        }
        other => format!(r#""error":{{"code":-32601,"message":"Method not found: {}"}}"#, other.trim_matches('"')),
    };
    eprintln!("answered {method}"); // logs go to stderr, never stdout
    Some(format!(r#"{{"jsonrpc":"2.0","id":{id},{body}}}"#))
}

fn main() {
    let stdout = io::stdout();
    for line in io::stdin().lock().lines() {
        // A line that is not UTF-8 ends the toy; a real server answers it with -32700 (see serde-json).
        let Ok(line) = line else { break };
        let Some(reply) = handle(&line) else { continue };
        let mut out = stdout.lock();
        // The client waits for this line: flush it. A write that fails means the client has gone.
        if let Err(err) = writeln!(out, "{reply}").and_then(|()| out.flush()) {
            eprintln!("EXAMPLE_NAME: stdout closed ({err}), exiting");
            return;
        }
    }
}
