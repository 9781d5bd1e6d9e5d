"""request-echo: a small MCP server (revision 2026-07-28) over stdio, standard library only.

It keeps nothing between requests. Each request is checked on its own:
params._meta must be there, with a protocol version this server speaks and
the client's capabilities; whatever came before on the pipe does not matter.
Its one tool reports what the server read from that request alone.
"""

import json
import os
import sys

PROTOCOL_VERSION = "2026-07-28"
SERVER_NAME = "request-echo"
SERVER_VERSION = "1.0.0"

TOOLS = [
    {
        "name": "show_request",
        "title": "Show what the request said",
        "description": "Reports what the server read from this request's _meta: the protocol version,"
        " the client's name and version, and the client capabilities it declared.",
        "inputSchema": {"type": "object", "additionalProperties": False},
    }
]


SERVER_INFO = {"name": SERVER_NAME, "version": SERVER_VERSION}
DISCOVER = {
    "resultType": "complete",
    "supportedVersions": [PROTOCOL_VERSION],
    "capabilities": {"tools": {}},
    "ttlMs": 60000,
    "cacheScope": "public",
}
TOOLS_LIST = {"resultType": "complete", "tools": TOOLS, "ttlMs": 60000, "cacheScope": "public"}


def log(text):
    print(f"request-echo: {text}", file=sys.stderr, flush=True)


def is_id(value):
    # bool is a subclass of int in Python, so test the exact type.
    return type(value) in (str, int)


def result(id_, body):
    """A success response: the body, then the _meta that names the server, as in every result."""
    return {"jsonrpc": "2.0", "id": id_, "result": {**body, "_meta": {"io.modelcontextprotocol/serverInfo": SERVER_INFO}}}


def error(id_, code, message, data=None):
    fields = {"code": code, "message": message}
    return {"jsonrpc": "2.0", "id": id_, "error": fields if data is None else {**fields, "data": data}}


def invalid_request(msg):
    """-32600, with the request's id when it can be read."""
    id_ = msg.get("id") if isinstance(msg, dict) else None
    message = "Invalid Request: not a JSON-RPC 2.0 request or notification"
    return error(id_ if is_id(id_) else None, -32600, message)


# ANCHOR: envelope
def handle(line):
    try:
        msg = json.loads(line)
        # A lone surrogate ("\ud800") is no character: refuse the line, as the Rust twin does.
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except ValueError as why:
        log(f"not JSON ({why})")
        return error(None, -32700, "Parse error: the line is not valid JSON")
    if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
        return invalid_request(msg)
    if msg.get("jsonrpc") != "2.0":
        return invalid_request(msg)
    method = msg["method"]
    if "id" not in msg:
        log(f"notification {method}; no reply")
        return None
    if not is_id(msg["id"]):
        return invalid_request(msg)
    id_ = msg["id"]
    log(f"request {method} id={json.dumps(id_)}")

    # A legacy client (2025-11-25 and earlier) opens with a handshake that this
    # revision does not have, and sends no params._meta. The error code is up to
    # the server; the message names the versions it speaks, because it may be
    # the only thing that client can show its user.
    if method == "initialize":
        message = f"initialize is not supported: this server speaks only MCP {PROTOCOL_VERSION}"
        return error(id_, -32601, message)

    # Everything else needs params._meta, on this request, every time.
    params = msg.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        return error(id_, -32602, "Invalid params: params._meta is missing")
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if not isinstance(version, str):
        message = "Invalid params: params._meta has no io.modelcontextprotocol/protocolVersion"
        return error(id_, -32602, message)
    if not isinstance(meta.get("io.modelcontextprotocol/clientCapabilities"), dict):
        message = "Invalid params: params._meta has no io.modelcontextprotocol/clientCapabilities"
        return error(id_, -32602, message)
    if version != PROTOCOL_VERSION:
        # Negotiation by error: say what was asked for and what is on offer.
        data = {"supported": [PROTOCOL_VERSION], "requested": version}
        return error(id_, -32022, "Unsupported protocol version", data)
    if method == "server/discover":
        return result(id_, DISCOVER)
    if method == "tools/list":
        return result(id_, TOOLS_LIST)
    if method == "tools/call":
        return call_tool(id_, params, meta)
    return error(id_, -32601, f"Method not found: {method}")
# ANCHOR_END: envelope


# ANCHOR: tool
def call_tool(id_, params, meta):
    name = params.get("name")
    if not isinstance(name, str):
        return error(id_, -32602, "Invalid params: tools/call needs a tool name")
    if name != "show_request":
        return error(id_, -32602, f"Unknown tool: {name}")
    arguments = params.get("arguments", {})
    if not isinstance(arguments, dict):
        return error(id_, -32602, "Invalid params: params.arguments must be an object")
    if arguments:
        # Arguments its inputSchema does not allow: a tool execution error the model can fix.
        text = "Invalid arguments for tool show_request: it takes no arguments. Call it with {}."
        return result(id_, {"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": True})
    # Everything in the answer comes from this request's _meta; nothing is
    # remembered from earlier requests, because nothing may be.
    version = meta["io.modelcontextprotocol/protocolVersion"]
    info = meta.get("io.modelcontextprotocol/clientInfo")
    info = info if isinstance(info, dict) else {}
    if isinstance(info.get("name"), str) and isinstance(info.get("version"), str):
        client = f"{info['name']} {info['version']}"
    else:
        client = "not named"
    capabilities = ", ".join(sorted(meta["io.modelcontextprotocol/clientCapabilities"])) or "none declared"
    text = f"protocol {version}; client {client}; capabilities: {capabilities}"
    content = [{"type": "text", "text": text}]
    return result(id_, {"resultType": "complete", "content": content, "isError": False})
# ANCHOR_END: tool


def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    log("stdout closed, exiting")
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main():
    for raw in sys.stdin.buffer:  # the loop ends when the client closes our stdin
        raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        try:
            reply = handle(raw.decode("utf-8"))
        except UnicodeDecodeError:
            reply = error(None, -32700, "Parse error: the line is not valid UTF-8")
        if reply is not None:
            text = json.dumps(reply, separators=(",", ":"), ensure_ascii=False)
            try:
                sys.stdout.buffer.write(text.encode("utf-8") + b"\n")
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                return stdout_closed()
    log("stdin closed, exiting")
    return 0


if __name__ == "__main__":
    sys.exit(main())
