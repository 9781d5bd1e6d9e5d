// The two tools and the handler: the same on stdio and on Streamable HTTP. Nothing here knows
// which transport carries the messages.

// ANCHOR: tools
use std::borrow::Cow;

use rmcp::{
    handler::server::{tool::ToolCallContext, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode, Implementation,
        ListPromptsResult, MetaObject, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    },
    schemars::JsonSchema,
    serde::Deserialize,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler,
};

#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct EchoArgs {
    /// The text to send back
    text: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct ForecastArgs {
    /// Region name, for example eu-west. Over HTTP the client repeats it in the Mcp-Param-Region header.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
    /// How many days ahead, 1 to 7
    #[schemars(range(min = 1, max = 7))]
    days: u32,
}

/// Made-up skies, one per day in turn: the answer depends on the arguments only.
const SKIES: [&str; 4] = ["sunny", "cloudy", "rain", "windy"];

#[derive(Clone)]
pub struct Tools;

#[tool_router]
impl Tools {
    #[tool(description = "Returns the text unchanged.")]
    fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        text
    }

    #[tool(description = "A made-up weather forecast for a region, one sky per day. \
                          The same region and days always give the same answer.")]
    fn forecast(&self, Parameters(args): Parameters<ForecastArgs>) -> Result<String, String> {
        if !(1..=7).contains(&args.days) {
            return Err(format!("days must be from 1 to 7, got {}", args.days));
        }
        let skies: Vec<&str> = (0..args.days as usize).map(|day| SKIES[day % SKIES.len()]).collect();
        Ok(format!("{}, next {} days: {}", args.region, args.days, skies.join(", ")))
    }
}
// ANCHOR_END: tools

// ANCHOR: handler
/// `#[tool_handler]` writes `tools/list`, `tools/call` and the schema lookup that rmcp's HTTP
/// transport uses to check `Mcp-Param-*` headers. The rest says what the Python twin says: this
/// server speaks 2026-07-28 only, its tool list never changes, serverInfo goes in every result's
/// `_meta`, an unknown tool gets -32602 "Unknown tool: NAME", and a method it does not serve
/// gets -32601 "Method not found" with the method as data.
#[tool_handler(meta = result_meta(self))]
impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        if let Some(tools) = capabilities.tools.as_mut() {
            tools.list_changed = Some(false); // no subscriptions/listen: no list_changed to send
        }
        ServerConfig::new(capabilities).with_server_info(Implementation::new("streamable-http", "0.1.0"))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if Self::tool_router().get(&request.name).is_none() {
            return Err(ErrorData::invalid_params(format!("Unknown tool: {}", request.name), None));
        }
        let call = ToolCallContext::new(self, request, context);
        let mut response = Self::tool_router().call(call).await?;
        if let CallToolResponse::Complete(result) = &mut response {
            result.meta = Some(result_meta(self));
        }
        Ok(response)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Err(method_not_found("prompts/list"))
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(method_not_found(&request.method))
    }
}

fn method_not_found(method: &str) -> ErrorData {
    ErrorData::new(ErrorCode::METHOD_NOT_FOUND, "Method not found", Some(method.into()))
}

/// `{"io.modelcontextprotocol/serverInfo": {...}}`, from the name and version in get_info().
fn result_meta(tools: &Tools) -> MetaObject {
    let info = rmcp::serde_json::to_value(tools.get_info().server_info).expect("serializable");
    let mut meta = MetaObject::new();
    meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
    meta
}
// ANCHOR_END: handler
