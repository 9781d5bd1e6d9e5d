// testing-rust: a one-tool server written so that tests can reach it. The handler lives in the
// library (src/lib.rs), so a test can serve it in its own process; src/main.rs serves the same
// handler on stdin/stdout, so a test can also start the built binary as a child process.

// ANCHOR: tools
use rmcp::{
    handler::server::{tool::ToolCallContext, wrapper::Parameters},
    model::{CallToolRequestParams, CallToolResponse, MetaObject},
    schemars::JsonSchema,
    serde::Deserialize,
    service::RequestContext,
    tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler,
};

/// The arguments of `greet`.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
pub struct GreetArgs {
    /// Who to greet
    pub name: String,
}

#[derive(Clone)]
pub struct Greeter;

#[tool_router]
impl Greeter {
    /// An empty name is the tool failing (`"isError":true`), not the request: the model reads why.
    #[tool(title = "Greet", description = "Greets someone by name. The name must not be empty.")]
    fn greet(&self, Parameters(GreetArgs { name }): Parameters<GreetArgs>) -> Result<String, String> {
        if name.trim().is_empty() {
            return Err("Nobody to greet: name is empty".to_string());
        }
        Ok(format!("Hello, {name}!"))
    }
}
// ANCHOR_END: tools

/// As on the rmcp page: rmcp puts serverInfo in the discover result's `_meta` only, so the
/// handler adds it to its other results itself.
#[tool_handler(name = "testing-rust", version = "0.1.0", meta = self.result_meta())]
impl ServerHandler for Greeter {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = ToolCallContext::new(self, request, context);
        let mut response = Self::tool_router().call(call).await?; // unknown tool: -32602
        if let CallToolResponse::Complete(result) = &mut response {
            result.meta = Some(self.result_meta());
        }
        Ok(response)
    }
}

impl Greeter {
    fn result_meta(&self) -> MetaObject {
        let info = rmcp::serde_json::to_value(self.get_info().server_info).expect("serializable");
        let mut meta = MetaObject::new();
        meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
        meta
    }
}
