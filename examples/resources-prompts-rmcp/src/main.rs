// resources-prompts-rmcp: the page "Resources and prompts" served by rmcp 3.11, the official Rust SDK. Two
// read-only documents as resources and one prompt template that quotes one of them, no tools. rmcp reads and
// writes the wire and checks each request's `_meta`; what is left here is what the server offers.

use std::borrow::Cow;

use rmcp::{
    handler::server::{prompt::PromptContext, router::prompt::PromptRouter, wrapper::Parameters},
    model::{
        CacheScope, DiscoverResult, GetPromptRequestParams, GetPromptResponse, GetPromptResult, Implementation,
        ListPromptsResult, ListResourcesResult, MetaObject, PaginatedRequestParams, PromptMessage, ProtocolVersion,
        ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, Role,
        ServerCapabilities, ServerConfig,
    },
    prompt, prompt_router,
    schemars::JsonSchema,
    serde::Deserialize,
    serde_json::json,
    service::{RequestContext, ServerInitializeError},
    ErrorData, RoleServer, ServerHandler, ServiceExt,
};

// ANCHOR: resources
/// One document: what resources/list shows of it, and the text only resources/read sends.
struct Document {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
    text: &'static str,
}

const NAMING_RULES: Document = Document {
    uri: "handbook://style/naming",
    name: "naming",
    title: "Naming rules",
    description: "How the team names crates, types, functions and MCP tools.",
    text: concat!(
        "# Naming\n\n",
        "- Crates, modules, functions, variables: snake_case.\n",
        "- Types and traits: UpperCamelCase.\n",
        "- Constants: SCREAMING_SNAKE_CASE.\n",
        "- MCP tools: snake_case, starting with the area they belong to, ",
        "such as stock_level.\n",
    ),
};

const DOCUMENTS: [Document; 2] = [
    NAMING_RULES,
    Document {
        uri: "handbook://style/errors",
        name: "errors",
        title: "Error messages",
        description: "How to write an error message that a person or a model can act on.",
        text: concat!(
            "# Error messages\n\n",
            "Say what went wrong, quote the value that caused it, and say what to do next.\n",
        ),
    },
];

impl Document {
    fn entry(&self) -> Resource {
        Resource::new(self.uri, self.name)
            .with_title(self.title)
            .with_description(self.description)
            .with_mime_type("text/markdown")
    }

    fn contents(&self) -> ResourceContents {
        ResourceContents::text(self.text, self.uri).with_mime_type("text/markdown")
    }
}

impl Handbook {
    /// resources/list: the same for every reader, so anyone may cache it for ten minutes.
    fn list(&self) -> ListResourcesResult {
        let mut result = ListResourcesResult::with_all_items(DOCUMENTS.iter().map(Document::entry).collect())
            .with_ttl_ms(600_000)
            .with_cache_scope(CacheScope::Public);
        result.meta = Some(self.result_meta());
        result
    }

    /// resources/read: an unknown URI is rmcp's `resource_not_found`, code -32002. rmcp sends -32002 only to
    /// a peer on an older revision; for 2026-07-28 it rewrites the code to -32602 on the way out.
    fn read(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        let Some(document) = DOCUMENTS.iter().find(|d| d.uri == uri) else {
            return Err(ErrorData::resource_not_found("Resource not found", Some(json!({ "uri": uri }))));
        };
        let mut result =
            ReadResourceResult::new(vec![document.contents()]).with_ttl_ms(60_000).with_cache_scope(CacheScope::Public);
        result.meta = Some(self.result_meta());
        Ok(result)
    }
}
// ANCHOR_END: resources

// ANCHOR: prompts
/// The prompt's arguments. rmcp lists each field as an argument, its doc comment as the description, and
/// a field that is not an `Option` as required. A call without `code` fails to deserialize: -32602.
#[derive(Deserialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct ReviewArgs {
    /// The code to review
    code: String,
    /// Programming language of the code; Rust if left out
    language: Option<String>,
}

#[derive(Clone)]
struct Handbook;

#[prompt_router]
impl Handbook {
    /// The first message embeds the naming rules as a resource; the second asks the question.
    #[prompt(
        title = "Review names",
        description = "Ask the model to check the names in a piece of code against the team's naming rules."
    )]
    fn review_names(&self, Parameters(ReviewArgs { code, language }): Parameters<ReviewArgs>) -> GetPromptResult {
        let language = language.unwrap_or_else(|| "Rust".to_string());
        let rules = PromptMessage::new_resource(
            Role::User,
            NAMING_RULES.uri.to_string(),
            Some("text/markdown".to_string()),
            Some(NAMING_RULES.text.to_string()),
            None,
            None,
            None,
        );
        let question = format!(
            "Check the names in this {language} code against the naming rules above. For each name \
             that breaks a rule, quote it, name the rule and suggest a better name.\n\n{code}"
        );
        let mut result = GetPromptResult::new(vec![rules, PromptMessage::new_text(Role::User, question)]);
        result.description = Some(format!("Naming review of {language} code"));
        result.meta = Some(self.result_meta());
        result
    }
}
// ANCHOR_END: prompts

// ANCHOR: handler
/// No tools capability, so rmcp answers tools/list with -32601 by itself. `#[prompt_handler]` would write
/// list_prompts and get_prompt too, but it lists prompts with `ttlMs: 0`: this server keeps its ten minutes.
impl ServerHandler for Handbook {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_resources().enable_prompts().build();
        ServerConfig::new(capabilities).with_server_info(Implementation::new("handbook", "1.0.0"))
    }

    /// 2026-07-28 only: rmcp's default would also list the four revisions before it.
    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    /// What the server offers changes only with a new release: cacheable for an hour, by anyone.
    async fn discover(&self, _context: RequestContext<RoleServer>) -> Result<DiscoverResult, ErrorData> {
        let result = DiscoverResult::from_server_info(self.supported_protocol_versions().into_owned(), self.get_info());
        Ok(result.with_ttl_ms(3_600_000).with_cache_scope(CacheScope::Public))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(self.list())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read(&request.uri).map(ReadResourceResponse::from)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut result = ListPromptsResult::with_all_items(Self::prompts().list_all())
            .with_ttl_ms(600_000)
            .with_cache_scope(CacheScope::Public);
        result.meta = Some(self.result_meta());
        Ok(result)
    }

    /// An unknown prompt is rmcp's -32602, with the prompts it has as data.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let prompt = PromptContext::new(self, request.name, request.arguments, context);
        Self::prompts().get_prompt(prompt).await
    }
}

impl Handbook {
    fn prompts() -> PromptRouter<Self> {
        Self::prompt_router()
    }

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
    let running = match Handbook.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("resources-prompts-rmcp: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
