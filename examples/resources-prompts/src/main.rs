// resources-prompts: an MCP server (revision 2026-07-28) over stdio, for the page "Resources and
// prompts". It offers no tools: two read-only documents as resources and one prompt template
// that quotes one of them. JSON goes through serde_json; replies are typed structs, so the key
// order on the wire is the field order below: the order rmcp writes (resources-prompts-rmcp),
// so that both servers share one answer key.
//
// One JSON-RPC message per line comes in on stdin; one reply per request goes out on stdout.
// stdout is the wire and carries nothing else; diagnostics go to stderr.

use serde::Serialize;
use serde_json::{Map, Value};
use std::io::{self, BufRead, Write};

const VERSION: &str = "2026-07-28";
const SERVER_NAME: &str = "handbook";
const SERVER_VERSION: &str = "1.0.0";

// ANCHOR: resources
/// One document the server can hand out, named by its URI. Serialised, it is the entry that
/// resources/list shows; the text itself is only sent by resources/read.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Document {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
    mime_type: &'static str,
    #[serde(skip)]
    text: &'static str,
}

/// The naming rules, which the prompt below also embeds.
const NAMING_RULES: Document = Document {
    uri: "handbook://style/naming",
    name: "naming",
    title: "Naming rules",
    description: "How the team names crates, types, functions and MCP tools.",
    mime_type: "text/markdown",
    text: concat!(
        "# Naming\n\n",
        "- Crates, modules, functions, variables: snake_case.\n",
        "- Types and traits: UpperCamelCase.\n",
        "- Constants: SCREAMING_SNAKE_CASE.\n",
        "- MCP tools: snake_case, starting with the area they belong to, ",
        "such as stock_level.\n",
    ),
};

static DOCUMENTS: [Document; 2] = [
    NAMING_RULES,
    Document {
        uri: "handbook://style/errors",
        name: "errors",
        title: "Error messages",
        description: "How to write an error message that a person or a model can act on.",
        mime_type: "text/markdown",
        text: concat!(
            "# Error messages\n\n",
            "Say what went wrong, quote the value that caused it, and say what to do next.\n",
        ),
    },
];

/// A document's contents, as resources/read sends them and as a prompt embeds them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Contents {
    uri: &'static str,
    mime_type: &'static str,
    text: &'static str,
}

impl Document {
    fn contents(&self) -> Contents {
        Contents { uri: self.uri, mime_type: self.mime_type, text: self.text }
    }
}

/// resources/list: what exists. The same for every reader, so anyone may cache it for ten minutes.
fn list_resources() -> Body {
    Body::Resources { ttl_ms: 600_000, cache_scope: "public", resources: &DOCUMENTS }
}

/// resources/read: one document by URI. A URI the server does not know is -32602 with the
/// URI in data (never an empty contents list, and never the retired -32002).
fn read_resource(params: &Map<String, Value>) -> Result<Body, RpcError> {
    let Some(uri) = params.get("uri").and_then(Value::as_str) else {
        return Err(RpcError::invalid("params.uri must be a string"));
    };
    let Some(document) = DOCUMENTS.iter().find(|d| d.uri == uri) else {
        let data = ErrorData::Resource { uri: uri.to_string() };
        return Err(RpcError { code: -32602, message: "Resource not found".into(), data: Some(data) });
    };
    Ok(Body::Read { ttl_ms: 60_000, cache_scope: "public", contents: [document.contents()] })
}
// ANCHOR_END: resources

// ANCHOR: prompts
#[derive(Serialize)]
struct Prompt {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    arguments: &'static [PromptArgument],
}

#[derive(Serialize)]
struct PromptArgument {
    name: &'static str,
    description: &'static str,
    required: bool,
}

/// prompts/list: one template with one required and one optional argument.
const REVIEW_NAMES: Prompt = Prompt {
    name: "review_names",
    title: "Review names",
    description: "Ask the model to check the names in a piece of code against the team's naming rules.",
    arguments: &[
        PromptArgument { name: "code", description: "The code to review", required: true },
        PromptArgument {
            name: "language",
            description: "Programming language of the code; Rust if left out",
            required: false,
        },
    ],
};

/// One message of a filled-in prompt. Its content is tagged by "type", which serde writes first.
#[derive(Serialize)]
struct PromptMessage {
    role: &'static str,
    content: Content,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Content {
    Text { text: String },
    Resource { resource: Contents },
}

/// prompts/get: the template filled in. An unknown prompt (with the prompts there are as data), a
/// missing required argument or an argument that is not a string is -32602, worded as rmcp words
/// it. The result has no ttlMs or cacheScope: it is not one of the cacheable results.
fn get_prompt(params: &Map<String, Value>) -> Result<Body, RpcError> {
    let Some(name) = params.get("name").and_then(Value::as_str) else {
        return Err(RpcError::invalid("params.name must be a string"));
    };
    if name != REVIEW_NAMES.name {
        let data = ErrorData::Prompts { available_prompts: [REVIEW_NAMES.name] };
        return Err(RpcError { code: -32602, message: format!("prompt '{name}' not found"), data: Some(data) });
    }
    let no_arguments = Value::Object(Map::new());
    let Some(arguments) = params.get("arguments").unwrap_or(&no_arguments).as_object() else {
        return Err(RpcError::invalid("params.arguments must be an object"));
    };
    for (key, value) in arguments {
        if !REVIEW_NAMES.arguments.iter().any(|a| a.name == key) {
            return Err(RpcError::invalid(format!("prompt review_names has no argument {key}")));
        }
        if !value.is_string() {
            return Err(RpcError::invalid(format!("argument {key} must be a string")));
        }
    }
    let Some(code) = arguments.get("code").and_then(Value::as_str) else {
        return Err(RpcError::new(-32602, "Failed to parse parameters: missing field `code`"));
    };
    let language = arguments.get("language").and_then(Value::as_str).unwrap_or("Rust");
    // The first message embeds the naming rules as a resource; the second asks the question.
    let rules = Content::Resource { resource: NAMING_RULES.contents() };
    let question = format!(
        "Check the names in this {language} code against the naming rules above. For each name \
         that breaks a rule, quote it, name the rule and suggest a better name.\n\n{code}"
    );
    let messages = [
        PromptMessage { role: "user", content: rules },
        PromptMessage { role: "user", content: Content::Text { text: question } },
    ];
    Ok(Body::Prompt { description: format!("Naming review of {language} code"), messages })
}
// ANCHOR_END: prompts

// ANCHOR: dispatch
/// One line in, at most one reply out. Notifications (no id) never get a reply.
fn handle(line: &str) -> Option<Reply> {
    let Ok(message) = serde_json::from_str::<Value>(line) else {
        return Some(Reply::error(Value::Null, RpcError::new(-32700, "Parse error")));
    };
    let Value::Object(message) = message else {
        return Some(Reply::error(Value::Null, RpcError::new(-32600, "Invalid Request: not an object")));
    };
    let method = message.get("method").and_then(Value::as_str);
    let Some(id) = message.get("id") else {
        eprintln!("{SERVER_NAME}: notification {}, no reply", method.unwrap_or("?"));
        return None;
    };
    if !(id.is_string() || id.is_i64()) {
        return Some(Reply::error(Value::Null, RpcError::new(-32600, "Invalid Request: bad id")));
    }
    let id = id.clone();
    let Some(method) = method else {
        return Some(Reply::error(id, RpcError::new(-32600, "Invalid Request: no method")));
    };
    // What this server answers, each method named once. No tools capability is declared, so
    // tools/list and tools/call are unknown methods here; the message is the method, as in rmcp.
    let answer: fn(&Map<String, Value>) -> Result<Body, RpcError> = match method {
        "server/discover" => |_| Ok(discover()),
        "resources/list" => |_| Ok(list_resources()),
        "resources/read" => read_resource,
        "prompts/list" => |_| Ok(Body::Prompts { ttl_ms: 600_000, cache_scope: "public", prompts: [REVIEW_NAMES] }),
        "prompts/get" => get_prompt,
        _ => return Some(Reply::error(id, RpcError::new(-32601, method))),
    };
    let no_params = Map::new();
    let params = message.get("params").and_then(Value::as_object).unwrap_or(&no_params);
    Some(match check_meta(params).and_then(|()| answer(params)) {
        Ok(body) => Reply { jsonrpc: "2.0", id, outcome: Outcome::Result(Complete::new(body)) },
        Err(error) => Reply::error(id, error),
    })
}
// ANCHOR_END: dispatch

// The envelope: every request is checked on its own, and every result carries serverInfo.

/// The members of each kind of result, which every handler returns. `untagged` writes a variant
/// as its fields alone, in the order they are declared here.
#[derive(Serialize)]
#[serde(untagged, rename_all_fields = "camelCase")]
enum Body {
    Discover {
        supported_versions: [&'static str; 1],
        capabilities: Capabilities,
        ttl_ms: u32,
        cache_scope: &'static str,
    },
    Resources {
        ttl_ms: u32,
        cache_scope: &'static str,
        resources: &'static [Document],
    },
    Read {
        ttl_ms: u32,
        cache_scope: &'static str,
        contents: [Contents; 1],
    },
    Prompts {
        ttl_ms: u32,
        cache_scope: &'static str,
        prompts: [Prompt; 1],
    },
    Prompt {
        description: String,
        messages: [PromptMessage; 2],
    },
}

fn discover() -> Body {
    let capabilities = Capabilities { prompts: Map::new(), resources: Map::new() };
    Body::Discover { supported_versions: [VERSION], capabilities, ttl_ms: 3_600_000, cache_scope: "public" }
}

/// `{"prompts":{},"resources":{}}`: the two features this server declares, and nothing else.
#[derive(Serialize)]
struct Capabilities {
    prompts: Map<String, Value>,
    resources: Map<String, Value>,
}

/// `params._meta` must name the protocol version and the client's capabilities, every time.
fn check_meta(params: &Map<String, Value>) -> Result<(), RpcError> {
    let Some(meta) = params.get("_meta").and_then(Value::as_object) else {
        return Err(RpcError::invalid("params._meta is required"));
    };
    let Some(version) = meta.get("io.modelcontextprotocol/protocolVersion").and_then(Value::as_str) else {
        return Err(RpcError::invalid("params._meta needs a string io.modelcontextprotocol/protocolVersion"));
    };
    if !meta.get("io.modelcontextprotocol/clientCapabilities").is_some_and(Value::is_object) {
        return Err(RpcError::invalid("params._meta needs an object io.modelcontextprotocol/clientCapabilities"));
    }
    if version != VERSION {
        let data = ErrorData::Version { supported: [VERSION], requested: version.to_string() };
        return Err(RpcError { code: -32022, message: "Unsupported protocol version".into(), data: Some(data) });
    }
    Ok(())
}

/// One line of the wire: `{"jsonrpc","id"}` and then either `"result"` or `"error"`.
#[derive(Serialize)]
struct Reply {
    jsonrpc: &'static str,
    id: Value,
    #[serde(flatten)]
    outcome: Outcome,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Outcome {
    Result(Complete),
    Error(RpcError),
}

impl Reply {
    fn error(id: Value, error: RpcError) -> Reply {
        Reply { jsonrpc: "2.0", id, outcome: Outcome::Error(error) }
    }
}

/// A result: resultType first, then the body's members, and `_meta` with serverInfo where rmcp
/// writes it: right after resultType in a list result, last in the others.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Complete {
    result_type: &'static str,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    list_meta: Option<ResultMeta>,
    #[serde(flatten)]
    body: Body,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<ResultMeta>,
}

#[derive(Serialize)]
struct ResultMeta {
    #[serde(rename = "io.modelcontextprotocol/serverInfo")]
    server_info: ServerInfo,
}

#[derive(Serialize)]
struct ServerInfo {
    name: &'static str,
    version: &'static str,
}

impl Complete {
    fn new(body: Body) -> Complete {
        let meta = Some(ResultMeta { server_info: ServerInfo { name: SERVER_NAME, version: SERVER_VERSION } });
        let (list_meta, meta) = match body {
            Body::Resources { .. } | Body::Prompts { .. } => (meta, None),
            _ => (None, meta),
        };
        Complete { result_type: "complete", list_meta, body, meta }
    }
}

#[derive(Serialize)]
struct RpcError {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<ErrorData>,
}

/// What an error's data says: the URI that was not found, the prompts there are, or the versions
/// on both sides.
#[derive(Serialize)]
#[serde(untagged)]
enum ErrorData {
    Resource { uri: String },
    Prompts { available_prompts: [&'static str; 1] },
    Version { supported: [&'static str; 1], requested: String },
}

impl RpcError {
    fn new(code: i32, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into(), data: None }
    }

    /// -32602, for a request whose params do not make sense.
    fn invalid(why: impl std::fmt::Display) -> RpcError {
        RpcError::new(-32602, format!("Invalid params: {why}"))
    }
}

fn main() {
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let line = line.expect("cannot read stdin");
        // Bytes that are not UTF-8 are refused whole, never patched with U+FFFD and acted on.
        let reply = match std::str::from_utf8(&line).map(str::trim) {
            Ok("") => continue, // a blank line is no message
            Ok(request) => handle(request),
            Err(_) => Some(Reply::error(Value::Null, RpcError::new(-32700, "Parse error"))),
        };
        let Some(reply) = reply else {
            continue; // a notification: nothing to send
        };
        let sent = serde_json::to_writer(&mut stdout, &reply).map_err(io::Error::from);
        if let Err(err) = sent.and_then(|()| writeln!(stdout)).and_then(|()| stdout.flush()) {
            eprintln!("{SERVER_NAME}: stdout closed ({err}), exiting");
            return;
        }
    }
    // EOF on stdin: the client has closed it, which is how a stdio server is told to stop.
}
