# streamable-http: the Python twin of src/*.rs on the official SDK, `mcp` 2.3.0. With MCP_HTTP_ADDR
# unset it serves stdio; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves Streamable HTTP at
# http://127.0.0.1:PORT/mcp under uvicorn. The tools are the same either way: only the wire differs.
# It uses the SDK's low-level Server, so the schemas are written out here, byte for byte what the
# Rust twin's schemars writes, and both twins answer every line alike.

import json
import os
import signal
import sys
from urllib.parse import urlsplit

import anyio
import mcp_types as types
import uvicorn
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError

# ANCHOR: tools
SCHEMA = "https://json-schema.org/draft/2020-12/schema"
SKIES = ["sunny", "cloudy", "rain", "windy"]  # made-up skies, one per day in turn

TOOLS = {
    "echo": types.Tool(
        name="echo",
        description="Returns the text unchanged.",
        input_schema={
            "$schema": SCHEMA,
            "additionalProperties": False,
            "properties": {"text": {"description": "The text to send back", "type": "string"}},
            "required": ["text"],
            "type": "object",
        },
    ),
    "forecast": types.Tool(
        name="forecast",
        description="A made-up weather forecast for a region, one sky per day. "
        "The same region and days always give the same answer.",
        input_schema={
            "$schema": SCHEMA,
            "additionalProperties": False,
            "properties": {
                # "uint32" is what schemars writes for Rust's u32: an annotation, not a check.
                "days": {"description": "How many days ahead, 1 to 7", "format": "uint32",
                         "maximum": 7, "minimum": 1, "type": "integer"},
                "region": {"description": "Region name, for example eu-west. Over HTTP the client repeats it "
                           "in the Mcp-Param-Region header.", "type": "string", "x-mcp-header": "Region"},
            },
            "required": ["region", "days"],
            "type": "object",
        },
    ),
}


def echo(text: str) -> str:
    return text


def forecast(region: str, days: int) -> str:
    # days is 1 to 7: call_tool checked the arguments against the schema's minimum and maximum.
    skies = [SKIES[day % len(SKIES)] for day in range(days)]
    return f"{region}, next {days} days: {', '.join(skies)}"
# ANCHOR_END: tools


# ANCHOR: handlers
async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=list(TOOLS.values()), ttl_ms=0, cache_scope="public")


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    function = {"echo": echo, "forecast": forecast}.get(params.name)
    if function is None:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
    arguments = params.arguments or {}
    # The low-level Server passes the arguments on unchecked; rmcp's serde refuses what the struct does not
    # fit. Both answer a result with "isError": true, the model's cue to fix the call (the texts differ).
    problem = best_match(Draft202012Validator(TOOLS[params.name].input_schema).iter_errors(arguments))
    if problem is not None:
        text, failed = f"invalid arguments: {problem.message}", True
    else:
        text, failed = function(**arguments), False
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=failed)


server = Server("streamable-http", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool,
                get_tool_input_schema=lambda name: TOOLS[name].input_schema if name in TOOLS else None)
# ANCHOR_END: handlers


# ANCHOR: key-order
# The SDK writes a result's keys in its own order, rmcp in another; JSON gives key order no meaning,
# but the twins share one answer key, compared byte for byte. This middleware reorders each result
# the way rmcp writes it; it changes no key and no value.
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


def allowed() -> TransportSecuritySettings:
    """The Host and Origin values the SDK accepts: the local ones it allows for 127.0.0.1 by itself, and the public
    name of MCP_PUBLIC_URL when a TLS proxy serves this server there."""
    hosts = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
    origins = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
    # ANCHOR: public
    public = os.environ.get("MCP_PUBLIC_URL")
    if public:  # the proxy passes Host: mcp.example.com on; a browser sends Origin: https://mcp.example.com
        hosts.append(urlsplit(public).netloc)
        origins.append(public.rstrip("/"))
    # ANCHOR_END: public
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                     allowed_origins=origins)


# ANCHOR: main
async def serve_stdio() -> None:
    async with stdio_server() as (read, write):  # until stdin reaches EOF
        await server.run(read, write, server.create_initialization_options())


def serve_http(address: str) -> None:
    host, _, port = address.rpartition(":")
    # json_response: a reply with nothing before it is one JSON body, not a one-event SSE stream.
    # stateless_http: no sessions for legacy clients either. transport_security: the Host and Origin
    # values accepted (a foreign Host gets 421, a foreign Origin 403).
    app = server.streamable_http_app(json_response=True, stateless_http=True, host=host,
                                     transport_security=allowed())
    app.add_middleware(RefuseVersionMismatch)  # outermost: before the SDK routes by the header
    print(f"streamable-http: listening on http://{address}/mcp", file=sys.stderr)
    # After a graceful shutdown uvicorn raises the signal that stopped it again, for the handler that was
    # there before it ran: this one makes SIGTERM an exit with status 0, not a death by signal.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # access_log off: uvicorn writes its access lines to stdout. Its own warnings go to stderr.
    uvicorn.run(app, host=host, port=int(port), log_level="warning", access_log=False)


if __name__ == "__main__":
    if "MCP_HTTP_ADDR" in os.environ:
        serve_http(os.environ["MCP_HTTP_ADDR"])
    else:
        try:
            anyio.run(serve_stdio)
        except* BrokenPipeError:  # stdout closed: the client has gone, which is no error here
            print("streamable-http: the client has gone (broken pipe)", file=sys.stderr)
# ANCHOR_END: main
