# authorization: the Python twin of src/*.rs on the official SDK, `mcp` 2.3.0. With MCP_HTTP_ADDR
# unset it serves stdio and asks for no token; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves Streamable
# HTTP at http://127.0.0.1:PORT/mcp as an OAuth 2.1 resource server: the SDK's AuthSettings and a
# TokenVerifier answer 401 and serve the metadata document; a small middleware of our own answers 403
# when the called tool needs a scope the token lacks (the SDK checks scopes for the whole endpoint).

import json
import os
import signal
import sys

import anyio
import mcp_types as types
import uvicorn
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.routes import build_resource_metadata_url, create_protected_resource_routes
from mcp.server.auth.settings import AuthSettings
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp.shared.exceptions import MCPError

# ANCHOR: tools
SCHEMA = "https://json-schema.org/draft/2020-12/schema"
LOCAL_USER = "local"  # over stdio nobody presents a token: the caller is the user who started the server
NOTEBOOKS: dict[str, list[str]] = {}  # one per caller, shared by every request, as the Rust twin's Arc<Mutex<HashMap>>

TOOLS = {
    "add_note": types.Tool(
        name="add_note",
        description="Adds a note to your notes and returns its number.",
        input_schema={"$schema": SCHEMA, "additionalProperties": False,
                      "properties": {"text": {"description": "The note's text", "type": "string"}},
                      "required": ["text"], "type": "object"},
    ),
    "read_note": types.Tool(
        name="read_note",
        description="Reads one of your notes by its number.",
        input_schema={"$schema": SCHEMA, "additionalProperties": False,
                      "properties": {"id": {"description": "The note's number, from 1", "format": "uint32",
                                            "minimum": 1, "type": "integer"}},
                      "required": ["id"], "type": "object"},
    ),
}


def notebook() -> list[str]:
    """The caller's notes, and no one else's: over HTTP the subject of the token the SDK verified for this
    request; over stdio, the local user. A caller's first request opens a notebook with two notes in it."""
    token = get_access_token()
    caller = token.subject if token is not None and token.subject is not None else LOCAL_USER
    return NOTEBOOKS.setdefault(caller, ["Buy milk", "Call the dentist"])


def read_note(id: int) -> tuple[str, bool]:
    notes = notebook()
    if id > len(notes):
        return f"no note {id}: you have {len(notes)}", True
    return f"note {id}: {notes[id - 1]}", False


def add_note(text: str) -> tuple[str, bool]:
    notes = notebook()
    notes.append(text)
    return f"added note {len(notes)}", False
# ANCHOR_END: tools


# ANCHOR: handlers
async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=list(TOOLS.values()), ttl_ms=0, cache_scope="public")


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    function = {"read_note": read_note, "add_note": add_note}.get(params.name)
    if function is None:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
    arguments = params.arguments or {}
    problem = best_match(Draft202012Validator(TOOLS[params.name].input_schema).iter_errors(arguments))
    text, failed = (f"invalid arguments: {problem.message}", True) if problem else function(**arguments)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=failed)


server = Server("authorization", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)
# ANCHOR_END: handlers


# ANCHOR: key-order
# One answer key for both twins, compared byte for byte: results are reordered the way rmcp writes them.
RMCP_ORDER = {
    "server/discover": ("resultType", "supportedVersions", "capabilities", "ttlMs", "cacheScope", "_meta"),
    "tools/list": ("resultType", "_meta", "ttlMs", "cacheScope", "tools"),
    "tools/call": ("resultType", "content", "isError", "_meta"),
}


def ordered(item: dict, keys: tuple[str, ...]) -> dict:
    return {key: item[key] for key in keys if key in item} | {k: v for k, v in item.items() if k not in keys}


async def rmcp_key_order(ctx, call_next):
    result = await call_next(ctx)
    if ctx.method not in RMCP_ORDER or not isinstance(result, dict):
        return result
    result = ordered(result, RMCP_ORDER[ctx.method])
    for tool in result.get("tools", []):  # serde_json writes a schema's keys sorted
        tool["inputSchema"] = dict(sorted(tool["inputSchema"].items()))
    if "tools" in result:
        result["tools"] = [ordered(tool, ("name", "description", "inputSchema")) for tool in result["tools"]]
    if "content" in result:
        result["content"] = [ordered(block, ("type", "text")) for block in result["content"]]
    return result


server.middleware.append(rmcp_key_order)
# ANCHOR_END: key-order


# ANCHOR: resource
AUTHORIZATION_SERVER = "https://auth.example.com"  # named, never contacted: no authorization server runs
# The canonical URI: configured (default: the public HTTPS address behind a TLS proxy), never taken from Host.
RESOURCE = os.environ.get("MCP_RESOURCE_URL", "https://notes.example.com/mcp")
SCOPES = ["notes:read", "notes:write"]
TOOL_SCOPES = {"read_note": "notes:read", "add_note": "notes:write"}  # other requests need a valid token only
AUTH = AuthSettings(issuer_url=AUTHORIZATION_SERVER, resource_server_url=RESOURCE, validate_token_resource=True)
# ANCHOR_END: resource


# ANCHOR: tokens
class TestTokens:
    """The SDK's TokenVerifier: what the authorization server says about each test token (by introspection,
    or a signed JWT's claims), including the user it was issued to (`sub`). The SDK refuses a token whose `resource` is not RESOURCE (the audience check)."""

    ISSUED = {  # token: (audience, the user it was issued to, scopes)
        "write-token": (RESOURCE, "alice", ["notes:read", "notes:write"]),
        "read-token": (RESOURCE, "bob", ["notes:read"]),
        "calendar-token": ("https://calendar.example.com/mcp", "alice", ["notes:read", "notes:write"]),
    }

    async def verify_token(self, token: str) -> AccessToken | None:
        if token not in self.ISSUED:
            return None
        audience, subject, scopes = self.ISSUED[token]
        return AccessToken(token=token, client_id="example-client", scopes=scopes, resource=audience,
                           subject=subject)


TOKENS = TestTokens()
# ANCHOR_END: tokens


# ANCHOR: scope
class RequireToolScope:
    """ASGI middleware outside the SDK's: a POST whose token is valid here but lacks the scope the called tool
    needs gets 403 insufficient_scope. Anything else goes on, body replayed, for the SDK to judge (401)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body = await read_body(receive)
        if body is None:  # larger than the SDK itself would take
            await send({"type": "http.response.start", "status": 413, "headers": [(b"content-length", b"0")]})
            return await send({"type": "http.response.body", "body": b""})
        granted = await granted_scopes(dict(scope["headers"]).get(b"authorization", b"").decode("latin-1"))
        needed = needed_scopes(body)
        if granted is not None and not set(needed) <= set(granted):
            challenge = (f'Bearer error="insufficient_scope", scope="{" ".join(needed)}", resource_metadata='
                         f'"{build_resource_metadata_url(AUTH.resource_server_url)}", '
                         f'error_description="this call needs {" ".join(needed)}"')
            await send({"type": "http.response.start", "status": 403,
                        "headers": [(b"www-authenticate", challenge.encode()), (b"content-length", b"0")]})
            return await send({"type": "http.response.body", "body": b""})
        replayed = False

        async def replay():
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def read_body(receive, limit: int = DEFAULT_MAX_REQUEST_BODY_SIZE) -> bytes | None:
    """The whole request body, or None past `limit` bytes (4 MiB: the SDK's own limit, and rmcp's)."""
    chunks, size = [], 0
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > limit:
            return None
        if not message.get("more_body"):
            return b"".join(chunks)


async def granted_scopes(authorization: str) -> list[str] | None:
    """The scopes a bearer token grants here, or None (no token, unknown, another audience): the SDK's 401."""
    scheme, _, token = authorization.partition(" ")
    access = await TOKENS.verify_token(token.strip()) if scheme.lower() == "bearer" else None
    return access.scopes if access is not None and access.resource == RESOURCE else None


def needed_scopes(body: bytes) -> list[str]:
    """What the body asks for: the body is the source of truth, not the Mcp-Name header. A batch needs every
    scope; a body that is not JSON reaches no tool."""
    try:
        message = json.loads(body)
    except ValueError:
        return []
    if isinstance(message, list):
        return SCOPES
    if isinstance(message, dict) and message.get("method") == "tools/call":
        name = (message.get("params") or {}).get("name") if isinstance(message.get("params"), dict) else None
        return [TOOL_SCOPES[name]] if name in TOOL_SCOPES else []
    return []
# ANCHOR_END: scope


# ANCHOR: version-guard
VERSION_META = "io.modelcontextprotocol/protocolVersion"


class RefuseVersionMismatch:
    """The spec: the MCP-Protocol-Version header MUST equal the body's protocolVersion, or the server answers 400
    with -32020. mcp 2.3.0 picks its legacy or its 2026-07-28 handling by the header alone, so a 2026-07-28 body
    under a legacy header would be served the legacy way. This ASGI layer checks the pair first."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:  # read the whole body, then hand it on unchanged
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        refusal = mismatch(dict(scope["headers"]).get(b"mcp-protocol-version"), body)
        if refusal is not None:
            return await answer_400(send, refusal)
        handed = [{"type": "http.request", "body": body, "more_body": False}]

        async def replay():  # the body once, then whatever the connection says next (a disconnect)
            return handed.pop() if handed else await receive()
        await self.app(scope, replay, send)


def mismatch(header: bytes | None, body: bytes) -> dict | None:
    """The -32020 reply when the body names a protocol version the header does not (a missing header too)."""
    try:
        message = json.loads(body)
        version = message["params"]["_meta"][VERSION_META]
    except (ValueError, TypeError, KeyError):
        return None  # no per-request version: the SDK judges the rest
    sent = header.decode("latin-1") if header is not None else None
    if sent == version:
        return None
    text = f"MCP-Protocol-Version header {sent!r} does not match the body's protocol version {version!r}"
    return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32020, "message": text}}


async def answer_400(send, reply: dict) -> None:
    payload = json.dumps(reply, separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})
# ANCHOR_END: version-guard


# ANCHOR: main
async def serve_stdio() -> None:
    async with stdio_server() as (read, write):  # no token over stdio: the user started this process
        await server.run(read, write, server.create_initialization_options())


def serve_http(address: str) -> None:
    host, _, port = address.rpartition(":")
    app = server.streamable_http_app(json_response=True, stateless_http=True, host=host,
                                     auth=AUTH, token_verifier=TOKENS)
    # The SDK's metadata document lists AuthSettings.required_scopes as scopes_supported, and requiring a
    # scope there would apply it to every request: serve the document again, with every scope, in its place.
    metadata = create_protected_resource_routes(AUTH.resource_server_url, [AUTH.issuer_url], SCOPES)
    app.router.routes[:] = metadata + [r for r in app.router.routes if r.path != metadata[0].path]
    app.add_middleware(RequireToolScope)
    app.add_middleware(RefuseVersionMismatch)  # outermost: before the SDK routes by the header
    print(f"authorization: listening on http://{address}/mcp as {RESOURCE}", file=sys.stderr)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    uvicorn.run(app, host=host, port=int(port), log_level="warning", access_log=False)


if __name__ == "__main__":
    if "MCP_HTTP_ADDR" in os.environ:
        serve_http(os.environ["MCP_HTTP_ADDR"])
    else:
        try:
            anyio.run(serve_stdio)
        except* BrokenPipeError:
            print("authorization: the client has gone (broken pipe)", file=sys.stderr)
# ANCHOR_END: main
