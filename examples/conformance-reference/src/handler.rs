// The handler: which tool, resource or prompt answers each request. rmcp checks each request's
// _meta and answers server/discover from get_info(); everything else is routed here.

use std::{borrow::Cow, sync::Arc};

use rmcp::{
    model::{
        CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams, CompleteResult,
        ContentBlock, GetPromptRequestParams, GetPromptResponse, Implementation, JsonObject, ListPromptsResult,
        ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, MetaObject, PaginatedRequestParams,
        ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
    },
    serde_json::{self, json},
    service::RequestContext,
    ErrorData, RoleServer, ServerHandler,
};

use crate::{
    asks::{self, Round},
    catalog, content,
};

// ANCHOR: tools
/// Every tool, in the order tools/list shows them. None takes arguments.
const TOOLS: [(&str, &str); 18] = [
    ("test_simple_text", "Returns one text block."),
    ("test_image_content", "Returns one image block: a 1x1 red PNG."),
    ("test_audio_content", "Returns one audio block: a short WAV of silence."),
    ("test_embedded_resource", "Returns one embedded text resource."),
    ("test_multiple_content_types", "Returns text, an image and an embedded JSON resource, in that order."),
    ("test_error_handling", "Always fails, with a result the model can read (isError), not a protocol error."),
    ("test_tool_with_progress", "Reports progress 0, 50 and 100 of 100 when the request carries a progressToken."),
    ("test_logging_tool", "Logs a line to the server's stderr; it sends the client no log messages."),
    ("test_missing_capability", "Asks the client's model a question; needs the sampling capability."),
    ("test_streaming_elicitation", "Asks the user for a name, through input_required, never a request on the stream."),
    ("test_input_required_result_elicitation", "Asks the user for a name, then greets them."),
    ("test_input_required_result_sampling", "Asks the client's model a question, then quotes its answer."),
    ("test_input_required_result_list_roots", "Asks the client for its roots, then lists them."),
    ("test_input_required_result_request_state", "Asks for a confirmation and checks the signed requestState."),
    ("test_input_required_result_multiple_inputs", "Asks for a name, a model's greeting and the roots at once."),
    ("test_input_required_result_multi_round", "Asks for a name, then a favorite color, in two rounds."),
    ("test_input_required_result_tampered_state", "Like the request_state tool: a changed requestState is refused."),
    ("test_input_required_result_capabilities", "Asks only through the capabilities the request declared."),
];

fn tool_list() -> Vec<Tool> {
    let schema: JsonObject =
        serde_json::from_value(json!({ "type": "object", "additionalProperties": false })).expect("an object literal");
    let schema = Arc::new(schema);
    TOOLS.iter().map(|(name, description)| Tool::new(*name, *description, schema.clone())).collect()
}
// ANCHOR_END: tools

// ANCHOR: route
async fn call(
    name: &str,
    round: &Round<'_>,
    context: &RequestContext<RoleServer>,
) -> Result<CallToolResponse, ErrorData> {
    Ok(match name {
        "test_simple_text" => content::simple_text().into(),
        "test_image_content" => content::image().into(),
        "test_audio_content" => content::audio().into(),
        "test_embedded_resource" => content::embedded_resource().into(),
        "test_multiple_content_types" => content::mixed().into(),
        "test_error_handling" => content::error().into(),
        "test_tool_with_progress" => content::with_progress(context).await?.into(),
        "test_logging_tool" => content::logging().into(),
        "test_missing_capability" | "test_input_required_result_sampling" => asks::ask_model(round)?,
        "test_streaming_elicitation" | "test_input_required_result_elicitation" => asks::greet(round)?,
        "test_input_required_result_list_roots" => asks::list_roots(round)?,
        "test_input_required_result_request_state" | "test_input_required_result_tampered_state" => {
            asks::confirm(name, round)?
        }
        "test_input_required_result_multiple_inputs" => asks::several(name, round)?,
        "test_input_required_result_multi_round" => asks::two_rounds(name, round)?,
        "test_input_required_result_capabilities" => asks::whatever_declared(round)?,
        _ => return Err(ErrorData::invalid_params(format!("Unknown tool: {name}"), None)),
    })
}
// ANCHOR_END: route

/// An unknown tool is a protocol error (-32602); arguments that the schema (no properties, none
/// additional) does not allow are the tool's error, a result with isError the model can act on.
fn refused_arguments(request: &CallToolRequestParams) -> Option<Result<CallToolResult, ErrorData>> {
    if !TOOLS.iter().any(|(name, _)| *name == request.name) {
        return Some(Err(ErrorData::invalid_params(format!("Unknown tool: {}", request.name), None)));
    }
    let mut keys: Vec<&str> =
        request.arguments.iter().flat_map(|arguments| arguments.keys()).map(String::as_str).collect();
    if keys.is_empty() {
        return None;
    }
    keys.sort_unstable();
    let text = format!("{} takes no arguments; leave out: {}", request.name, keys.join(", "));
    Some(Ok(CallToolResult::error(vec![ContentBlock::text(text)])))
}

#[derive(Clone)]
pub struct Reference;

// ANCHOR: handler
impl ServerHandler for Reference {
    fn get_info(&self) -> ServerConfig {
        let mut capabilities = ServerCapabilities::builder()
            .enable_completions()
            .enable_prompts()
            .enable_resources()
            .enable_tools()
            .build();
        // The lists never change and no resource can be subscribed to: say so, rather than leave it out.
        if let Some(tools) = capabilities.tools.as_mut() {
            tools.list_changed = Some(false);
        }
        if let Some(prompts) = capabilities.prompts.as_mut() {
            prompts.list_changed = Some(false);
        }
        if let Some(resources) = capabilities.resources.as_mut() {
            resources.subscribe = Some(false);
            resources.list_changed = Some(false);
        }
        ServerConfig::new(capabilities).with_server_info(Implementation::new("conformance-reference", "0.1.0"))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result =
            ListToolsResult::with_all_items(tool_list()).with_ttl_ms(3_600_000).with_cache_scope(CacheScope::Public);
        result.meta = Some(self.result_meta());
        Ok(result)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let round = Round {
            meta: &context.meta,
            responses: request.input_responses.as_ref(),
            state: request.request_state.as_deref(),
        };
        let mut response = match refused_arguments(&request) {
            Some(refusal) => refusal?.into(),
            None => call(&request.name, &round, &context).await?,
        };
        match &mut response {
            CallToolResponse::Complete(result) => result.meta = Some(self.result_meta()),
            CallToolResponse::InputRequired(result) => result.meta = Some(self.result_meta()),
            _ => {}
        }
        Ok(response)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut result = catalog::resources();
        result.meta = Some(self.result_meta());
        Ok(result)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let mut result = catalog::templates();
        result.meta = Some(self.result_meta());
        Ok(result)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let mut result = catalog::read(&request.uri)?;
        result.meta = Some(self.result_meta());
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut result = catalog::prompts();
        result.meta = Some(self.result_meta());
        Ok(result)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let mut response = if request.name == "test_input_required_result_prompt" {
            let round = Round {
                meta: &context.meta,
                responses: request.input_responses.as_ref(),
                state: request.request_state.as_deref(),
            };
            asks::context_prompt(&round)?
        } else {
            catalog::prompt(&request.name, request.arguments.as_ref())?.into()
        };
        match &mut response {
            GetPromptResponse::Complete(result) => result.meta = Some(self.result_meta()),
            GetPromptResponse::InputRequired(result) => result.meta = Some(self.result_meta()),
            _ => {}
        }
        Ok(response)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let mut result = catalog::complete(&request)?;
        result.meta = Some(self.result_meta());
        Ok(result)
    }
}
// ANCHOR_END: handler

impl Reference {
    /// `{"io.modelcontextprotocol/serverInfo": {...}}`, from the name and version in get_info().
    fn result_meta(&self) -> MetaObject {
        let info = serde_json::to_value(self.get_info().server_info).expect("serializable");
        let mut meta = MetaObject::new();
        meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
        meta
    }
}
