// Resources, a resource template, prompts and completion. Everything here is fixed while the
// server runs, so every list and read says how long it stays fresh and that anyone may cache it.

use rmcp::{
    model::{
        CacheScope, CompleteRequestParams, CompleteResult, CompletionInfo, GetPromptResult, JsonObject,
        ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, Prompt, PromptArgument, PromptMessage,
        ReadResourceResult, Reference, Resource, ResourceContents, ResourceTemplate, Role,
    },
    serde_json::json,
    ErrorData,
};

use crate::content::RED_PIXEL_PNG;

// ANCHOR: caching
/// Lists never change while the server runs: an hour. A read: a minute. Nothing here depends on
/// who asks, so shared caches may keep it too.
const LIST_TTL_MS: u64 = 3_600_000;
const READ_TTL_MS: u64 = 60_000;
// ANCHOR_END: caching

// ANCHOR: resources
const TEMPLATE: &str = "test://template/{id}/data";

pub fn resources() -> ListResourcesResult {
    let text = Resource::new("test://static-text", "static-text")
        .with_description("A short text document")
        .with_mime_type("text/plain");
    let binary = Resource::new("test://static-binary", "static-binary")
        .with_description("A 1x1 red PNG image")
        .with_mime_type("image/png");
    ListResourcesResult::with_all_items(vec![text, binary])
        .with_ttl_ms(LIST_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

pub fn templates() -> ListResourceTemplatesResult {
    let data = ResourceTemplate::new(TEMPLATE, "template-data")
        .with_description("A JSON document for any id")
        .with_mime_type("application/json");
    ListResourceTemplatesResult::with_all_items(vec![data])
        .with_ttl_ms(LIST_TTL_MS)
        .with_cache_scope(CacheScope::Public)
}

/// One document by URI: the two fixed ones, or the template filled in. An unknown URI is -32602
/// with the URI in data, never an empty contents list.
pub fn read(uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let contents = match uri {
        "test://static-text" => ResourceContents::text("This is the content of the static text resource.", uri),
        "test://static-binary" => ResourceContents::blob(RED_PIXEL_PNG, uri).with_mime_type("image/png"),
        _ => match template_id(uri) {
            Some(id) => {
                let data = json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") });
                ResourceContents::text(data.to_string(), uri).with_mime_type("application/json")
            }
            None => return Err(ErrorData::invalid_params("Resource not found", Some(json!({ "uri": uri })))),
        },
    };
    Ok(ReadResourceResult::new(vec![contents]).with_ttl_ms(READ_TTL_MS).with_cache_scope(CacheScope::Public))
}

/// The {id} of test://template/{id}/data: one path segment, not empty.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri.strip_prefix("test://template/")?.strip_suffix("/data")?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}
// ANCHOR_END: resources

// ANCHOR: prompts
pub fn prompts() -> ListPromptsResult {
    let argument =
        |name: &str, description: &str| PromptArgument::new(name).with_description(description).with_required(true);
    let list = vec![
        Prompt::new("test_simple_prompt", Some("A prompt with no arguments"), None),
        Prompt::new(
            "test_prompt_with_arguments",
            Some("A prompt that quotes its two arguments"),
            Some(vec![argument("arg1", "First test argument"), argument("arg2", "Second test argument")]),
        ),
        Prompt::new(
            "test_prompt_with_embedded_resource",
            Some("A prompt that embeds a resource"),
            Some(vec![argument("resourceUri", "URI of the resource to embed")]),
        ),
        Prompt::new("test_prompt_with_image", Some("A prompt that shows an image"), None),
        Prompt::new("test_input_required_result_prompt", Some("A prompt that first asks the user for context"), None),
    ];
    ListPromptsResult::with_all_items(list).with_ttl_ms(LIST_TTL_MS).with_cache_scope(CacheScope::Public)
}

/// The prompts that need nothing from the client; the one that does is in asks.rs.
pub fn prompt(name: &str, arguments: Option<&JsonObject>) -> Result<GetPromptResult, ErrorData> {
    let messages = match name {
        "test_simple_prompt" => vec![PromptMessage::new_text(Role::User, "This is a simple prompt for testing.")],
        "test_prompt_with_arguments" => {
            let (arg1, arg2) = (argument(arguments, "arg1")?, argument(arguments, "arg2")?);
            vec![PromptMessage::new_text(Role::User, format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"))]
        }
        "test_prompt_with_embedded_resource" => {
            let uri = argument(arguments, "resourceUri")?;
            let embedded = ResourceContents::text("Embedded resource content for testing.", uri);
            vec![
                PromptMessage::new(Role::User, rmcp::model::ContentBlock::resource(embedded)),
                PromptMessage::new_text(Role::User, "Please process the embedded resource above."),
            ]
        }
        "test_prompt_with_image" => vec![
            PromptMessage::new(Role::User, rmcp::model::ContentBlock::image(RED_PIXEL_PNG, "image/png")),
            PromptMessage::new_text(Role::User, "Please analyze the image above."),
        ],
        _ => return Err(ErrorData::invalid_params(format!("Unknown prompt: {name}"), None)),
    };
    Ok(GetPromptResult::new(messages))
}

/// A required string argument; missing or not a string is -32602.
fn argument<'a>(arguments: Option<&'a JsonObject>, name: &str) -> Result<&'a str, ErrorData> {
    let value = arguments.and_then(|arguments| arguments.get(name)).and_then(|value| value.as_str());
    value.ok_or_else(|| ErrorData::invalid_params(format!("Missing required argument: {name}"), None))
}
// ANCHOR_END: prompts

// ANCHOR: completion
/// Suggestions for what has been typed so far: the prompt's two arguments, or the template's id.
pub fn complete(request: &CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
    let candidates: &[&str] = match (&request.r#ref, request.argument.name.as_str()) {
        (Reference::Prompt(prompt), "arg1" | "arg2") if prompt.name == "test_prompt_with_arguments" => {
            &["paris", "park", "party", "test", "testing"]
        }
        (Reference::Resource(template), "id") if template.uri == TEMPLATE => &["123", "456", "789"],
        _ => return Err(ErrorData::invalid_params("Nothing to complete for this reference and argument", None)),
    };
    let typed = request.argument.value.as_str();
    let values = candidates.iter().filter(|value| value.starts_with(typed)).map(|value| value.to_string());
    let info = CompletionInfo::with_all_values(values.collect()).map_err(|e| ErrorData::internal_error(e, None))?;
    Ok(CompleteResult::new(info))
}
// ANCHOR_END: completion
