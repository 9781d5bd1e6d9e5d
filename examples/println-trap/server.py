"""println-trap: the Python twin of main.rs, making the same mistake on purpose.

While it handles tools/call it prints a debug line with print(), which writes to stdout. On
stdio, stdout is the wire, so the client receives a line that is not a JSON-RPC message, which
the spec forbids and no client can parse. The fix is print(..., file=sys.stderr).

Otherwise it is a trimmed first server with one tool, shout. The Rust twin reads and writes its
JSON with serde_json, this one with the json module; both write the same bytes, the stray line
included. Error handling is trimmed as in the twin: a message without a method or an id gets no
reply, and JSON that is not an object gets -32600 Invalid Request without a closer look.
"""

import json
import os
import sys

PROTOCOL_VERSION = "2026-07-28"

# ANCHOR: parse
def parse(text):
    """One line of text as JSON; raises ValueError if it is not JSON."""
    message = json.loads(text)
    # A lone surrogate ("\ud800") is no character: refuse the line, as serde_json does.
    json.dumps(message, ensure_ascii=False).encode("utf-8")  # UnicodeEncodeError is a ValueError too
    return message
# ANCHOR_END: parse

# ANCHOR: reply
def result(id, body):
    info = {"name": "println-trap", "version": "0.1.0"}
    meta = {"io.modelcontextprotocol/serverInfo": info}
    return {"jsonrpc": "2.0", "id": id, "result": {**body, "_meta": meta}}


def error(id, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": id, "error": err}
# ANCHOR_END: reply

# ANCHOR: envelope
def check_meta(id, params):
    """Every request carries its own params._meta; returns the error reply if it will not do."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    meta = meta if isinstance(meta, dict) else {}
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    caps = meta.get("io.modelcontextprotocol/clientCapabilities")
    if not (isinstance(version, str) and isinstance(caps, dict)):
        return error(id, -32602, "Invalid params: params._meta is incomplete")
    if version != PROTOCOL_VERSION:
        data = {"supported": [PROTOCOL_VERSION], "requested": version}
        return error(id, -32022, "Unsupported protocol version", data)
    return None
# ANCHOR_END: envelope

# ANCHOR: the-mistake
def handle(message):
    method = message.get("method")
    if not isinstance(method, str) or "id" not in message:
        return None  # no id: a notification, which gets no reply
    id = message["id"]
    if method not in ("server/discover", "tools/list", "tools/call"):
        return error(id, -32601, f"Method not found: {method}")
    params = message.get("params")
    reply = check_meta(id, params)
    if reply is not None:
        return reply
    if method == "server/discover":
        return result(id, DISCOVER)
    if method == "tools/list":
        return result(id, TOOLS)
    # THE MISTAKE: a debug line on stdout, which is the wire. The client expects a JSON-RPC
    # message on every line and cannot parse this one; some clients log an error and read on,
    # others give up on the server. print(..., file=sys.stderr) would have used stderr.
    print(f"got request {method} id={json.dumps(id)}")
    return call_tool(id, params)
# ANCHOR_END: the-mistake

# ANCHOR: tools
DISCOVER = {
    "resultType": "complete",
    "supportedVersions": [PROTOCOL_VERSION],
    "capabilities": {"tools": {}},
    "ttlMs": 3600000,
    "cacheScope": "public",
}

TOOLS = {
    "resultType": "complete",
    "tools": [
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
        }
    ],
    "ttlMs": 300000,
    "cacheScope": "public",
}


def call_tool(id, params):
    name = params.get("name")
    name = name if isinstance(name, str) else ""
    if name != "shout":
        return error(id, -32602, f"Unknown tool: {name}")
    args = params.get("arguments")
    text = args.get("text") if isinstance(args, dict) else None
    if isinstance(text, str) and text != "":
        text, is_error = text.upper(), False
    else:
        text, is_error = "shout needs a non-empty string argument, text", True
    body = {"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": is_error}
    return result(id, body)
# ANCHOR_END: tools

def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    print("println-trap: stdout closed, exiting", file=sys.stderr)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


# ANCHOR: read-loop
def main():
    sys.stdout.reconfigure(encoding="utf-8")  # MCP messages are UTF-8, whatever the locale says
    for line in sys.stdin.buffer:
        text = line.decode("utf-8")  # not UTF-8: an exception, as the Rust twin panics
        try:
            message = parse(text)
        except ValueError:
            reply = error(None, -32700, "Parse error")
        else:
            reply = handle(message) if isinstance(message, dict) else error(None, -32600, "Invalid Request")
        if reply is not None:
            # The reply goes through the same sys.stdout as print(), so the two stay in order.
            line = json.dumps(reply, separators=(",", ":"), ensure_ascii=False)
            try:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
            except BrokenPipeError:
                return stdout_closed()


if __name__ == "__main__":
    main()
# ANCHOR_END: read-loop
