# long-task-cancel: a call cancelled in flight, served by the official Python SDK, `mcp` 2.3.0.
# `wait` reports that it started, then waits until the client cancels it; `hello` answers at once; `running` says
# how many `wait` calls are still running, so a run shows whether the cancel stopped the work. On stdio the cancel is
# notifications/cancelled, and the SDK cancels the task running `wait`; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves
# Streamable HTTP, where the client cancels by closing the call's response stream and the SDK cancels the task too.

import json
import os
import signal
import sys

# ANCHOR: tools
from typing import Annotated

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import Field

mcp = MCPServer("long-task-cancel", version="0.1.0")
waiting = 0  # `wait` calls that have started and not ended: the work a cancel must stop


@mcp.tool(title="Wait", description="Waits until it is cancelled; reports once that it started.")
async def wait(ctx: Context) -> str:
    global waiting
    waiting += 1
    try:
        await ctx.report_progress(0, message="waiting until cancelled")
        await anyio.sleep_forever()  # only a cancel ends it: no race on milliseconds
    finally:  # a cancel raises here, at the await
        waiting -= 1
    return "never reached"


@mcp.tool(title="Hello", description="Greets someone, at once.")
def hello(name: Annotated[str, Field(description="Who to greet")]) -> str:
    return f"hello, {name}"


@mcp.tool(title="Running", description="How many wait calls are still running (a cancelled one gets up to 2 s to stop).")
async def running() -> str:
    with anyio.move_on_after(2):
        while waiting:
            await anyio.sleep(0.01)
    return f"wait calls running: {waiting}"
# ANCHOR_END: tools


class RefuseVersionMismatch:
    """The MCP-Protocol-Version header MUST equal the body's protocolVersion, or the server answers 400 with -32020;
    mcp 2.3.0 routes by the header alone (streamable-http's server.py says more). This ASGI layer checks the pair
    first, then hands the body on and passes every later receive() through, the client's disconnect included."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        refusal = mismatch(dict(scope["headers"]).get(b"mcp-protocol-version"), body)
        if refusal is not None:
            payload = json.dumps(refusal, separators=(",", ":")).encode()
            await send({"type": "http.response.start", "status": 400, "headers": [
                (b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
            return await send({"type": "http.response.body", "body": payload})
        handed = [{"type": "http.request", "body": body, "more_body": False}]

        async def replay():
            return handed.pop() if handed else await receive()
        await self.app(scope, replay, send)


def mismatch(header: bytes | None, body: bytes) -> dict | None:
    """The -32020 reply when the body names a protocol version the header does not (a missing header too)."""
    try:
        message = json.loads(body)
        version = message["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
    except (ValueError, TypeError, KeyError):
        return None  # no per-request version: the SDK judges the rest
    sent = header.decode("latin-1") if header is not None else None
    if sent == version:
        return None
    text = f"MCP-Protocol-Version header {sent!r} does not match the body's protocol version {version!r}"
    return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32020, "message": text}}


# ANCHOR: http
def serve_http(address: str) -> None:
    import uvicorn

    host, _, port = address.rpartition(":")
    # SSE mode (json_response off): progress goes out on the call's own stream, and the SDK cancels the handler
    # when the client closes that stream; a call that sends nothing first is still answered with one JSON body.
    app = mcp.streamable_http_app(stateless_http=True, host=host)
    app.add_middleware(RefuseVersionMismatch)  # outermost: before the SDK routes by the header
    print(f"long-task-cancel: listening on http://{address}/mcp", file=sys.stderr)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # uvicorn raises SIGTERM again after its shutdown
    uvicorn.run(app, host=host, port=int(port), log_level="warning", access_log=False)
# ANCHOR_END: http


if __name__ == "__main__":
    if "MCP_HTTP_ADDR" in os.environ:
        serve_http(os.environ["MCP_HTTP_ADDR"])
    else:
        mcp.run()
