// The tools (and the one prompt) that need something from the client before they can finish.
// In 2026-07-28 a server never sends a request of its own: it answers `input_required` with the
// requests it needs (a form for the user, a question for the client's model, the client's roots),
// and the client retries the same call with `inputResponses`. Where the work spans rounds, a
// signed `requestState` carries what the server needs back, since it keeps nothing between calls.
// Sampling and roots are deprecated (SEP-2577: new servers SHOULD NOT adopt them) but still part of
// 2026-07-28, and rmcp marks their types deprecated; this server shows them, so it allows that here.
#![allow(deprecated)]

use rmcp::{
    model::{
        CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, CreateMessageRequest,
        CreateMessageRequestParams, ElicitRequest, ElicitRequestParams, ElicitationSchema, GetPromptResponse,
        GetPromptResult, InputRequest, InputRequests, InputRequiredResult, InputResponses, ListRootsRequest,
        PromptMessage, RequestMetaObject, Role, SamplingMessage,
    },
    serde_json::{self, json, Value},
    ErrorData,
};

use crate::seal;

/// What one round of a call brings: the request's _meta, and on a retry the answers and the state.
pub struct Round<'a> {
    pub meta: &'a RequestMetaObject,
    pub responses: Option<&'a InputResponses>,
    pub state: Option<&'a str>,
}

type Outcome = Result<CallToolResponse, ErrorData>;

// ANCHOR: capabilities
#[derive(Clone, Copy)]
enum Channel {
    Elicitation,
    Sampling,
    Roots,
}

fn declares(meta: &RequestMetaObject, channel: Channel) -> bool {
    let caps = meta.client_capabilities().unwrap_or_default();
    match channel {
        Channel::Elicitation => caps.elicitation.is_some(),
        Channel::Sampling => caps.sampling.is_some(),
        Channel::Roots => caps.roots.is_some(),
    }
}

/// -32021 naming every capability this request needs and did not declare: a server MUST NOT send
/// an input request the client has not said it can serve.
fn require(meta: &RequestMetaObject, channels: &[Channel]) -> Result<(), ErrorData> {
    let mut missing = ClientCapabilities::default();
    let mut lacking = false;
    for &channel in channels.iter().filter(|&&channel| !declares(meta, channel)) {
        lacking = true;
        match channel {
            Channel::Elicitation => missing.elicitation = Some(Default::default()),
            Channel::Sampling => missing.sampling = Some(Default::default()),
            Channel::Roots => missing.roots = Some(Default::default()),
        }
    }
    if lacking {
        return Err(ErrorData::missing_required_client_capability(missing));
    }
    Ok(())
}
// ANCHOR_END: capabilities

// ANCHOR: requests
/// A form with one required field for the user: a string, or a yes/no when `yes_no` is set.
fn form(message: &str, field: &str, yes_no: bool) -> InputRequest {
    let schema = ElicitationSchema::builder();
    let schema = if yes_no { schema.required_bool(field) } else { schema.required_string(field) };
    let requested_schema = schema.build_unchecked();
    let params = ElicitRequestParams::FormElicitationParams { meta: None, message: message.into(), requested_schema };
    InputRequest::Elicitation(ElicitRequest::new(params))
}

/// A question for the client's model (sampling).
fn question(text: &str, max_tokens: u32) -> InputRequest {
    let params = CreateMessageRequestParams::new(vec![SamplingMessage::user_text(text)], max_tokens);
    InputRequest::CreateMessage(CreateMessageRequest::new(params))
}

fn roots() -> InputRequest {
    InputRequest::ListRoots(ListRootsRequest::default())
}

fn input_required(asks: Vec<(&str, InputRequest)>, state: Option<String>) -> InputRequiredResult {
    let requests: InputRequests = asks.into_iter().map(|(key, request)| (key.to_string(), request)).collect();
    InputRequiredResult::new(Some(requests), state)
}
// ANCHOR_END: requests

// ANCHOR: answers
fn answer<'a>(round: &Round<'a>, key: &str) -> Option<&'a Value> {
    round.responses.and_then(|responses| responses.get(key))
}

fn malformed(key: &str, expected: &str) -> ErrorData {
    ErrorData::invalid_params(format!("inputResponses.{key}: expected {expected}"), None)
}

/// The field of an accepted form, or None when the user declined or cancelled it.
fn accepted(key: &str, value: &Value, field: &str) -> Result<Option<Value>, ErrorData> {
    let expected = "an elicitation result: {\"action\": \"accept\" | \"decline\" | \"cancel\", \"content\"}";
    match value.get("action").and_then(Value::as_str) {
        Some("accept") => value.get("content").and_then(|c| c.get(field)).cloned().map(Some),
        Some("decline" | "cancel") => Some(None),
        _ => None,
    }
    .ok_or_else(|| malformed(key, expected))
}

fn accepted_text(key: &str, value: &Value, field: &str) -> Result<Option<String>, ErrorData> {
    match accepted(key, value, field)? {
        Some(Value::String(text)) => Ok(Some(text)),
        Some(_) => Err(malformed(key, &format!("content.{field} to be a string"))),
        None => Ok(None),
    }
}

/// The text of the model's reply (a sampling result).
fn model_text(key: &str, value: &Value) -> Result<String, ErrorData> {
    let text = value.get("content").and_then(|content| content.get("text")).and_then(Value::as_str);
    text.map(str::to_string).ok_or_else(|| malformed(key, "a sampling result with text content"))
}

/// The URIs of the client's roots (a roots/list result).
fn root_uris(key: &str, value: &Value) -> Result<Vec<String>, ErrorData> {
    let roots = value.get("roots").and_then(Value::as_array).ok_or_else(|| malformed(key, "a roots/list result"))?;
    let uris = roots.iter().map(|root| root.get("uri").and_then(Value::as_str).map(str::to_string));
    uris.collect::<Option<Vec<_>>>().ok_or_else(|| malformed(key, "every root to have a string uri"))
}
// ANCHOR_END: answers

// ANCHOR: state
/// The signed state: which tool issued it, for which round, and what the user said so far.
fn sealed(tool: &str, round: u64, name: Option<&str>) -> String {
    seal::seal(&json!({ "name": name, "round": round, "tool": tool }).to_string())
}

/// An echoed state, after checking its signature and that this tool issued it.
fn opened(tool: &str, token: &str) -> Result<Value, ErrorData> {
    let refused = |why: &str| ErrorData::invalid_params(format!("Invalid requestState: {why}"), None);
    let payload = seal::open(token).ok_or_else(|| refused("it fails verification (changed, or not issued here)"))?;
    let state: Value = serde_json::from_str(&payload).map_err(|_| refused("unreadable payload"))?;
    if state["tool"] != tool {
        return Err(refused("it was issued for another tool"));
    }
    Ok(state)
}
// ANCHOR_END: state

fn done(text: impl Into<String>) -> Outcome {
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
}

// ANCHOR: one-round
/// One form: the user's name.
pub fn greet(round: &Round) -> Outcome {
    require(round.meta, &[Channel::Elicitation])?;
    let Some(value) = answer(round, "user_name") else {
        // First call, or a retry without this answer: ask (again) rather than fail.
        return Ok(input_required(vec![("user_name", form("What is your name?", "name", false))], None).into());
    };
    match accepted_text("user_name", value, "name")? {
        Some(name) => done(format!("Hello, {name}!")),
        None => done("Hello, whoever you are: the user did not say."),
    }
}

/// One question for the client's model.
pub fn ask_model(round: &Round) -> Outcome {
    require(round.meta, &[Channel::Sampling])?;
    let Some(value) = answer(round, "capital_question") else {
        let ask = question("What is the capital of France?", 100);
        return Ok(input_required(vec![("capital_question", ask)], None).into());
    };
    done(format!("The model answered: {}", model_text("capital_question", value)?))
}

/// The client's roots: the directories it lets servers see.
pub fn list_roots(round: &Round) -> Outcome {
    require(round.meta, &[Channel::Roots])?;
    let Some(value) = answer(round, "client_roots") else {
        return Ok(input_required(vec![("client_roots", roots())], None).into());
    };
    done(format!("The client shares these roots: {}", root_uris("client_roots", value)?.join(", ")))
}
// ANCHOR_END: one-round

// ANCHOR: signed
/// A yes/no form whose retry must bring back the signed state, unchanged.
pub fn confirm(tool: &str, round: &Round) -> Outcome {
    require(round.meta, &[Channel::Elicitation])?;
    let state = round.state.map(|token| opened(tool, token)).transpose()?;
    let (Some(_), Some(value)) = (state, answer(round, "confirm")) else {
        let ask = form("Please confirm", "ok", true);
        return Ok(input_required(vec![("confirm", ask)], Some(sealed(tool, 1, None))).into());
    };
    match accepted("confirm", value, "ok")? {
        Some(Value::Bool(true)) => done("state-ok: the requestState checked out and the user confirmed."),
        Some(Value::Bool(false)) => done("state-ok: the requestState checked out; the user said no."),
        Some(_) => Err(malformed("confirm", "content.ok to be a boolean")),
        None => done("state-ok: the requestState checked out; the user closed the form."),
    }
}
// ANCHOR_END: signed

// ANCHOR: several
/// Three requests in one round; a retry that lacks some gets asked for those alone.
pub fn several(tool: &str, round: &Round) -> Outcome {
    require(round.meta, &[Channel::Elicitation, Channel::Sampling, Channel::Roots])?;
    let asks = vec![
        ("client_roots", roots()),
        ("greeting", question("Generate a greeting", 50)),
        ("user_name", form("What is your name?", "name", false)),
    ];
    let Some(token) = round.state else {
        return Ok(input_required(asks, Some(sealed(tool, 1, None))).into());
    };
    opened(tool, token)?;
    let missing: Vec<_> = asks.into_iter().filter(|(key, _)| answer(round, key).is_none()).collect();
    if !missing.is_empty() {
        return Ok(input_required(missing, Some(token.to_string())).into());
    }
    let (Some(roots), Some(greeting), Some(name)) =
        (answer(round, "client_roots"), answer(round, "greeting"), answer(round, "user_name"))
    else {
        unreachable!("every key was checked above");
    };
    let name = accepted_text("user_name", name, "name")?.unwrap_or_else(|| "friend".into());
    let greeting = model_text("greeting", greeting)?;
    let count = root_uris("client_roots", roots)?.len();
    done(format!("{greeting} {name}, your client shares {count} root(s)."))
}
// ANCHOR_END: several

// ANCHOR: rounds
/// Two forms, one after the other; the state carries the first answer into the second round.
pub fn two_rounds(tool: &str, round: &Round) -> Outcome {
    require(round.meta, &[Channel::Elicitation])?;
    let first = || form("Step 1: What is your name?", "name", false);
    let Some(token) = round.state else {
        return Ok(input_required(vec![("step1", first())], Some(sealed(tool, 1, None))).into());
    };
    let state = opened(tool, token)?;
    if state["round"] == 1 {
        let Some(value) = answer(round, "step1") else {
            return Ok(input_required(vec![("step1", first())], Some(token.to_string())).into());
        };
        let name = accepted_text("step1", value, "name")?.unwrap_or_else(|| "someone".into());
        let second = form("Step 2: What is your favorite color?", "color", false);
        return Ok(input_required(vec![("step2", second)], Some(sealed(tool, 2, Some(&name)))).into());
    }
    let name = state["name"].as_str().unwrap_or("someone");
    let Some(value) = answer(round, "step2") else {
        let second = form("Step 2: What is your favorite color?", "color", false);
        return Ok(input_required(vec![("step2", second)], Some(token.to_string())).into());
    };
    match accepted_text("step2", value, "color")? {
        Some(color) => done(format!("{name}'s favorite color is {color}.")),
        None => done(format!("{name} kept their favorite color to themselves.")),
    }
}
// ANCHOR_END: rounds

// ANCHOR: whatever-declared
/// Asks through every channel this request declared, and only those.
pub fn whatever_declared(round: &Round) -> Outcome {
    let offered = [
        (Channel::Elicitation, "user_name", form("What is your name?", "name", false)),
        (Channel::Sampling, "suggestion", question("Suggest a name for a cat", 20)),
        (Channel::Roots, "client_roots", roots()),
    ];
    let asks: Vec<_> = offered.into_iter().filter(|(channel, ..)| declares(round.meta, *channel)).collect();
    if asks.is_empty() {
        return Err(require(round.meta, &[Channel::Elicitation]).unwrap_err());
    }
    let answered: Vec<&str> = asks.iter().map(|(_, key, _)| *key).filter(|key| answer(round, key).is_some()).collect();
    if answered.is_empty() {
        return Ok(input_required(asks.into_iter().map(|(_, key, request)| (key, request)).collect(), None).into());
    }
    done(format!("Answered: {}", answered.join(", ")))
}
// ANCHOR_END: whatever-declared

// ANCHOR: prompt
/// prompts/get can answer input_required too: this prompt asks the user for its context first.
pub fn context_prompt(round: &Round) -> Result<GetPromptResponse, ErrorData> {
    require(round.meta, &[Channel::Elicitation])?;
    let Some(value) = answer(round, "user_context") else {
        let ask = form("What context should the prompt use?", "context", false);
        return Ok(input_required(vec![("user_context", ask)], None).into());
    };
    let context = accepted_text("user_context", value, "context")?.unwrap_or_else(|| "none given".into());
    let text = format!("Answer with this context in mind: {context}");
    let mut result = GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)]);
    result.description = Some("A prompt built from context the user gave".into());
    Ok(result.into())
}
// ANCHOR_END: prompt
