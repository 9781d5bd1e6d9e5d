// state-handles: an MCP server (revision 2026-07-28) over stdio, for the page "State without
// sessions". A small shop keeps baskets across tool calls without any session: basket_create
// returns an explicit handle, basket_id, and every later call passes it back as an ordinary
// argument. JSON goes through serde_json; what goes out is typed structs, whose field order is
// the key order on the wire.
//
// One JSON-RPC message per line comes in on stdin; one reply per request goes out on stdout.
// stdout is the wire and carries nothing else; diagnostics go to stderr.

use serde::{Serialize, Serializer};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

const VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "basket";
const SERVER_VERSION: &str = "1.0.0";

// ANCHOR: tools
/// What tools/list sends. The lifetime of a basket is stated where the model decides to make
/// one: in basket_create's description.
fn tools() -> Vec<Tool> {
    let string = || Schema::of("string");
    let integer = || Schema::of("integer");
    let handle = || string().described("The basket_id that basket_create returned");
    let line = Schema::object(vec![("sku", string()), ("quantity", integer()), ("price_cents", integer())]);
    let basket = || {
        Schema::object(vec![
            ("basket_id", string()),
            ("items", Schema::array(line.clone())),
            ("total_cents", integer()),
        ])
    };
    vec![
        Tool {
            name: "basket_create",
            title: "Create a basket",
            description: "Open a new, empty shopping basket and return its id as basket_id. Pass that \
                basket_id to basket_add, basket_show and basket_checkout. A basket lasts until it is \
                checked out or until this server stops, whichever comes first; after that its \
                basket_id is no longer accepted and a new basket must be created.",
            input_schema: Schema::object(vec![]).closed(),
            output_schema: Schema::object(vec![("basket_id", string())]).closed(),
            annotations: Annotations::changes(false),
        },
        Tool {
            name: "basket_add",
            title: "Add to a basket",
            description: "Add a quantity of one product to an open basket and return the whole \
                basket. Adding a product that is already in the basket raises its quantity. \
                Products: TEA-GREEN, HONEY, MUG.",
            input_schema: Schema::object(vec![
                ("basket_id", handle()),
                ("sku", Schema { enum_values: Some(PRODUCTS.map(|(sku, _)| sku).to_vec()), ..string() }),
                ("quantity", Schema { minimum: Some(1), ..integer() }),
            ])
            .closed(),
            output_schema: basket(),
            annotations: Annotations::changes(false),
        },
        Tool {
            name: "basket_show",
            title: "Show a basket",
            description: "Return the contents and the total of an open basket, without changing it.",
            input_schema: Schema::object(vec![("basket_id", handle())]).closed(),
            output_schema: basket(),
            annotations: Annotations { read_only_hint: true, open_world_hint: false, ..Default::default() },
        },
        Tool {
            name: "basket_checkout",
            title: "Check out a basket",
            description: "Turn an open, non-empty basket into an order and close the basket. Returns \
                the order_id and the total. The basket_id is no longer accepted afterwards.",
            input_schema: Schema::object(vec![("basket_id", handle())]).closed(),
            output_schema: Schema::object(vec![
                ("order_id", string()),
                ("basket_id", string()),
                ("total_cents", integer()),
            ])
            .closed(),
            annotations: Annotations::changes(true),
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

/// The few JSON Schema keywords these tools use, in the order they are written. An object's
/// properties are a list, not a map, so that they stay in the order given.
#[derive(Serialize, Clone, Default)]
#[serde(rename_all = "camelCase")]
struct Schema {
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty", serialize_with = "in_order")]
    properties: Vec<(&'static str, Schema)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Box<Schema>>,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    enum_values: Option<Vec<&'static str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimum: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    required: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_properties: Option<bool>,
}

fn in_order<S: Serializer>(properties: &[(&'static str, Schema)], out: S) -> Result<S::Ok, S::Error> {
    out.collect_map(properties.iter().map(|(name, schema)| (name, schema)))
}

impl Schema {
    fn of(kind: &'static str) -> Schema {
        Schema { kind, ..Default::default() }
    }

    /// An object whose properties are all required.
    fn object(properties: Vec<(&'static str, Schema)>) -> Schema {
        let required = properties.iter().map(|(name, _)| *name).collect();
        Schema { properties, required, ..Schema::of("object") }
    }

    fn array(items: Schema) -> Schema {
        Schema { items: Some(Box::new(items)), ..Schema::of("array") }
    }

    fn described(self, description: &'static str) -> Schema {
        Schema { description: Some(description), ..self }
    }

    /// `additionalProperties: false`: nothing but the listed properties.
    fn closed(self) -> Schema {
        Schema { additional_properties: Some(false), ..self }
    }
}

#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct Annotations {
    read_only_hint: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    destructive_hint: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    idempotent_hint: Option<bool>,
    open_world_hint: bool,
}

impl Annotations {
    /// A tool that changes a basket, and cannot be repeated safely.
    fn changes(destructive: bool) -> Annotations {
        let destructive_hint = Some(destructive);
        Annotations { read_only_hint: false, destructive_hint, idempotent_hint: Some(false), open_world_hint: false }
    }
}

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
    items: Vec<(&'static str, i64)>,
    /// Set by basket_checkout; a closed basket's id is no longer accepted.
    order_id: Option<String>,
}

/// Every basket, by handle. Kept in this process's memory, so it lives as long as the process.
#[derive(Default)]
struct Shop {
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
    fn open_basket(&mut self, caller: &str, args: &Arguments) -> Result<(String, &mut Basket), String> {
        let Some(id) = args.get("basket_id").and_then(Value::as_str) else {
            return Err("basket_id is required: pass the basket_id that basket_create returned.".into());
        };
        match self.baskets.get_mut(id) {
            // Another caller's basket gets the same answer as a handle that never existed,
            // so handles cannot be probed.
            Some(basket) if basket.owner == caller => match &basket.order_id {
                None => Ok((id.to_string(), basket)),
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

/// A tool's arguments, as the client sent them.
type Arguments = Map<String, Value>;

/// What a tool returns on success: its structuredContent, serialised as it is declared in the
/// tool's outputSchema.
#[derive(Serialize)]
#[serde(untagged)]
enum Output {
    Created { basket_id: String },
    Basket { basket_id: String, items: Vec<Line>, total_cents: i64 },
    Order { order_id: String, basket_id: String, total_cents: i64 },
}

#[derive(Serialize)]
struct Line {
    sku: &'static str,
    quantity: i64,
    price_cents: i64,
}

// ANCHOR: tools-impl
impl Shop {
    fn basket_create(&mut self, caller: &str, args: &Arguments) -> Result<Output, String> {
        only_known_arguments(args, &[])?;
        let basket_id = self.new_handle();
        let basket = Basket { owner: caller.to_string(), items: Vec::new(), order_id: None };
        self.baskets.insert(basket_id.clone(), basket);
        Ok(Output::Created { basket_id })
    }

    fn basket_add(&mut self, caller: &str, args: &Arguments) -> Result<Output, String> {
        only_known_arguments(args, &["basket_id", "sku", "quantity"])?;
        let (id, basket) = self.open_basket(caller, args)?;
        let sku = args.get("sku").and_then(Value::as_str);
        let Some(&(sku, _)) = PRODUCTS.iter().find(|(known, _)| Some(*known) == sku) else {
            return Err("sku must be one of TEA-GREEN, HONEY, MUG".to_string());
        };
        let Some(quantity) = args.get("quantity").and_then(Value::as_i64).filter(|n| *n >= 1) else {
            return Err("quantity must be a whole number of at least 1".to_string());
        };
        // Refuse before changing anything if the new total would not fit in an i64 (then every
        // line's quantity fits too, since every price is at least one cent).
        let added = price(sku).checked_mul(quantity);
        if added.and_then(|cents| cents.checked_add(total_cents(basket))).is_none() {
            return Err(format!("quantity {quantity} is too large: the basket's total must fit in 64 bits"));
        }
        match basket.items.iter_mut().find(|(s, _)| *s == sku) {
            Some((_, count)) => *count += quantity,
            None => basket.items.push((sku, quantity)),
        }
        Ok(view(id, basket))
    }

    fn basket_show(&mut self, caller: &str, args: &Arguments) -> Result<Output, String> {
        only_known_arguments(args, &["basket_id"])?;
        let (id, basket) = self.open_basket(caller, args)?;
        Ok(view(id, basket))
    }

    fn basket_checkout(&mut self, caller: &str, args: &Arguments) -> Result<Output, String> {
        only_known_arguments(args, &["basket_id"])?;
        // Named before open_basket, whose answer borrows the whole shop until the end.
        let order_id = format!("ord_{}", self.orders + 1);
        let (basket_id, basket) = self.open_basket(caller, args)?;
        if basket.items.is_empty() {
            return Err(format!("Basket {basket_id} is empty; add something with basket_add first."));
        }
        let total_cents = total_cents(basket);
        basket.order_id = Some(order_id.clone());
        self.orders += 1;
        Ok(Output::Order { order_id, basket_id, total_cents })
    }
}
// ANCHOR_END: tools-impl

fn price(sku: &str) -> i64 {
    PRODUCTS.iter().find(|(s, _)| *s == sku).map(|(_, cents)| *cents).expect("basket_add takes known products only")
}

fn total_cents(basket: &Basket) -> i64 {
    basket.items.iter().map(|(sku, n)| price(sku) * n).sum()
}

/// What basket_add and basket_show return.
fn view(basket_id: String, basket: &Basket) -> Output {
    let items = basket.items.iter().map(|&(sku, quantity)| Line { sku, quantity, price_cents: price(sku) });
    Output::Basket { basket_id, items: items.collect(), total_cents: total_cents(basket) }
}

/// The schemas say additionalProperties: false, and the server holds itself to that.
fn only_known_arguments(args: &Arguments, known: &[&str]) -> Result<(), String> {
    match args.keys().find(|key| !known.contains(&key.as_str())) {
        None => Ok(()),
        Some(key) if known.is_empty() => Err(format!("Unknown argument {key}; this tool takes: no arguments")),
        Some(key) => Err(format!("Unknown argument {key}; this tool takes: {}", known.join(", "))),
    }
}

/// A tools/call result: the output twice (as JSON text for the model, and as structuredContent
/// for programs), or only the text of a failure, with isError.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallResult {
    content: [TextBlock; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    structured_content: Option<Output>,
    is_error: bool,
}

#[derive(Serialize)]
struct TextBlock {
    #[serde(rename = "type")]
    kind: &'static str,
    text: String,
}

impl Shop {
    /// tools/call. An unknown tool or a malformed call is a protocol error (-32602); a tool
    /// that ran and failed, including one handed a bad basket_id, is a result with isError.
    fn call_tool(&mut self, params: &Map<String, Value>) -> Result<CallResult, RpcError> {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return Err(RpcError::invalid_params("params.name must be a string"));
        };
        let no_arguments = Map::new();
        let args = match params.get("arguments") {
            None => &no_arguments,
            Some(Value::Object(args)) => args,
            Some(_) => return Err(RpcError::invalid_params("params.arguments must be an object")),
        };
        let outcome = match name {
            "basket_create" => self.basket_create(CALLER, args),
            "basket_add" => self.basket_add(CALLER, args),
            "basket_show" => self.basket_show(CALLER, args),
            "basket_checkout" => self.basket_checkout(CALLER, args),
            _ => return Err(RpcError::new(-32602, format!("Unknown tool: {name}"))),
        };
        Ok(match outcome {
            Ok(output) => {
                let text = serde_json::to_string(&output).expect("an output always serialises");
                let content = [TextBlock { kind: "text", text }];
                CallResult { content, structured_content: Some(output), is_error: false }
            }
            Err(text) => {
                CallResult { content: [TextBlock { kind: "text", text }], structured_content: None, is_error: true }
            }
        })
    }
}

// The envelope: every request is checked on its own, and every result carries serverInfo.

/// The members of each kind of result. `untagged` writes a variant as its members alone.
#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum Body {
    Discover {
        supported_versions: [&'static str; 1],
        capabilities: ToolsCapability,
        ttl_ms: u32,
        cache_scope: &'static str,
    },
    Tools {
        tools: Vec<Tool>,
        ttl_ms: u32,
        cache_scope: &'static str,
    },
    Call(CallResult),
}

#[derive(Serialize)]
struct ToolsCapability {
    tools: Map<String, Value>,
}

/// One line of the wire: `{"jsonrpc","id"}` and then either `"result"` or `"error"`.
#[derive(Serialize)]
struct Reply {
    jsonrpc: &'static str,
    id: Value,
    #[serde(flatten)]
    outcome: Outcome,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Outcome {
    Result(Stamped),
    Error(RpcError),
}

/// A result's members between `"resultType":"complete"` and `_meta`, which names this server.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Stamped {
    result_type: &'static str,
    #[serde(flatten)]
    body: Body,
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
    data: Option<VersionMismatch>,
}

#[derive(Serialize)]
struct VersionMismatch {
    supported: [&'static str; 1],
    requested: String,
}

impl RpcError {
    fn new(code: i32, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into(), data: None }
    }

    fn invalid_params(why: &str) -> RpcError {
        RpcError::new(-32602, format!("Invalid params: {why}"))
    }
}

impl Reply {
    fn new(id: Value, outcome: Result<Body, RpcError>) -> Reply {
        let outcome = match outcome {
            Ok(body) => {
                let server_info = ServerInfo { name: SERVER_NAME, version: SERVER_VERSION };
                Outcome::Result(Stamped { result_type: "complete", body, meta: ResultMeta { server_info } })
            }
            Err(error) => Outcome::Error(error),
        };
        Reply { jsonrpc: "2.0", id, outcome }
    }

    /// An error reply to a message that is not a request this server can take.
    fn reject(id: Value, code: i32, message: impl Into<String>) -> Reply {
        Reply::new(id, Err(RpcError::new(code, message)))
    }
}

/// `params._meta` must name the protocol version and the client's capabilities, every time.
fn check_meta(params: &Map<String, Value>) -> Result<(), RpcError> {
    let Some(meta) = params.get("_meta").and_then(Value::as_object) else {
        return Err(RpcError::invalid_params("params._meta is required"));
    };
    let Some(version) = meta.get("io.modelcontextprotocol/protocolVersion").and_then(Value::as_str) else {
        return Err(RpcError::invalid_params("params._meta needs a string io.modelcontextprotocol/protocolVersion"));
    };
    if !meta.get("io.modelcontextprotocol/clientCapabilities").is_some_and(Value::is_object) {
        return Err(RpcError::invalid_params(
            "params._meta needs an object io.modelcontextprotocol/clientCapabilities",
        ));
    }
    if version != VERSION {
        let data = VersionMismatch { supported: [VERSION], requested: version.to_string() };
        return Err(RpcError { data: Some(data), ..RpcError::new(-32022, "Unsupported protocol version") });
    }
    Ok(())
}

/// What answers a method once the request has passed the envelope's checks.
type Handler = fn(&mut Shop, &Map<String, Value>) -> Result<Body, RpcError>;

impl Shop {
    /// One line in, at most one reply out. Notifications (no id) never get a reply.
    fn handle(&mut self, line: &str) -> Option<Reply> {
        let message = match serde_json::from_str(line) {
            Ok(Value::Object(message)) => message,
            Ok(_) => return Some(Reply::reject(Value::Null, -32600, "Invalid Request: not an object")),
            Err(_) => return Some(Reply::reject(Value::Null, -32700, "Parse error")),
        };
        let method = message.get("method").and_then(Value::as_str);
        let Some(id) = message.get("id").cloned() else {
            eprintln!("{SERVER_NAME}: notification {}, no reply", method.unwrap_or("?"));
            return None;
        };
        if !id.is_string() && !id.is_i64() {
            return Some(Reply::reject(Value::Null, -32600, "Invalid Request: bad id"));
        }
        let Some(method) = method else {
            return Some(Reply::reject(id, -32600, "Invalid Request: no method"));
        };
        // Each method is named once: here, with what answers it.
        let handler: Handler = match method {
            "server/discover" => |_, _| {
                let capabilities = ToolsCapability { tools: Map::new() };
                Ok(Body::Discover {
                    supported_versions: [VERSION],
                    capabilities,
                    ttl_ms: 3_600_000,
                    cache_scope: "public",
                })
            },
            "tools/list" => |_, _| Ok(Body::Tools { tools: tools(), ttl_ms: 300_000, cache_scope: "public" }),
            "tools/call" => |shop, params| shop.call_tool(params).map(Body::Call),
            _ => return Some(Reply::reject(id, -32601, format!("Method not found: {method}"))),
        };
        let no_params = Map::new();
        let params = message.get("params").and_then(Value::as_object).unwrap_or(&no_params);
        Some(Reply::new(id, check_meta(params).and_then(|()| handler(self, params))))
    }
}

fn main() {
    let mut shop = Shop::default();
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n').map(|line| line.expect("cannot read stdin")) {
        // Bytes that are not UTF-8 are refused whole, never patched with U+FFFD and acted on.
        let reply = match std::str::from_utf8(&line).map(str::trim) {
            Ok("") => continue,
            Ok(request) => shop.handle(request),
            Err(_) => Some(Reply::reject(Value::Null, -32700, "Parse error")),
        };
        if let Some(reply) = reply {
            let sent = serde_json::to_writer(&mut stdout, &reply).map_err(io::Error::from);
            if let Err(err) = sent.and_then(|()| stdout.write_all(b"\n")).and_then(|()| stdout.flush()) {
                eprintln!("{SERVER_NAME}: stdout closed ({err}), exiting");
                return;
            }
        }
    }
    // EOF on stdin: the client has closed it. Every basket goes with the process.
}
