//! notes: a small MCP server (revision 2026-07-28) over stdio, std only.
//!
//! It exists to show the two kinds of failure. A tool that ran and could not
//! do its job answers with a normal result carrying `isError: true`; a request
//! the server cannot make sense of gets a JSON-RPC error instead. Every
//! diagnostic goes to stderr; stdout carries only JSON-RPC messages.

use std::io::{self, BufRead, Write};

const PROTOCOL_VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "notes";
const SERVER_VERSION: &str = "1.0.0";
const NOTES: [(&str, &str); 2] = [("n1", "Buy oat milk"), ("n2", "Call the dentist")];

const TOOLS: &str = r#"[{"name":"get_note","title":"Read a note","description":"Returns the text of one note. Note ids look like n1.","inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"The note's id, for example n1."}},"required":["id"],"additionalProperties":false}},{"name":"delete_note","title":"Delete a note","description":"Deletes one note once the user has confirmed it. Needs a client that declares the elicitation capability.","inputSchema":{"type":"object","properties":{"id":{"type":"string","description":"The note's id, for example n1."}},"required":["id"],"additionalProperties":false}}]"#;

fn main() {
    let mut stdin = io::stdin().lock();
    let stdout = io::stdout();
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match stdin.read_until(b'\n', &mut raw) {
            Ok(0) => break, // end of file: the client closed our stdin
            Ok(_) => {}
            Err(err) => {
                eprintln!("notes: cannot read stdin: {err}");
                break;
            }
        }
        let line = raw.strip_suffix(b"\n").unwrap_or(&raw);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let reply = match std::str::from_utf8(line) {
            Ok(line) => handle(line),
            Err(_) => Some(error(Json::Null, -32700, "Parse error: the line is not valid UTF-8", None)),
        };
        if let Some(reply) = reply {
            let mut out = stdout.lock();
            writeln!(out, "{}", reply.to_text()).expect("stdout is gone");
            out.flush().expect("stdout is gone");
        }
    }
    eprintln!("notes: stdin closed, exiting");
}

// ANCHOR: envelope
/// One line in, at most one reply out. The checks run from the outside in:
/// is it JSON, is it JSON-RPC, is it a notification, is `params._meta` there,
/// is the version one this server speaks; only then does the method matter.
fn handle(line: &str) -> Option<Json> {
    let msg = match parse(line) {
        Ok(msg) => msg,
        Err(why) => {
            eprintln!("notes: not JSON ({why}); answering -32700 with id null");
            return Some(error(Json::Null, -32700, "Parse error: the line is not valid JSON", None));
        }
    };
    let Some(method) = msg.get("method").and_then(Json::as_str) else {
        return Some(invalid_request(&msg));
    };
    if msg.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
        return Some(invalid_request(&msg));
    }
    let id = match msg.get("id") {
        None => {
            eprintln!("notes: notification {method}; notifications get no reply");
            return None;
        }
        Some(id) if id.is_id() => id.clone(),
        Some(_) => return Some(invalid_request(&msg)),
    };
    eprintln!("notes: request {method} id={}", id.to_text());

    let params = msg.get("params");
    let Some(meta) = params.and_then(|p| p.get("_meta")).filter(|m| m.is_object()) else {
        return Some(error(id, -32602, "Invalid params: params._meta is missing", None));
    };
    let Some(version) = meta.get("io.modelcontextprotocol/protocolVersion").and_then(Json::as_str) else {
        let message = "Invalid params: params._meta has no io.modelcontextprotocol/protocolVersion";
        return Some(error(id, -32602, message, None));
    };
    let Some(caps) = meta.get("io.modelcontextprotocol/clientCapabilities").filter(|c| c.is_object()) else {
        let message = "Invalid params: params._meta has no io.modelcontextprotocol/clientCapabilities";
        return Some(error(id, -32602, message, None));
    };
    if version != PROTOCOL_VERSION {
        let data = obj(vec![("supported", Json::Arr(vec![s(PROTOCOL_VERSION)])), ("requested", s(version))]);
        return Some(error(id, -32022, "Unsupported protocol version", Some(data)));
    }
    let params = params.expect("checked above");
    Some(match method {
        "server/discover" => result(id, discover()),
        "tools/list" => result(id, list_tools()),
        "tools/call" => call_tool(id, params, caps),
        _ => error(id, -32601, &format!("Method not found: {method}"), None),
    })
}
// ANCHOR_END: envelope

// ANCHOR: call
fn call_tool(id: Json, params: &Json, caps: &Json) -> Json {
    let Some(name) = params.get("name").and_then(Json::as_str) else {
        return error(id, -32602, "Invalid params: tools/call needs a tool name", None);
    };
    let no_arguments = Json::Obj(Vec::new());
    let args = params.get("arguments").unwrap_or(&no_arguments);
    if !args.is_object() {
        return error(id, -32602, "Invalid params: params.arguments must be an object", None);
    }
    match name {
        "get_note" => {
            let note_id = match note_id(name, args) {
                Ok(note_id) => note_id,
                // The arguments do not fit the tool's inputSchema: a tool execution error,
                // which the model reads and can fix on its next call.
                Err(message) => return result(id, tool_result(&message, true)),
            };
            match NOTES.iter().find(|(known, _)| *known == note_id) {
                Some((_, text)) => result(id, tool_result(text, false)),
                // The call was well formed; the tool ran and failed. The model can fix this too.
                None => {
                    let text = format!("No note has the id '{note_id}'. The ids that exist are n1 and n2.");
                    result(id, tool_result(&text, true))
                }
            }
        }
        "delete_note" => {
            // This tool cannot work unless the client can ask its user a question.
            if !caps.get("elicitation").is_some_and(Json::is_object) {
                let needed = obj(vec![("elicitation", obj(vec![]))]);
                let message = "delete_note asks the user to confirm, which needs the elicitation capability";
                return error(id, -32021, message, Some(obj(vec![("requiredCapabilities", needed)])));
            }
            if let Err(message) = note_id(name, args) {
                return result(id, tool_result(&message, true));
            }
            // A real server would now ask for confirmation (resultType "input_required");
            // this toy stops after the checks and says so.
            result(id, tool_result("This example server does not implement the confirmation step.", true))
        }
        _ => error(id, -32602, &format!("Unknown tool: {name}"), None),
    }
}

/// Checks `arguments` against the inputSchema both tools share. The message is for the
/// model: what is wrong, and what a good call looks like.
fn note_id(tool: &str, args: &Json) -> Result<String, String> {
    let invalid = |why: &str| {
        Err(format!("Invalid arguments for tool {tool}: {why}. Pass one argument, id, a note id such as n1."))
    };
    let Json::Obj(members) = args else {
        return invalid("arguments must be an object");
    };
    let note_id = match args.get("id") {
        None => return invalid("missing required property 'id'"),
        Some(Json::Str(note_id)) => note_id.clone(),
        Some(_) => return invalid("property 'id' must be a string"),
    };
    if let Some((extra, _)) = members.iter().find(|(key, _)| key != "id") {
        return invalid(&format!("unexpected property '{extra}'"));
    }
    Ok(note_id)
}
// ANCHOR_END: call

fn tool_result(text: &str, is_error: bool) -> Vec<(&'static str, Json)> {
    vec![
        ("resultType", s("complete")),
        ("content", Json::Arr(vec![obj(vec![("type", s("text")), ("text", s(text))])])),
        ("isError", Json::Bool(is_error)),
    ]
}

fn discover() -> Vec<(&'static str, Json)> {
    vec![
        ("resultType", s("complete")),
        ("supportedVersions", Json::Arr(vec![s(PROTOCOL_VERSION)])),
        ("capabilities", obj(vec![("tools", obj(vec![]))])),
        ("ttlMs", Json::Num("60000".to_string())),
        ("cacheScope", s("public")),
    ]
}

fn list_tools() -> Vec<(&'static str, Json)> {
    vec![
        ("resultType", s("complete")),
        ("tools", parse(TOOLS).expect("TOOLS is valid JSON")),
        ("ttlMs", Json::Num("60000".to_string())),
        ("cacheScope", s("public")),
    ]
}

/// A success response; every result names the server in `_meta`.
fn result(id: Json, mut members: Vec<(&str, Json)>) -> Json {
    let info = obj(vec![("name", s(SERVER_NAME)), ("version", s(SERVER_VERSION))]);
    members.push(("_meta", obj(vec![("io.modelcontextprotocol/serverInfo", info)])));
    obj(vec![("jsonrpc", s("2.0")), ("id", id), ("result", obj(members))])
}

fn error(id: Json, code: i64, message: &str, data: Option<Json>) -> Json {
    let mut body = vec![("code", Json::Num(code.to_string())), ("message", s(message))];
    if let Some(data) = data {
        body.push(("data", data));
    }
    obj(vec![("jsonrpc", s("2.0")), ("id", id), ("error", obj(body))])
}

/// -32600, with the request's id when it can be read.
fn invalid_request(msg: &Json) -> Json {
    let id = msg.get("id").filter(|id| id.is_id()).cloned().unwrap_or(Json::Null);
    error(id, -32600, "Invalid Request: not a JSON-RPC 2.0 request or notification", None)
}

// ---------------------------------------------------------------------------
// A toy JSON reader and writer, std only, just big enough for this example.
// It keeps object keys in order, keeps numbers as the text they were written
// as, and writes compact JSON escaped the way Python's json.dumps(...,
// ensure_ascii=False) does, so the Rust and Python twins print the same bytes.
// It has no depth limit and no good error messages. Real servers use
// serde_json (see the serde_json page of this site).
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// Member of an object; like Python's json.loads, the last duplicate wins.
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(s) => Some(s),
            _ => None,
        }
    }

    fn is_object(&self) -> bool {
        matches!(self, Json::Obj(_))
    }

    /// A JSON-RPC id this server accepts: a string or an integer.
    fn is_id(&self) -> bool {
        match self {
            Json::Str(_) => true,
            Json::Num(n) => {
                let digits = n.strip_prefix('-').unwrap_or(n);
                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
            }
            _ => false,
        }
    }

    fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(n),
            Json::Str(s) => write_string(s, out),
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(members) => {
                out.push('{');
                for (i, (key, value)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_string(key, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
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

fn s(text: &str) -> Json {
    Json::Str(text.to_string())
}

fn obj(members: Vec<(&str, Json)>) -> Json {
    Json::Obj(members.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser { b: text.as_bytes(), i: 0 };
    p.skip_ws();
    let value = p.value()?;
    p.skip_ws();
    if p.i != p.b.len() {
        return Err(format!("unexpected text at byte {}", p.i));
    }
    Ok(value)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        if self.peek() == Some(byte) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", byte as char, self.i))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(format!("expected a value at byte {}", self.i)),
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.b[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(value)
        } else {
            Err(format!("bad literal at byte {}", self.i))
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        while matches!(self.peek(), Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')) {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.b[start..self.i]).map_err(|e| e.to_string())?;
        text.parse::<f64>().map_err(|_| format!("bad number at byte {}", start))?;
        Ok(Json::Num(text.to_string()))
    }

    fn array(&mut self) -> Result<Json, String> {
        self.expect(b'[')?;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            self.skip_ws();
            items.push(self.value()?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(format!("expected ',' or ']' at byte {}", self.i)),
            }
        }
    }

    fn object(&mut self) -> Result<Json, String> {
        self.expect(b'{')?;
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            self.skip_ws();
            let key = self.string()?;
            self.skip_ws();
            self.expect(b':')?;
            self.skip_ws();
            members.push((key, self.value()?));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return Err(format!("expected ',' or '}}' at byte {}", self.i)),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.b.get(self.i..self.i + 4).ok_or("short \\u escape")?;
        let text = std::str::from_utf8(digits).map_err(|e| e.to_string())?;
        let code = u32::from_str_radix(text, 16).map_err(|_| "bad \\u escape".to_string())?;
        self.i += 4;
        Ok(code)
    }

    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut bytes = Vec::new();
        loop {
            let byte = self.peek().ok_or("unterminated string")?;
            self.i += 1;
            match byte {
                b'"' => break,
                b'\\' => {
                    let esc = self.peek().ok_or("unterminated escape")?;
                    self.i += 1;
                    let c = match esc {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let mut code = self.hex4()?;
                            if (0xD800..0xDC00).contains(&code) && self.b[self.i..].starts_with(b"\\u") {
                                self.i += 2;
                                let low = self.hex4()?;
                                code = 0x10000 + ((code - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
                            }
                            char::from_u32(code).ok_or("bad \\u escape")?
                        }
                        _ => return Err(format!("bad escape at byte {}", self.i)),
                    };
                    let mut buf = [0u8; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                0x00..=0x1F => return Err(format!("control character in string at byte {}", self.i)),
                _ => bytes.push(byte),
            }
        }
        String::from_utf8(bytes).map_err(|e| e.to_string())
    }
}
