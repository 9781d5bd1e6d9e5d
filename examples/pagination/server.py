"""pagination: an MCP server (revision 2026-07-28) over stdio, standard library only, for the
page "Lists in pages". The Python twin of src/main.rs and src/handbook.rs: same replies, same
bytes.

It offers five handbook pages as resources, and resources/list hands them out two at a time, each
page linked to the next by an opaque cursor. One JSON-RPC message per line comes in on stdin; one
reply per request goes out on stdout. stdout is the wire and carries nothing else; diagnostics go
to stderr.
"""

import base64
import binascii
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


# The handbook: five pages, in the order every page of resources/list follows. The text is only
# sent by resources/read.
DOCUMENTS = [
    {
        "uri": "handbook://style/naming",
        "name": "naming",
        "title": "Naming rules",
        "text": "# Naming rules\n\nsnake_case for functions and modules, UpperCamelCase for types.\n",
    },
    {
        "uri": "handbook://style/errors",
        "name": "errors",
        "title": "Error messages",
        "text": "# Error messages\n\nSay what went wrong, quote the value and say what to do next.\n",
    },
    {
        "uri": "handbook://style/logging",
        "name": "logging",
        "title": "Logging",
        "text": "# Logging\n\nA stdio server logs to stderr: stdout carries only messages.\n",
    },
    {
        "uri": "handbook://style/testing",
        "name": "testing",
        "title": "Testing",
        "text": "# Testing\n\nEvery bug fix comes with the test that would have caught it.\n",
    },
    {
        "uri": "handbook://style/reviews",
        "name": "reviews",
        "title": "Code reviews",
        "text": "# Code reviews\n\nReview the change, not the author, and say what you would do instead.\n",
    },
]


# ANCHOR: pages
# How many resources one page holds. The server alone decides; a client must not count on it.
PAGE_SIZE = 2


def cursor_for(document):
    """A cursor names the first resource of the next page by its URI, base64-encoded. Naming a
    resource rather than counting from the top keeps the cursor on the right place when a page is
    added before it. The format is this server's own business: clients pass the token back
    untouched."""
    return base64.b64encode(document["uri"].encode("utf-8")).decode("ascii")


def start_of(cursor):
    """Where the page a cursor asks for starts, or None for a cursor this server would never
    issue."""
    if not isinstance(cursor, str):
        return None
    try:
        uri = base64.b64decode(cursor, validate=True)
    except (binascii.Error, ValueError):
        return None
    return next((i for i, d in enumerate(DOCUMENTS) if d["uri"].encode("utf-8") == uri), None)


def list_resources(params):
    """resources/list: one page. No cursor means the first page; nextCursor is there while more
    remain and left out on the last page. Every page says "public": one list, one cacheScope."""
    start = 0
    if "cursor" in params:
        start = start_of(params["cursor"])
        if start is None:
            raise ProtocolError(-32602, "Invalid cursor")
    end = min(len(DOCUMENTS), start + PAGE_SIZE)
    page = [{"uri": d["uri"], "name": d["name"], "title": d["title"]} for d in DOCUMENTS[start:end]]
    more = {"nextCursor": cursor_for(DOCUMENTS[end])} if end < len(DOCUMENTS) else {}
    # The paging and caching members come before the list, as in the Rust twin.
    return list_result(**more, ttlMs=600_000, cacheScope="public", resources=page)


# ANCHOR_END: pages


def read_resource(params):
    """resources/read: one page by URI, whichever page of the list it came from. An unknown URI
    is -32602 with the URI in data."""
    uri = params.get("uri")
    if not isinstance(uri, str):
        raise ProtocolError(-32602, "Invalid params: params.uri must be a string")
    document = next((d for d in DOCUMENTS if d["uri"] == uri), None)
    if document is None:
        raise ProtocolError(-32602, "Resource not found", {"uri": uri})
    contents = {"uri": document["uri"], "mimeType": "text/markdown", "text": document["text"]}
    return result(ttlMs=60_000, cacheScope="public", contents=[contents])


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
        capabilities={"resources": {}},
        ttlMs=3_600_000,
        cacheScope="public",
    )


METHODS = {
    "server/discover": discover,
    "resources/list": list_resources,
    "resources/read": read_resource,
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
    if method not in METHODS:
        return error_reply(id_, -32601, f"Method not found: {method}")
    params = message.get("params", {})
    params = params if isinstance(params, dict) else {}
    try:
        check_meta(params)
        return {"jsonrpc": "2.0", "id": id_, "result": METHODS[method](params)}
    except ProtocolError as failure:
        return error_reply(id_, failure.code, failure.message, failure.data)


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
