"""lsp-framing: an MCP stdio server (revision 2026-07-28) whose two tools show how
one JSON message is framed by the Language Server Protocol (a Content-Length
header counting bytes, a blank line, then the body) and by MCP on stdio (the
message on one line, ended by a newline).

Standard library only; the twin of main.rs, printing the same bytes.
"""

import json
import os
import sys

PROTOCOL_VERSION = "2026-07-28"
SERVER_NAME = "lsp-framing"
SERVER_VERSION = "1.0.0"
MAX_DEPTH = 64  # the same nesting limit as the Rust twin's toy parser
LEGACY_HINT = " (this server supports only protocol version 2026-07-28)"


# ANCHOR: framing
def lsp_frame(body: str) -> bytes:
    """LSP's base protocol: an ASCII header whose Content-Length is the body's
    size in BYTES (of its UTF-8 encoding), "\\r\\n" closing the header field,
    one more "\\r\\n" closing the header part, then the body itself."""
    data = body.encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(data) + data


def mcp_frame(body: str) -> bytes:
    """MCP on stdio: no header at all. The message is one line of UTF-8 and the
    newline is the frame, so the message itself must not contain one."""
    newlines = body.count("\n")
    if newlines:
        raise ValueError(newlines)
    return body.encode("utf-8") + b"\n"
# ANCHOR_END: framing


def _no_constants(name):
    raise ValueError(f"{name} is not JSON")


def _depth(value, level=0):
    if isinstance(value, (dict, list)):
        level += 1
        if level > MAX_DEPTH:
            raise ValueError("nested too deeply")
        for item in value.values() if isinstance(value, dict) else value:
            _depth(item, level)


def strict_loads(text: str):
    """json.loads, minus what JSON itself does not allow: NaN and Infinity, and
    lone surrogates such as "\\ud800" (they are not characters, so they cannot
    be written back as UTF-8)."""
    value = json.loads(text, parse_constant=_no_constants)
    json.dumps(value, ensure_ascii=False).encode("utf-8")  # raises on a lone surrogate
    _depth(value)
    return value


def dumps(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def server_meta():
    return {"io.modelcontextprotocol/serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION}}


def message_schema(what):
    return {
        "type": "object",
        "properties": {"message": {"type": "string", "description": what}},
        "required": ["message"],
        "additionalProperties": False,
    }


TOOLS = [
    {
        "name": "lsp_frame",
        "title": "Frame a message as LSP does",
        "description": "Wrap one JSON message the way the Language Server Protocol sends it over a pipe: "
        "a Content-Length header giving the body's size in bytes of UTF-8, an empty line "
        "(so the header ends in CR LF CR LF), then the body. Returns the frame and its "
        "byte counts.",
        "inputSchema": message_schema("One JSON text, for example a JSON-RPC message."),
    },
    {
        "name": "mcp_frame",
        "title": "Frame a message as MCP on stdio does",
        "description": "Write one JSON message the way MCP's stdio transport sends it: the message on one "
        "line, ended by a newline, with no header. Fails when the message contains a raw "
        "newline, which this framing cannot carry.",
        "inputSchema": message_schema("One JSON text, for example a JSON-RPC message."),
    },
]


def tool_result(blocks, is_error):
    return {
        "resultType": "complete",
        "content": [{"type": "text", "text": text} for text in blocks],
        "isError": is_error,
        "_meta": server_meta(),
    }


class RpcError(Exception):
    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


# ANCHOR: tools
def call_tool(name: str, message: str):
    """Runs one tool. RpcError is a JSON-RPC error (a call that makes no sense);
    a returned dict is a result, with isError set when the tool ran and said no."""
    if name not in ("lsp_frame", "mcp_frame"):
        raise RpcError(-32602, f"Unknown tool: {name}")
    try:
        strict_loads(message)
    except (ValueError, RecursionError):
        why = ("The message is not a JSON text, so it cannot be a JSON-RPC message. "
               'Pass one JSON value, for example an object such as {"jsonrpc":"2.0",...}.')
        return tool_result([why], True)
    size = len(message.encode("utf-8"))  # bytes of UTF-8
    chars = len(message)  # code points
    if name == "lsp_frame":
        frame = lsp_frame(message)
        counts = (f"The body is {size} bytes of UTF-8 ({chars} characters), so the header says "
                  f"Content-Length: {size}. The whole frame, header included, is {len(frame)} bytes.")
        return tool_result([frame.decode("utf-8"), counts], False)
    try:
        line = mcp_frame(message)
    except ValueError as e:
        newlines = e.args[0]
        why = (f"This message contains {newlines} raw newline{'' if newlines == 1 else 's'}. "
               "On MCP's stdio transport every message is one line, so a newline inside it would "
               "end it early. Serialise it compactly (no pretty-printing; newlines inside strings "
               "are written as \\n) and call mcp_frame again.")
        return tool_result([why], True)
    counts = (f"The line is {size} bytes of UTF-8 ({chars} characters) plus the newline that ends "
              f"it: {len(line)} bytes. There is no header: the newline is the frame.")
    return tool_result([line.decode("utf-8"), counts], False)
# ANCHOR_END: tools


def check_meta(params):
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        raise RpcError(-32602, "Invalid params: params._meta is required")
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if not isinstance(version, str):
        raise RpcError(-32602, "Invalid params: _meta needs io.modelcontextprotocol/protocolVersion")
    if not isinstance(meta.get("io.modelcontextprotocol/clientCapabilities"), dict):
        raise RpcError(-32602, "Invalid params: _meta needs io.modelcontextprotocol/clientCapabilities")
    if version != PROTOCOL_VERSION:
        raise RpcError(-32022, "Unsupported protocol version",
                       {"supported": [PROTOCOL_VERSION], "requested": version})


def handle(method, params):
    if method not in ("server/discover", "tools/list", "tools/call"):
        # A legacy client opens with initialize; tell it which version this server does speak.
        hint = LEGACY_HINT if method == "initialize" else ""
        raise RpcError(-32601, f"Method not found: {method}{hint}")
    check_meta(params)
    if method == "server/discover":
        return {
            "resultType": "complete",
            "supportedVersions": [PROTOCOL_VERSION],
            "capabilities": {"tools": {}},
            "ttlMs": 3600000,
            "cacheScope": "public",
            "_meta": server_meta(),
        }
    if method == "tools/list":
        return {
            "resultType": "complete",
            "tools": TOOLS,
            "ttlMs": 3600000,
            "cacheScope": "public",
            "_meta": server_meta(),
        }
    name = params.get("name")  # tools/call, the one method left
    if not isinstance(name, str):
        raise RpcError(-32602, "Invalid params: tools/call needs a string name")
    arguments = params.get("arguments", {})
    if not isinstance(arguments, dict):
        raise RpcError(-32602, "Invalid params: params.arguments must be an object")
    message = arguments.get("message")
    if name in ("lsp_frame", "mcp_frame") and not isinstance(message, str):
        # Arguments that do not fit the inputSchema: a tool execution error the model can fix.
        why = f"Invalid arguments for tool {name}: it needs one argument, message, a string."
        return tool_result([why], True)
    return call_tool(name, message if isinstance(message, str) else "")


def error_reply(id_, code, message, data=None):
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": id_, "error": err}


def reply_to(text):
    """One line in, at most one reply out (None for a notification)."""
    try:
        msg = strict_loads(text)
    except (ValueError, RecursionError):
        return error_reply(None, -32700, "Parse error")
    if not isinstance(msg, dict):
        return error_reply(None, -32600, "Invalid Request")
    id_ = msg.get("id")
    id_ok = "id" not in msg or isinstance(id_, str) or (isinstance(id_, int) and not isinstance(id_, bool))
    method = msg.get("method")
    if not id_ok or msg.get("jsonrpc") != "2.0" or not isinstance(method, str):
        return error_reply(None, -32600, "Invalid Request")
    if "id" not in msg:
        return None  # notifications get no reply, whatever their method
    try:
        return {"jsonrpc": "2.0", "id": id_, "result": handle(method, msg.get("params"))}
    except RpcError as e:
        return error_reply(id_, e.code, e.message, e.data)


def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    print(f"{SERVER_NAME}: stdout closed, exiting", file=sys.stderr)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main():
    for raw in sys.stdin.buffer:  # one line at a time; the loop ends at EOF
        if not raw.strip(b" \t\r\n"):
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            reply = error_reply(None, -32700, "Parse error")
        else:
            reply = reply_to(text)
        if reply is not None:
            try:
                sys.stdout.buffer.write(dumps(reply).encode("utf-8") + b"\n")
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                return stdout_closed()


if __name__ == "__main__":
    main()
