"""first-server: a whole MCP server (revision 2026-07-28) over stdio, standard library only.

The Python twin of main.rs. It reads one JSON-RPC message per line on stdin and writes one reply
per line on stdout. stdout is the wire, so it carries replies and nothing else; diagnostics go to
stderr.

The Rust version scans its JSON by hand, because std has no JSON parser. Python's standard
library has a real one, so this twin simply uses the json module. The two must still write the
same bytes: compact separators, ensure_ascii=False, and keys in the same order as main.rs.
"""

import json
import os
import re
import sys

# ANCHOR: parse
def parse(text):
    """One line of text as a dict, or None if it is not a JSON object."""
    try:
        message = json.loads(text)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


def is_int64(value):
    """Python ints never overflow, so the twin checks the range Rust's i64 imposes."""
    return type(value) is int and -(2**63) <= value < 2**63
# ANCHOR_END: parse

# ANCHOR: reply
SERVER_INFO = {"name": "first-server", "version": "0.1.0"}


def result(id, body):
    """A success reply; serverInfo goes in every result's _meta."""
    meta = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}
    return {"jsonrpc": "2.0", "id": id, "result": {**body, "_meta": meta}}


def error(id, code, message, data=None):
    """An error reply, with data only when there is some."""
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": id, "error": err}
# ANCHOR_END: reply

# ANCHOR: envelope
VERSION = "2026-07-28"
PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
LEGACY_HINT = " (this server supports only protocol version 2026-07-28)"


def check_meta(id, params):
    """Every request carries its own params._meta; the server never relies on an earlier request.
    Returns the error reply if this request's _meta will not do."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        return error(id, -32602, "Invalid params: params._meta is required")
    version = meta.get(PROTOCOL_VERSION)
    if not isinstance(version, str):
        return error(id, -32602, f"Invalid params: params._meta needs a string {PROTOCOL_VERSION}")
    if not isinstance(meta.get(CLIENT_CAPABILITIES), dict):
        return error(id, -32602, f"Invalid params: params._meta needs an object {CLIENT_CAPABILITIES}")
    if version != VERSION:
        data = {"supported": [VERSION], "requested": version}
        return error(id, -32022, "Unsupported protocol version", data)
    return None
# ANCHOR_END: envelope

# ANCHOR: dispatch
def handle(text):
    """One line in, at most one reply out. Notifications (no id) get no reply, ever."""
    message = parse(text)
    if message is None:
        return error(None, -32700, "Parse error")
    method = message.get("method")
    if "id" not in message:
        # A notification such as notifications/cancelled. Each request here is answered before
        # the next line is read, so there is never anything left to cancel: log it and move on.
        name = method if isinstance(method, str) else "?"
        print(f"first-server: notification {name}, no reply", file=sys.stderr)
        return None
    id = message["id"]
    if not (isinstance(id, str) or is_int64(id)):
        return error(None, -32600, "Invalid Request: bad id")
    if not isinstance(method, str):
        return error(id, -32600, "Invalid Request: no method")
    if method not in ("server/discover", "tools/list", "tools/call"):
        # A legacy client opens with initialize; tell it which version this server does speak.
        hint = LEGACY_HINT if method == "initialize" else ""
        return error(id, -32601, f"Method not found: {method}{hint}")
    params = message.get("params")
    reply = check_meta(id, params)
    if reply is not None:
        return reply
    if method == "server/discover":
        return result(id, DISCOVER)
    if method == "tools/list":
        return result(id, TOOLS)
    return call_tool(id, params)


DISCOVER = {
    "resultType": "complete",
    "supportedVersions": ["2026-07-28"],
    "capabilities": {"tools": {}},
    "ttlMs": 3600000,
    "cacheScope": "public",
}
# ANCHOR_END: dispatch

# ANCHOR: tools
TOOLS = {
    "resultType": "complete",
    "tools": [
        {
            "name": "add",
            "title": "Add two integers",
            "description": "Adds a and b. a, b and the sum must each fit in a 64-bit signed integer.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "a": {"type": "integer", "description": "First addend"},
                    "b": {"type": "integer", "description": "Second addend"},
                },
                "required": ["a", "b"],
                "additionalProperties": False,
            },
        },
        {
            "name": "shout",
            "title": "Shout",
            "description": "Returns the text in upper case. The text must not be empty.",
            "inputSchema": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "The text to upper-case"}},
                "required": ["text"],
                "additionalProperties": False,
            },
        },
    ],
    "ttlMs": 300000,
    "cacheScope": "public",
}


class ToolFailed(Exception):
    """The tool ran and failed: the reply is a normal result with "isError": true."""


def call_tool(id, params):
    """tools/call. An unknown tool or a malformed call is a protocol error (JSON-RPC -32602);
    a tool that ran and failed is a normal result with "isError": true, which the model can read."""
    name = params.get("name")
    if not isinstance(name, str):
        return error(id, -32602, "Invalid params: params.name must be a string")
    args = params.get("arguments", {})
    if not isinstance(args, dict):
        return error(id, -32602, "Invalid params: params.arguments must be an object")
    try:
        if name == "add":
            text, is_error = add(args.get("a"), args.get("b")), False
        elif name == "shout":
            text, is_error = shout(args.get("text")), False
        else:
            return error(id, -32602, f"Unknown tool: {name}")
    except ToolFailed as failure:
        text, is_error = str(failure), True
    body = {"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": is_error}
    return result(id, body)


def add(a, b):
    if not (is_int64(a) and is_int64(b)):
        raise ToolFailed("add needs two integers, a and b")
    if not is_int64(a + b):
        raise ToolFailed(f"{a} + {b} overflows: the sum must fit in a 64-bit signed integer")
    return f"{a} + {b} = {a + b}"


def shout(text):
    if not isinstance(text, str):
        raise ToolFailed("shout needs a string argument, text")
    if text == "":
        raise ToolFailed("Nothing to shout: text is empty")
    return text.upper()
# ANCHOR_END: tools

# ANCHOR: read-loop
def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    print("first-server: stdout closed, exiting", file=sys.stderr)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main():
    for raw in sys.stdin.buffer:  # bytes, one line at a time; decoded here, not by the locale
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            reply = error(None, -32700, "Parse error: not UTF-8")
        else:
            if text.strip() == "":
                continue
            reply = handle(text)
        if reply is not None:
            line = json.dumps(reply, separators=(",", ":"), ensure_ascii=False)
            line = re.sub("[\ud800-\udfff]", "\ufffd", line)  # a lone surrogate is no character: U+FFFD, as in Rust
            try:
                sys.stdout.buffer.write(line.encode("utf-8") + b"\n")
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                return stdout_closed()
    # stdin reached EOF: the client closed it, which is how a stdio server is told to stop.


if __name__ == "__main__":
    main()
# ANCHOR_END: read-loop
