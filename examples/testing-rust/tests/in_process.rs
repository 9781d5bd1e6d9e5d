// The same server and client in one process, on one tokio runtime: `tokio::io::duplex` is a pair
// of in-memory pipes, one end for each side. No binary to start, so these tests need nothing but
// the library.

use rmcp::{
    model::{CallToolRequestParams, ProtocolVersion},
    serde_json::json,
    service::{ClientLifecycleMode, ClientServiceExt, RunningService},
    RoleClient, ServiceExt,
};
use testing_rust::Greeter;

// ANCHOR: connect
async fn connect() -> RunningService<RoleClient, ()> {
    let (server_end, client_end) = tokio::io::duplex(64 * 1024);
    // serve() returns once the client's first message has arrived: start it as a task of its own.
    tokio::spawn(async move {
        let running = Greeter.serve(server_end).await.expect("the server starts");
        running.waiting().await.expect("the server stops cleanly");
    });
    let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] };
    ().serve_with_lifecycle(client_end, lifecycle).await.expect("server/discover is answered")
}
// ANCHOR_END: connect

#[tokio::test]
async fn greets_in_process() {
    let client = connect().await;
    let tools = client.peer().list_tools(None).await.expect("tools/list succeeds");
    assert_eq!(tools.tools.len(), 1);
    let arguments = json!({ "name": "Grace" }).as_object().cloned().unwrap();
    let call = CallToolRequestParams::new("greet").with_arguments(arguments);
    let result = client.peer().call_tool(call).await.expect("tools/call succeeds");
    assert_eq!(result.is_error, Some(false));
    let text = result.content[0].as_text().expect("a text block");
    assert_eq!(text.text, "Hello, Grace!");
    client.cancel().await.expect("the client stops");
}
