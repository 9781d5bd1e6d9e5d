// println-trap: a small MCP server (revision 2026-07-28) over stdio that makes, on purpose, the
// classic mistake of a hand-written stdio server: one debug `println!` while it handles a request.
// On stdio, stdout is the wire. That debug line reaches the client as a line that is not a
// JSON-RPC message, which the spec forbids and no client can parse. The fix is `eprintln!`,
// which writes to stderr, the channel the spec leaves to the server for log text.
//
// Otherwise it is a trimmed first-server with one tool, `shout`. Its JSON handling is the same
// TOY scanner: it does not parse JSON in general, it only finds the few values the server needs.
// The site's serde_json page shows the real thing.

use std::io::{self, BufRead, Write};

// ANCHOR: parse
/// `s` without leading JSON whitespace.
fn ws(s: &str) -> &str {
    s.trim_start_matches([' ', '\t', '\r', '\n'])
}

/// Length of the JSON value at the start of `s` (a string, an object or array, or a bare word).
fn value_len(s: &str) -> usize {
    let (mut depth, mut in_string, mut escaped) = (0, false, false);
    for (i, c) in s.bytes().enumerate() {
        match c {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth > 0 => depth -= 1,
            b',' | b'}' | b']' if depth == 0 => return i, // the end of a bare word
            _ => {}
        }
        if depth == 0 && !in_string && matches!(c, b'"' | b'}' | b']') {
            return i + 1; // the end of a string, object or array
        }
    }
    s.len()
}

/// The raw text of member `key` of the JSON object `obj`, looking at its top level only.
fn field<'a>(obj: &'a str, key: &str) -> Option<&'a str> {
    let mut rest = ws(obj).strip_prefix('{')?;
    loop {
        rest = ws(rest);
        let (name, after) = rest.split_at(value_len(rest));
        let value = ws(ws(after).strip_prefix(':')?);
        let (value, after) = value.split_at(value_len(value));
        if string(name)? == key {
            return Some(value.trim_end());
        }
        rest = ws(after).strip_prefix(',')?;
    }
}

/// The text of a JSON string literal, escapes decoded (`\u` one escape at a time).
fn string(raw: &str) -> Option<String> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    let (mut out, mut chars) = (String::new(), inner.chars());
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next()? {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            'b' => '\u{8}', // backspace
            'f' => '\u{c}', // form feed
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                char::from_u32(u32::from_str_radix(&hex, 16).ok()?).unwrap_or('\u{fffd}')
            }
            other => other, // \" \\ \/
        });
    }
    Some(out)
}
// ANCHOR_END: parse

// ANCHOR: reply
/// `s` as a JSON string literal, escaped exactly as Python's json.dumps(ensure_ascii=False) does.
fn quote(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn result(id: &str, body: &str) -> String {
    let info = r#"{"name":"println-trap","version":"0.1.0"}"#;
    let meta = format!(r#""_meta":{{"io.modelcontextprotocol/serverInfo":{info}}}"#);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{{body},{meta}}}}}"#)
}

fn error(id: &str, code: i32, message: &str, data: Option<&str>) -> String {
    let data = data.map(|d| format!(r#","data":{d}"#)).unwrap_or_default();
    let message = quote(message);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{message}{data}}}}}"#)
}
// ANCHOR_END: reply

// ANCHOR: envelope
/// Every request carries its own `params._meta`; returns the error reply if it will not do.
fn check_meta(id: &str, params: Option<&str>) -> Option<String> {
    let meta = params.and_then(|p| field(p, "_meta")).filter(|m| m.starts_with('{'));
    let version = meta.and_then(|m| field(m, "io.modelcontextprotocol/protocolVersion"));
    let caps = meta.and_then(|m| field(m, "io.modelcontextprotocol/clientCapabilities"));
    let (Some(version), Some(true)) = (version.and_then(string), caps.map(|c| c.starts_with('{')))
    else {
        return Some(error(id, -32602, "Invalid params: params._meta is incomplete", None));
    };
    if version != "2026-07-28" {
        let data = format!(r#"{{"supported":["2026-07-28"],"requested":{}}}"#, quote(&version));
        return Some(error(id, -32022, "Unsupported protocol version", Some(&data)));
    }
    None
}
// ANCHOR_END: envelope

// ANCHOR: the-mistake
fn handle(line: &str) -> Option<String> {
    if !line.starts_with('{') {
        return Some(error("null", -32700, "Parse error", None));
    }
    let method = field(line, "method").and_then(string)?;
    let raw_id = field(line, "id")?; // no id: a notification, which gets no reply
    let id = string(raw_id).map(|text| quote(&text)).unwrap_or(raw_id.to_string());
    if !["server/discover", "tools/list", "tools/call"].contains(&method.as_str()) {
        return Some(error(&id, -32601, &format!("Method not found: {method}"), None));
    }
    let params = field(line, "params");
    if let Some(reply) = check_meta(&id, params) {
        return Some(reply);
    }
    Some(match method.as_str() {
        "server/discover" => result(&id, DISCOVER),
        "tools/list" => result(&id, TOOLS),
        _ => {
            // THE MISTAKE: a debug line on stdout, which is the wire. The client expects a
            // JSON-RPC message on every line and cannot parse this one; some clients log an error
            // and read on, others give up on the server. `eprintln!` would have used stderr.
            println!("got request {method} id={id}");
            call_tool(&id, params.unwrap_or("{}"))
        }
    })
}
// ANCHOR_END: the-mistake

// ANCHOR: tools
const DISCOVER: &str = concat!(
    r#""resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"#,
    r#""ttlMs":3600000,"cacheScope":"public""#
);

const TOOLS: &str = concat!(
    r#""resultType":"complete","tools":[{"name":"shout","title":"Shout","#,
    r#""description":"Returns the text in upper case. The text must not be empty.","#,
    r#""inputSchema":{"type":"object","properties":{"#,
    r#""text":{"type":"string","description":"The text to upper-case"}},"#,
    r#""required":["text"],"additionalProperties":false}}],"ttlMs":300000,"cacheScope":"public""#
);

fn call_tool(id: &str, params: &str) -> String {
    let name = field(params, "name").and_then(string).unwrap_or_default();
    if name != "shout" {
        return error(id, -32602, &format!("Unknown tool: {name}"), None);
    }
    let text = field(params, "arguments").and_then(|a| field(a, "text")).and_then(string);
    let (text, is_error) = match text {
        Some(text) if !text.is_empty() => (text.to_uppercase(), false),
        _ => ("shout needs a non-empty string argument, text".to_string(), true),
    };
    let content = format!(r#"[{{"type":"text","text":{}}}]"#, quote(&text));
    result(id, &format!(r#""resultType":"complete","content":{content},"isError":{is_error}"#))
}
// ANCHOR_END: tools

// ANCHOR: read-loop
fn main() {
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let line = line.expect("cannot read stdin (or it is not UTF-8)");
        if let Some(reply) = handle(ws(&line)) {
            let mut stdout = io::stdout().lock();
            writeln!(stdout, "{reply}").expect("cannot write stdout");
            stdout.flush().expect("cannot flush stdout");
        }
    }
}
// ANCHOR_END: read-loop
