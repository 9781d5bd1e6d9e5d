"""EXAMPLE_NAME: a minimal MCP 2026-07-28 server on stdio, one tool (`echo`). Replace the tool with yours."""

import json
import sys

SERVER_INFO = {"name": "EXAMPLE_NAME", "version": "0.1.0"}
META = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}
TOOLS = [{
    "name": "echo",
    "description": "Return the given text unchanged.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"],
                    "additionalProperties": False},
}]


def result(body):
    return {"resultType": "complete", **body, "_meta": META}


def handle(method, params):
    """Return ("result", body) or ("error", (code, message))."""
    if method == "server/discover":
        return "result", result({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}},
                                 "ttlMs": 60000, "cacheScope": "public"})
    if method == "tools/list":
        return "result", result({"tools": TOOLS, "ttlMs": 60000, "cacheScope": "public"})
    if method == "tools/call":
        if params.get("name") != "echo":
            return "error", (-32602, f"Unknown tool: {params.get('name')}")
        text = str(params.get("arguments", {}).get("text", ""))
        return "result", result({"content": [{"type": "text", "text": text}]})
    return "error", (-32601, f"Method not found: {method}")


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification: never answered
        kind, body = handle(message["method"], message.get("params", {}))
        reply = {"jsonrpc": "2.0", "id": message["id"]}
        if kind == "result":
            reply["result"] = body
        else:
            reply["error"] = {"code": body[0], "message": body[1]}
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()  # the client waits for this line
        print(f"answered {message['method']}", file=sys.stderr)  # logs go to stderr, never stdout


if __name__ == "__main__":
    main()
