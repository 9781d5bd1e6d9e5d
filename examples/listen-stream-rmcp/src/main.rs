// listen-stream-rmcp: listen-stream's transcript served by rmcp 3.11, the official Rust SDK. `grow` adds a tool and
// tells every open subscriptions/listen stream that the tool list changed. rmcp acknowledges a listen request
// itself, with the part of the filter this server accepts and advertises, then hands the stream to `listen`; each
// notification sent through the stream's sink carries the listen request's id as its subscriptionId.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::{
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{Implementation, ServerCapabilities, ServerInfo, SubscriptionFilter},
    schemars::JsonSchema,
    serde::Deserialize,
    service::{ServerInitializeError, SubscriptionContext, SubscriptionSink},
    tool, tool_handler, tool_router, ErrorData, ServerHandler, ServiceExt,
};
use tokio::sync::watch;

/// The arguments of `grow`.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct GrowArgs {
    /// The new tool's name
    name: String,
}

/// The arguments of the tool `grow` adds.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct ShoutArgs {
    /// The text to upper-case
    text: String,
}

#[derive(Clone)]
struct Server {
    /// The tools tools/list shows; `grow` adds to it while the server runs.
    tools: Arc<Mutex<ToolRouter<Server>>>,
    /// One sink per open listen stream that asked for (and was granted) toolsListChanged.
    listeners: Arc<Mutex<Vec<SubscriptionSink>>>,
    /// Streams granted toolsListChanged whose sink is not in `listeners` yet. rmcp writes the acknowledgement
    /// before it calls `listen`, so a change in between would reach no stream unless it waits for this to be 0.
    unregistered: Arc<watch::Sender<usize>>,
}

// ANCHOR: grow
#[tool_router]
impl Server {
    #[tool(
        title = "Grow",
        description = "Adds a tool that upper-cases text, then tells listening clients that the tool list changed."
    )]
    async fn grow(&self, Parameters(GrowArgs { name }): Parameters<GrowArgs>) -> Result<String, String> {
        let mut route = Self::shout_router().into_iter().next().expect("shout_router holds shout");
        route.attr.name = name.clone().into();
        self.tools.lock().unwrap().add_route(route);
        // Every stream acknowledged so far must hear of this change: wait until each has registered its sink.
        self.wait_for_registrations().await;
        // Clone the sinks out of the lock: a send awaits the write, and a std lock held across an await can deadlock.
        let sinks = self.listeners.lock().unwrap().clone();
        for sink in sinks {
            // A stream cancelled a moment ago refuses the send; the others still get theirs.
            if let Err(error) = sink.notify_tool_list_changed().await {
                eprintln!("listen-stream-rmcp: stream {} not told: {error}", sink.id());
            }
        }
        Ok(format!("added {name}"))
    }
}

#[tool_router(router = shout_router)]
impl Server {
    #[tool(title = "Shout", description = "Returns the text in upper case.")]
    fn shout(&self, Parameters(ShoutArgs { text }): Parameters<ShoutArgs>) -> String {
        text.to_uppercase()
    }
}

impl Server {
    /// How long `grow` waits for acknowledged streams to register. A stream whose acknowledgement rmcp could
    /// not write never reaches `listen` (over HTTP, one client's broken connection), so the wait needs a bound.
    const REGISTER_WAIT: Duration = Duration::from_secs(2);

    /// Waits until every acknowledged stream has registered its sink, at most REGISTER_WAIT. A stream still
    /// unregistered by then lost its acknowledgement and will never register: it is forgotten, so one failed
    /// write does not hold every later `grow`.
    async fn wait_for_registrations(&self) {
        let mut registered = self.unregistered.subscribe();
        let wait = registered.wait_for(|count| *count == 0);
        if tokio::time::timeout(Self::REGISTER_WAIT, wait).await.is_err() {
            eprintln!("listen-stream-rmcp: a stream never registered after its acknowledgement; forgetting it");
            self.unregistered.send_replace(0);
        }
    }
}
// ANCHOR_END: grow

// ANCHOR: listen
#[tool_handler(router = self.router())]
impl ServerHandler for Server {
    /// `listChanged` is the promise a listen stream relies on; rmcp drops from the acknowledgement
    /// whatever the server does not advertise here.
    fn get_info(&self) -> ServerInfo {
        let capabilities = ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build();
        ServerInfo::new(capabilities).with_server_info(Implementation::new("listen-stream", "0.1.0"))
    }

    /// Which kinds this server can deliver. `None` (rmcp's default) answers subscriptions/listen with -32601.
    /// rmcp calls it just before it writes the acknowledgement.
    fn accepted_subscription_filter(&self, requested: &SubscriptionFilter) -> Option<SubscriptionFilter> {
        if requested.tools_list_changed == Some(true) {
            // Undone in `listen`; if the acknowledgement cannot be written, `listen` never runs and
            // `wait_for_registrations` gives up on this stream after REGISTER_WAIT.
            self.unregistered.send_modify(|count| *count += 1);
        }
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    /// Runs once rmcp has written the acknowledgement, for as long as the stream is open.
    async fn listen(&self, stream: SubscriptionContext) -> Result<(), ErrorData> {
        if stream.requested().tools_list_changed == Some(true) {
            self.listeners.lock().unwrap().push(stream.sink().clone());
            self.unregistered.send_modify(|count| *count = count.saturating_sub(1));
        }
        // Ends on the client's notifications/cancelled (rmcp then writes nothing more for this id) or when
        // the transport closes. Returning on our own would be the server's teardown: rmcp would send the
        // completion result.
        stream.cancelled().await;
        let id = stream.sink().id().clone();
        self.listeners.lock().unwrap().retain(|sink| sink.id() != &id);
        Ok(())
    }
}
// ANCHOR_END: listen

impl Server {
    fn router(&self) -> ToolRouter<Self> {
        self.tools.lock().unwrap().clone()
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Server {
        tools: Arc::new(Mutex::new(Server::tool_router())),
        listeners: Arc::default(),
        unregistered: Arc::new(watch::channel(0).0),
    };
    let running = match server.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
