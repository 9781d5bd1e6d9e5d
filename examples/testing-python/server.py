# testing-python: a small server written so that tests can reach it, on the official Python SDK
# (`mcp` 2.3.0). test_server.py drives it in-process and as a child process.

# ANCHOR: server
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

mcp = MCPServer("testing-python", version="0.1.0")


@mcp.tool(title="Greet", description="Greets someone by name. The name must not be empty.")
def greet(name: Annotated[str, Field(description="Who to greet")]) -> str:
    if not name.strip():
        raise ToolError("Nobody to greet: name is empty")  # the tool failed: "isError": true
    return f"Hello, {name}!"


@mcp.resource("greeting://default", title="Default greeting", mime_type="text/plain")
def default_greeting() -> str:
    return "Hello, world!"
# ANCHOR_END: server


if __name__ == "__main__":
    mcp.run()  # stdio; returns when stdin reaches EOF
