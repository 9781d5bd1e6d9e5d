// pagination-rmcp: the page "Lists in pages" served by rmcp 3.11, the official Rust SDK. Five handbook pages as
// resources, which resources/list hands out two at a time, each page linked to the next by an opaque cursor.
// rmcp reads and writes the wire; the paging is the server's own, as it is without an SDK.

use std::borrow::Cow;

use base64::prelude::{Engine as _, BASE64_STANDARD};
use rmcp::{
    model::{
        CacheScope, DiscoverResult, Implementation, ListResourcesResult, MetaObject, PaginatedRequestParams,
        ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
        ResourceContents, ServerCapabilities, ServerConfig,
    },
    serde_json::json,
    service::{RequestContext, ServerInitializeError},
    ErrorData, RoleServer, ServerHandler, ServiceExt,
};

/// One page of the handbook: what resources/list shows of it, and the text only resources/read sends.
struct Document {
    uri: &'static str,
    name: &'static str,
    title: &'static str,
    text: &'static str,
}

/// The list in the order every page of resources/list follows.
const DOCUMENTS: [Document; 5] = [
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

/// A cursor names the first resource of the next page by its URI, base64-encoded: the server's own format,
/// which clients pass back untouched.
fn cursor_for(document: &Document) -> String {
    BASE64_STANDARD.encode(document.uri)
}

/// Where the page a cursor asks for starts, or None for a cursor this server would never issue.
fn start_of(cursor: &str) -> Option<usize> {
    let uri = BASE64_STANDARD.decode(cursor).ok()?;
    DOCUMENTS.iter().position(|d| d.uri.as_bytes() == uri)
}

impl Handbook {
    /// One page of resources/list: the first without a cursor, `next_cursor` while more remain, none on the
    /// last page. Every page says "public": one list, one cacheScope.
    fn page(&self, cursor: Option<String>) -> Result<ListResourcesResult, ErrorData> {
        let start = match cursor {
            None => 0,
            Some(cursor) => start_of(&cursor).ok_or_else(|| ErrorData::invalid_params("Invalid cursor", None))?,
        };
        let end = DOCUMENTS.len().min(start + PAGE_SIZE);
        let page = DOCUMENTS[start..end].iter().map(|d| Resource::new(d.uri, d.name).with_title(d.title));
        let mut result = ListResourcesResult::with_all_items(page.collect())
            .with_ttl_ms(600_000)
            .with_cache_scope(CacheScope::Public);
        result.next_cursor = DOCUMENTS.get(end).map(cursor_for);
        result.meta = Some(self.result_meta());
        Ok(result)
    }
}
// ANCHOR_END: pages

// ANCHOR: handler
impl ServerHandler for Handbook {
    /// rmcp hands over the request's params, `cursor` among them (None on the first page), and writes
    /// `next_cursor` as `nextCursor`, leaving it out when it is None.
    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        self.page(request.and_then(|params| params.cursor))
    }

    /// resources/read: one page by URI, whichever page of the list it came from. rmcp sends its
    /// `resource_not_found` (-32002) to a 2026-07-28 peer as -32602.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some(document) = DOCUMENTS.iter().find(|d| d.uri == request.uri) else {
            let data = json!({ "uri": request.uri });
            return Err(ErrorData::resource_not_found("Resource not found", Some(data)));
        };
        let contents = ResourceContents::text(document.text, document.uri).with_mime_type("text/markdown");
        let mut result =
            ReadResourceResult::new(vec![contents]).with_ttl_ms(60_000).with_cache_scope(CacheScope::Public);
        result.meta = Some(self.result_meta());
        Ok(result.into())
    }

    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder().enable_resources().build();
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
}
// ANCHOR_END: handler

#[derive(Clone)]
struct Handbook;

impl Handbook {
    /// `{"io.modelcontextprotocol/serverInfo": {...}}`: rmcp puts it in the discover result only.
    fn result_meta(&self) -> MetaObject {
        let info = rmcp::serde_json::to_value(self.get_info().server_info).expect("serializable");
        let mut meta = MetaObject::new();
        meta.insert("io.modelcontextprotocol/serverInfo".to_string(), info);
        meta
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = match Handbook.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()), // EOF before any message
        Err(error @ ServerInitializeError::TransportError { .. }) => {
            eprintln!("pagination-rmcp: the client has gone ({error})");
            return Ok(());
        }
        Err(error) => return Err(error.into()),
    };
    running.waiting().await?;
    Ok(())
}
