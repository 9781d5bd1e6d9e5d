// first-server: a whole MCP server (revision 2026-07-28) over stdio, std only, no crates.
//
// It reads one JSON-RPC message per line on stdin and writes one reply per line on stdout.
// stdout is the wire, so it carries replies and nothing else; diagnostics go to stderr.
//
// THIS IS A TOY. The functions in the `parse` region do not parse JSON in general: they walk
// just far enough into a line to find the few values this server needs (`id`, `method`, the keys
// of `params._meta`, `params.name`, `params.arguments.*`). They do not reject malformed JSON, they
// take the first of two duplicate keys, they decode `\u` escapes only one at a time (so a
// surrogate pair becomes two U+FFFD), and they read numbers only as 64-bit integers.
// The site's serde_json page rebuilds this server on serde_json: that is the real thing.

use std::io::{self, BufRead, Write};

// ANCHOR: parse
/// `s` without leading JSON whitespace.
fn ws(s: &str) -> &str {
    s.trim_start_matches([' ', '\t', '\r', '\n'])
}

/// Length of the JSON value at the start of `s`: a whole string, a whole object or array
/// (brackets counted, strings skipped), or a bare word such as `42` or `true`.
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

/// The text of a JSON string literal such as `"a\"b"`, escapes decoded.
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

/// A JSON number that is a 64-bit signed integer.
fn int(raw: &str) -> Option<i64> {
    raw.parse().ok()
}

/// Is the raw value a JSON object?
fn is_object(raw: &str) -> bool {
    raw.starts_with('{')
}
// ANCHOR_END: parse

// ANCHOR: reply
const SERVER_INFO: &str = r#"{"name":"first-server","version":"0.1.0"}"#;

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

/// A success reply: `body` is the result's members; serverInfo goes in every result's `_meta`.
fn result(id: &str, body: &str) -> String {
    let meta = format!(r#""_meta":{{"io.modelcontextprotocol/serverInfo":{SERVER_INFO}}}"#);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{{body},{meta}}}}}"#)
}

/// An error reply; `data`, if given, is raw JSON.
fn error(id: &str, code: i32, message: &str, data: Option<&str>) -> String {
    let data = data.map(|d| format!(r#","data":{d}"#)).unwrap_or_default();
    let message = quote(message);
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":{message}{data}}}}}"#)
}
// ANCHOR_END: reply

// ANCHOR: envelope
const VERSION: &str = "2026-07-28";
const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const LEGACY_HINT: &str = " (this server supports only protocol version 2026-07-28)";

/// Every request carries its own `params._meta`; the server never relies on an earlier request.
/// Returns the error reply if this request's `_meta` will not do.
fn check_meta(id: &str, params: Option<&str>) -> Option<String> {
    let invalid = |why: &str| Some(error(id, -32602, &format!("Invalid params: {why}"), None));
    let Some(meta) = params.and_then(|p| field(p, "_meta")).filter(|m| is_object(m)) else {
        return invalid("params._meta is required");
    };
    let Some(version) = field(meta, PROTOCOL_VERSION).and_then(string) else {
        return invalid(&format!("params._meta needs a string {PROTOCOL_VERSION}"));
    };
    if !field(meta, CLIENT_CAPABILITIES).is_some_and(is_object) {
        return invalid(&format!("params._meta needs an object {CLIENT_CAPABILITIES}"));
    }
    if version != VERSION {
        let data = format!(r#"{{"supported":["{VERSION}"],"requested":{}}}"#, quote(&version));
        return Some(error(id, -32022, "Unsupported protocol version", Some(&data)));
    }
    None
}
// ANCHOR_END: envelope

// ANCHOR: dispatch
/// One line in, at most one reply out. Notifications (no `id`) get no reply, ever.
fn handle(line: &str) -> Option<String> {
    if !line.starts_with('{') {
        return Some(error("null", -32700, "Parse error", None));
    }
    let method = field(line, "method").and_then(string);
    let Some(raw_id) = field(line, "id") else {
        // A notification such as notifications/cancelled. Each request here is answered before
        // the next line is read, so there is never anything left to cancel: log it and move on.
        eprintln!("first-server: notification {}, no reply", method.as_deref().unwrap_or("?"));
        return None;
    };
    let id = match (string(raw_id), int(raw_id)) {
        (Some(text), _) => quote(&text),
        (None, Some(number)) => number.to_string(),
        _ => return Some(error("null", -32600, "Invalid Request: bad id", None)),
    };
    let Some(method) = method else {
        return Some(error(&id, -32600, "Invalid Request: no method", None));
    };
    if !["server/discover", "tools/list", "tools/call"].contains(&method.as_str()) {
        // A legacy client opens with `initialize`; tell it which version this server does speak.
        let hint = if method == "initialize" { LEGACY_HINT } else { "" };
        return Some(error(&id, -32601, &format!("Method not found: {method}{hint}"), None));
    }
    let params = field(line, "params");
    if let Some(reply) = check_meta(&id, params) {
        return Some(reply);
    }
    Some(match method.as_str() {
        "server/discover" => result(&id, DISCOVER),
        "tools/list" => result(&id, TOOLS),
        _ => call_tool(&id, params.unwrap_or("{}")),
    })
}

const DISCOVER: &str = concat!(
    r#""resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"#,
    r#""ttlMs":3600000,"cacheScope":"public""#
);
// ANCHOR_END: dispatch

// ANCHOR: tools
const TOOLS: &str = concat!(
    r#""resultType":"complete","tools":[{"name":"add","title":"Add two integers","#,
    r#""description":"Adds a and b. a, b and the sum must each fit in a 64-bit signed integer.","#,
    r#""inputSchema":{"type":"object","properties":{"#,
    r#""a":{"type":"integer","description":"First addend"},"#,
    r#""b":{"type":"integer","description":"Second addend"}},"#,
    r#""required":["a","b"],"additionalProperties":false}},"#,
    r#"{"name":"shout","title":"Shout","#,
    r#""description":"Returns the text in upper case. The text must not be empty.","#,
    r#""inputSchema":{"type":"object","properties":{"#,
    r#""text":{"type":"string","description":"The text to upper-case"}},"#,
    r#""required":["text"],"additionalProperties":false}}],"ttlMs":300000,"cacheScope":"public""#
);

/// tools/call. An unknown tool or a malformed call is a protocol error (JSON-RPC -32602);
/// a tool that ran and failed is a normal result with "isError":true, which the model can read.
fn call_tool(id: &str, params: &str) -> String {
    let Some(name) = field(params, "name").and_then(string) else {
        return error(id, -32602, "Invalid params: params.name must be a string", None);
    };
    let args = field(params, "arguments").unwrap_or("{}");
    if !is_object(args) {
        return error(id, -32602, "Invalid params: params.arguments must be an object", None);
    }
    let outcome = match name.as_str() {
        "add" => add(field(args, "a").and_then(int), field(args, "b").and_then(int)),
        "shout" => shout(field(args, "text").and_then(string)),
        _ => return error(id, -32602, &format!("Unknown tool: {name}"), None),
    };
    let is_error = outcome.is_err();
    let text = outcome.unwrap_or_else(|failure| failure);
    let content = format!(r#"[{{"type":"text","text":{}}}]"#, quote(&text));
    result(id, &format!(r#""resultType":"complete","content":{content},"isError":{is_error}"#))
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

fn shout(text: Option<String>) -> Result<String, String> {
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
            Ok(text) => handle(ws(text)),
            Err(_) => Some(error("null", -32700, "Parse error: not UTF-8", None)),
        };
        if let Some(reply) = reply {
            if let Err(err) = writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
                eprintln!("first-server: stdout closed ({err}), exiting");
                return;
            }
        }
    }
    // stdin reached EOF: the client closed it, which is how a stdio server is told to stop.
}
// ANCHOR_END: read-loop
