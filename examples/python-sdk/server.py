# python-sdk: the first page's two tools (`add`, `shout`) served by the official Python SDK,
# `mcp` 2.3.0. The SDK owns the wire: it reads stdin line by line, checks each request's
# params._meta, builds every inputSchema from the type hints below, and writes the replies.

# ANCHOR: tools
from typing import Annotated

from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

mcp = MCPServer("python-sdk", version="0.1.0")

INT64 = range(-(2**63), 2**63)  # the first page's integers are 64-bit; Python's are not


@mcp.tool(
    title="Add two integers",
    description="Adds a and b. a, b and the sum must each fit in a 64-bit signed integer.",
)
def add(
    a: Annotated[int, Field(description="First addend")],
    b: Annotated[int, Field(description="Second addend")],
) -> str:
    if a not in INT64 or b not in INT64 or a + b not in INT64:
        # ToolError: the tool ran and failed, so the SDK answers with "isError": true.
        raise ToolError(f"{a} + {b} overflows: the sum must fit in a 64-bit signed integer")
    return f"{a} + {b} = {a + b}"


@mcp.tool(
    title="Shout",
    description="Returns the text in upper case. The text must not be empty.",
)
def shout(text: Annotated[str, Field(description="The text to upper-case")]) -> str:
    # ANCHOR: strays
    # Two stray print()s, a bug on purpose. While mcp.run() serves stdio, the SDK points file
    # descriptor 1 at stderr; but print() writes into Python's sys.stdout buffer first.
    print("stray 1: flushed at once, while fd 1 points at stderr", flush=True)
    print("stray 2: left in the buffer until exit, when fd 1 is the wire again")
    # ANCHOR_END: strays
    if not text:
        raise ToolError("Nothing to shout: text is empty")
    return text.upper()
# ANCHOR_END: tools


# ANCHOR: main
if __name__ == "__main__":
    mcp.run()  # stdio by default; returns when stdin reaches EOF
# ANCHOR_END: main
