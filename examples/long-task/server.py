# long-task: a tool that takes a while and says how far it got, served by the official Python SDK, `mcp` 2.3.0.
# `count` reports progress three times, then answers; `hello` answers at once. The SDK runs each request as a task
# of its own, so a `hello` sent while `count` is still counting is answered first.

# ANCHOR: tools
from typing import Annotated

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import Field

mcp = MCPServer("long-task", version="0.1.0")


@mcp.tool(title="Count to three", description="Counts to three, slowly, reporting progress after each step.")
async def count(ctx: Context) -> str:
    for step in (1, 2, 3):
        # Sent only when the request carried params._meta.progressToken; a no-op otherwise.
        await ctx.report_progress(step, total=3, message=f"step {step} of 3")
        await anyio.sleep(0.5)  # the work; the answer comes about 1.5 s after the request
    return "counted to 3"


@mcp.tool(title="Hello", description="Greets someone, at once.")
def hello(name: Annotated[str, Field(description="Who to greet")]) -> str:
    return f"hello, {name}"
# ANCHOR_END: tools


if __name__ == "__main__":
    mcp.run()  # stdio; returns when stdin reaches EOF
