# listen-tools-only-python: a tools-only server on the official Python SDK, `mcp` 2.3.0, asked to open a
# subscriptions/listen stream. MCPServer serves subscriptions/listen whether or not anything ever changes: at
# 2026-07-28 it advertises listChanged for tools, prompts and resources because it serves the method, and it
# acknowledges every kind a client asks for.

# ANCHOR: server
from typing import Annotated

from mcp.server import MCPServer
from pydantic import Field

mcp = MCPServer("listen-tools-only", version="0.1.0")


@mcp.tool(title="Hello", description="Greets someone, at once.")
def hello(name: Annotated[str, Field(description="Who to greet")]) -> str:
    return f"hello, {name}"
# ANCHOR_END: server


if __name__ == "__main__":
    mcp.run()
