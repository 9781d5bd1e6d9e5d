//! notes: a small MCP server (revision 2026-07-28) over stdio, on serde_json.
//!
//! It exists to show the two kinds of failure, and the types say which is which. Every handler
//! returns `Result<_, RpcError>`: `Err` is a JSON-RPC error, for a request the server cannot make
//! sense of; a tool that ran and could not do its job returns `Ok` with `isError: true`, a normal
//! result the model reads. Every diagnostic goes to stderr; stdout carries only JSON-RPC messages.

use serde::Serialize;
use serde_json::{json, Map, Value};
use std::io::{self, BufRead, Write};

const PROTOCOL_VERSION: &str = "2026-07-28";
const NOTES: [(&str, &str); 2] = [("n1", "Buy oat milk"), ("n2", "Call the dentist")];

/// A JSON-RPC error: the request itself was wrong, and a programmer has to change something.
#[derive(Serialize)]
struct RpcError {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<ErrorData>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum ErrorData {
    Versions {
        supported: [&'static str; 1],
        requested: String,
    },
    Capabilities {
        #[serde(rename = "requiredCapabilities")]
        required: Value,
    },
}

impl RpcError {
    fn new(code: i32, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }

    fn invalid_params(why: &str) -> Self {
        RpcError::new(-32602, format!("Invalid params: {why}"))
    }
}

// ANCHOR: envelope
/// One line in, at most one reply out. The checks run from the outside in:
/// is it JSON, is it JSON-RPC, is it a notification, is `params._meta` there,
/// is the version one this server speaks; only then does the method matter.
fn handle(line: &str) -> Option<String> {
    let msg: Value = match serde_json::from_str(line) {
        Ok(msg) => msg,
        Err(why) => {
            eprintln!("notes: not JSON ({why}); answering -32700 with id null");
            let error = RpcError::new(-32700, "Parse error: the line is not valid JSON");
            return Some(respond(Value::Null, Err(error)));
        }
    };
    let id = msg.get("id");
    let method = match (msg["method"].as_str(), msg["jsonrpc"].as_str()) {
        (Some(method), Some("2.0")) if id.is_none_or(is_id) => method,
        // Not a JSON-RPC 2.0 request or notification: -32600, with the id when it can be read.
        _ => {
            let id = id.filter(|id| is_id(id)).cloned().unwrap_or(Value::Null);
            let error = RpcError::new(-32600, "Invalid Request: not a JSON-RPC 2.0 request or notification");
            return Some(respond(id, Err(error)));
        }
    };
    let Some(id) = id.cloned() else {
        eprintln!("notes: notification {method}; notifications get no reply");
        return None;
    };
    eprintln!("notes: request {method} id={id}");
    Some(respond(id, serve(method, msg.get("params"))))
}

/// Everything after the JSON-RPC checks. `?` turns each failed check into the error reply.
fn serve(method: &str, params: Option<&Value>) -> Result<Answer, RpcError> {
    let missing = || RpcError::invalid_params("params._meta is missing");
    let params = params.ok_or_else(missing)?;
    let meta = params.get("_meta").filter(|m| m.is_object()).ok_or_else(missing)?;
    let version = meta["io.modelcontextprotocol/protocolVersion"]
        .as_str()
        .ok_or_else(|| RpcError::invalid_params("params._meta has no io.modelcontextprotocol/protocolVersion"))?;
    let caps = meta["io.modelcontextprotocol/clientCapabilities"]
        .as_object()
        .ok_or_else(|| RpcError::invalid_params("params._meta has no io.modelcontextprotocol/clientCapabilities"))?;
    if version != PROTOCOL_VERSION {
        let data = ErrorData::Versions { supported: [PROTOCOL_VERSION], requested: version.to_string() };
        return Err(RpcError { data: Some(data), ..RpcError::new(-32022, "Unsupported protocol version") });
    }
    match method {
        "server/discover" => Ok(Answer::Discover(discover())),
        "tools/list" => Ok(Answer::Tools(list_tools())),
        "tools/call" => call_tool(params, caps).map(Answer::Call),
        _ => Err(RpcError::new(-32601, format!("Method not found: {method}"))),
    }
}
// ANCHOR_END: envelope

// ANCHOR: call
fn call_tool(params: &Value, caps: &Map<String, Value>) -> Result<CallToolResult, RpcError> {
    let name = params["name"].as_str();
    let name = name.ok_or_else(|| RpcError::invalid_params("tools/call needs a tool name"))?;
    let no_arguments = Value::Object(Map::new());
    let args = params.get("arguments").unwrap_or(&no_arguments).as_object();
    let args = args.ok_or_else(|| RpcError::invalid_params("params.arguments must be an object"))?;
    match name {
        "get_note" => {
            // Arguments that do not fit the tool's inputSchema: a tool execution error,
            // which the model reads and can fix on its next call.
            let note_id = match note_id(name, args) {
                Ok(note_id) => note_id,
                Err(message) => return Ok(CallToolResult::error(message)),
            };
            Ok(match NOTES.iter().find(|(known, _)| *known == note_id) {
                Some((_, text)) => CallToolResult::text(*text),
                // The call was well formed; the tool ran and failed. The model can fix this too.
                None => {
                    let ids = NOTES.map(|(id, _)| id).join(" and ");
                    CallToolResult::error(format!("No note has the id '{note_id}'. The ids that exist are {ids}."))
                }
            })
        }
        "delete_note" => {
            // This tool cannot work unless the client can ask its user a question.
            if !caps.get("elicitation").is_some_and(Value::is_object) {
                let message = "delete_note asks the user to confirm, which needs the elicitation capability";
                let data = ErrorData::Capabilities { required: json!({"elicitation": {}}) };
                return Err(RpcError { data: Some(data), ..RpcError::new(-32021, message) });
            }
            if let Err(message) = note_id(name, args) {
                return Ok(CallToolResult::error(message));
            }
            // A real server would now ask for confirmation (resultType "input_required");
            // this example stops after the checks and says so.
            Ok(CallToolResult::error("This example server does not implement the confirmation step."))
        }
        _ => Err(RpcError::new(-32602, format!("Unknown tool: {name}"))),
    }
}

/// Checks `arguments` against the inputSchema both tools share. The message is for the
/// model: what is wrong, and what a good call looks like.
fn note_id<'a>(tool: &str, args: &'a Map<String, Value>) -> Result<&'a str, String> {
    let why = match (args.get("id"), args.keys().find(|key| *key != "id")) {
        (Some(Value::String(note_id)), None) => return Ok(note_id),
        (Some(Value::String(_)), Some(extra)) => format!("unexpected property '{extra}'"),
        (Some(_), _) => "property 'id' must be a string".to_string(),
        (None, _) => "missing required property 'id'".to_string(),
    };
    Err(format!("Invalid arguments for tool {tool}: {why}. Pass one argument, id, a note id such as n1."))
}
// ANCHOR_END: call

/// What a request can succeed with. Untagged: each variant is written as its own fields.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Discover(Discover),
    Tools(ToolsList),
    Call(CallToolResult),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult {
    result_type: &'static str,
    content: [TextContent; 1],
    is_error: bool,
}

#[derive(Serialize)]
struct TextContent {
    r#type: &'static str,
    text: String,
}

impl CallToolResult {
    fn text(text: impl Into<String>) -> Self {
        let content = [TextContent { r#type: "text", text: text.into() }];
        CallToolResult { result_type: "complete", content, is_error: false }
    }

    fn error(text: impl Into<String>) -> Self {
        CallToolResult { is_error: true, ..CallToolResult::text(text) }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Discover {
    result_type: &'static str,
    supported_versions: [&'static str; 1],
    capabilities: Value,
    ttl_ms: u32,
    cache_scope: &'static str,
}

fn discover() -> Discover {
    Discover {
        result_type: "complete",
        supported_versions: [PROTOCOL_VERSION],
        capabilities: json!({"tools": {}}),
        ttl_ms: 60_000,
        cache_scope: "public",
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolsList {
    result_type: &'static str,
    tools: [Tool; 2],
    ttl_ms: u32,
    cache_scope: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input_schema: NoteIdSchema,
}

/// The inputSchema both tools share: one required string property, `id`, and nothing else.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NoteIdSchema {
    r#type: &'static str,
    properties: NoteIdProperties,
    required: [&'static str; 1],
    additional_properties: bool,
}

#[derive(Serialize)]
struct NoteIdProperties {
    id: Property,
}

#[derive(Serialize)]
struct Property {
    r#type: &'static str,
    description: &'static str,
}

fn list_tools() -> ToolsList {
    let schema = || NoteIdSchema {
        r#type: "object",
        properties: NoteIdProperties {
            id: Property { r#type: "string", description: "The note's id, for example n1." },
        },
        required: ["id"],
        additional_properties: false,
    };
    let get_note = Tool {
        name: "get_note",
        title: "Read a note",
        description: "Returns the text of one note. Note ids look like n1.",
        input_schema: schema(),
    };
    let delete_note = Tool {
        name: "delete_note",
        title: "Delete a note",
        description: "Deletes one note once the user has confirmed it. \
                      Needs a client that declares the elicitation capability.",
        input_schema: schema(),
    };
    ToolsList { result_type: "complete", tools: [get_note, delete_note], ttl_ms: 60_000, cache_scope: "public" }
}

/// A JSON-RPC response: `result` or `error`, never both.
#[derive(Serialize)]
struct Response {
    jsonrpc: &'static str,
    id: Value,
    #[serde(flatten)]
    outcome: Outcome,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
#[allow(clippy::large_enum_variant)] // one per reply, written out at once: boxing would buy nothing
enum Outcome {
    Result(WithMeta),
    Error(RpcError),
}

/// A result's own members, then the `_meta` that names the server in every result.
#[derive(Serialize)]
struct WithMeta {
    #[serde(flatten)]
    answer: Answer,
    #[serde(rename = "_meta")]
    meta: Value,
}

fn respond(id: Value, outcome: Result<Answer, RpcError>) -> String {
    let outcome = match outcome {
        Ok(answer) => {
            let meta = json!({"io.modelcontextprotocol/serverInfo": {"name": "notes", "version": "1.0.0"}});
            Outcome::Result(WithMeta { answer, meta })
        }
        Err(error) => Outcome::Error(error),
    };
    serde_json::to_string(&Response { jsonrpc: "2.0", id, outcome }).expect("a response always serialises")
}

/// A JSON-RPC id this server accepts: a string or an integer.
fn is_id(id: &Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

fn main() {
    let mut stdout = io::stdout().lock();
    for line in io::stdin().lock().split(b'\n') {
        let raw = match line {
            Ok(raw) => raw,
            Err(err) => {
                eprintln!("notes: cannot read stdin: {err}");
                break;
            }
        };
        let line = raw.strip_suffix(b"\r").unwrap_or(&raw);
        let reply = match std::str::from_utf8(line) {
            Ok(line) => handle(line),
            Err(_) => {
                let error = RpcError::new(-32700, "Parse error: the line is not valid UTF-8");
                Some(respond(Value::Null, Err(error)))
            }
        };
        if let Some(reply) = reply {
            if let Err(err) = writeln!(stdout, "{reply}").and_then(|()| stdout.flush()) {
                eprintln!("notes: stdout closed ({err}), exiting");
                return;
            }
        }
    }
    // End of file: the client closed our stdin, which is how a stdio server is told to stop.
    eprintln!("notes: stdin closed, exiting");
}
