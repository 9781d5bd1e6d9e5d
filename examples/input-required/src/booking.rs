// The one tool, book_table, in the multi round-trip style of 2026-07-28: the first call returns
// `input_required` with a form for the user and a sealed requestState; the retry carries the
// user's answer and the state back, and gets the final result.

// ANCHOR: args
use rmcp::{
    handler::server::{
        tool::{InputResponses, RequestState},
        wrapper::Parameters,
    },
    model::{
        CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, ElicitRequest, ElicitRequestParams,
        ElicitResult, ElicitationAction, ElicitationCapability, ElicitationSchema, InputRequest, InputRequests,
        InputRequiredResult, RequestMetaObject,
    },
    schemars::JsonSchema,
    serde::{Deserialize, Serialize},
    serde_json, tool, tool_router, ErrorData,
};

use crate::state;

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(crate = "rmcp::serde", deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
pub struct BookArgs {
    /// The day, as YYYY-MM-DD
    date: String,
    /// 18:00, 19:00, 20:30 or 21:30
    time: String,
    /// How many people, 1 to 12
    #[schemars(range(min = 1, max = 12))]
    party_size: u32,
}

/// What the sealed state holds: the request it answers and the table the user was offered.
#[derive(Deserialize, Serialize)]
#[serde(crate = "rmcp::serde")]
struct Offer {
    request: String,
    digest: String,
    time: String,
}

const SLOTS: [&str; 4] = ["18:00", "19:00", "20:30", "21:30"];
/// The key of the one input request; the retry's inputResponses must use the same key.
const ASK: &str = "booking_name";
// ANCHOR_END: args

#[derive(Clone)]
pub struct Booking;

// ANCHOR: tool
#[tool_router(vis = "pub")]
impl Booking {
    #[tool(description = "Books a table at the example restaurant. Asks the user, through the client, \
                          for the name to book under and to confirm the time: 19:00 is always full, \
                          so a request for 19:00 is offered 20:30.")]
    fn book_table(
        &self,
        Parameters(args): Parameters<BookArgs>,
        meta: RequestMetaObject,
        InputResponses(responses): InputResponses,
        RequestState(token): RequestState,
    ) -> Result<CallToolResponse, ErrorData> {
        if !SLOTS.contains(&args.time.as_str()) || !(1..=12).contains(&args.party_size) {
            let text = "We seat 1 to 12 people at 18:00, 19:00, 20:30 or 21:30: pick one of those.";
            return Ok(CallToolResult::error(vec![ContentBlock::text(text)]).into());
        }
        let digest = state::digest(&salient(&args));
        let Some(token) = token else {
            // First round: nothing was offered yet.
            return ask(&meta, &args, offer_for(&args.time), &digest);
        };
        let offer = open_offer(&token, &digest)?;
        match responses.as_ref().and_then(|answers| answers.get(ASK)) {
            // The retry lacks the answer: ask again rather than fail (a SHOULD of the spec).
            None => ask(&meta, &args, &offer.time, &digest),
            Some(answer) => Ok(finish(&args, &offer.time, answer)?.into()),
        }
    }
}
// ANCHOR_END: tool

// ANCHOR: ask
/// The first reply: a form for the user and the sealed offer, or -32021 if this request did not
/// declare elicitation (an input request the client cannot serve MUST NOT be sent).
fn ask(meta: &RequestMetaObject, args: &BookArgs, time: &str, digest: &str) -> Result<CallToolResponse, ErrorData> {
    let declared = meta.client_capabilities().is_some_and(|caps| caps.elicitation.is_some());
    if !declared {
        let mut needed = ClientCapabilities::default();
        needed.elicitation = Some(ElicitationCapability::default());
        return Err(ErrorData::missing_required_client_capability(needed));
    }
    let message = if time == args.time {
        format!(
            "A table for {} is free on {} at {time}. Whose name should it be booked under?",
            args.party_size, args.date
        )
    } else {
        format!(
            "{} is full on {}; a table for {} is free at {time}. To book it, give the name to book under.",
            args.time, args.date, args.party_size
        )
    };
    let schema = ElicitationSchema::builder()
        .required_string_with("name", |name| name.title("Name for the booking").min_length(1))
        .build()
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
    let form = ElicitRequestParams::FormElicitationParams { meta: None, message, requested_schema: schema };
    let requests = InputRequests::from([(ASK.to_string(), InputRequest::Elicitation(ElicitRequest::new(form)))]);
    let offer = Offer { request: "tools/call".into(), digest: digest.into(), time: time.into() };
    let payload = serde_json::to_string(&offer).expect("three strings serialize");
    Ok(InputRequiredResult::new(Some(requests), Some(state::seal(&payload))).into())
}
// ANCHOR_END: ask

// ANCHOR: check
/// The offer inside an echoed requestState, after checking its tag and that it was issued for
/// this very request. The client holds the state, so it is attacker-controlled input.
fn open_offer(token: &str, digest: &str) -> Result<Offer, ErrorData> {
    let refused = |why: &str| ErrorData::invalid_params(format!("Invalid requestState: {why}"), None);
    let payload =
        state::open(token).ok_or_else(|| refused("it fails verification (changed, or not issued by this server)"))?;
    let offer: Offer = serde_json::from_str(&payload).map_err(|_| refused("unreadable payload"))?;
    if offer.request != "tools/call" || offer.digest != digest {
        return Err(refused("it was issued for a different request; resend the original name and arguments"));
    }
    Ok(offer)
}

/// The bytes the state is bound to: the tool's name and its arguments, in the order the structs
/// declare them, whatever order the client wrote them in.
fn salient(args: &BookArgs) -> String {
    #[derive(Serialize)]
    #[serde(crate = "rmcp::serde")]
    struct Call<'a> {
        name: &'a str,
        arguments: &'a BookArgs,
    }
    serde_json::to_string(&Call { name: "book_table", arguments: args }).expect("strings and a number serialize")
}
// ANCHOR_END: check

// ANCHOR: finish
/// The final result, from the user's answer to the form.
fn finish(args: &BookArgs, time: &str, answer: &serde_json::Value) -> Result<CallToolResult, ErrorData> {
    let malformed = || {
        ErrorData::invalid_params(
            format!("inputResponses.{ASK}: expected an ElicitResult; accept needs content.name, a non-empty string"),
            None,
        )
    };
    let answer: ElicitResult = serde_json::from_value(answer.clone()).map_err(|_| malformed())?;
    let text = match answer.action {
        ElicitationAction::Accept => {
            let name = answer.content.as_ref().and_then(|content| content.get("name")).and_then(|name| name.as_str());
            let name = name.filter(|name| !name.is_empty()).ok_or_else(malformed)?;
            format!("Booked: a table for {} on {} at {time}, under the name {name}.", args.party_size, args.date)
        }
        ElicitationAction::Decline => {
            format!("Nothing booked: the user declined the table at {time} on {}.", args.date)
        }
        // Cancel, or an action a later rmcp adds: book nothing.
        _ => format!("Nothing booked: the user closed the form for {time} on {}.", args.date),
    };
    Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
}

/// Made-up availability: 19:00 is always full and the next free table is at 20:30.
fn offer_for(time: &str) -> &str {
    if time == "19:00" {
        "20:30"
    } else {
        time
    }
}
// ANCHOR_END: finish
