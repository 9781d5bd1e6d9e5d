// state-handles: an MCP server (revision 2026-07-28) over stdio, std only, for the page
// "State without sessions". A small shop keeps baskets across tool calls without any session:
// basket_create returns an explicit handle, basket_id, and every later call passes it back as
// an ordinary argument.
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
const SERVER_NAME: &str = "basket";
const SERVER_VERSION: &str = "1.0.0";

// ANCHOR: tools
/// What tools/list sends. The lifetime of a basket is stated where the model decides to make
/// one: in basket_create's description.
const TOOLS: &str = r#"[
  {
    "name": "basket_create",
    "title": "Create a basket",
    "description": "Open a new, empty shopping basket and return its id as basket_id. Pass that basket_id to basket_add, basket_show and basket_checkout. A basket lasts until it is checked out or until this server stops, whichever comes first; after that its basket_id is no longer accepted and a new basket must be created.",
    "inputSchema": {"type": "object", "additionalProperties": false},
    "outputSchema": {
      "type": "object",
      "properties": {"basket_id": {"type": "string"}},
      "required": ["basket_id"],
      "additionalProperties": false
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "basket_add",
    "title": "Add to a basket",
    "description": "Add a quantity of one product to an open basket and return the whole basket. Adding a product that is already in the basket raises its quantity. Products: TEA-GREEN, HONEY, MUG.",
    "inputSchema": {
      "type": "object",
      "properties": {
        "basket_id": {"type": "string", "description": "The basket_id that basket_create returned"},
        "sku": {"type": "string", "enum": ["TEA-GREEN", "HONEY", "MUG"]},
        "quantity": {"type": "integer", "minimum": 1}
      },
      "required": ["basket_id", "sku", "quantity"],
      "additionalProperties": false
    },
    "outputSchema": {
      "type": "object",
      "properties": {
        "basket_id": {"type": "string"},
        "items": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "sku": {"type": "string"},
              "quantity": {"type": "integer"},
              "price_cents": {"type": "integer"}
            },
            "required": ["sku", "quantity", "price_cents"]
          }
        },
        "total_cents": {"type": "integer"}
      },
      "required": ["basket_id", "items", "total_cents"]
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": false,
      "idempotentHint": false,
      "openWorldHint": false
    }
  },
  {
    "name": "basket_show",
    "title": "Show a basket",
    "description": "Return the contents and the total of an open basket, without changing it.",
    "inputSchema": {
      "type": "object",
      "properties": {"basket_id": {"type": "string", "description": "The basket_id that basket_create returned"}},
      "required": ["basket_id"],
      "additionalProperties": false
    },
    "outputSchema": {
      "type": "object",
      "properties": {
        "basket_id": {"type": "string"},
        "items": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "sku": {"type": "string"},
              "quantity": {"type": "integer"},
              "price_cents": {"type": "integer"}
            },
            "required": ["sku", "quantity", "price_cents"]
          }
        },
        "total_cents": {"type": "integer"}
      },
      "required": ["basket_id", "items", "total_cents"]
    },
    "annotations": {"readOnlyHint": true, "openWorldHint": false}
  },
  {
    "name": "basket_checkout",
    "title": "Check out a basket",
    "description": "Turn an open, non-empty basket into an order and close the basket. Returns the order_id and the total. The basket_id is no longer accepted afterwards.",
    "inputSchema": {
      "type": "object",
      "properties": {"basket_id": {"type": "string", "description": "The basket_id that basket_create returned"}},
      "required": ["basket_id"],
      "additionalProperties": false
    },
    "outputSchema": {
      "type": "object",
      "properties": {
        "order_id": {"type": "string"},
        "basket_id": {"type": "string"},
        "total_cents": {"type": "integer"}
      },
      "required": ["order_id", "basket_id", "total_cents"],
      "additionalProperties": false
    },
    "annotations": {
      "readOnlyHint": false,
      "destructiveHint": true,
      "idempotentHint": false,
      "openWorldHint": false
    }
  }
]"#;
// ANCHOR_END: tools

/// (sku, price in cents) of each product.
const PRODUCTS: [(&str, i64); 3] = [("TEA-GREEN", 450), ("HONEY", 650), ("MUG", 900)];

// ANCHOR: store
/// Who is asking. On stdio that is whoever started this process, so there is one caller;
/// over Streamable HTTP it would come from the access token on this very request, and it is
/// checked against the basket on every call, because a handle is a name, not a permission.
const CALLER: &str = "local-user";

struct Basket {
    owner: String,
    /// (sku, quantity), in the order the products were first added.
    items: Vec<(String, i64)>,
    /// Set by basket_checkout; a closed basket's id is no longer accepted.
    order_id: Option<String>,
}

/// Every basket, by handle. Kept in this process's memory, so it lives as long as the process.
struct Shop {
    tools: Json,
    baskets: HashMap<String, Basket>,
    created: u32,
    orders: u32,
}

impl Shop {
    fn new_handle(&mut self) -> String {
        // A real server would use a high-entropy, unguessable value here, such as a UUIDv4.
        // This one counts, so that the answer key is the same, byte for byte, on every run.
        self.created += 1;
        format!("bsk_{}", self.created)
    }

    /// The open basket `args.basket_id` names, if the caller may use it. An unknown handle,
    /// someone else's basket and a closed basket are tool execution errors (isError: true)
    /// whose text tells the model how to recover.
    fn open_basket(&mut self, caller: &str, args: &Json) -> Result<(String, &mut Basket), String> {
        let Some(id) = args.get("basket_id").and_then(Json::as_str) else {
            return Err(
                "basket_id is required: pass the basket_id that basket_create returned."
                    .to_string(),
            );
        };
        let id = id.to_string();
        match self.baskets.get_mut(&id) {
            // Another caller's basket gets the same answer as a handle that never existed,
            // so handles cannot be probed.
            Some(basket) if basket.owner == caller => match &basket.order_id {
                None => Ok((id, basket)),
                Some(order) => Err(format!(
                    "Basket {id} was checked out as {order} and is closed. \
                     Create a new basket with basket_create."
                )),
            },
            _ => Err(format!(
                "Unknown basket_id {id}. Baskets last until checkout or until the server stops; \
                 create a new one with basket_create."
            )),
        }
    }
}
// ANCHOR_END: store

// ANCHOR: tools-impl
impl Shop {
    fn basket_create(&mut self, caller: &str, args: &Json) -> Result<Json, String> {
        only_known_arguments(args, &[])?;
        let id = self.new_handle();
        let basket = Basket {
            owner: caller.to_string(),
            items: Vec::new(),
            order_id: None,
        };
        self.baskets.insert(id.clone(), basket);
        Ok(obj(vec![("basket_id", Json::from(id.as_str()))]))
    }

    fn basket_add(&mut self, caller: &str, args: &Json) -> Result<Json, String> {
        only_known_arguments(args, &["basket_id", "sku", "quantity"])?;
        let (id, basket) = self.open_basket(caller, args)?;
        let sku = args.get("sku").and_then(Json::as_str);
        let Some((sku, _)) = PRODUCTS.iter().find(|(known, _)| Some(*known) == sku) else {
            return Err("sku must be one of TEA-GREEN, HONEY, MUG".to_string());
        };
        let quantity = match args.get("quantity") {
            Some(Json::Int(n)) if *n >= 1 => *n,
            _ => return Err("quantity must be a whole number of at least 1".to_string()),
        };
        match basket.items.iter_mut().find(|(s, _)| s == sku) {
            Some((_, count)) => *count += quantity,
            None => basket.items.push((sku.to_string(), quantity)),
        }
        Ok(view(&id, basket))
    }

    fn basket_show(&mut self, caller: &str, args: &Json) -> Result<Json, String> {
        only_known_arguments(args, &["basket_id"])?;
        let (id, basket) = self.open_basket(caller, args)?;
        Ok(view(&id, basket))
    }

    fn basket_checkout(&mut self, caller: &str, args: &Json) -> Result<Json, String> {
        only_known_arguments(args, &["basket_id"])?;
        let order_id = format!("ord_{}", self.orders + 1);
        let (id, basket) = self.open_basket(caller, args)?;
        if basket.items.is_empty() {
            return Err(format!(
                "Basket {id} is empty; add something with basket_add first."
            ));
        }
        let total = total_cents(basket);
        basket.order_id = Some(order_id.clone());
        self.orders += 1;
        Ok(obj(vec![
            ("order_id", Json::from(order_id.as_str())),
            ("basket_id", Json::from(id.as_str())),
            ("total_cents", Json::Int(total)),
        ]))
    }
}
// ANCHOR_END: tools-impl

fn price(sku: &str) -> i64 {
    PRODUCTS
        .iter()
        .find(|(s, _)| *s == sku)
        .map(|(_, p)| *p)
        .unwrap_or(0)
}

fn total_cents(basket: &Basket) -> i64 {
    basket.items.iter().map(|(sku, n)| price(sku) * n).sum()
}

/// What basket_add and basket_show return.
fn view(id: &str, basket: &Basket) -> Json {
    let items = basket
        .items
        .iter()
        .map(|(sku, n)| {
            obj(vec![
                ("sku", Json::from(sku.as_str())),
                ("quantity", Json::Int(*n)),
                ("price_cents", Json::Int(price(sku))),
            ])
        })
        .collect();
    obj(vec![
        ("basket_id", Json::from(id)),
        ("items", Json::Arr(items)),
        ("total_cents", Json::Int(total_cents(basket))),
    ])
}

/// The schemas say additionalProperties: false, and the server holds itself to that.
fn only_known_arguments(args: &Json, known: &[&str]) -> Result<(), String> {
    if let Json::Obj(members) = args {
        for (key, _) in members {
            if !known.contains(&key.as_str()) {
                let takes = if known.is_empty() {
                    "no arguments".to_string()
                } else {
                    known.join(", ")
                };
                return Err(format!("Unknown argument {key}; this tool takes: {takes}"));
            }
        }
    }
    Ok(())
}

fn text_block(text: &str) -> Json {
    obj(vec![
        ("type", Json::from("text")),
        ("text", Json::from(text)),
    ])
}

impl Shop {
    /// tools/call. An unknown tool or a malformed call is a protocol error (-32602); a tool
    /// that ran and failed, including one handed a bad basket_id, is a result with isError.
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
            "basket_create" => self.basket_create(CALLER, args),
            "basket_add" => self.basket_add(CALLER, args),
            "basket_show" => self.basket_show(CALLER, args),
            "basket_checkout" => self.basket_checkout(CALLER, args),
            _ => return Err((-32602, format!("Unknown tool: {name}"))),
        };
        Ok(match outcome {
            Ok(value) => {
                let text = value.to_string();
                result(vec![
                    ("content", Json::Arr(vec![text_block(&text)])),
                    ("structuredContent", value),
                    ("isError", Json::Bool(false)),
                ])
            }
            Err(message) => result(vec![
                ("content", Json::Arr(vec![text_block(&message)])),
                ("isError", Json::Bool(true)),
            ]),
        })
    }
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

impl Shop {
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
                ("ttlMs", Json::Int(3_600_000)),
                ("cacheScope", Json::from("public")),
            ])),
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
    let mut shop = Shop {
        tools,
        baskets: HashMap::new(),
        created: 0,
        orders: 0,
    };
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        let text = String::from_utf8_lossy(&line);
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if let Some(reply) = shop.handle(text) {
            writeln!(stdout, "{reply}").expect("cannot write stdout");
            stdout.flush().expect("cannot flush stdout");
        }
    }
    // EOF on stdin: the client has closed it. Every basket goes with the process.
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
