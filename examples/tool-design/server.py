"""tool-design: an MCP server (revision 2026-07-28) over stdio, standard library only, for
the page "Tools a model can pick". The Python twin of src/main.rs: same tools, same bytes out.

It runs a pretend warehouse with three tools whose names, descriptions, input and output
schemas and annotations are written for a model to read. One JSON-RPC message per line comes
in on stdin; one reply per request goes out on stdout. stdout is the wire and carries nothing
else; diagnostics go to stderr.
"""

import json
import os
import sys

VERSION = "2026-07-28"
SERVER_NAME = "warehouse"
SERVER_VERSION = "1.0.0"

SKU = {"type": "string", "description": "Article number, for example BOLT-M8"}
LOCATION = {
    "type": "string",
    "description": "Location code from stock_locations",
    "default": "MAIN",
}

# ANCHOR: tools
# What tools/list sends. A model sees only these names, descriptions and schemas, so they are
# written as its manual: what the tool is for, when to call it, what the arguments look like,
# what comes back and how it fails.
TOOLS = [
    {
        "name": "stock_level",
        "title": "Stock level",
        "description": (
            "Look up how many units of one article are on hand in one storage location of the"
            " warehouse, and how many of them are already reserved. Call it before promising a"
            " delivery and before stock_reserve. sku is the article number from the shelf label,"
            " in capitals, for example BOLT-M8. location is a code from stock_locations and"
            " defaults to MAIN. An unknown sku or location is reported as an error that lists"
            " the valid values."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"sku": SKU, "location": LOCATION},
            "required": ["sku"],
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "sku": {"type": "string"},
                "location": {"type": "string"},
                "on_hand": {"type": "integer", "minimum": 0},
                "reserved": {"type": "integer", "minimum": 0},
                "unit": {"type": "string", "enum": ["pcs", "m", "kg"]},
            },
            "required": ["sku", "location", "on_hand", "reserved", "unit"],
            "additionalProperties": False,
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "stock_locations",
        "title": "Storage locations",
        "description": (
            "List the storage locations of the warehouse, each with its code and name. Takes no"
            " arguments. Call it once to learn the location codes that stock_level and"
            " stock_reserve accept."
        ),
        "inputSchema": {"type": "object", "additionalProperties": False},
        "outputSchema": {
            "type": "object",
            "properties": {
                "locations": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"code": {"type": "string"}, "name": {"type": "string"}},
                        "required": ["code", "name"],
                    },
                }
            },
            "required": ["locations"],
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "stock_reserve",
        "title": "Reserve stock",
        "description": (
            "Reserve a quantity of one article in one location for a customer order, so that it"
            " is not promised twice. Every call creates a new reservation: calling it twice"
            " reserves twice, so call it once per order line. If fewer units are free than asked"
            " for, nothing is reserved and the error says how many are free. Returns the"
            " reservation number."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "sku": SKU,
                "location": LOCATION,
                "quantity": {
                    "type": "integer",
                    "minimum": 1,
                    "description": "Units to reserve, in the article's unit",
                },
                "order": {
                    "type": "string",
                    "description": "Customer order number, for example SO-4711",
                },
            },
            "required": ["sku", "quantity", "order"],
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "reservation": {"type": "string"},
                "sku": {"type": "string"},
                "location": {"type": "string"},
                "quantity": {"type": "integer"},
                "order": {"type": "string"},
            },
            "required": ["reservation", "sku", "location", "quantity", "order"],
            "additionalProperties": False,
        },
        "annotations": {
            "readOnlyHint": False,
            "destructiveHint": False,
            "idempotentHint": False,
            "openWorldHint": False,
        },
    },
]
# ANCHOR_END: tools

# Advice for the whole server, sent in the server/discover result.
INSTRUCTIONS = (
    "A pretend warehouse. Learn the location codes with stock_locations, check stock with"
    " stock_level, and reserve only when the user asks for it."
)

LOCATIONS = {"MAIN": "Main hall", "COLD": "Cold store, 5 °C"}  # code -> name
ARTICLES = {"BOLT-M8": "pcs", "CABLE-3X15": "m", "GLUE-PU": "kg"}  # sku -> unit
ON_HAND = {("BOLT-M8", "MAIN"): 1200, ("CABLE-3X15", "MAIN"): 340, ("GLUE-PU", "COLD"): 18}

# Units reserved so far, by (sku, location). Lives only as long as this process.
reserved: dict[tuple[str, str], int] = {}
reservations = 0


class ToolError(Exception):
    """A tool that ran and failed: the message goes back to the model with isError: true."""


class ProtocolError(Exception):
    """A request that makes no sense: it goes back as a JSON-RPC error."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


# ANCHOR: call
def call_tool(params):
    """tools/call. An unknown tool or a malformed call is a protocol error (-32602); a tool
    that ran and failed is a normal result with "isError": true that the model can read."""
    name = params.get("name")
    if not isinstance(name, str):
        raise ProtocolError(-32602, "Invalid params: params.name must be a string")
    args = params.get("arguments", {})
    if not isinstance(args, dict):
        raise ProtocolError(-32602, "Invalid params: params.arguments must be an object")
    tools = {
        "stock_level": stock_level,
        "stock_locations": stock_locations,
        "stock_reserve": stock_reserve,
    }
    if name not in tools:
        raise ProtocolError(-32602, f"Unknown tool: {name}")
    try:
        value = tools[name](args)
    except ToolError as failure:
        # Failure the model can act on: plain text, no structuredContent.
        return result(content=[text_block(str(failure))], isError=True)
    # Success: the value goes out twice, as structuredContent for programs and as the same
    # JSON serialised into a text block for clients that only read content.
    return result(content=[text_block(dumps(value))], structuredContent=value, isError=False)


# ANCHOR_END: call


def stock_level(args):
    only_known_arguments(args, ["sku", "location"])
    sku, unit = article(args)
    code = location(args)
    return {
        "sku": sku,
        "location": code,
        "on_hand": ON_HAND.get((sku, code), 0),
        "reserved": reserved.get((sku, code), 0),
        "unit": unit,
    }


def stock_reserve(args):
    global reservations
    only_known_arguments(args, ["sku", "location", "quantity", "order"])
    sku, unit = article(args)
    code = location(args)
    quantity = args.get("quantity")
    if not is_int(quantity) or quantity < 1:
        raise ToolError("quantity must be a whole number of at least 1")
    order = args.get("order")
    if not isinstance(order, str) or not order:
        raise ToolError("order must be a customer order number such as SO-4711")
    free = ON_HAND.get((sku, code), 0) - reserved.get((sku, code), 0)
    if quantity > free:
        raise ToolError(
            f"Only {free} {unit} of {sku} are free in {code}; nothing was reserved."
            f" Ask for at most {free}, or check another location with stock_level."
        )
    reserved[(sku, code)] = reserved.get((sku, code), 0) + quantity
    reservations += 1
    return {
        "reservation": f"RSV-{reservations}",
        "sku": sku,
        "location": code,
        "quantity": quantity,
        "order": order,
    }


def stock_locations(args):
    only_known_arguments(args, [])
    return {"locations": [{"code": code, "name": name} for code, name in LOCATIONS.items()]}


def only_known_arguments(args, known):
    """The schemas say additionalProperties: false, and the server holds itself to that."""
    for key in args:
        if key not in known:
            takes = ", ".join(known) if known else "no arguments"
            raise ToolError(f"Unknown argument {key}; this tool takes: {takes}")


def article(args):
    """The sku argument and the article's unit, or an error naming the known articles."""
    sku = args.get("sku")
    if isinstance(sku, str) and sku in ARTICLES:
        return sku, ARTICLES[sku]
    shown = sku if isinstance(sku, str) else "(none given)"
    raise ToolError(f"Unknown article {shown}; known articles: {', '.join(ARTICLES)}")


def location(args):
    """The location argument (MAIN when left out), or an error naming the known codes."""
    code = args.get("location", "MAIN")
    if isinstance(code, str) and code in LOCATIONS:
        return code
    shown = code if isinstance(code, str) else "(not a string)"
    raise ToolError(f"Unknown location {shown}; known locations: {', '.join(LOCATIONS)}")


def is_int(value):
    """An integer in the range of the Rust twin's i64 (Python's own ints have no limit)."""
    return type(value) is int and -(2**63) <= value < 2**63


def text_block(text):
    return {"type": "text", "text": text}


# --- The envelope: every request is checked on its own, and every result carries serverInfo.


def dumps(value):
    """Compact JSON, non-ASCII kept as is: the same bytes the Rust twin writes."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def result(**members):
    """A result: resultType, the members, and _meta with serverInfo, in that order."""
    meta = {"io.modelcontextprotocol/serverInfo": {"name": SERVER_NAME, "version": SERVER_VERSION}}
    return dict(resultType="complete", **members, _meta=meta)


def error(id_, code, message, data=None):
    body = {"code": code, "message": message}
    return {"jsonrpc": "2.0", "id": id_, "error": body if data is None else {**body, "data": data}}


def refusal(message):
    """Why a parsed line is not a request this server takes, as (id to answer with, code,
    message), or None when it is one."""
    if not isinstance(message, dict):
        return None, -32600, "Invalid Request: not an object"
    id_, method = message["id"], message.get("method")
    if not (isinstance(id_, str) or is_int(id_)):
        return None, -32600, "Invalid Request: bad id"
    if not isinstance(method, str):
        return id_, -32600, "Invalid Request: no method"
    if method not in ("server/discover", "tools/list", "tools/call"):
        return id_, -32601, f"Method not found: {method}"
    return None


def check_meta(meta):
    """params._meta must name the protocol version and the client's capabilities, every time."""
    if not isinstance(meta, dict):
        raise ProtocolError(-32602, "Invalid params: params._meta is required")
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if not isinstance(version, str):
        missing = "a string io.modelcontextprotocol/protocolVersion"
    elif not isinstance(meta.get("io.modelcontextprotocol/clientCapabilities"), dict):
        missing = "an object io.modelcontextprotocol/clientCapabilities"
    elif version != VERSION:
        data = {"supported": [VERSION], "requested": version}
        raise ProtocolError(-32022, "Unsupported protocol version", data)
    else:
        return
    raise ProtocolError(-32602, f"Invalid params: params._meta needs {missing}")


def answer(method, params):
    """The result for a request that passed the envelope's checks."""
    check_meta(params.get("_meta"))
    if method == "server/discover":
        return result(
            supportedVersions=[VERSION],
            capabilities={"tools": {}},
            instructions=INSTRUCTIONS,
            ttlMs=3_600_000,
            cacheScope="public",
        )
    if method == "tools/list":
        # The same list for every caller: cacheable for five minutes, by anyone.
        return result(tools=TOOLS, ttlMs=300_000, cacheScope="public")
    return call_tool(params)


def handle(line):
    """One line in, at most one reply out. Notifications (no id) never get a reply."""
    try:
        message = json.loads(line)
        # A lone surrogate ("\ud800") is no character: refuse the line, as the Rust twin does.
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except ValueError:
        return error(None, -32700, "Parse error")
    if isinstance(message, dict) and "id" not in message:
        method = message.get("method")
        print(f"{SERVER_NAME}: notification {method if isinstance(method, str) else '?'}, no reply",
              file=sys.stderr)
        return None
    refused = refusal(message)
    if refused is not None:
        return error(*refused)
    params = message.get("params")
    try:
        outcome = answer(message["method"], params if isinstance(params, dict) else {})
    except ProtocolError as failure:
        return error(message["id"], failure.code, failure.message, failure.data)
    return {"jsonrpc": "2.0", "id": message["id"], "result": outcome}


def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    print(f"{SERVER_NAME}: stdout closed, exiting", file=sys.stderr)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main():
    for raw in sys.stdin.buffer:
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:  # refused whole, never patched with U+FFFD and acted on
            reply = error(None, -32700, "Parse error")
        else:
            reply = handle(line) if line else None
        if reply is not None:
            try:
                sys.stdout.buffer.write((dumps(reply) + "\n").encode("utf-8"))
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                return stdout_closed()
    # EOF on stdin: the client has closed it, which is how a stdio server is told to stop.


if __name__ == "__main__":
    main()
