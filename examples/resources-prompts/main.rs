// resources-prompts: an MCP server (revision 2026-07-28) over stdio, std only, for the page
// "Resources and prompts". It offers no tools: two read-only documents as resources and one
// prompt template that quotes one of them.
//
// One JSON-RPC message per line comes in on stdin; one reply per request goes out on stdout.
// stdout is the wire and carries nothing else; diagnostics go to stderr.
//
// THE JSON CODE AT THE BOTTOM IS A TOY: a small reader and writer written for this example
// only, with terse error messages, no limits on nesting, and numbers with a fraction or an
// exponent kept as f64 and never written back. The site's serde_json page shows the real
// thing.

use std::io::{self, BufRead, Write};

const VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "handbook";
const SERVER_VERSION: &str = "1.0.0";

// ANCHOR: resources
/// One document the server can hand out, named by its URI.
struct Document {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
    text: &'static str,
}

const DOCUMENTS: [Document; 2] = [
    Document {
        uri: "handbook://style/naming",
        name: "naming",
        title: "Naming rules",
        description: "How the team names crates, types, functions and MCP tools.",
        text: concat!(
            "# Naming\n\n",
            "- Crates, modules, functions, variables: snake_case.\n",
            "- Types and traits: UpperCamelCase.\n",
            "- Constants: SCREAMING_SNAKE_CASE.\n",
            "- MCP tools: snake_case, starting with the area they belong to, ",
            "such as stock_level.\n",
        ),
    },
    Document {
        uri: "handbook://style/errors",
        name: "errors",
        title: "Error messages",
        description: "How to write an error message that a person or a model can act on.",
        text: concat!(
            "# Error messages\n\n",
            "Say what went wrong, quote the value that caused it, and say what to do next.\n",
        ),
    },
];

/// resources/list: what exists. The same for every reader, so anyone may cache it for ten minutes.
fn list_resources() -> Result<Json, (i64, String, Option<Json>)> {
    let resources = DOCUMENTS
        .iter()
        .map(|d| {
            obj(vec![
                ("uri", Json::from(d.uri)),
                ("name", Json::from(d.name)),
                ("title", Json::from(d.title)),
                ("description", Json::from(d.description)),
                ("mimeType", Json::from("text/markdown")),
            ])
        })
        .collect();
    Ok(result(vec![
        ("resources", Json::Arr(resources)),
        ("ttlMs", Json::Int(600_000)),
        ("cacheScope", Json::from("public")),
    ]))
}

/// resources/read: one document by URI. A URI the server does not know is -32602 with the
/// URI in data (never an empty contents list, and never the retired -32002).
fn read_resource(params: &Json) -> Result<Json, (i64, String, Option<Json>)> {
    let Some(uri) = params.get("uri").and_then(Json::as_str) else {
        return Err((
            -32602,
            "Invalid params: params.uri must be a string".to_string(),
            None,
        ));
    };
    let Some(document) = DOCUMENTS.iter().find(|d| d.uri == uri) else {
        return Err((
            -32602,
            "Resource not found".to_string(),
            Some(obj(vec![("uri", Json::from(uri))])),
        ));
    };
    let contents = obj(vec![
        ("uri", Json::from(document.uri)),
        ("mimeType", Json::from("text/markdown")),
        ("text", Json::from(document.text)),
    ]);
    Ok(result(vec![
        ("contents", Json::Arr(vec![contents])),
        ("ttlMs", Json::Int(60_000)),
        ("cacheScope", Json::from("public")),
    ]))
}
// ANCHOR_END: resources

// ANCHOR: prompts
/// prompts/list: one template with one required and one optional argument.
fn list_prompts() -> Result<Json, (i64, String, Option<Json>)> {
    let argument = |name: &str, description: &str, required: bool| {
        obj(vec![
            ("name", Json::from(name)),
            ("description", Json::from(description)),
            ("required", Json::Bool(required)),
        ])
    };
    let prompt = obj(vec![
        ("name", Json::from("review_names")),
        ("title", Json::from("Review names")),
        ("description", Json::from("Ask the model to check the names in a piece of code against the team's naming rules.")),
        (
            "arguments",
            Json::Arr(vec![
                argument("code", "The code to review", true),
                argument("language", "Programming language of the code; Rust if left out", false),
            ]),
        ),
    ]);
    Ok(result(vec![
        ("prompts", Json::Arr(vec![prompt])),
        ("ttlMs", Json::Int(600_000)),
        ("cacheScope", Json::from("public")),
    ]))
}

/// prompts/get: the template filled in. An unknown prompt, a missing required argument or an
/// argument that is not a string is -32602. The result has no ttlMs or cacheScope: it is not
/// one of the cacheable results.
fn get_prompt(params: &Json) -> Result<Json, (i64, String, Option<Json>)> {
    let invalid = |why: String| Err((-32602, why, None));
    let Some(name) = params.get("name").and_then(Json::as_str) else {
        return invalid("Invalid params: params.name must be a string".to_string());
    };
    if name != "review_names" {
        return invalid(format!("Unknown prompt: {name}"));
    }
    let empty = Json::Obj(Vec::new());
    let Json::Obj(arguments) = params.get("arguments").unwrap_or(&empty) else {
        return invalid("Invalid params: params.arguments must be an object".to_string());
    };
    for (key, value) in arguments {
        if key != "code" && key != "language" {
            return invalid(format!(
                "Invalid params: prompt review_names has no argument {key}"
            ));
        }
        if value.as_str().is_none() {
            return invalid(format!("Invalid params: argument {key} must be a string"));
        }
    }
    let args = params.get("arguments").unwrap_or(&empty);
    let Some(code) = args.get("code").and_then(Json::as_str) else {
        return invalid("Invalid params: prompt review_names needs the argument code".to_string());
    };
    let language = args
        .get("language")
        .and_then(Json::as_str)
        .unwrap_or("Rust");
    let rules = &DOCUMENTS[0];
    // The first message embeds the naming rules as a resource; the second asks the question.
    let embedded = obj(vec![
        ("type", Json::from("resource")),
        (
            "resource",
            obj(vec![
                ("uri", Json::from(rules.uri)),
                ("mimeType", Json::from("text/markdown")),
                ("text", Json::from(rules.text)),
            ]),
        ),
    ]);
    let question = format!(
        "Check the names in this {language} code against the naming rules above. For each name \
         that breaks a rule, quote it, name the rule and suggest a better name.\n\n{code}"
    );
    let messages = vec![
        obj(vec![("role", Json::from("user")), ("content", embedded)]),
        obj(vec![
            ("role", Json::from("user")),
            (
                "content",
                obj(vec![
                    ("type", Json::from("text")),
                    ("text", Json::from(question.as_str())),
                ]),
            ),
        ]),
    ];
    Ok(result(vec![
        (
            "description",
            Json::from(format!("Naming review of {language} code").as_str()),
        ),
        ("messages", Json::Arr(messages)),
    ]))
}
// ANCHOR_END: prompts

// ---------------------------------------------------------------------------------------------
// The envelope: every request is checked on its own, and every result carries serverInfo.
// ---------------------------------------------------------------------------------------------

/// A result object: resultType first, then `members`, then `_meta` with serverInfo.
fn result(members: Vec<(&str, Json)>) -> Json {
    let server_info = obj(vec![
        ("name", Json::from(SERVER_NAME)),
        ("version", Json::from(SERVER_VERSION)),
    ]);
    let mut all = vec![("resultType", Json::from("complete"))];
    all.extend(members);
    all.push((
        "_meta",
        obj(vec![("io.modelcontextprotocol/serverInfo", server_info)]),
    ));
    obj(all)
}

fn error_reply(id: Json, code: i64, message: &str, data: Option<Json>) -> Json {
    let mut error = vec![("code", Json::Int(code)), ("message", Json::from(message))];
    if let Some(data) = data {
        error.push(("data", data));
    }
    obj(vec![
        ("jsonrpc", Json::from("2.0")),
        ("id", id),
        ("error", obj(error)),
    ])
}

/// `params._meta` must name the protocol version and the client's capabilities, every time.
fn check_meta(params: &Json) -> Result<(), (i64, String, Option<Json>)> {
    let invalid = |why: &str| Err((-32602, format!("Invalid params: {why}"), None));
    let Some(meta @ Json::Obj(_)) = params.get("_meta") else {
        return invalid("params._meta is required");
    };
    let Some(version) = meta
        .get("io.modelcontextprotocol/protocolVersion")
        .and_then(Json::as_str)
    else {
        return invalid("params._meta needs a string io.modelcontextprotocol/protocolVersion");
    };
    if !matches!(
        meta.get("io.modelcontextprotocol/clientCapabilities"),
        Some(Json::Obj(_))
    ) {
        return invalid("params._meta needs an object io.modelcontextprotocol/clientCapabilities");
    }
    if version != VERSION {
        let data = obj(vec![
            ("supported", Json::Arr(vec![Json::from(VERSION)])),
            ("requested", Json::from(version)),
        ]);
        return Err((
            -32022,
            "Unsupported protocol version".to_string(),
            Some(data),
        ));
    }
    Ok(())
}

// ANCHOR: dispatch
const METHODS: [&str; 5] = [
    "server/discover",
    "resources/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
];

/// One line in, at most one reply out. Notifications (no id) never get a reply.
fn handle(line: &str) -> Option<Json> {
    let Ok(message) = Json::parse(line) else {
        return Some(error_reply(Json::Null, -32700, "Parse error", None));
    };
    let Json::Obj(_) = message else {
        return Some(error_reply(
            Json::Null,
            -32600,
            "Invalid Request: not an object",
            None,
        ));
    };
    let method = message.get("method").and_then(Json::as_str);
    let Some(id) = message.get("id") else {
        eprintln!(
            "{SERVER_NAME}: notification {}, no reply",
            method.unwrap_or("?")
        );
        return None;
    };
    let id = match id {
        Json::Str(_) | Json::Int(_) => id.clone(),
        _ => {
            return Some(error_reply(
                Json::Null,
                -32600,
                "Invalid Request: bad id",
                None,
            ))
        }
    };
    let Some(method) = method else {
        return Some(error_reply(id, -32600, "Invalid Request: no method", None));
    };
    // No tools capability is declared, so tools/list and tools/call are unknown methods here.
    if !METHODS.contains(&method) {
        return Some(error_reply(
            id,
            -32601,
            &format!("Method not found: {method}"),
            None,
        ));
    }
    let empty = Json::Obj(Vec::new());
    let params = message.get("params").unwrap_or(&empty);
    if let Err((code, text, data)) = check_meta(params) {
        return Some(error_reply(id, code, &text, data));
    }
    let outcome = match method {
        "server/discover" => Ok(result(vec![
            ("supportedVersions", Json::Arr(vec![Json::from(VERSION)])),
            (
                "capabilities",
                obj(vec![("resources", obj(vec![])), ("prompts", obj(vec![]))]),
            ),
            ("ttlMs", Json::Int(3_600_000)),
            ("cacheScope", Json::from("public")),
        ])),
        "resources/list" => list_resources(),
        "resources/read" => read_resource(params),
        "prompts/list" => list_prompts(),
        _ => get_prompt(params),
    };
    Some(match outcome {
        Ok(result) => obj(vec![
            ("jsonrpc", Json::from("2.0")),
            ("id", id),
            ("result", result),
        ]),
        Err((code, text, data)) => error_reply(id, code, &text, data),
    })
}
// ANCHOR_END: dispatch

fn main() {
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if let Some(reply) = handle(text) {
            writeln!(stdout, "{reply}").expect("cannot write stdout");
            stdout.flush().expect("cannot flush stdout");
        }
    }
    // EOF on stdin: the client has closed it, which is how a stdio server is told to stop.
}

// ---------------------------------------------------------------------------------------------
// The toy JSON reader and writer (see the note at the top). Objects keep their members in
// order, and the writer escapes strings exactly as Python's json.dumps(ensure_ascii=False)
// does, so this server and its Python twin write the same bytes.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

fn obj(members: Vec<(&str, Json)>) -> Json {
    Json::Obj(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

impl From<&str> for Json {
    fn from(text: &str) -> Json {
        Json::Str(text.to_string())
    }
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            Json::Str(text) => Some(text),
            _ => None,
        }
    }

    fn parse(text: &str) -> Result<Json, String> {
        let mut reader = Reader {
            bytes: text.as_bytes(),
            pos: 0,
        };
        let value = reader.value()?;
        reader.skip_space();
        if reader.pos != reader.bytes.len() {
            return Err(format!("unexpected text at byte {}", reader.pos));
        }
        Ok(value)
    }
}

impl std::fmt::Display for Json {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Json::Null => write!(f, "null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Int(n) => write!(f, "{n}"),
            Json::Float(x) => write!(f, "{x}"), // never written by this server
            Json::Str(text) => write_string(f, text),
            Json::Arr(items) => {
                write!(f, "[")?;
                for (i, item) in items.iter().enumerate() {
                    write!(f, "{}{item}", if i > 0 { "," } else { "" })?;
                }
                write!(f, "]")
            }
            Json::Obj(members) => {
                write!(f, "{{")?;
                for (i, (key, value)) in members.iter().enumerate() {
                    write!(f, "{}", if i > 0 { "," } else { "" })?;
                    write_string(f, key)?;
                    write!(f, ":{value}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

fn write_string(f: &mut std::fmt::Formatter, text: &str) -> std::fmt::Result {
    write!(f, "\"")?;
    for c in text.chars() {
        match c {
            '"' => write!(f, "\\\"")?,
            '\\' => write!(f, "\\\\")?,
            '\n' => write!(f, "\\n")?,
            '\r' => write!(f, "\\r")?,
            '\t' => write!(f, "\\t")?,
            '\u{8}' => write!(f, "\\b")?,
            '\u{c}' => write!(f, "\\f")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    write!(f, "\"")
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> Result<(), String> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", byte as char, self.pos))
        }
    }

    fn value(&mut self) -> Result<Json, String> {
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(format!("unexpected byte at {}", self.pos)),
        }
    }

    fn word(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(value)
        } else {
            Err(format!("unknown word at byte {}", self.pos))
        }
    }

    fn object(&mut self) -> Result<Json, String> {
        self.eat(b'{')?;
        let mut members = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Obj(members));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(format!("expected a key at byte {}", self.pos));
            }
            let key = self.string()?;
            self.eat(b':')?;
            members.push((key, self.value()?));
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Obj(members));
                }
                _ => return Err(format!("expected ',' or '}}' at byte {}", self.pos)),
            }
        }
    }

    fn array(&mut self) -> Result<Json, String> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        self.skip_space();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Arr(items));
        }
        loop {
            items.push(self.value()?);
            self.skip_space();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Arr(items));
                }
                _ => return Err(format!("expected ',' or ']' at byte {}", self.pos)),
            }
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.pos += 1; // the opening quote
        let mut out = String::new();
        loop {
            let start = self.pos;
            while matches!(self.peek(), Some(b) if b != b'"' && b != b'\\' && b >= 0x20) {
                self.pos += 1;
            }
            // The input is a &str and the run stops only at ASCII bytes, so it is valid UTF-8.
            out.push_str(
                std::str::from_utf8(&self.bytes[start..self.pos]).map_err(|e| e.to_string())?,
            );
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let escape = self.peek().ok_or("unterminated escape")?;
                    self.pos += 1;
                    out.push(match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(format!("bad escape at byte {}", self.pos)),
                    });
                }
                _ => return Err(format!("unterminated string at byte {}", self.pos)),
            }
        }
    }

    /// The character after `\u`, joining a surrogate pair; a lone surrogate is an error.
    fn unicode_escape(&mut self) -> Result<char, String> {
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if !self.bytes[self.pos..].starts_with(b"\\u") {
                return Err("lone surrogate".to_string());
            }
            self.pos += 2;
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err("lone surrogate".to_string());
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else {
            high
        };
        char::from_u32(code).ok_or_else(|| "lone surrogate".to_string())
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self
            .bytes
            .get(self.pos..self.pos + 4)
            .ok_or("short \\u escape")?;
        let digits = std::str::from_utf8(digits).map_err(|e| e.to_string())?;
        let code = u32::from_str_radix(digits, 16).map_err(|e| e.to_string())?;
        self.pos += 4;
        Ok(code)
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.pos;
        let digits = |r: &mut Self| {
            let from = r.pos;
            while matches!(r.peek(), Some(b'0'..=b'9')) {
                r.pos += 1;
            }
            r.pos > from
        };
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if self.peek() == Some(b'0') {
            self.pos += 1;
        } else if !digits(self) {
            return Err(format!("bad number at byte {start}"));
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            self.pos += 1;
            integer = false;
            if !digits(self) {
                return Err(format!("bad number at byte {start}"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            integer = false;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if !digits(self) {
                return Err(format!("bad number at byte {start}"));
            }
        }
        let text = std::str::from_utf8(&self.bytes[start..self.pos]).map_err(|e| e.to_string())?;
        match text.parse::<i64>() {
            Ok(n) if integer => Ok(Json::Int(n)),
            _ => text
                .parse::<f64>()
                .map(Json::Float)
                .map_err(|e| e.to_string()),
        }
    }
}
