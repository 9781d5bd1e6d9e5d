//! The handbook: five pages as resources, listed two at a time by resources/list and fetched one at a
//! time by resources/read.

use base64::prelude::{Engine as _, BASE64_STANDARD};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::{Body, ErrorData, RpcError};

/// One page of the handbook. Serialised, it is the entry resources/list shows; the text itself is
/// only sent by resources/read.
#[derive(Serialize)]
pub struct Document {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    #[serde(skip)]
    text: &'static str,
}

/// The list in the order every page of resources/list follows.
static DOCUMENTS: [Document; 5] = [
    Document {
        uri: "handbook://style/naming",
        name: "naming",
        title: "Naming rules",
        text: "# Naming rules\n\nsnake_case for functions and modules, UpperCamelCase for types.\n",
    },
    Document {
        uri: "handbook://style/errors",
        name: "errors",
        title: "Error messages",
        text: "# Error messages\n\nSay what went wrong, quote the value and say what to do next.\n",
    },
    Document {
        uri: "handbook://style/logging",
        name: "logging",
        title: "Logging",
        text: "# Logging\n\nA stdio server logs to stderr: stdout carries only messages.\n",
    },
    Document {
        uri: "handbook://style/testing",
        name: "testing",
        title: "Testing",
        text: "# Testing\n\nEvery bug fix comes with the test that would have caught it.\n",
    },
    Document {
        uri: "handbook://style/reviews",
        name: "reviews",
        title: "Code reviews",
        text: "# Code reviews\n\nReview the change, not the author, and say what you would do instead.\n",
    },
];

// ANCHOR: pages
/// How many resources one page holds. The server alone decides; a client must not count on it.
const PAGE_SIZE: usize = 2;

/// A cursor names the first resource of the next page by its URI, base64-encoded. Naming a resource
/// rather than counting from the top keeps the cursor on the right place when a page is added
/// before it. The format is this server's own business: clients pass the token back untouched.
fn cursor_for(document: &Document) -> String {
    BASE64_STANDARD.encode(document.uri)
}

/// Where the page a cursor asks for starts, or None for a cursor this server would never issue.
fn start_of(cursor: &Value) -> Option<usize> {
    let uri = BASE64_STANDARD.decode(cursor.as_str()?).ok()?;
    DOCUMENTS.iter().position(|d| d.uri.as_bytes() == uri)
}

/// resources/list: one page. No cursor means the first page; nextCursor is there while more
/// remain and left out on the last page. Every page says "public": one list, one cacheScope.
pub fn list_resources(params: &Map<String, Value>) -> Result<Body, RpcError> {
    let start = match params.get("cursor") {
        None => 0,
        Some(cursor) => start_of(cursor).ok_or_else(|| RpcError::new(-32602, "Invalid cursor"))?,
    };
    let end = DOCUMENTS.len().min(start + PAGE_SIZE);
    let next_cursor = DOCUMENTS.get(end).map(cursor_for);
    Ok(Body::Resources { next_cursor, ttl_ms: 600_000, cache_scope: "public", resources: &DOCUMENTS[start..end] })
}
// ANCHOR_END: pages

/// A page's contents, as resources/read sends them.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Contents {
    uri: &'static str,
    mime_type: &'static str,
    text: &'static str,
}

/// resources/read: one page by URI, whichever page of the list it came from. An unknown URI is
/// -32602 with the URI in data.
pub fn read_resource(params: &Map<String, Value>) -> Result<Body, RpcError> {
    let Some(uri) = params.get("uri").and_then(Value::as_str) else {
        return Err(RpcError::new(-32602, "Invalid params: params.uri must be a string"));
    };
    let Some(document) = DOCUMENTS.iter().find(|d| d.uri == uri) else {
        let data = ErrorData::Resource { uri: uri.to_string() };
        return Err(RpcError { code: -32602, message: "Resource not found".into(), data: Some(data) });
    };
    let contents = Contents { uri: document.uri, mime_type: "text/markdown", text: document.text };
    Ok(Body::Read { ttl_ms: 60_000, cache_scope: "public", contents: [contents] })
}
