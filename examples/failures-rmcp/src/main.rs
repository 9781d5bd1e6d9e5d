// failures-rmcp: the page "Two kinds of failure" served by rmcp 3.11, the official Rust SDK. The types say which
// failure is which: `Err(ErrorData)` is a JSON-RPC error, for a request the server cannot make sense of;
// `CallToolResult::error` is a normal result with `isError: true`, for a tool that ran and could not do its job.

use std::borrow::Cow;

use rmcp::{
    handler::server::{common::schema_for_type, tool::ToolCallContext},
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, JsonObject,
        MetaObject, ProtocolVersion,
    },
    schemars::JsonSchema,
    serde::Deserialize,
    serde_json::Value,
    service::{RequestContext, ServerInitializeError},
    tool, tool_handler, tool_router, ErrorData, RoleServer, ServerHandler, ServiceExt,
};

const NOTES: [(&str, &str); 2] = [("n1", "Buy oat milk"), ("n2", "Call the dentist")];

// The arguments both tools take. Only its schema is used: the tools check their arguments themselves (a doc
// comment here would become the schema's description).
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
#[allow(dead_code)] // read as a schema, never deserialized
struct NoteId {
    /// The note's id, for example n1.
    id: String,
}

#[derive(Clone)]
struct Notes;

// ANCHOR: tools
#[tool_router]
impl Notes {
    /// Arguments that do not fit the schema, or a note that does not exist: the tool ran and failed, so a
    /// result with `isError: true` the model reads and can act on, never a JSON-RPC error.
    #[tool(
        title = "Read a note",
        description = "Returns the text of one note. Note ids look like n1.",
        input_schema = schema_for_type::<NoteId>()
    )]
    fn get_note(&self, arguments: JsonObject) -> CallToolResult {
        let note_id = match note_id("get_note", &arguments) {
            Ok(note_id) => note_id,
            Err(message) => return CallToolResult::error(vec![ContentBlock::text(message)]),
        };
        match NOTES.iter().find(|(known, _)| *known == note_id) {
            Some((_, text)) => CallToolResult::success(vec![ContentBlock::text(*text)]),
            None => {
                let ids = NOTES.map(|(id, _)| id).join(" and ");
                let message = format!("No note has the id '{note_id}'. The ids that exist are {ids}.");
                CallToolResult::error(vec![ContentBlock::text(message)])
            }
        }
    }

    /// A client that cannot ask its user is a request this tool cannot serve at all: `Err(ErrorData)`, -32021.
    #[tool(
        title = "Delete a note",
        description = "Deletes one note once the user has confirmed it. Needs a client that declares the elicitation capability.",
        input_schema = schema_for_type::<NoteId>()
    )]
    fn delete_note(
        &self,
        context: RequestContext<RoleServer>,
        arguments: JsonObject,
    ) -> Result<CallToolResult, ErrorData> {
        let capabilities = context.client_capabilities().unwrap_or_default();
        if capabilities.elicitation.is_none() {
            let mut required = ClientCapabilities::default();
            required.elicitation = Some(Default::default());
            return Err(ErrorData::missing_required_client_capability(required));
        }
        if let Err(message) = note_id("delete_note", &arguments) {
            return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
        }
        let message = "This example server does not implement the confirmation step.";
        Ok(CallToolResult::error(vec![ContentBlock::text(message)]))
    }
}

/// Checks the arguments against the schema both tools share. The message is for the model: what is wrong,
/// and what a good call looks like.
fn note_id<'a>(tool: &str, args: &'a JsonObject) -> Result<&'a str, String> {
    let why = match (args.get("id"), args.keys().find(|key| *key != "id")) {
        (Some(Value::String(note_id)), None) => return Ok(note_id),
        (Some(Value::String(_)), Some(extra)) => format!("unexpected property '{extra}'"),
        (Some(_), _) => "property 'id' must be a string".to_string(),
        (None, _) => "missing required property 'id'".to_string(),
    };
    Err(format!("Invalid arguments for tool {tool}: {why}. Pass one argument, id, a note id such as n1."))
}
// ANCHOR_END: tools

// ANCHOR: handler
#[tool_handler(name = "notes", version = "1.0.0", meta = self.result_meta())]
impl ServerHandler for Notes {
    /// 2026-07-28 only: a request for another version gets rmcp's -32022.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    /// A tool that does not exist is the caller's mistake, not the tool's: `Err`, -32602.
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

impl Notes {
    /// `{"io.modelcontextprotocol/serverInfo": {...}}`: rmcp puts it in the discover result only.
    fn result_meta(&self) -> MetaObject {
        let info = rmcp::serde_json::to_value(self.get_info().server_info).expect("serializable");
        let mut meta = MetaObject::new();
        meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
        meta
    }
}
// ANCHOR_END: handler

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = match Notes.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("failures-rmcp: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
