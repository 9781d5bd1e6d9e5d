// The two tools and the handler: the same on stdio and on Streamable HTTP. Nothing here knows about
// tokens: which scope each tool needs is the HTTP layer's business (auth.rs, TOOL_SCOPES), and so is
// who the caller is; the tools only use the caller's name it leaves on the request.

// ANCHOR: tools
use std::{
    borrow::Cow,
    collections::HashMap,
    sync::{Arc, Mutex},
};

use axum::http::request::Parts;

use rmcp::{
    handler::server::{tool::ToolCallContext, wrapper::Parameters},
    model::{
        CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ErrorCode, Extensions, Implementation,
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
struct ReadArgs {
    /// The note's number, from 1
    #[schemars(range(min = 1))]
    id: u32,
}

#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct AddArgs {
    /// The note's text
    text: String,
}

/// Who is calling. Over HTTP, the subject of the caller's token, which the token layer (auth.rs) leaves in
/// the request's extensions; over stdio nobody presents a token: the caller is the user who started the server.
#[derive(Clone)]
pub struct Caller(pub String);

const LOCAL_USER: &str = "local";

/// One notebook per caller, shared by every request: over HTTP rmcp builds a handler per request, each a
/// clone. A caller's first request opens a notebook with two notes in it, so the example has some to read.
#[derive(Clone, Default)]
pub struct Notes {
    notebooks: Arc<Mutex<HashMap<String, Vec<String>>>>,
}

#[tool_router]
impl Notes {
    #[tool(description = "Reads one of your notes by its number.")]
    fn read_note(
        &self,
        caller: Extensions,
        Parameters(ReadArgs { id }): Parameters<ReadArgs>,
    ) -> Result<String, String> {
        self.with_notebook(&caller, |notes| match notes.get((id as usize).wrapping_sub(1)) {
            Some(text) => Ok(format!("note {id}: {text}")),
            None => Err(format!("no note {id}: you have {}", notes.len())),
        })
    }

    #[tool(description = "Adds a note to your notes and returns its number.")]
    fn add_note(&self, caller: Extensions, Parameters(AddArgs { text }): Parameters<AddArgs>) -> String {
        self.with_notebook(&caller, |notes| {
            notes.push(text);
            format!("added note {}", notes.len())
        })
    }
}

impl Notes {
    /// Runs `use_notes` on the caller's notebook, and on no one else's.
    fn with_notebook<T>(&self, extensions: &Extensions, use_notes: impl FnOnce(&mut Vec<String>) -> T) -> T {
        // rmcp puts the HTTP request's parts in the extensions; over stdio there are none.
        let caller = extensions.get::<Parts>().and_then(|parts| parts.extensions.get::<Caller>());
        let name = caller.map_or(LOCAL_USER, |Caller(subject)| subject.as_str());
        let mut notebooks = self.notebooks.lock().expect("no panic holds the lock");
        let first_notes = || vec!["Buy milk".to_string(), "Call the dentist".to_string()];
        use_notes(notebooks.entry(name.to_string()).or_insert_with(first_notes))
    }
}
// ANCHOR_END: tools

// ANCHOR: handler
/// As in the streamable-http example: 2026-07-28 only, serverInfo in every result's `_meta`,
/// -32602 for an unknown tool, -32601 with the method as data for a method it does not serve.
#[tool_handler(meta = result_meta(self))]
impl ServerHandler for Notes {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder().enable_tools().build();
        if let Some(tools) = capabilities.tools.as_mut() {
            tools.list_changed = Some(false);
        }
        ServerConfig::new(capabilities).with_server_info(Implementation::new("authorization", "0.1.0"))
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

fn result_meta(notes: &Notes) -> MetaObject {
    let info = rmcp::serde_json::to_value(notes.get_info().server_info).expect("serializable");
    let mut meta = MetaObject::new();
    meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
    meta
}
// ANCHOR_END: handler
