"""notes: a small MCP server (revision 2026-07-28) over stdio, standard library only.

It exists to show the two kinds of failure. A tool that ran and could not do
its job answers with a normal result carrying `isError: true`; a request the
server cannot make sense of gets a JSON-RPC error instead. Every diagnostic
goes to stderr; stdout carries only JSON-RPC messages.
"""

import json
import os
import sys

PROTOCOL_VERSION = "2026-07-28"
SERVER_NAME = "notes"
SERVER_VERSION = "1.0.0"
NOTES = {"n1": "Buy oat milk", "n2": "Call the dentist"}

NOTE_ID_SCHEMA = {
    "type": "object",
    "properties": {"id": {"type": "string", "description": "The note's id, for example n1."}},
    "required": ["id"],
    "additionalProperties": False,
}
TOOLS = [
    {
        "name": "get_note",
        "title": "Read a note",
        "description": "Returns the text of one note. Note ids look like n1.",
        "inputSchema": NOTE_ID_SCHEMA,
    },
    {
        "name": "delete_note",
        "title": "Delete a note",
        "description": "Deletes one note once the user has confirmed it."
        " Needs a client that declares the elicitation capability.",
        "inputSchema": NOTE_ID_SCHEMA,
    },
]


def log(text):
    print(f"notes: {text}", file=sys.stderr, flush=True)


def is_id(value):
    # bool is a subclass of int in Python, so test the exact type.
    return type(value) in (str, int)


# ANCHOR: envelope
def handle(line):
    """One line in, at most one reply out.

    The checks run from the outside in: is it JSON, is it JSON-RPC, is it a
    notification, is params._meta there, is the version one this server
    speaks; only then does the method matter.
    """
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
        log(f"notification {method}; notifications get no reply")
        return None
    if not is_id(msg["id"]):
        return invalid_request(msg)
    id_ = msg["id"]
    log(f"request {method} id={json.dumps(id_)}")

    params = msg.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        return error(id_, -32602, "Invalid params: params._meta is missing")
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if not isinstance(version, str):
        message = "Invalid params: params._meta has no io.modelcontextprotocol/protocolVersion"
        return error(id_, -32602, message)
    caps = meta.get("io.modelcontextprotocol/clientCapabilities")
    if not isinstance(caps, dict):
        message = "Invalid params: params._meta has no io.modelcontextprotocol/clientCapabilities"
        return error(id_, -32602, message)
    if version != PROTOCOL_VERSION:
        data = {"supported": [PROTOCOL_VERSION], "requested": version}
        return error(id_, -32022, "Unsupported protocol version", data)
    if method == "server/discover":
        return result(id_, discover())
    if method == "tools/list":
        return result(id_, list_tools())
    if method == "tools/call":
        return call_tool(id_, params, caps)
    return error(id_, -32601, f"Method not found: {method}")
# ANCHOR_END: envelope


# ANCHOR: call
def call_tool(id_, params, caps):
    name = params.get("name")
    if not isinstance(name, str):
        return error(id_, -32602, "Invalid params: tools/call needs a tool name")
    args = params.get("arguments", {})
    if not isinstance(args, dict):
        return error(id_, -32602, "Invalid params: params.arguments must be an object")
    if name == "get_note":
        note_id, message = check_note_id(name, args)
        if message:
            # The arguments do not fit the tool's inputSchema: a tool execution error,
            # which the model reads and can fix on its next call.
            return result(id_, tool_result(message, True))
        if note_id in NOTES:
            return result(id_, tool_result(NOTES[note_id], False))
        # The call was well formed; the tool ran and failed. The model can fix this too.
        text = f"No note has the id '{note_id}'. The ids that exist are {' and '.join(NOTES)}."
        return result(id_, tool_result(text, True))
    if name == "delete_note":
        # This tool cannot work unless the client can ask its user a question.
        if not isinstance(caps.get("elicitation"), dict):
            message = "delete_note asks the user to confirm, which needs the elicitation capability"
            data = {"requiredCapabilities": {"elicitation": {}}}
            return error(id_, -32021, message, data)
        _, message = check_note_id(name, args)
        if message:
            return result(id_, tool_result(message, True))
        # A real server would now ask for confirmation (resultType "input_required");
        # this example stops after the checks and says so.
        text = "This example server does not implement the confirmation step."
        return result(id_, tool_result(text, True))
    return error(id_, -32602, f"Unknown tool: {name}")


def check_note_id(tool, args):
    """Checks `arguments` against the inputSchema both tools share. The message is for the
    model: what is wrong, and what a good call looks like."""
    if "id" not in args:
        why = "missing required property 'id'"
    elif not isinstance(args["id"], str):
        why = "property 'id' must be a string"
    else:
        why = next((f"unexpected property '{key}'" for key in sorted(args) if key != "id"), None)
    if why:
        return None, f"Invalid arguments for tool {tool}: {why}. Pass one argument, id, a note id such as n1."
    return args["id"], None
# ANCHOR_END: call


def tool_result(text, is_error):
    return {"resultType": "complete", "content": [{"type": "text", "text": text}], "isError": is_error}


def discover():
    return {
        "resultType": "complete",
        "supportedVersions": [PROTOCOL_VERSION],
        "capabilities": {"tools": {}},
        "ttlMs": 60000,
        "cacheScope": "public",
    }


def list_tools():
    return {"resultType": "complete", "tools": TOOLS, "ttlMs": 60000, "cacheScope": "public"}


def result(id_, body):
    """A success response; every result names the server in _meta."""
    info = {"name": SERVER_NAME, "version": SERVER_VERSION}
    body["_meta"] = {"io.modelcontextprotocol/serverInfo": info}
    return {"jsonrpc": "2.0", "id": id_, "result": body}


def error(id_, code, message, data=None):
    body = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": id_, "error": body}


def invalid_request(msg):
    """-32600, with the request's id when it can be read."""
    id_ = msg.get("id") if isinstance(msg, dict) else None
    if not is_id(id_):
        id_ = None
    return error(id_, -32600, "Invalid Request: not a JSON-RPC 2.0 request or notification")


def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    log("stdout closed, exiting")
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main():
    for raw in sys.stdin.buffer:
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
