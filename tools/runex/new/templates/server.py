"""EXAMPLE_NAME: a minimal MCP 2026-07-28 server on stdio, one tool (`echo`). Replace the tool with yours.

Standard library only. src/main.rs beside it, if there is one, is its Rust twin: the same replies, byte for byte
(one answer key), so every change goes into both.
"""

import json
import os
import sys

SERVER_NAME = "EXAMPLE_NAME"
TOOLS = [{
    "name": "echo",
    "description": "Return the given text unchanged.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                    "additionalProperties": False},
}]


def result(**body):
    return {"resultType": "complete", **body,
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": SERVER_NAME, "version": "0.1.0"}}}


def echo(arguments):
    text = arguments.get("text") if isinstance(arguments, dict) else None
    if isinstance(text, str):
        return result(content=[{"type": "text", "text": text}])
    # Arguments that fail the tool's schema are a tool execution error the model can read and fix.
    return result(content=[{"type": "text", "text": "echo: arguments.text must be a string"}], isError=True)


def handle(method, params):
    """The result of one request, or raise ProtocolError for a JSON-RPC error."""
    if method == "server/discover":
        return result(supportedVersions=["2026-07-28"], capabilities={"tools": {}}, ttlMs=60000,
                      cacheScope="public")
    if method == "tools/list":
        return result(tools=TOOLS, ttlMs=60000, cacheScope="public")
    if method == "tools/call" and params.get("name") == "echo":
        return echo(params.get("arguments"))
    if method == "tools/call":
        name = params.get("name")
        raise ProtocolError(-32602, f"Unknown tool: {name if isinstance(name, str) else ''}")
    raise ProtocolError(-32601, f"Method not found: {method}")


class ProtocolError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.error = {"code": code, "message": message}


def sorted_keys(value):
    """serde_json (without its preserve_order feature) keeps an object's keys sorted: the Rust twin's result and
    error objects come out in that order, so this twin sorts them too."""
    if isinstance(value, dict):
        return {key: sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_keys(item) for item in value]
    return value


def reply(id_, *, result=None, error=None):
    body = {"result": sorted_keys(result)} if error is None else {"error": sorted_keys(error)}
    return {"jsonrpc": "2.0", "id": id_, **body}


PARSE_ERROR = {"code": -32700, "message": "Parse error"}


def reply_to(line):
    """One line in, at most one reply out, refusing what the Rust twin's serde_json refuses."""
    try:
        message = json.loads(line)
        # A lone surrogate ("\ud800") is no character: refuse the line, as the Rust twin does.
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except ValueError:
        return reply(None, error=PARSE_ERROR)
    if not isinstance(message, dict) or not isinstance(message.get("method"), str):
        return reply(None, error=PARSE_ERROR)  # not a request the Rust twin's struct reads
    if message.get("id") is None:
        return None  # a notification: never answered
    method, params = message["method"], message.get("params")
    print(f"{SERVER_NAME}: answered {method}", file=sys.stderr)  # logs go to stderr, never stdout
    try:
        return reply(message["id"], result=handle(method, params if isinstance(params, dict) else {}))
    except ProtocolError as failure:
        return reply(message["id"], error=failure.error)


def main():
    for raw in iter(sys.stdin.buffer.readline, b""):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:  # refused whole, never patched with U+FFFD and acted on
            answer = reply(None, error=PARSE_ERROR)
        else:
            if not line:
                continue  # a blank line is no message
            answer = reply_to(line)
        if answer is None:
            continue
        try:
            sys.stdout.buffer.write((json.dumps(answer, separators=(",", ":"), ensure_ascii=False) + "\n").encode())
            sys.stdout.buffer.flush()  # the client waits for this line
        except BrokenPipeError:
            # The client has gone. Say so, and let the flush at exit write to nowhere instead of failing again.
            print(f"{SERVER_NAME}: stdout closed, exiting", file=sys.stderr)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return
    # End of stdin: the client has closed it, which is how a stdio server is told to stop.


if __name__ == "__main__":
    main()
