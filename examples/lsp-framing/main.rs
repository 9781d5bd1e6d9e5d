// lsp-framing: an MCP stdio server (revision 2026-07-28) whose two tools show how
// one JSON message is framed by the Language Server Protocol (a Content-Length
// header counting bytes, a blank line, then the body) and by MCP on stdio (the
// message on one line, ended by a newline).
//
// Standard library only. The JSON code below is a TOY, written so this file
// needs no crates: a small recursive parser and printer that handle what this
// example meets (objects, arrays, strings with escapes, numbers kept as their
// text). It does not round-trip number precision, it caps nesting depth, and
// it has not been fuzzed. Real servers use serde_json: see the serde_json page.
//
// Build: rustc --edition 2021 -O main.rs
use std::io::{self, BufRead, Write};

const PROTOCOL_VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "lsp-framing";
const SERVER_VERSION: &str = "1.0.0";
const LEGACY_HINT: &str = " (this server supports only protocol version 2026-07-28)";

// ANCHOR: framing
/// LSP's base protocol: an ASCII header whose Content-Length is the body's size
/// in BYTES (of its UTF-8 encoding), "\r\n" closing the header field, one more
/// "\r\n" closing the header part, then the body itself.
fn lsp_frame(body: &str) -> String {
    format!("Content-Length: {}\r\n\r\n{}", body.len(), body)
}

/// MCP on stdio: no header at all. The message is one line of UTF-8 and the
/// newline is the frame, so the message itself must not contain one.
fn mcp_frame(body: &str) -> Result<String, usize> {
    let newlines = body.matches('\n').count();
    if newlines > 0 {
        return Err(newlines);
    }
    Ok(format!("{}\n", body))
}
// ANCHOR_END: framing

// ---------------------------------------------------------------- toy JSON --

#[derive(Clone, Debug)]
enum Json {
    Null,
    Bool(bool),
    Num(String), // kept as the text that was read, printed back unchanged
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>), // a Vec keeps the order keys are written in
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            // The last duplicate wins, as in Python's json module.
            Json::Obj(pairs) => pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }
    fn is_obj(&self) -> bool {
        matches!(self, Json::Obj(_))
    }
}

fn s(text: &str) -> Json {
    Json::Str(text.to_string())
}

fn obj(pairs: Vec<(&str, Json)>) -> Json {
    Json::Obj(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
}

const MAX_DEPTH: usize = 64;
const JSON_WS: [char; 4] = [' ', '\t', '\r', '\n'];

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }
    fn eat(&mut self, word: &str) -> Result<(), ()> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(())
        }
    }
    fn value(&mut self) -> Result<Json, ()> {
        self.skip_ws();
        match self.peek().ok_or(())? {
            b'{' => self.nested(Self::object),
            b'[' => self.nested(Self::array),
            b'"' => Ok(Json::Str(self.string()?)),
            b't' => self.eat("true").map(|_| Json::Bool(true)),
            b'f' => self.eat("false").map(|_| Json::Bool(false)),
            b'n' => self.eat("null").map(|_| Json::Null),
            _ => self.number(),
        }
    }
    fn nested(&mut self, f: fn(&mut Self) -> Result<Json, ()>) -> Result<Json, ()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(());
        }
        let v = f(self);
        self.depth -= 1;
        v
    }
    fn object(&mut self) -> Result<Json, ()> {
        self.pos += 1; // '{'
        let mut pairs = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Obj(pairs));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(());
            }
            let key = self.string()?;
            self.skip_ws();
            self.eat(":")?;
            let v = self.value()?;
            pairs.push((key, v));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Obj(pairs));
                }
                _ => return Err(()),
            }
        }
    }
    fn array(&mut self) -> Result<Json, ()> {
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(()),
            }
        }
    }
    fn hex4(&mut self) -> Result<u32, ()> {
        let digits = self.text.get(self.pos..self.pos + 4).ok_or(())?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(());
        }
        self.pos += 4;
        u32::from_str_radix(digits, 16).map_err(|_| ())
    }
    // ANCHOR: unescape
    /// Reads a JSON string starting at its opening quote and returns its value:
    /// the escapes undone, \uXXXX turned into the character it names (two of
    /// them when they form a UTF-16 surrogate pair, as JSON writes characters
    /// beyond U+FFFF). Raw control characters are refused, as JSON requires.
    fn string(&mut self) -> Result<String, ()> {
        self.pos += 1; // opening '"'
        let mut out = String::new();
        loop {
            // Copy the plain run up to the next quote or backslash in one go.
            let rest = &self.text[self.pos..];
            let run = rest.find(|c| c == '"' || c == '\\').ok_or(())?;
            if rest[..run].chars().any(|c| (c as u32) < 0x20) {
                return Err(());
            }
            out.push_str(&rest[..run]);
            self.pos += run;
            if self.peek() == Some(b'"') {
                self.pos += 1;
                return Ok(out);
            }
            self.pos += 1; // the backslash
            let esc = self.peek().ok_or(())?;
            self.pos += 1;
            match esc {
                b'"' => out.push('"'),
                b'\\' => out.push('\\'),
                b'/' => out.push('/'),
                b'b' => out.push('\u{8}'),
                b'f' => out.push('\u{c}'),
                b'n' => out.push('\n'),
                b'r' => out.push('\r'),
                b't' => out.push('\t'),
                b'u' => {
                    let mut code = self.hex4()?;
                    if (0xD800..0xDC00).contains(&code) {
                        // A high surrogate must be followed by \u and a low one.
                        self.eat("\\u")?;
                        let low = self.hex4()?;
                        if !(0xDC00..0xE000).contains(&low) {
                            return Err(());
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                    }
                    // A lone low surrogate is no character: from_u32 refuses it.
                    out.push(char::from_u32(code).ok_or(())?);
                }
                _ => return Err(()),
            }
        }
    }
    // ANCHOR_END: unescape
    fn number(&mut self) -> Result<Json, ()> {
        // The JSON grammar: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while let Some(b'0'..=b'9') = p.peek() {
                p.pos += 1;
            }
            p.pos > from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if self.peek() == Some(b'0') {
            self.pos += 1;
        } else if !digits(self) {
            return Err(());
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if !digits(self) {
                return Err(());
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(());
            }
        }
        Ok(Json::Num(self.text[start..self.pos].to_string()))
    }
}

/// One whole JSON text: a value with nothing but whitespace around it.
fn parse(text: &str) -> Result<Json, ()> {
    let mut p = Parser { text, pos: 0, depth: 0 };
    let v = p.value()?;
    p.skip_ws();
    if p.pos == text.len() {
        Ok(v)
    } else {
        Err(())
    }
}

// ANCHOR: escape
/// Writes a string as JSON, escaping exactly what Python's
/// json.dumps(..., ensure_ascii=False) escapes, so the Rust and Python twins
/// print the same bytes: quote, backslash, and the control characters below
/// U+0020 (short forms where JSON has them, \u00XX otherwise). Everything
/// else, non-ASCII letters included, is written as it is, in UTF-8.
fn write_str(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}
// ANCHOR_END: escape

/// Compact JSON: no spaces, keys in the order they were built.
fn write_json(out: &mut String, v: &Json) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Num(n) => out.push_str(n),
        Json::Str(t) => write_str(out, t),
        Json::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Json::Obj(pairs) => {
            out.push('{');
            for (i, (k, item)) in pairs.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(out, k);
                out.push(':');
                write_json(out, item);
            }
            out.push('}');
        }
    }
}

// ------------------------------------------------------------------ MCP ----

fn server_meta() -> Json {
    obj(vec![(
        "io.modelcontextprotocol/serverInfo",
        obj(vec![("name", s(SERVER_NAME)), ("version", s(SERVER_VERSION))]),
    )])
}

fn message_schema(what: &str) -> Json {
    obj(vec![
        ("type", s("object")),
        (
            "properties",
            obj(vec![(
                "message",
                obj(vec![("type", s("string")), ("description", s(what))]),
            )]),
        ),
        ("required", Json::Arr(vec![s("message")])),
        ("additionalProperties", Json::Bool(false)),
    ])
}

fn tools() -> Json {
    Json::Arr(vec![
        obj(vec![
            ("name", s("lsp_frame")),
            ("title", s("Frame a message as LSP does")),
            (
                "description",
                s("Wrap one JSON message the way the Language Server Protocol sends it over a pipe: \
                   a Content-Length header giving the body's size in bytes of UTF-8, an empty line \
                   (so the header ends in CR LF CR LF), then the body. Returns the frame and its \
                   byte counts."),
            ),
            ("inputSchema", message_schema("One JSON text, for example a JSON-RPC message.")),
        ]),
        obj(vec![
            ("name", s("mcp_frame")),
            ("title", s("Frame a message as MCP on stdio does")),
            (
                "description",
                s("Write one JSON message the way MCP's stdio transport sends it: the message on one \
                   line, ended by a newline, with no header. Fails when the message contains a raw \
                   newline, which this framing cannot carry."),
            ),
            ("inputSchema", message_schema("One JSON text, for example a JSON-RPC message.")),
        ]),
    ])
}

fn text_block(text: String) -> Json {
    obj(vec![("type", s("text")), ("text", Json::Str(text))])
}

fn tool_result(blocks: Vec<String>, is_error: bool) -> Json {
    obj(vec![
        ("resultType", s("complete")),
        ("content", Json::Arr(blocks.into_iter().map(text_block).collect())),
        ("isError", Json::Bool(is_error)),
        ("_meta", server_meta()),
    ])
}

// ANCHOR: tools
/// Runs one tool. Err(..) is a JSON-RPC error (a call that makes no sense);
/// Ok(..) is a result, with isError set when the tool ran and said no.
fn call_tool(name: &str, message: &str) -> Result<Json, (i64, String)> {
    if name != "lsp_frame" && name != "mcp_frame" {
        return Err((-32602, format!("Unknown tool: {}", name)));
    }
    if parse(message).is_err() {
        let why = "The message is not a JSON text, so it cannot be a JSON-RPC message. \
                   Pass one JSON value, for example an object such as {\"jsonrpc\":\"2.0\",...}.";
        return Ok(tool_result(vec![why.to_string()], true));
    }
    let bytes = message.len(); // str::len counts bytes of UTF-8
    let chars = message.chars().count(); // Unicode scalar values
    if name == "lsp_frame" {
        let frame = lsp_frame(message);
        let counts = format!(
            "The body is {} bytes of UTF-8 ({} characters), so the header says Content-Length: {}. \
             The whole frame, header included, is {} bytes.",
            bytes, chars, bytes, frame.len()
        );
        return Ok(tool_result(vec![frame, counts], false));
    }
    match mcp_frame(message) {
        Ok(line) => {
            let counts = format!(
                "The line is {} bytes of UTF-8 ({} characters) plus the newline that ends it: {} bytes. \
                 There is no header: the newline is the frame.",
                bytes, chars, line.len()
            );
            Ok(tool_result(vec![line, counts], false))
        }
        Err(newlines) => {
            let why = format!(
                "This message contains {} raw newline{}. On MCP's stdio transport every message is \
                 one line, so a newline inside it would end it early. Serialise it compactly (no \
                 pretty-printing; newlines inside strings are written as \\n) and call mcp_frame again.",
                newlines,
                if newlines == 1 { "" } else { "s" }
            );
            Ok(tool_result(vec![why], true))
        }
    }
}
// ANCHOR_END: tools

/// Checks params._meta; Err is a JSON-RPC error (code, message, data).
fn check_meta(params: Option<&Json>) -> Result<(), (i64, String, Option<Json>)> {
    let bad = |m: &str| Err((-32602, m.to_string(), None));
    let meta = match params.and_then(|p| p.get("_meta")) {
        Some(m) if m.is_obj() => m,
        _ => return bad("Invalid params: params._meta is required"),
    };
    let version = match meta.get("io.modelcontextprotocol/protocolVersion").and_then(Json::as_str) {
        Some(v) => v,
        None => return bad("Invalid params: _meta needs io.modelcontextprotocol/protocolVersion"),
    };
    if !meta.get("io.modelcontextprotocol/clientCapabilities").map_or(false, Json::is_obj) {
        return bad("Invalid params: _meta needs io.modelcontextprotocol/clientCapabilities");
    }
    if version != PROTOCOL_VERSION {
        let data = obj(vec![
            ("supported", Json::Arr(vec![s(PROTOCOL_VERSION)])),
            ("requested", s(version)),
        ]);
        return Err((-32022, "Unsupported protocol version".to_string(), Some(data)));
    }
    Ok(())
}

fn handle(method: &str, params: Option<&Json>) -> Result<Json, (i64, String, Option<Json>)> {
    if !["server/discover", "tools/list", "tools/call"].contains(&method) {
        // A legacy client opens with `initialize`; tell it which version this server does speak.
        let hint = if method == "initialize" { LEGACY_HINT } else { "" };
        return Err((-32601, format!("Method not found: {}{}", method, hint), None));
    }
    check_meta(params)?;
    match method {
        "server/discover" => Ok(obj(vec![
            ("resultType", s("complete")),
            ("supportedVersions", Json::Arr(vec![s(PROTOCOL_VERSION)])),
            ("capabilities", obj(vec![("tools", obj(vec![]))])),
            ("ttlMs", Json::Num("3600000".into())),
            ("cacheScope", s("public")),
            ("_meta", server_meta()),
        ])),
        "tools/list" => Ok(obj(vec![
            ("resultType", s("complete")),
            ("tools", tools()),
            ("ttlMs", Json::Num("3600000".into())),
            ("cacheScope", s("public")),
            ("_meta", server_meta()),
        ])),
        "tools/call" => {
            let p = params.unwrap(); // check_meta proved params is an object
            let name = p.get("name").and_then(Json::as_str).ok_or((
                -32602,
                "Invalid params: tools/call needs a string name".to_string(),
                None,
            ))?;
            if p.get("arguments").is_some_and(|a| !a.is_obj()) {
                return Err((-32602, "Invalid params: params.arguments must be an object".to_string(), None));
            }
            let message = p
                .get("arguments")
                .and_then(|a| a.get("message"))
                .and_then(Json::as_str);
            match (name, message) {
                // Arguments that do not fit the inputSchema: a tool execution error the model can fix.
                ("lsp_frame" | "mcp_frame", None) => {
                    let why = format!("Invalid arguments for tool {name}: it needs one argument, message, a string.");
                    Ok(tool_result(vec![why], true))
                }
                _ => call_tool(name, message.unwrap_or("")).map_err(|(c, m)| (c, m, None)),
            }
        }
        _ => unreachable!("every other method was answered with -32601 above"),
    }
}

fn error_reply(id: Json, code: i64, message: &str, data: Option<Json>) -> Json {
    let mut err = vec![("code", Json::Num(code.to_string())), ("message", s(message))];
    if let Some(d) = data {
        err.push(("data", d));
    }
    obj(vec![("jsonrpc", s("2.0")), ("id", id), ("error", obj(err))])
}

/// One line in, at most one line out (None for a notification).
fn reply_to(line: &str) -> Option<Json> {
    let msg = match parse(line) {
        Ok(m) => m,
        Err(()) => return Some(error_reply(Json::Null, -32700, "Parse error", None)),
    };
    let id = msg.get("id").cloned();
    let id_ok = match &id {
        None => true, // a notification
        Some(Json::Str(_)) => true,
        Some(Json::Num(n)) => !n.contains(['.', 'e', 'E']),
        Some(_) => false,
    };
    let method = msg.get("method").and_then(Json::as_str);
    let jsonrpc_ok = msg.get("jsonrpc").and_then(Json::as_str) == Some("2.0");
    if !msg.is_obj() || !id_ok || !jsonrpc_ok || method.is_none() {
        return Some(error_reply(Json::Null, -32600, "Invalid Request", None));
    }
    let id = id?; // notifications get no reply, whatever their method
    Some(match handle(method.unwrap(), msg.get("params")) {
        Ok(result) => obj(vec![("jsonrpc", s("2.0")), ("id", id), ("result", result)]),
        Err((code, message, data)) => error_reply(id, code, &message, data),
    })
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break, // EOF: the client closed stdin, so we are done
            Ok(_) => {}
            Err(e) => {
                eprintln!("{}: reading stdin failed: {}", SERVER_NAME, e);
                std::process::exit(1);
            }
        }
        let reply = match std::str::from_utf8(&buf) {
            Ok(text) if text.trim_matches(JSON_WS).is_empty() => continue,
            Ok(text) => reply_to(text.trim_end_matches(['\n', '\r'])),
            Err(_) => Some(error_reply(Json::Null, -32700, "Parse error", None)),
        };
        if let Some(reply) = reply {
            let mut line = String::new();
            write_json(&mut line, &reply);
            line.push('\n');
            let mut out = stdout.lock();
            if let Err(err) = out.write_all(line.as_bytes()).and_then(|_| out.flush()) {
                eprintln!("{}: stdout closed ({}), exiting", SERVER_NAME, err);
                return;
            }
        }
    }
}
