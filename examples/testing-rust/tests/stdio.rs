// Drives the built server through rmcp's client, over the child process's stdin and stdout: the
// same path an editor takes. Cargo builds the binary before the tests and names its path in
// CARGO_BIN_EXE_<name>.

use rmcp::{
    model::{CallToolRequestParams, ContentBlock, ProtocolVersion},
    serde_json::json,
    service::{ClientLifecycleMode, ClientServiceExt, RunningService},
    transport::TokioChildProcess,
    RoleClient, ServiceError,
};
use tokio::process::Command;

// ANCHOR: connect
/// Starts the server and connects the way a 2026-07-28 client does: `server/discover`, then
/// requests that each carry their own `_meta`.
async fn connect() -> RunningService<RoleClient, ()> {
    let server = Command::new(env!("CARGO_BIN_EXE_testing-rust"));
    let transport = TokioChildProcess::new(server).expect("the server starts");
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    ().serve_with_lifecycle(transport, lifecycle).await.expect("server/discover is answered")
}
// ANCHOR_END: connect

/// The text of a result's first content block.
fn first_text(content: &[ContentBlock]) -> &str {
    &content.first().and_then(ContentBlock::as_text).expect("a text block first").text
}

// ANCHOR: checks
#[tokio::test]
async fn lists_the_greet_tool() {
    let client = connect().await;
    let tools = client.peer().list_tools(None).await.expect("tools/list succeeds");
    let names: Vec<&str> = tools.tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["greet"]);
    client.cancel().await.expect("the server stops");
}

#[tokio::test]
async fn greets_by_name() {
    let client = connect().await;
    let arguments = json!({ "name": "Ada" }).as_object().cloned().unwrap();
    let call = CallToolRequestParams::new("greet").with_arguments(arguments);
    let result = client.peer().call_tool(call).await.expect("tools/call succeeds");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(first_text(&result.content), "Hello, Ada!");
    client.cancel().await.expect("the server stops");
}

/// A tool that fails answers with a result: the request succeeded, `isError` says the tool did not.
#[tokio::test]
async fn an_empty_name_is_a_tool_error() {
    let client = connect().await;
    let arguments = json!({ "name": "" }).as_object().cloned().unwrap();
    let call = CallToolRequestParams::new("greet").with_arguments(arguments);
    let result = client.peer().call_tool(call).await.expect("a tool error is still a result");
    assert_eq!(result.is_error, Some(true));
    assert_eq!(first_text(&result.content), "Nobody to greet: name is empty");
    client.cancel().await.expect("the server stops");
}

/// A request the server refuses is a JSON-RPC error: rmcp's client returns it as an `Err`.
#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let client = connect().await;
    let call = CallToolRequestParams::new("wave");
    let error = client.peer().call_tool(call).await.expect_err("no tool is named wave");
    let ServiceError::McpError(error) = error else { panic!("expected a JSON-RPC error, got {error:?}") };
    assert_eq!(error.code.0, -32602);
    assert_eq!(error.message, "tool not found");
    client.cancel().await.expect("the server stops");
}
// ANCHOR_END: checks
