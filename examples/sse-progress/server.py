# sse-progress: the Python twin of src/*.rs on the official SDK, `mcp` 2.3.0. With MCP_HTTP_ADDR unset it serves
# stdio; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves Streamable HTTP at http://127.0.0.1:PORT/mcp under uvicorn,
# in the SDK's default SSE mode, where a reply that has progress before it comes back as an SSE stream.

import json
import os
import signal
import sys
from typing import Any

import anyio
import mcp_types as types
import uvicorn
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

SCHEMA = "https://json-schema.org/draft/2020-12/schema"
TOOLS = {
    "hello": types.Tool(
        name="hello",
        description="Greets someone, at once.",
        input_schema={"$schema": SCHEMA, "additionalProperties": False,
                      "properties": {"name": {"description": "Who to greet", "type": "string"}},
                      "required": ["name"], "type": "object"},
    ),
    "count": types.Tool(
        name="count",
        description="Counts to three, reporting progress after each step when the request asks for it.",
        input_schema={"properties": {}, "type": "object"},
    ),
}


# ANCHOR: tools
def hello(ctx, name: str) -> str:
    return f"hello, {name}"


async def count(ctx) -> str:
    token = (ctx.meta or {}).get("progress_token")  # params._meta.progressToken; None: the request sent none
    for step in (1, 2, 3):
        if token is not None:
            # related_request_id: on HTTP this goes on the request's own response stream, which it turns into SSE.
            await ctx.session.send_notification(progress(token, step), related_request_id=ctx.request_id)
        await anyio.sleep(0.05)  # the work
    return "counted to 3"


def progress(token: str | int, step: int) -> types.Notification:
    """notifications/progress with its params in rmcp's order and as floats, the bytes the Rust twin writes, so
    one answer key holds both (the SDK's own report_progress writes progressToken first)."""
    params = {"message": f"step {step} of 3", "progress": float(step), "progressToken": token, "total": 3.0}
    return types.Notification[dict[str, Any], str](method="notifications/progress", params=params)
# ANCHOR_END: tools


async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=list(TOOLS.values()), ttl_ms=0, cache_scope="public")


async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
    if params.name not in TOOLS:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
    arguments = params.arguments or {}
    # The low-level Server passes the arguments on unchecked; rmcp's serde refuses what the struct does not fit.
    problem = best_match(Draft202012Validator(TOOLS[params.name].input_schema).iter_errors(arguments))
    if problem is not None:
        text, failed = f"invalid arguments: {problem.message}", True
    elif params.name == "count":
        text, failed = await count(ctx), False
    else:
        text, failed = hello(ctx, **arguments), False
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=failed)


server = Server("sse-progress", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)


# The SDK writes a result's keys in its own order, rmcp in another; the twins share one answer key, compared byte
# for byte. This middleware reorders each tools/call result the way rmcp writes it; it changes no key and no value.
def ordered(item: dict, keys: tuple[str, ...]) -> dict:
    return {key: item[key] for key in keys if key in item} | {k: v for k, v in item.items() if k not in keys}


async def rmcp_key_order(ctx, call_next):
    result = await call_next(ctx)
    if ctx.method != "tools/call" or not isinstance(result, dict):
        return result
    result = ordered(result, ("resultType", "content", "isError", "_meta"))
    result["content"] = [ordered(block, ("type", "text")) for block in result.get("content", [])]
    return result


server.middleware.append(rmcp_key_order)


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
    async with stdio_server() as (read, write):  # until stdin reaches EOF
        await server.run(read, write, server.create_initialization_options())


def serve_http(address: str) -> None:
    host, _, port = address.rpartition(":")
    # No json_response=True: in that mode the SDK has nowhere to put a handler's notifications and drops them. In
    # its default SSE mode a reply is one JSON body unless the handler sends a notification first (or runs 15 s);
    # then it is an SSE stream, the notifications first and the result last. For a 127.0.0.1 host the SDK checks
    # Host and Origin by itself.
    app = server.streamable_http_app(stateless_http=True, host=host)
    app.add_middleware(RefuseVersionMismatch)  # outermost: before the SDK routes by the header
    print(f"sse-progress: listening on http://{address}/mcp", file=sys.stderr)
    # After a graceful shutdown uvicorn raises the signal that stopped it again: exit 0 on SIGTERM instead.
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
            print("sse-progress: the client has gone (broken pipe)", file=sys.stderr)
# ANCHOR_END: main
