// tool-design-rmcp: the page "Tools a model can pick" served by rmcp 3.11, the official Rust SDK. The same pretend
// warehouse with three tools; here each tool is a Rust function marked `#[tool]`, and its input and output schemas
// are derived from the argument and answer types (schemars, through rmcp), doc comments becoming descriptions.

use std::{
    borrow::Cow,
    collections::HashMap,
    sync::{Arc, Mutex},
};

use rmcp::{
    handler::server::{tool::ToolCallContext, wrapper::Json, wrapper::Parameters},
    model::{
        CacheScope, CallToolRequestParams, CallToolResponse, DiscoverResult, Implementation, ListToolsResult,
        MetaObject, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    },
    schemars::JsonSchema,
    serde::{Deserialize, Serialize},
    service::{RequestContext, ServerInitializeError},
    tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler, ServiceExt,
};

// ANCHOR: types
/// The arguments of stock_level.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct LevelArgs {
    /// Article number, for example BOLT-M8
    sku: String,
    /// Location code from stock_locations
    #[serde(default = "main_hall")]
    location: String,
}

/// The arguments of stock_reserve.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct ReserveArgs {
    /// Article number, for example BOLT-M8
    sku: String,
    /// Location code from stock_locations
    #[serde(default = "main_hall")]
    location: String,
    /// Units to reserve, in the article's unit
    #[schemars(range(min = 1))]
    quantity: u32,
    /// Customer order number, for example SO-4711
    order: String,
}

/// stock_locations takes no arguments. Without a type of its own, rmcp would send `{"properties":{},"type":"object"}`,
/// which accepts any object; `deny_unknown_fields` makes it the closed schema the spec recommends.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct NoArguments {}

/// The location when none is given; schemars writes it into the schema as `"default": "MAIN"`.
fn main_hall() -> String {
    "MAIN".to_string()
}

/// What stock_level answers: its outputSchema, and its structuredContent. `deny_unknown_fields` only closes
/// the schema (`additionalProperties: false`); nothing deserializes this type.
#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Level {
    sku: String,
    location: String,
    on_hand: u32,
    reserved: u32,
    unit: Unit,
}

#[derive(Clone, Copy, Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde", rename_all = "lowercase")]
#[schemars(crate = "rmcp::schemars", inline)]
enum Unit {
    Pcs,
    M,
    Kg,
}

#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct Locations {
    locations: Vec<Location>,
}

#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars", inline)]
struct Location {
    code: String,
    name: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Reservation {
    reservation: String,
    sku: String,
    location: String,
    quantity: u32,
    order: String,
}
// ANCHOR_END: types

/// (code, name) of each storage location.
const LOCATIONS: [(&str, &str); 2] = [("MAIN", "Main hall"), ("COLD", "Cold store, 5 °C")];
/// (sku, unit) of each article.
const ARTICLES: [(&str, Unit); 3] = [("BOLT-M8", Unit::Pcs), ("CABLE-3X15", Unit::M), ("GLUE-PU", Unit::Kg)];
/// (sku, location, units on hand); a pair that is not listed holds nothing.
const ON_HAND: [(&str, &str, u32); 3] =
    [("BOLT-M8", "MAIN", 1200), ("CABLE-3X15", "MAIN", 340), ("GLUE-PU", "COLD", 18)];

/// Units reserved so far, by (sku, location), and how many reservations there were. Lives as long as the process.
#[derive(Clone, Default)]
struct Warehouse {
    reserved: Arc<Mutex<(HashMap<(String, String), u32>, u32)>>,
}

// ANCHOR: tools
/// Each tool is a function: its name, title, description and annotations are written here, its schemas
/// derived from `Parameters<..>` and `Json<..>`. `Ok(Json(..))` becomes structuredContent plus the same JSON in
/// a text block; `Err(text)` a result with `isError: true`.
#[tool_router]
impl Warehouse {
    #[tool(
        title = "Stock level",
        description = "Look up how many units of one article are on hand in one storage location of the \
            warehouse, and how many of them are already reserved. Call it before promising a delivery and \
            before stock_reserve. sku is the article number from the shelf label, in capitals, for example \
            BOLT-M8. location is a code from stock_locations and defaults to MAIN. An unknown sku or location \
            is reported as an error that lists the valid values.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn stock_level(&self, Parameters(args): Parameters<LevelArgs>) -> Result<Json<Level>, String> {
        let (sku, unit) = article(&args.sku)?;
        let location = location(&args.location)?;
        let reserved = self.reserved_units(sku, location);
        let answer =
            Level { sku: sku.into(), location: location.into(), on_hand: on_hand(sku, location), reserved, unit };
        Ok(Json(answer))
    }

    #[tool(
        title = "Storage locations",
        description = "List the storage locations of the warehouse, each with its code and name. Takes no \
            arguments. Call it once to learn the location codes that stock_level and stock_reserve accept.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn stock_locations(&self, _: Parameters<NoArguments>) -> Json<Locations> {
        let locations =
            LOCATIONS.iter().map(|(code, name)| Location { code: code.to_string(), name: name.to_string() });
        Json(Locations { locations: locations.collect() })
    }

    /// Not read-only, not destructive (it adds, never overwrites), and not idempotent: the same call twice
    /// reserves twice.
    #[tool(
        title = "Reserve stock",
        description = "Reserve a quantity of one article in one location for a customer order, so that it is \
            not promised twice. Every call creates a new reservation: calling it twice reserves twice, so call \
            it once per order line. If fewer units are free than asked for, nothing is reserved and the error \
            says how many are free. Returns the reservation number.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    fn stock_reserve(&self, Parameters(args): Parameters<ReserveArgs>) -> Result<Json<Reservation>, String> {
        let (sku, unit) = article(&args.sku)?;
        let location = location(&args.location)?;
        let mut reserved = self.reserved.lock().expect("no panic holds the lock");
        let (by_place, count) = &mut *reserved;
        let taken = by_place.entry((sku.to_string(), location.to_string())).or_default();
        let free = on_hand(sku, location) - *taken;
        if args.quantity > free {
            let unit = rmcp::serde_json::to_value(unit).expect("a unit serialises");
            let unit = unit.as_str().unwrap_or_default();
            return Err(format!(
                "Only {free} {unit} of {sku} are free in {location}; nothing was reserved. \
                 Ask for at most {free}, or check another location with stock_level."
            ));
        }
        *taken += args.quantity;
        *count += 1;
        let reservation = format!("RSV-{count}");
        let (sku, location, quantity, order) = (sku.to_string(), location.to_string(), args.quantity, args.order);
        Ok(Json(Reservation { reservation, sku, location, quantity, order }))
    }
}
// ANCHOR_END: tools

impl Warehouse {
    fn reserved_units(&self, sku: &str, location: &str) -> u32 {
        let reserved = self.reserved.lock().expect("no panic holds the lock");
        reserved.0.get(&(sku.to_string(), location.to_string())).copied().unwrap_or(0)
    }
}

/// The sku and the article's unit, or an error naming the known articles.
fn article(sku: &str) -> Result<(&'static str, Unit), String> {
    ARTICLES.iter().copied().find(|(known, _)| *known == sku).ok_or_else(|| {
        let known: Vec<&str> = ARTICLES.iter().map(|(s, _)| *s).collect();
        format!("Unknown article {sku}; known articles: {}", known.join(", "))
    })
}

/// The location code, or an error naming the known codes.
fn location(code: &str) -> Result<&'static str, String> {
    LOCATIONS.iter().map(|(known, _)| *known).find(|known| *known == code).ok_or_else(|| {
        let known: Vec<&str> = LOCATIONS.iter().map(|(c, _)| *c).collect();
        format!("Unknown location {code}; known locations: {}", known.join(", "))
    })
}

fn on_hand(sku: &str, location: &str) -> u32 {
    ON_HAND.iter().find(|(s, l, _)| *s == sku && *l == location).map_or(0, |(_, _, n)| *n)
}

// ANCHOR: handler
/// `#[tool_handler]` writes get_info (name, version, the tools capability) and nothing this impl writes itself:
/// list_tools keeps the five-minute ttlMs (the macro's says 0), call_tool adds serverInfo to each result.
#[tool_handler(name = "warehouse", version = "1.0.0")]
impl ServerHandler for Warehouse {
    fn get_info(&self) -> ServerConfig {
        let instructions = "A pretend warehouse. Learn the location codes with stock_locations, check stock \
            with stock_level, and reserve only when the user asks for it.";
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("warehouse", "1.0.0"))
            .with_instructions(instructions)
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn discover(&self, _context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        let result = DiscoverResult::from_server_info(self.supported_protocol_versions().into_owned(), self.get_info());
        Ok(result.with_ttl_ms(3_600_000).with_cache_scope(CacheScope::Public))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result = ListToolsResult::with_all_items(Self::tool_router().list_all())
            .with_ttl_ms(300_000)
            .with_cache_scope(CacheScope::Public);
        result.meta = Some(self.result_meta());
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if Self::tool_router().get(&request.name).is_none() {
            return Err(ErrorData::invalid_params(format!("Unknown tool: {}", request.name), None));
        }
        let mut response = Self::tool_router().call(ToolCallContext::new(self, request, context)).await?;
        if let CallToolResponse::Complete(result) = &mut response {
            result.meta = Some(self.result_meta());
        }
        Ok(response)
    }
}
// ANCHOR_END: handler

impl Warehouse {
    /// `{"io.modelcontextprotocol/serverInfo": {...}}`: rmcp puts it in the discover result only.
    fn result_meta(&self) -> MetaObject {
        let info = rmcp::serde_json::to_value(self.get_info().server_info).expect("serializable");
        let mut meta = MetaObject::new();
        meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
        meta
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = match Warehouse::default().serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("tool-design-rmcp: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
