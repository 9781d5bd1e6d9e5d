// tool-design: an MCP server (revision 2026-07-28) over stdio, std only, for the page
// "Tools a model can pick". It runs a pretend warehouse with three tools whose names,
// descriptions, input and output schemas and annotations are written for a model to read.
//
// One JSON-RPC message per line comes in on stdin; one reply per request goes out on stdout.
// stdout is the wire and carries nothing else; diagnostics go to stderr.
//
// THE JSON CODE AT THE BOTTOM IS A TOY: a small reader and writer written for this example
// only, with terse error messages, no limits on nesting, and numbers with a fraction or an
// exponent kept as f64 and never written back. The site's serde_json page shows the real
// thing.

use std::collections::HashMap;
use std::io::{self, BufRead, Write};

const VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "warehouse";
const SERVER_VERSION: &str = "1.0.0";

// ANCHOR: tools
/// What tools/list sends. A model sees only these names, descriptions and schemas, so they
/// are written as its manual: what the tool is for, when to call it, what the arguments look
/// like, what comes back and how it fails.
const TOOLS: &str = r#"[
  {
    "name": "stock_level",
    "title": "Stock level",
    "description": "Look up how many units of one article are on hand in one storage location of the warehouse, and how many of them are already reserved. Call it before promising a delivery and before stock_reserve. sku is the article number from the shelf label, in capitals, for example BOLT-M8. location is a code from stock_locations and defaults to MAIN. An unknown sku or location is reported as an error that lists the valid values.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "sku": {"type": "string", "description": "Article number, for example BOLT-M8"},
        "location": {"type": "string", "description": "Location code from stock_locations", "default": "MAIN"}
      },
      "required": ["sku"],
      "additionalProperties": false
    },
    "outputSchema": {
      "type": "object",
      "properties": {
        "sku": {"type": "string"},
        "location": {"type": "string"},
        "on_hand": {"type": "integer", "minimum": 0},
        "reserved": {"type": "integer", "minimum": 0},
        "unit": {"type": "string", "enum": ["pcs", "m", "kg"]}
      },
      "required": ["sku", "location", "on_hand", "reserved", "unit"],
      "additionalProperties": false
    },
    "annotations": {"readOnlyHint": true, "openWorldHint": false}
  },
  {
    "name": "stock_locations",
    "title": "Storage locations",
    "description": "List the storage locations of the warehouse, each with its code and name. Takes no arguments. Call it once to learn the location codes that stock_level and stock_reserve accept.",
    "inputSchema": {"type": "object", "additionalProperties": false},
    "outputSchema": {
      "type": "object",
      "properties": {
        "locations": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {"code": {"type": "string"}, "name": {"type": "string"}},
            "required": ["code", "name"]
          }
        }
      },
      "required": ["locations"]
    },
    "annotations": {"readOnlyHint": true, "openWorldHint": false}
  },
  {
    "name": "stock_reserve",
    "title": "Reserve stock",
    "description": "Reserve a quantity of one article in one location for a customer order, so that it is not promised twice. Every call creates a new reservation: calling it twice reserves twice, so call it once per order line. If fewer units are free than asked for, nothing is reserved and the error says how many are free. Returns the reservation number.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "sku": {"type": "string", "description": "Article number, for example BOLT-M8"},
        "location": {"type": "string", "description": "Location code from stock_locations", "default": "MAIN"},
        "quantity": {"type": "integer", "minimum": 1, "description": "Units to reserve, in the article's unit"},
        "order": {"type": "string", "description": "Customer order number, for example SO-4711"}
      },
      "required": ["sku", "quantity", "order"],
      "additionalProperties": false
    },
    "outputSchema": {
      "type": "object",
      "properties": {
        "reservation": {"type": "string"},
        "sku": {"type": "string"},
        "location": {"type": "string"},
        "quantity": {"type": "integer"},
        "order": {"type": "string"}
      },
      "required": ["reservation", "sku", "location", "quantity", "order"],
      "additionalProperties": false
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  }
]"#;
// ANCHOR_END: tools

/// Advice for the whole server, sent in the server/discover result.
const INSTRUCTIONS: &str = "A pretend warehouse. Learn the location codes with stock_locations, \
    check stock with stock_level, and reserve only when the user asks for it.";

/// (code, name) of each storage location.
const LOCATIONS: [(&str, &str); 2] = [("MAIN", "Main hall"), ("COLD", "Cold store, 5 °C")];
/// (sku, unit) of each article.
const ARTICLES: [(&str, &str); 3] = [("BOLT-M8", "pcs"), ("CABLE-3X15", "m"), ("GLUE-PU", "kg")];
/// (sku, location, units on hand); a pair that is not listed holds nothing.
const ON_HAND: [(&str, &str, i64); 3] = [
    ("BOLT-M8", "MAIN", 1200),
    ("CABLE-3X15", "MAIN", 340),
    ("GLUE-PU", "COLD", 18),
];

struct Warehouse {
    tools: Json,
    /// Units reserved so far, by (sku, location). Lives only as long as this process.
    reserved: HashMap<(String, String), i64>,
    reservations: u32,
}

// ANCHOR: call
impl Warehouse {
    /// tools/call. An unknown tool or a malformed call is a protocol error (-32602); a tool
    /// that ran and failed is a normal result with "isError": true that the model can read.
    fn call_tool(&mut self, params: &Json) -> Result<Json, (i64, String)> {
        let Some(name) = params.get("name").and_then(Json::as_str) else {
            return Err((
                -32602,
                "Invalid params: params.name must be a string".to_string(),
            ));
        };
        let empty = Json::Obj(Vec::new());
        let args = params.get("arguments").unwrap_or(&empty);
        if !matches!(args, Json::Obj(_)) {
            return Err((
                -32602,
                "Invalid params: params.arguments must be an object".to_string(),
            ));
        }
        let outcome = match name {
            "stock_level" => self.stock_level(args),
            "stock_locations" => stock_locations(args),
            "stock_reserve" => self.stock_reserve(args),
            _ => return Err((-32602, format!("Unknown tool: {name}"))),
        };
        Ok(match outcome {
            // Success: the value goes out twice, as structuredContent for programs and as the
            // same JSON serialised into a text block for clients that only read content.
            Ok(value) => {
                let text = value.to_string();
                result(vec![
                    ("content", Json::Arr(vec![text_block(&text)])),
                    ("structuredContent", value),
                    ("isError", Json::Bool(false)),
                ])
            }
            // Failure the model can act on: plain text, no structuredContent.
            Err(message) => result(vec![
                ("content", Json::Arr(vec![text_block(&message)])),
                ("isError", Json::Bool(true)),
            ]),
        })
    }
    // ANCHOR_END: call

    fn stock_level(&self, args: &Json) -> Result<Json, String> {
        only_known_arguments(args, &["sku", "location"])?;
        let (sku, unit) = article(args)?;
        let location = location(args)?;
        Ok(obj(vec![
            ("sku", Json::from(sku)),
            ("location", Json::from(location)),
            ("on_hand", Json::Int(on_hand(sku, location))),
            ("reserved", Json::Int(self.reserved_units(sku, location))),
            ("unit", Json::from(unit)),
        ]))
    }

    fn stock_reserve(&mut self, args: &Json) -> Result<Json, String> {
        only_known_arguments(args, &["sku", "location", "quantity", "order"])?;
        let (sku, unit) = article(args)?;
        let location = location(args)?;
        let quantity = match args.get("quantity") {
            Some(Json::Int(n)) if *n >= 1 => *n,
            _ => return Err("quantity must be a whole number of at least 1".to_string()),
        };
        let Some(order) = args
            .get("order")
            .and_then(Json::as_str)
            .filter(|o| !o.is_empty())
        else {
            return Err("order must be a customer order number such as SO-4711".to_string());
        };
        let free = on_hand(sku, location) - self.reserved_units(sku, location);
        if quantity > free {
            return Err(format!(
                "Only {free} {unit} of {sku} are free in {location}; nothing was reserved. \
                 Ask for at most {free}, or check another location with stock_level."
            ));
        }
        *self
            .reserved
            .entry((sku.to_string(), location.to_string()))
            .or_insert(0) += quantity;
        self.reservations += 1;
        Ok(obj(vec![
            (
                "reservation",
                Json::from(format!("RSV-{}", self.reservations).as_str()),
            ),
            ("sku", Json::from(sku)),
            ("location", Json::from(location)),
            ("quantity", Json::Int(quantity)),
            ("order", Json::from(order)),
        ]))
    }

    fn reserved_units(&self, sku: &str, location: &str) -> i64 {
        let key = (sku.to_string(), location.to_string());
        self.reserved.get(&key).copied().unwrap_or(0)
    }
}

fn stock_locations(args: &Json) -> Result<Json, String> {
    only_known_arguments(args, &[])?;
    let list = LOCATIONS
        .iter()
        .map(|(code, name)| {
            obj(vec![
                ("code", Json::from(*code)),
                ("name", Json::from(*name)),
            ])
        })
        .collect();
    Ok(obj(vec![("locations", Json::Arr(list))]))
}

/// The schemas say additionalProperties: false, and the server holds itself to that.
fn only_known_arguments(args: &Json, known: &[&str]) -> Result<(), String> {
    if let Json::Obj(members) = args {
        for (key, _) in members {
            if !known.contains(&key.as_str()) {
                return Err(format!(
                    "Unknown argument {key}; this tool takes: {}",
                    list_or_none(known)
                ));
            }
        }
    }
    Ok(())
}

fn list_or_none(names: &[&str]) -> String {
    if names.is_empty() {
        "no arguments".to_string()
    } else {
        names.join(", ")
    }
}

/// The sku argument and the article's unit, or an error naming the known articles.
fn article(args: &Json) -> Result<(&'static str, &'static str), String> {
    let sku = args.get("sku").and_then(Json::as_str);
    match ARTICLES.iter().find(|(known, _)| Some(*known) == sku) {
        Some((sku, unit)) => Ok((sku, unit)),
        None => {
            let known: Vec<&str> = ARTICLES.iter().map(|(s, _)| *s).collect();
            Err(format!(
                "Unknown article {}; known articles: {}",
                sku.unwrap_or("(none given)"),
                known.join(", ")
            ))
        }
    }
}

/// The location argument (MAIN when left out), or an error naming the known codes.
fn location(args: &Json) -> Result<&'static str, String> {
    let code = match args.get("location") {
        None => Some("MAIN"),
        Some(value) => value.as_str(),
    };
    match LOCATIONS.iter().find(|(known, _)| Some(*known) == code) {
        Some((code, _)) => Ok(code),
        None => {
            let known: Vec<&str> = LOCATIONS.iter().map(|(c, _)| *c).collect();
            Err(format!(
                "Unknown location {}; known locations: {}",
                code.unwrap_or("(not a string)"),
                known.join(", ")
            ))
        }
    }
}

fn on_hand(sku: &str, location: &str) -> i64 {
    ON_HAND
        .iter()
        .find(|(s, l, _)| *s == sku && *l == location)
        .map(|(_, _, n)| *n)
        .unwrap_or(0)
}

fn text_block(text: &str) -> Json {
    obj(vec![
        ("type", Json::from("text")),
        ("text", Json::from(text)),
    ])
}

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

fn reply(id: Json, outcome: Result<Json, (i64, String)>) -> Json {
    match outcome {
        Ok(result) => obj(vec![
            ("jsonrpc", Json::from("2.0")),
            ("id", id),
            ("result", result),
        ]),
        Err((code, message)) => error_reply(id, code, &message, None),
    }
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

impl Warehouse {
    /// One line in, at most one reply out. Notifications (no id) never get a reply.
    fn handle(&mut self, line: &str) -> Option<Json> {
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
        if !["server/discover", "tools/list", "tools/call"].contains(&method) {
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
                ("capabilities", obj(vec![("tools", obj(vec![]))])),
                ("instructions", Json::from(INSTRUCTIONS)),
                ("ttlMs", Json::Int(3_600_000)),
                ("cacheScope", Json::from("public")),
            ])),
            // The same list for every caller: cacheable for five minutes, by anyone.
            "tools/list" => Ok(result(vec![
                ("tools", self.tools.clone()),
                ("ttlMs", Json::Int(300_000)),
                ("cacheScope", Json::from("public")),
            ])),
            _ => self.call_tool(params),
        };
        Some(reply(id, outcome))
    }
}

fn main() {
    let tools = Json::parse(TOOLS).expect("TOOLS is valid JSON");
    let mut server = Warehouse {
        tools,
        reserved: HashMap::new(),
        reservations: 0,
    };
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if let Some(reply) = server.handle(text) {
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
