"""resources-prompts: an MCP server (revision 2026-07-28) over stdio, standard library only,
for the page "Resources and prompts". The Python twin of src/main.rs: same replies, same bytes.

It offers no tools: two read-only documents as resources and one prompt template that quotes
one of them. One JSON-RPC message per line comes in on stdin; one reply per request goes out on
stdout. stdout is the wire and carries nothing else; diagnostics go to stderr.
"""

import json
import os
import sys

VERSION = "2026-07-28"
SERVER_NAME = "handbook"
SERVER_VERSION = "1.0.0"


class ProtocolError(Exception):
    """A request that cannot be answered: it goes back as a JSON-RPC error."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


# ANCHOR: resources
# The documents the server can hand out, each named by its URI. The naming rules come first,
# under their own name, because the prompt below also embeds them.
NAMING_RULES = {
    "uri": "handbook://style/naming",
    "name": "naming",
    "title": "Naming rules",
    "description": "How the team names crates, types, functions and MCP tools.",
    "text": (
        "# Naming\n\n"
        "- Crates, modules, functions, variables: snake_case.\n"
        "- Types and traits: UpperCamelCase.\n"
        "- Constants: SCREAMING_SNAKE_CASE.\n"
        "- MCP tools: snake_case, starting with the area they belong to, such as stock_level.\n"
    ),
}
DOCUMENTS = [
    NAMING_RULES,
    {
        "uri": "handbook://style/errors",
        "name": "errors",
        "title": "Error messages",
        "description": "How to write an error message that a person or a model can act on.",
        "text": (
            "# Error messages\n\n"
            "Say what went wrong, quote the value that caused it, and say what to do next.\n"
        ),
    },
]


def list_resources(params):
    """resources/list: what exists. The same for every reader, so anyone may cache it for ten
    minutes."""
    resources = [
        {
            "uri": d["uri"],
            "name": d["name"],
            "title": d["title"],
            "description": d["description"],
            "mimeType": "text/markdown",
        }
        for d in DOCUMENTS
    ]
    return list_result(ttlMs=600_000, cacheScope="public", resources=resources)


def read_resource(params):
    """resources/read: one document by URI. A URI the server does not know is -32602 with the
    URI in data (never an empty contents list, and never the retired -32002)."""
    uri = params.get("uri")
    if not isinstance(uri, str):
        raise ProtocolError(-32602, "Invalid params: params.uri must be a string")
    document = next((d for d in DOCUMENTS if d["uri"] == uri), None)
    if document is None:
        raise ProtocolError(-32602, "Resource not found", {"uri": uri})
    contents = {"uri": document["uri"], "mimeType": "text/markdown", "text": document["text"]}
    return result(ttlMs=60_000, cacheScope="public", contents=[contents])


# ANCHOR_END: resources


# ANCHOR: prompts
def list_prompts(params):
    """prompts/list: one template with one required and one optional argument."""
    prompt = {
        "name": "review_names",
        "title": "Review names",
        "description": (
            "Ask the model to check the names in a piece of code against the team's naming rules."
        ),
        "arguments": [
            {"name": "code", "description": "The code to review", "required": True},
            {
                "name": "language",
                "description": "Programming language of the code; Rust if left out",
                "required": False,
            },
        ],
    }
    return list_result(ttlMs=600_000, cacheScope="public", prompts=[prompt])


def get_prompt(params):
    """prompts/get: the template filled in. An unknown prompt (with the prompts there are as data),
    a missing required argument or an argument that is not a string is -32602, worded as rmcp
    words it. The result has no ttlMs or cacheScope: it is not one of the cacheable results."""
    name = params.get("name")
    if not isinstance(name, str):
        raise ProtocolError(-32602, "Invalid params: params.name must be a string")
    if name != "review_names":
        raise ProtocolError(
            -32602, f"prompt '{name}' not found", {"available_prompts": ["review_names"]}
        )
    args = params.get("arguments", {})
    if not isinstance(args, dict):
        raise ProtocolError(-32602, "Invalid params: params.arguments must be an object")
    for key, value in args.items():
        if key not in ("code", "language"):
            raise ProtocolError(
                -32602, f"Invalid params: prompt review_names has no argument {key}"
            )
        if not isinstance(value, str):
            raise ProtocolError(-32602, f"Invalid params: argument {key} must be a string")
    if "code" not in args:
        raise ProtocolError(-32602, "Failed to parse parameters: missing field `code`")
    code = args["code"]
    language = args.get("language", "Rust")
    rules = NAMING_RULES
    # The first message embeds the naming rules as a resource; the second asks the question.
    embedded = {
        "type": "resource",
        "resource": {"uri": rules["uri"], "mimeType": "text/markdown", "text": rules["text"]},
    }
    question = (
        f"Check the names in this {language} code against the naming rules above. For each name"
        f" that breaks a rule, quote it, name the rule and suggest a better name.\n\n{code}"
    )
    messages = [
        {"role": "user", "content": embedded},
        {"role": "user", "content": {"type": "text", "text": question}},
    ]
    return result(description=f"Naming review of {language} code", messages=messages)


# ANCHOR_END: prompts


# --- The envelope: every request is checked on its own, and every result carries serverInfo.


def dumps(value):
    """Compact JSON, non-ASCII kept as is: the same bytes the Rust twin writes."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


SERVER_INFO = {"io.modelcontextprotocol/serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION}}


def result(**members):
    """A result object: resultType first, then the members, then _meta with serverInfo."""
    return {"resultType": "complete", **members, "_meta": SERVER_INFO}


def list_result(**members):
    """A list result: _meta right after resultType, where rmcp writes it (one answer key for all)."""
    return {"resultType": "complete", "_meta": SERVER_INFO, **members}


def error_reply(id_, code, message, data=None):
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": id_, "error": error}


def check_meta(params):
    """params._meta must name the protocol version and the client's capabilities, every time."""
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        raise ProtocolError(-32602, "Invalid params: params._meta is required")
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if not isinstance(version, str):
        raise ProtocolError(
            -32602,
            "Invalid params: params._meta needs a string io.modelcontextprotocol/protocolVersion",
        )
    if not isinstance(meta.get("io.modelcontextprotocol/clientCapabilities"), dict):
        raise ProtocolError(
            -32602,
            "Invalid params: params._meta needs an object io.modelcontextprotocol/clientCapabilities",
        )
    if version != VERSION:
        raise ProtocolError(
            -32022, "Unsupported protocol version", {"supported": [VERSION], "requested": version}
        )


def discover(params):
    return result(
        supportedVersions=[VERSION],
        capabilities={"prompts": {}, "resources": {}},
        ttlMs=3_600_000,
        cacheScope="public",
    )


# ANCHOR: dispatch
METHODS = {
    "server/discover": discover,
    "resources/list": list_resources,
    "resources/read": read_resource,
    "prompts/list": list_prompts,
    "prompts/get": get_prompt,
}


def handle(line):
    """One line in, at most one reply out. Notifications (no id) never get a reply."""
    try:
        message = json.loads(line)
        # A lone surrogate ("\ud800") is no character: refuse the line, as the Rust twin does.
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except ValueError:
        return error_reply(None, -32700, "Parse error")
    if not isinstance(message, dict):
        return error_reply(None, -32600, "Invalid Request: not an object")
    method = message.get("method")
    if "id" not in message:
        print(
            f"{SERVER_NAME}: notification {method if isinstance(method, str) else '?'}, no reply",
            file=sys.stderr,
        )
        return None
    id_ = message["id"]
    # An integer id must fit the Rust twin's i64 (Python's own ints have no limit).
    if not (isinstance(id_, str) or (type(id_) is int and -(2**63) <= id_ < 2**63)):
        return error_reply(None, -32600, "Invalid Request: bad id")
    if not isinstance(method, str):
        return error_reply(id_, -32600, "Invalid Request: no method")
    # No tools capability is declared, so tools/list and tools/call are unknown methods here; the
    # message is the method, as in rmcp.
    if method not in METHODS:
        return error_reply(id_, -32601, method)
    params = message.get("params", {})
    params = params if isinstance(params, dict) else {}
    try:
        check_meta(params)
        return {"jsonrpc": "2.0", "id": id_, "result": METHODS[method](params)}
    except ProtocolError as failure:
        return error_reply(id_, failure.code, failure.message, failure.data)


# ANCHOR_END: dispatch


def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    print(f"{SERVER_NAME}: stdout closed, exiting", file=sys.stderr)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main():
    while True:
        raw = sys.stdin.buffer.readline()
        if not raw:
            # EOF on stdin: the client has closed it, which is how a stdio server is told to stop.
            break
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:  # refused whole, never patched with U+FFFD and acted on
            reply = error_reply(None, -32700, "Parse error")
        else:
            if not line:
                continue
            reply = handle(line)
        if reply is not None:
            try:
                sys.stdout.buffer.write((dumps(reply) + "\n").encode("utf-8"))
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                return stdout_closed()


if __name__ == "__main__":
    main()
