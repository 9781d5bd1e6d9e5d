# listen-stream: a subscriptions/listen stream open while other calls run, served by the official Python SDK,
# `mcp` 2.3.0. `grow` adds a tool and tells every open listen stream that the tool list changed. The SDK
# acknowledges each listen request first, tags every message of the stream with the listen request's id, and ends
# the stream without a word when the client cancels it.

# ANCHOR: tools
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from pydantic import Field

mcp = MCPServer("listen-stream", version="0.1.0")


def shout(text: str) -> str:
    """Returns the text in upper case."""
    return text.upper()


@mcp.tool(title="Grow", description="Adds a tool that upper-cases text, then tells listening clients that the "
                                    "tool list changed.")
async def grow(name: Annotated[str, Field(description="The new tool's name")], ctx: Context) -> str:
    mcp.add_tool(shout, name=name, title="Shout")
    # A tools list_changed event: the SDK writes it on every open stream that asked for toolsListChanged.
    await ctx.notify_tools_changed()
    return f"added {name}"
# ANCHOR_END: tools


if __name__ == "__main__":
    mcp.run()
