// state-handles-rmcp: the page "State without sessions" served by rmcp 3.11, the official Rust SDK. A small shop
// keeps baskets across tool calls without any session: basket_create returns an explicit handle, basket_id, and
// every later call passes it back as an ordinary argument. rmcp keeps no state per client for you either: the
// baskets live in the server value, behind a lock, and each call names the one it means.

use std::{
    borrow::Cow,
    collections::HashMap,
    sync::{Arc, Mutex},
};

use rmcp::{
    handler::server::{tool::ToolCallContext, wrapper::Json, wrapper::Parameters},
    model::{
        CacheScope, CallToolRequestParams, CallToolResponse, ListToolsResult, MetaObject, PaginatedRequestParams,
        ProtocolVersion,
    },
    schemars::JsonSchema,
    serde::{Deserialize, Serialize},
    service::{RequestContext, ServerInitializeError},
    tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler, ServiceExt,
};

const PRODUCTS: [(Sku, u64); 3] = [(Sku::TeaGreen, 450), (Sku::Honey, 650), (Sku::Mug, 900)];

#[derive(Clone, Copy, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde", rename_all = "SCREAMING-KEBAB-CASE")]
#[schemars(crate = "rmcp::schemars", inline)]
enum Sku {
    TeaGreen,
    Honey,
    Mug,
}

/// basket_create takes no arguments; the empty struct closes its schema (`additionalProperties: false`).
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct NoArguments {}

#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct BasketRef {
    /// The basket_id that basket_create returned
    basket_id: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct AddArgs {
    /// The basket_id that basket_create returned
    basket_id: String,
    sku: Sku,
    #[schemars(range(min = 1))]
    quantity: u32,
}

#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Created {
    basket_id: String,
}

#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars")]
struct BasketView {
    basket_id: String,
    items: Vec<Line>,
    total_cents: u64,
}

#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde")]
#[schemars(crate = "rmcp::schemars", inline)]
struct Line {
    sku: Sku,
    quantity: u64,
    price_cents: u64,
}

#[derive(Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Order {
    order_id: String,
    basket_id: String,
    total_cents: u64,
}

// ANCHOR: store
/// Who is asking. On stdio that is whoever started this process, so there is one caller; over Streamable
/// HTTP it would come from the access token on this very request (rmcp hands the HTTP request's parts to a
/// tool in its extensions), checked against the basket on every call: a handle is a name, not a permission.
const CALLER: &str = "local-user";

struct Basket {
    owner: String,
    /// (sku, quantity), in the order the products were first added.
    items: Vec<(Sku, u64)>,
    /// Set by basket_checkout; a closed basket's id is no longer accepted.
    order_id: Option<String>,
}

/// Every basket, by handle, in this process's memory, behind an `Arc<Mutex<..>>`: over Streamable HTTP rmcp
/// builds a handler per request, each a clone of this value, and every clone is the same shop.
#[derive(Clone, Default)]
struct Shop {
    state: Arc<Mutex<Baskets>>,
}

#[derive(Default)]
struct Baskets {
    by_id: HashMap<String, Basket>,
    created: u32,
    orders: u32,
}

impl Baskets {
    /// The open basket `basket_id` names, if the caller may use it. An unknown handle, someone else's basket
    /// and a closed basket are tool execution errors whose text tells the model how to recover.
    fn open(&mut self, caller: &str, basket_id: &str) -> Result<&mut Basket, String> {
        match self.by_id.get_mut(basket_id) {
            // Another caller's basket gets the same answer as a handle that never existed: no probing.
            Some(basket) if basket.owner == caller => match &basket.order_id {
                None => Ok(basket),
                Some(order) => Err(format!(
                    "Basket {basket_id} was checked out as {order} and is closed. Create a new basket with \
                     basket_create."
                )),
            },
            _ => Err(format!(
                "Unknown basket_id {basket_id}. Baskets last until checkout or until the server stops; create a \
                 new one with basket_create."
            )),
        }
    }
}
// ANCHOR_END: store

// ANCHOR: tools
/// `Ok(Json(..))` is structuredContent plus the same JSON as text; `Err(text)` a result with `isError: true`.
#[tool_router]
impl Shop {
    #[tool(
        title = "Create a basket",
        description = "Open a new, empty shopping basket and return its id as basket_id. Pass that basket_id to \
            basket_add, basket_show and basket_checkout. A basket lasts until it is checked out or until this \
            server stops, whichever comes first; after that its basket_id is no longer accepted and a new basket \
            must be created.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    fn basket_create(&self, _: Parameters<NoArguments>) -> Json<Created> {
        let mut shop = self.state.lock().expect("no panic holds the lock");
        // A real server would use a high-entropy, unguessable value here, such as a UUIDv4. This one counts,
        // so that the answer key is the same, byte for byte, on every run.
        shop.created += 1;
        let basket_id = format!("bsk_{}", shop.created);
        let basket = Basket { owner: CALLER.to_string(), items: Vec::new(), order_id: None };
        shop.by_id.insert(basket_id.clone(), basket);
        Json(Created { basket_id })
    }

    #[tool(
        title = "Add to a basket",
        description = "Add a quantity of one product to an open basket and return the whole basket. Adding a \
            product that is already in the basket raises its quantity. Products: TEA-GREEN, HONEY, MUG.",
        annotations(
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    fn basket_add(&self, Parameters(args): Parameters<AddArgs>) -> Result<Json<BasketView>, String> {
        let mut shop = self.state.lock().expect("no panic holds the lock");
        let basket = shop.open(CALLER, &args.basket_id)?;
        let quantity = u64::from(args.quantity);
        match basket.items.iter_mut().find(|(sku, _)| *sku == args.sku) {
            Some((_, count)) => *count += quantity,
            None => basket.items.push((args.sku, quantity)),
        }
        Ok(Json(view(args.basket_id, basket)))
    }

    #[tool(
        title = "Show a basket",
        description = "Return the contents and the total of an open basket, without changing it.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn basket_show(
        &self,
        Parameters(BasketRef { basket_id }): Parameters<BasketRef>,
    ) -> Result<Json<BasketView>, String> {
        let mut shop = self.state.lock().expect("no panic holds the lock");
        let basket = shop.open(CALLER, &basket_id)?;
        Ok(Json(view(basket_id, basket)))
    }

    #[tool(
        title = "Check out a basket",
        description = "Turn an open, non-empty basket into an order and close the basket. Returns the order_id \
            and the total. The basket_id is no longer accepted afterwards.",
        annotations(read_only_hint = false, destructive_hint = true, idempotent_hint = false, open_world_hint = false)
    )]
    fn basket_checkout(
        &self,
        Parameters(BasketRef { basket_id }): Parameters<BasketRef>,
    ) -> Result<Json<Order>, String> {
        let mut shop = self.state.lock().expect("no panic holds the lock");
        let order_id = format!("ord_{}", shop.orders + 1);
        let basket = shop.open(CALLER, &basket_id)?;
        if basket.items.is_empty() {
            return Err(format!("Basket {basket_id} is empty; add something with basket_add first."));
        }
        let total_cents = total_cents(basket);
        basket.order_id = Some(order_id.clone());
        shop.orders += 1;
        Ok(Json(Order { order_id, basket_id, total_cents }))
    }
}
// ANCHOR_END: tools

fn price(sku: Sku) -> u64 {
    PRODUCTS.iter().find(|(known, _)| *known == sku).map_or(0, |(_, cents)| *cents)
}

fn total_cents(basket: &Basket) -> u64 {
    basket.items.iter().map(|(sku, n)| price(*sku) * n).sum()
}

fn view(basket_id: String, basket: &Basket) -> BasketView {
    let items = basket.items.iter().map(|&(sku, quantity)| Line { sku, quantity, price_cents: price(sku) });
    BasketView { basket_id, items: items.collect(), total_cents: total_cents(basket) }
}

/// `#[tool_handler]` writes get_info and nothing this impl writes itself: list_tools keeps its five minutes
/// (the macro's says 0), call_tool answers an unknown tool in its own words and adds serverInfo to each result.
#[tool_handler(name = "basket", version = "1.0.0")]
impl ServerHandler for Shop {
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
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

impl Shop {
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
    let running = match Shop::default().serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("state-handles-rmcp: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
