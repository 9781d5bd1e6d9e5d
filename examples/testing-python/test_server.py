# Tests for server.py on the official SDK's client (`mcp.Client`), run with pytest and the anyio
# plugin that comes with anyio (an SDK dependency). Two ways in: the server object in this
# process, and server.py as a child process over stdin/stdout.

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp import Client, MCPError, StdioServerParameters

from server import mcp as server

HERE = Path(__file__).parent
pytestmark = pytest.mark.anyio  # every async test runs on anyio's event loop ...


@pytest.fixture
def anyio_backend():
    return "asyncio"  # ... asyncio's, the one the SDK's stdio client is tested on


# ANCHOR: clients
def in_process() -> Client:
    """The server object itself: no pipes and no JSON-RPC framing, so the fastest way in."""
    return Client(server, mode="2026-07-28")


def over_stdio() -> Client:
    """server.py started as a child process, as an editor starts it."""
    command = StdioServerParameters(command=sys.executable, args=[str(HERE / "server.py")])
    return Client(command, mode="2026-07-28")


@pytest.fixture(params=[in_process, over_stdio], ids=["in-process", "stdio"])
async def client(request):
    async with request.param() as connected:
        yield connected
# ANCHOR_END: clients


# ANCHOR: checks
async def test_lists_the_greet_tool(client):
    listed = await client.list_tools()
    assert [tool.name for tool in listed.tools] == ["greet"]


async def test_greets_by_name(client):
    result = await client.call_tool("greet", {"name": "Ada"})
    assert not result.is_error
    assert result.content[0].text == "Hello, Ada!"


async def test_an_empty_name_is_a_tool_error(client):
    result = await client.call_tool("greet", {"name": ""})
    assert result.is_error  # the request succeeded; the tool did not
    assert result.content[0].text == "Error executing tool greet: Nobody to greet: name is empty"


async def test_an_unknown_resource_is_a_protocol_error(client):
    with pytest.raises(MCPError) as raised:  # a JSON-RPC error: the client raises it
        await client.read_resource("greeting://nobody")
    assert raised.value.code == -32602
# ANCHOR_END: checks


# ANCHOR: replay
def test_replies_match_the_answer_key():
    """transcript.jsonl in, answer_key.jsonl out, byte for byte: the files this site keeps."""
    transcript = (HERE / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
    expected = iter((HERE / "answer_key.jsonl").read_text(encoding="utf-8").splitlines())
    with subprocess.Popen([sys.executable, str(HERE / "server.py")], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True, encoding="utf-8") as proc:
        for number, line in enumerate(transcript, start=1):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            if "id" in json.loads(line):  # a request: wait for its reply
                reply = proc.stdout.readline().rstrip("\n")
                assert reply == next(expected), f"transcript line {number}"
        proc.stdin.close()
        assert proc.wait() == 0
    assert next(expected, None) is None, "the answer key has lines the server did not write"
# ANCHOR_END: replay
