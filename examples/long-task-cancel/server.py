# long-task-cancel: a call cancelled in flight, served by the official Python SDK, `mcp` 2.3.0.
# `wait` reports that it started, then waits until the client cancels it; `hello` answers at once; `running` says
# how many `wait` calls are still running, so a run shows whether the cancel stopped the work. On stdio the cancel is
# notifications/cancelled, and the SDK cancels the task running `wait`; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves
# Streamable HTTP, where the client cancels by closing the call's response stream and the SDK cancels the task too.

# ANCHOR: tools
import os
import signal
import sys
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


# ANCHOR: http
def serve_http(address: str) -> None:
    import uvicorn

    host, _, port = address.rpartition(":")
    # SSE mode (json_response off): progress goes out on the call's own stream, and the SDK cancels the handler
    # when the client closes that stream; a call that sends nothing first is still answered with one JSON body.
    app = mcp.streamable_http_app(stateless_http=True, host=host)
    print(f"long-task-cancel: listening on http://{address}/mcp", file=sys.stderr)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # uvicorn raises SIGTERM again after its shutdown
    uvicorn.run(app, host=host, port=int(port), log_level="warning", access_log=False)
# ANCHOR_END: http


if __name__ == "__main__":
    if "MCP_HTTP_ADDR" in os.environ:
        serve_http(os.environ["MCP_HTTP_ADDR"])
    else:
        mcp.run()
