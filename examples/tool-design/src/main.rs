// tool-design: an MCP server (revision 2026-07-28) over stdio, for the page "Tools a model can
// pick". It runs a pretend warehouse with three tools whose names, descriptions, input and
// output schemas and annotations are written for a model to read. JSON goes through serde_json;
// the tool list and every reply are typed values, whose declaration order is the wire order.
//
// One JSON-RPC message per line comes in on stdin; one reply per request goes out on stdout.
// stdout is the wire and carries nothing else; diagnostics go to stderr.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

const VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "warehouse";
const SERVER_VERSION: &str = "1.0.0";

// ANCHOR: tools
/// What tools/list sends. A model sees only these names, descriptions and schemas, so they
/// are written as its manual: what the tool is for, when to call it, what the arguments look
/// like, what comes back and how it fails.
fn tools() -> Vec<Tool> {
    // The arguments, each described where the model reads it.
    let sku = || Schema::string(Some("Article number, for example BOLT-M8"));
    let location = || Schema::String {
        enum_values: None,
        description: Some("Location code from stock_locations"),
        default: Some("MAIN"),
    };
    let quantity = Schema::Integer { minimum: Some(1), description: Some("Units to reserve, in the article's unit") };
    let order = Schema::string(Some("Customer order number, for example SO-4711"));
    // The fields of the answers, which the tool descriptions already explain.
    let text = || Schema::string(None);
    let count = || Schema::Integer { minimum: Some(0), description: None };
    let unit = Schema::String { enum_values: Some(&["pcs", "m", "kg"]), description: None, default: None };
    let place = Schema::object(vec![("code", text()), ("name", text())], &["code", "name"], OPEN);
    vec![
        Tool {
            name: "stock_level",
            title: "Stock level",
            description: "Look up how many units of one article are on hand in one storage location \
                of the warehouse, and how many of them are already reserved. Call it before promising \
                a delivery and before stock_reserve. sku is the article number from the shelf label, \
                in capitals, for example BOLT-M8. location is a code from stock_locations and \
                defaults to MAIN. An unknown sku or location is reported as an error that lists the \
                valid values.",
            input_schema: Schema::object(vec![("sku", sku()), ("location", location())], &["sku"], CLOSED),
            output_schema: Schema::record(vec![
                ("sku", text()),
                ("location", text()),
                ("on_hand", count()),
                ("reserved", count()),
                ("unit", unit),
            ]),
            annotations: Annotations::READ_ONLY,
        },
        Tool {
            name: "stock_locations",
            title: "Storage locations",
            description: "List the storage locations of the warehouse, each with its code and name. \
                Takes no arguments. Call it once to learn the location codes that stock_level and \
                stock_reserve accept.",
            input_schema: Schema::object(vec![], &[], CLOSED),
            output_schema: Schema::object(
                vec![("locations", Schema::Array { items: Box::new(place) })],
                &["locations"],
                OPEN,
            ),
            annotations: Annotations::READ_ONLY,
        },
        Tool {
            name: "stock_reserve",
            title: "Reserve stock",
            description: "Reserve a quantity of one article in one location for a customer order, so \
                that it is not promised twice. Every call creates a new reservation: calling it twice \
                reserves twice, so call it once per order line. If fewer units are free than asked \
                for, nothing is reserved and the error says how many are free. Returns the \
                reservation number.",
            input_schema: Schema::object(
                vec![("sku", sku()), ("location", location()), ("quantity", quantity), ("order", order)],
                &["sku", "quantity", "order"],
                CLOSED,
            ),
            output_schema: Schema::record(vec![
                ("reservation", text()),
                ("sku", text()),
                ("location", text()),
                ("quantity", Schema::Integer { minimum: None, description: None }),
                ("order", text()),
            ]),
            // Not read-only, not destructive (it adds, never overwrites), and not idempotent:
            // the same call twice reserves twice.
            annotations: Annotations {
                read_only_hint: false,
                writes: Some(WriteHints { destructive_hint: false, idempotent_hint: false }),
                open_world_hint: false,
            },
        },
    ]
}
// ANCHOR_END: tools

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: Schema,
    output_schema: Schema,
    annotations: Annotations,
}

/// The JSON Schema these tools need: `"type"` first, then each kind's own keywords in the order
/// written here. An object's properties are a list of pairs so that they keep their order.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase", rename_all_fields = "camelCase")]
enum Schema {
    String {
        #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
        enum_values: Option<&'static [&'static str]>,
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        default: Option<&'static str>,
    },
    Integer {
        #[serde(skip_serializing_if = "Option::is_none")]
        minimum: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        description: Option<&'static str>,
    },
    Array {
        items: Box<Schema>,
    },
    Object {
        #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "pairs_as_object")]
        properties: Vec<(&'static str, Schema)>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        required: Vec<&'static str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        additional_properties: Option<bool>,
    },
}

/// additionalProperties: false, the object has no other properties; or left out, it may have any.
const CLOSED: Option<bool> = Some(false);
const OPEN: Option<bool> = None;

fn pairs_as_object<S: Serializer>(pairs: &[(&'static str, Schema)], out: S) -> Result<S::Ok, S::Error> {
    out.collect_map(pairs.iter().map(|(key, value)| (key, value)))
}

impl Schema {
    fn string(description: Option<&'static str>) -> Schema {
        Schema::String { enum_values: None, description, default: None }
    }

    fn object(
        properties: Vec<(&'static str, Schema)>,
        required: &[&'static str],
        additional_properties: Option<bool>,
    ) -> Schema {
        Schema::Object { properties, required: required.to_vec(), additional_properties }
    }

    /// An answer's schema: every property always there, and nothing else.
    fn record(properties: Vec<(&'static str, Schema)>) -> Schema {
        let required = properties.iter().map(|(name, _)| *name).collect();
        Schema::Object { properties, required, additional_properties: Some(false) }
    }
}

/// Hints for the client. The two write hints only mean something for a tool that is not
/// read-only, so a read-only tool leaves them out.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    read_only_hint: bool,
    #[serde(flatten)]
    writes: Option<WriteHints>,
    open_world_hint: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct WriteHints {
    destructive_hint: bool,
    idempotent_hint: bool,
}

impl Annotations {
    const READ_ONLY: Annotations = Annotations { read_only_hint: true, writes: None, open_world_hint: false };
}

/// Advice for the whole server, sent in the server/discover result.
const INSTRUCTIONS: &str = "A pretend warehouse. Learn the location codes with stock_locations, \
    check stock with stock_level, and reserve only when the user asks for it.";

/// (code, name) of each storage location.
const LOCATIONS: [(&str, &str); 2] = [("MAIN", "Main hall"), ("COLD", "Cold store, 5 °C")];
/// (sku, unit) of each article.
const ARTICLES: [(&str, &str); 3] = [("BOLT-M8", "pcs"), ("CABLE-3X15", "m"), ("GLUE-PU", "kg")];
/// (sku, location, units on hand); a pair that is not listed holds nothing.
const ON_HAND: [(&str, &str, i64); 3] =
    [("BOLT-M8", "MAIN", 1200), ("CABLE-3X15", "MAIN", 340), ("GLUE-PU", "COLD", 18)];

#[derive(Default)]
struct Warehouse {
    /// Units reserved so far, by (sku, location). Lives only as long as this process.
    reserved: HashMap<(&'static str, &'static str), i64>,
    reservations: u32,
}

/// What each tool answers, shaped as its outputSchema says.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Level { sku: &'static str, location: &'static str, on_hand: i64, reserved: i64, unit: &'static str },
    Locations { locations: Vec<Location> },
    Reserved { reservation: String, sku: &'static str, location: &'static str, quantity: i64, order: String },
}

#[derive(Serialize)]
struct Location {
    code: &'static str,
    name: &'static str,
}

/// A tools/call result: content always, structuredContent only on success.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolResult {
    content: Vec<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<Answer>,
    is_error: bool,
}

/// A text content block: serde writes the tag first, so it goes out as `{"type":"text","text":...}`.
#[derive(Serialize)]
#[serde(tag = "type", rename = "text")]
struct Text {
    text: String,
}

// ANCHOR: call
impl Warehouse {
    /// tools/call. An unknown tool or a malformed call is a protocol error (-32602); a tool
    /// that ran and failed is a normal result with "isError": true that the model can read.
    fn call_tool(&mut self, params: &Map<String, Value>) -> Result<ToolResult, RpcError> {
        let name = params.get("name").and_then(Value::as_str);
        let name = name.ok_or_else(|| RpcError::invalid("params.name must be a string"))?;
        let args = match params.get("arguments") {
            None => &Map::new(),
            Some(Value::Object(args)) => args,
            Some(_) => return Err(RpcError::invalid("params.arguments must be an object")),
        };
        let outcome = match name {
            "stock_level" => self.stock_level(args),
            "stock_locations" => stock_locations(args),
            "stock_reserve" => self.stock_reserve(args),
            _ => return Err(RpcError::new(-32602, format!("Unknown tool: {name}"))),
        };
        Ok(match outcome {
            // Success: the answer goes out twice, as structuredContent for programs and as the
            // same JSON serialised into a text block for clients that only read content.
            Ok(answer) => ToolResult {
                content: vec![Text { text: serde_json::to_string(&answer).expect("an answer serialises") }],
                structured_content: Some(answer),
                is_error: false,
            },
            // Failure the model can act on: plain text, no structuredContent.
            Err(text) => ToolResult { content: vec![Text { text }], structured_content: None, is_error: true },
        })
    }
    // ANCHOR_END: call

    fn stock_level(&self, args: &Map<String, Value>) -> Result<Answer, String> {
        only_known_arguments(args, &["sku", "location"])?;
        let (sku, unit) = article(args)?;
        let location = location(args)?;
        let (on_hand, reserved) = (on_hand(sku, location), self.reserved_units(sku, location));
        Ok(Answer::Level { sku, location, on_hand, reserved, unit })
    }

    fn stock_reserve(&mut self, args: &Map<String, Value>) -> Result<Answer, String> {
        only_known_arguments(args, &["sku", "location", "quantity", "order"])?;
        let (sku, unit) = article(args)?;
        let location = location(args)?;
        let quantity = args.get("quantity").and_then(Value::as_i64).filter(|n| *n >= 1);
        let quantity = quantity.ok_or("quantity must be a whole number of at least 1")?;
        let order = args.get("order").and_then(Value::as_str).filter(|o| !o.is_empty());
        let order = order.ok_or("order must be a customer order number such as SO-4711")?.to_string();
        let free = on_hand(sku, location) - self.reserved_units(sku, location);
        if quantity > free {
            return Err(format!(
                "Only {free} {unit} of {sku} are free in {location}; nothing was reserved. \
                 Ask for at most {free}, or check another location with stock_level."
            ));
        }
        *self.reserved.entry((sku, location)).or_default() += quantity;
        self.reservations += 1;
        let reservation = format!("RSV-{}", self.reservations);
        Ok(Answer::Reserved { reservation, sku, location, quantity, order })
    }

    fn reserved_units(&self, sku: &'static str, location: &'static str) -> i64 {
        self.reserved.get(&(sku, location)).copied().unwrap_or(0)
    }
}

fn stock_locations(args: &Map<String, Value>) -> Result<Answer, String> {
    only_known_arguments(args, &[])?;
    let locations = LOCATIONS.iter().map(|&(code, name)| Location { code, name }).collect();
    Ok(Answer::Locations { locations })
}

/// The schemas say additionalProperties: false, and the server holds itself to that.
fn only_known_arguments(args: &Map<String, Value>, known: &[&str]) -> Result<(), String> {
    let Some(unknown) = args.keys().find(|key| !known.contains(&key.as_str())) else {
        return Ok(());
    };
    let takes = if known.is_empty() { "no arguments".to_string() } else { known.join(", ") };
    Err(format!("Unknown argument {unknown}; this tool takes: {takes}"))
}

/// The sku argument and the article's unit, or an error naming the known articles.
fn article(args: &Map<String, Value>) -> Result<(&'static str, &'static str), String> {
    let sku = args.get("sku").and_then(Value::as_str);
    ARTICLES.iter().copied().find(|(known, _)| Some(*known) == sku).ok_or_else(|| {
        let known: Vec<&str> = ARTICLES.iter().map(|(s, _)| *s).collect();
        format!("Unknown article {}; known articles: {}", sku.unwrap_or("(none given)"), known.join(", "))
    })
}

/// The location argument (MAIN when left out), or an error naming the known codes.
fn location(args: &Map<String, Value>) -> Result<&'static str, String> {
    let code = args.get("location").map_or(Some("MAIN"), Value::as_str);
    LOCATIONS.iter().map(|(known, _)| *known).find(|known| Some(*known) == code).ok_or_else(|| {
        let known: Vec<&str> = LOCATIONS.iter().map(|(c, _)| *c).collect();
        format!("Unknown location {}; known locations: {}", code.unwrap_or("(not a string)"), known.join(", "))
    })
}

fn on_hand(sku: &str, location: &str) -> i64 {
    ON_HAND.iter().find(|(s, l, _)| *s == sku && *l == location).map_or(0, |(_, _, n)| *n)
}

// The envelope: every request is checked on its own, and every result carries serverInfo.

/// The three kinds of result this server sends, each written as its own members.
#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum Outcome {
    Discover {
        supported_versions: [&'static str; 1],
        capabilities: ToolsCapability,
        instructions: &'static str,
        ttl_ms: u32,
        cache_scope: &'static str,
    },
    ToolList {
        tools: Vec<Tool>,
        ttl_ms: u32,
        cache_scope: &'static str,
    },
    Call(ToolResult),
}

#[derive(Serialize)]
struct ToolsCapability {
    tools: Map<String, Value>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Message {
    Result { jsonrpc: &'static str, id: Value, result: Signed },
    Error { jsonrpc: &'static str, id: Value, error: RpcError },
}

/// A result, signed: `"resultType":"complete"`, its members, and `_meta` naming this server.
#[derive(Serialize)]
struct Signed {
    #[serde(rename = "resultType")]
    result_type: &'static str,
    #[serde(flatten)]
    outcome: Outcome,
    #[serde(rename = "_meta")]
    meta: ResultMeta,
}

#[derive(Serialize)]
struct ResultMeta {
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    server_info: ServerInfo,
}

#[derive(Serialize)]
struct ServerInfo {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct RpcError {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Versions>,
}

#[derive(Serialize)]
struct Versions {
    supported: [&'static str; 1],
    requested: String,
}

impl RpcError {
    fn new(code: i32, message: String) -> RpcError {
        RpcError { code, message, data: None }
    }

    fn invalid(why: &str) -> RpcError {
        RpcError::new(-32602, format!("Invalid params: {why}"))
    }
}

impl Message {
    fn reply(id: Value, outcome: Result<Outcome, RpcError>) -> Message {
        match outcome {
            Ok(outcome) => {
                let meta = ResultMeta { server_info: ServerInfo { name: SERVER_NAME, version: SERVER_VERSION } };
                let result = Signed { result_type: "complete", outcome, meta };
                Message::Result { jsonrpc: "2.0", id, result }
            }
            Err(error) => Message::Error { jsonrpc: "2.0", id, error },
        }
    }

    fn refuse(id: Value, code: i32, message: &str) -> Message {
        Message::reply(id, Err(RpcError::new(code, message.to_string())))
    }
}

/// `params._meta` must name the protocol version and the client's capabilities, every time.
fn check_meta(params: &Map<String, Value>) -> Result<(), RpcError> {
    let meta = params.get("_meta").and_then(Value::as_object);
    let meta = meta.ok_or_else(|| RpcError::invalid("params._meta is required"))?;
    let version = meta.get("io.modelcontextprotocol/protocolVersion").and_then(Value::as_str);
    let version = version
        .ok_or_else(|| RpcError::invalid("params._meta needs a string io.modelcontextprotocol/protocolVersion"))?;
    if !meta.get("io.modelcontextprotocol/clientCapabilities").is_some_and(Value::is_object) {
        return Err(RpcError::invalid("params._meta needs an object io.modelcontextprotocol/clientCapabilities"));
    }
    if version == VERSION {
        return Ok(());
    }
    let data = Versions { supported: [VERSION], requested: version.to_string() };
    Err(RpcError { data: Some(data), ..RpcError::new(-32022, "Unsupported protocol version".to_string()) })
}

impl Warehouse {
    /// One line in, at most one reply out. Notifications (no id) never get a reply.
    fn handle(&mut self, line: &str) -> Option<Message> {
        let message: Value = match serde_json::from_str(line) {
            Ok(message) => message,
            Err(_) => return Some(Message::refuse(Value::Null, -32700, "Parse error")),
        };
        let Some(message) = message.as_object() else {
            return Some(Message::refuse(Value::Null, -32600, "Invalid Request: not an object"));
        };
        let method = message.get("method").and_then(Value::as_str);
        let id = match message.get("id") {
            None => {
                eprintln!("{SERVER_NAME}: notification {}, no reply", method.unwrap_or("?"));
                return None;
            }
            Some(id) if id.is_string() || id.is_i64() => id.clone(),
            Some(_) => return Some(Message::refuse(Value::Null, -32600, "Invalid Request: bad id")),
        };
        let Some(method) = method else {
            return Some(Message::refuse(id, -32600, "Invalid Request: no method"));
        };
        // Each method is named once: here, with what answers it after the envelope's checks.
        let answer: fn(&mut Warehouse, &Map<String, Value>) -> Result<Outcome, RpcError> = match method {
            "server/discover" => |_, _| {
                Ok(Outcome::Discover {
                    supported_versions: [VERSION],
                    capabilities: ToolsCapability { tools: Map::new() },
                    instructions: INSTRUCTIONS,
                    ttl_ms: 3_600_000,
                    cache_scope: "public",
                })
            },
            // The same list for every caller: cacheable for five minutes, by anyone.
            "tools/list" => |_, _| Ok(Outcome::ToolList { tools: tools(), ttl_ms: 300_000, cache_scope: "public" }),
            "tools/call" => |warehouse, params| warehouse.call_tool(params).map(Outcome::Call),
            _ => return Some(Message::refuse(id, -32601, &format!("Method not found: {method}"))),
        };
        let params = match message.get("params") {
            Some(Value::Object(params)) => params,
            _ => &Map::new(),
        };
        Some(Message::reply(id, check_meta(params).and_then(|()| answer(self, params))))
    }
}

fn main() {
    let mut warehouse = Warehouse::default();
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut line = Vec::new();
    while input.read_until(b'\n', &mut line).expect("cannot read stdin") > 0 {
        // Bytes that are not UTF-8 are refused whole, never patched with U+FFFD and acted on.
        let reply = match std::str::from_utf8(&line).map(str::trim) {
            Ok("") => None,
            Ok(request) => warehouse.handle(request),
            Err(_) => Some(Message::refuse(Value::Null, -32700, "Parse error")),
        };
        if let Some(reply) = reply {
            let sent = serde_json::to_writer(&mut output, &reply).map_err(io::Error::from);
            if let Err(err) = sent.and_then(|()| output.write_all(b"\n")).and_then(|()| output.flush()) {
                eprintln!("{SERVER_NAME}: stdout closed ({err}), exiting");
                return;
            }
        }
        line.clear();
    }
    // EOF on stdin: the client has closed it, which is how a stdio server is told to stop.
}
