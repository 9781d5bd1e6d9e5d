// The tools that answer at once: one per kind of content a tool result can hold, an error the
// model can read, progress, and a tool that logs (to stderr).

use std::time::Duration;

use rmcp::{
    model::{CallToolResult, ContentBlock, ProgressNotificationParam, ResourceContents},
    service::RequestContext,
    ErrorData, RoleServer,
};

/// A 1x1 red PNG and 8 samples of 8 kHz silence as WAV, base64: the smallest real files of each kind.
pub const RED_PIXEL_PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC";
const SILENCE_WAV: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA==";

pub fn simple_text() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text("This is a simple text response for testing.")])
}

pub fn image() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::image(RED_PIXEL_PNG, "image/png")])
}

pub fn audio() -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::audio(SILENCE_WAV, "audio/wav")])
}

pub fn embedded_resource() -> CallToolResult {
    let text = ResourceContents::text("This is an embedded resource content.", "test://embedded-resource");
    CallToolResult::success(vec![ContentBlock::resource(text)])
}

/// Three kinds in one result: the client shows them in order.
pub fn mixed() -> CallToolResult {
    let data = ResourceContents::text(r#"{"test":"data","value":123}"#, "test://mixed-content-resource")
        .with_mime_type("application/json");
    CallToolResult::success(vec![
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image(RED_PIXEL_PNG, "image/png"),
        ContentBlock::resource(data),
    ])
}

/// A tool that fails answers a result with isError, which the model reads; not a JSON-RPC error.
pub fn error() -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text("This tool intentionally returns an error for testing")])
}

/// Progress 0, 50 and 100 of 100, 50 ms apart, when the request carried a progressToken.
pub async fn with_progress(context: &RequestContext<RoleServer>) -> Result<CallToolResult, ErrorData> {
    let token = context.meta.get_progress_token(); // None: the request asked for no progress
    for (step, done) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if step > 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if let Some(token) = &token {
            let note = ProgressNotificationParam::new(token.clone(), done).with_total(100.0);
            context.peer.notify_progress(note).await.map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        }
    }
    Ok(CallToolResult::success(vec![ContentBlock::text("Counted to 100, reporting progress on the way.")]))
}

/// Logs to stderr, never to the client: notifications/message is deprecated in 2026-07-28, and a
/// server MUST NOT send one for a request that did not set _meta logLevel.
pub fn logging() -> CallToolResult {
    eprintln!("conformance-reference: test_logging_tool ran");
    CallToolResult::success(vec![ContentBlock::text("Done; the log line went to the server's stderr.")])
}
