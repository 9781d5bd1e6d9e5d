# long-task-cancel: a call cancelled in flight, served by the official Python SDK, `mcp` 2.3.0.
# `wait` reports that it started, then waits until the client cancels it; `hello` answers at once. On
# notifications/cancelled the SDK cancels the task running `wait` and writes nothing more for that request.

# ANCHOR: tools
from typing import Annotated

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import Field

mcp = MCPServer("long-task-cancel", version="0.1.0")


@mcp.tool(title="Wait", description="Waits until it is cancelled; reports once that it started.")
async def wait(ctx: Context) -> str:
    await ctx.report_progress(0, message="waiting until cancelled")
    await anyio.sleep_forever()  # only a cancel ends it: no race on milliseconds
    return "never reached"


@mcp.tool(title="Hello", description="Greets someone, at once.")
def hello(name: Annotated[str, Field(description="Who to greet")]) -> str:
    return f"hello, {name}"
# ANCHOR_END: tools


if __name__ == "__main__":
    mcp.run()
