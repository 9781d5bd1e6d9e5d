"""wordcount: a small MCP server (revision 2026-07-28) over stdio, standard library only.

It talks a lot, and all of it goes to stderr: a line when it starts, one for
every message it reads, one for every reply it writes, one when it stops.
stdout carries JSON-RPC messages and nothing else, one per line.
"""

import json
import os
import sys

PROTOCOL_VERSION = "2026-07-28"
SERVER_NAME = "wordcount"
SERVER_VERSION = "1.0.0"

TOOLS = [
    {
        "name": "count_words",
        "title": "Count words",
        "description": "Counts the lines, words and characters (Unicode code points) in a text.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string", "description": "The text to count."}},
            "required": ["text"],
            "additionalProperties": False,
        },
    }
]
DISCOVER = {"supportedVersions": [PROTOCOL_VERSION], "capabilities": {"tools": {}}, "ttlMs": 60000, "cacheScope": "public"}
TOOLS_LIST = {"tools": TOOLS, "ttlMs": 60000, "cacheScope": "public"}


def log(text):
    # stderr is the place for anything that is not a message.
    print(f"wordcount: {text}", file=sys.stderr, flush=True)


def is_id(value):
    # bool is a subclass of int in Python, so test the exact type.
    return type(value) in (str, int)


def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    log("stdout closed, exiting")
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


# ANCHOR: main
def main():
    log(f"{SERVER_VERSION} started, reading stdin")
    # Framing: one message is everything up to the next b"\n".
    for raw in sys.stdin.buffer:  # the loop ends when the client closes our stdin
        raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        try:
            reply = handle(raw.decode("utf-8"))
        except UnicodeDecodeError:
            reply = error(None, -32700, "Parse error: the line is not valid UTF-8")
        if reply is not None:
            # Compact JSON: no newline inside, and UTF-8 text left as it is.
            data = json.dumps(reply, separators=(",", ":"), ensure_ascii=False).encode("utf-8") + b"\n"
            try:
                sys.stdout.buffer.write(data)
                sys.stdout.buffer.flush()  # the client is waiting for this line
            except BrokenPipeError:
                return stdout_closed()
            log(f"wrote {len(data)} bytes to stdout")
    log("stdin closed, exiting with status 0")
    return 0
# ANCHOR_END: main


def handle(line):
    try:
        msg = json.loads(line)
        # A lone surrogate ("\ud800") is no character: refuse the line, as the Rust twin does.
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except ValueError as why:
        log(f"not JSON ({why}); answering -32700 with id null")
        return error(None, -32700, "Parse error: the line is not valid JSON")
    if not isinstance(msg, dict) or not isinstance(msg.get("method"), str):
        return invalid_request(msg)
    if msg.get("jsonrpc") != "2.0":
        return invalid_request(msg)
    method = msg["method"]
    if "id" not in msg:
        notification(method, msg.get("params"))
        return None
    if not is_id(msg["id"]):
        return invalid_request(msg)
    id_ = msg["id"]
    log(f"read request {method} id={json.dumps(id_)}")

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
        data = {"supported": [PROTOCOL_VERSION], "requested": version}
        return error(id_, -32022, "Unsupported protocol version", data)
    if method == "server/discover":
        return result(id_, DISCOVER)
    if method == "tools/list":
        return result(id_, TOOLS_LIST)
    if method == "tools/call":
        return call_tool(id_, params)
    return error(id_, -32601, f"Method not found: {method}")


# ANCHOR: notification
def notification(method, params):
    """Notifications never get a reply, not even an error."""
    if method != "notifications/cancelled":
        log(f"read notification {method}; ignoring it")
        return
    params = params if isinstance(params, dict) else {}
    target = json.dumps(params["requestId"]) if "requestId" in params else "?"
    reason = params.get("reason") if isinstance(params.get("reason"), str) else "none given"
    # This server answers each request before it reads the next line, so by the
    # time a cancellation is read the request it names is finished (or was never
    # sent). Either way there is nothing to stop, and nothing more to send.
    log(f"read notifications/cancelled for id={target} (reason: {reason}); not in flight, ignoring")
# ANCHOR_END: notification


def call_tool(id_, params):
    name = params.get("name")
    if not isinstance(name, str):
        return error(id_, -32602, "Invalid params: tools/call needs a tool name")
    if name != "count_words":
        return error(id_, -32602, f"Unknown tool: {name}")
    args = params.get("arguments", {})
    if not isinstance(args, dict):
        return error(id_, -32602, "Invalid params: params.arguments must be an object")
    # Arguments that do not fit the inputSchema are a tool execution error: a result with
    # isError true, which the model reads and can fix on its next call.
    if "text" not in args:
        why = "missing required property 'text'"
    elif not isinstance(args["text"], str):
        why = "property 'text' must be a string"
    else:
        why = next((f"unexpected property '{key}'" for key in sorted(args) if key != "text"), None)
    if why:
        text = f"Invalid arguments for tool count_words: {why}. It takes one argument, text, a string."
        return result(id_, tool_result(text, True))
    text = args["text"]
    newlines = text.count("\n")
    lines = newlines if text == "" or text.endswith("\n") else newlines + 1
    words = len(text.split())
    chars = len(text)
    # The reply text holds newlines; json.dumps escapes them as \n, so the
    # message still fits on one line of stdout.
    report = f"lines: {lines}\nwords: {words}\ncharacters: {chars}"
    return result(id_, tool_result(report, False))



def invalid_request(msg):
    """-32600, with the request's id when it can be read."""
    id_ = msg.get("id") if isinstance(msg, dict) else None
    return error(id_ if is_id(id_) else None, -32600, "Invalid Request: not a JSON-RPC 2.0 request or notification")


def error(id_, code, message, data=None):
    body = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": id_, "error": body}


def result(id_, body):
    """A success response. Every result starts with resultType and ends with the _meta that names the server."""
    meta = {"io.modelcontextprotocol/serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION}}
    return {"jsonrpc": "2.0", "id": id_, "result": {"resultType": "complete", **body, "_meta": meta}}


def tool_result(text, is_error):
    return {"content": [{"type": "text", "text": text}], "isError": is_error}

if __name__ == "__main__":
    sys.exit(main())
