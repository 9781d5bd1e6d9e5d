"""state-handles: an MCP server (revision 2026-07-28) over stdio, standard library only, for
the page "State without sessions". The Python twin of src/main.rs: same tools, same bytes out.

A small shop keeps baskets across tool calls without any session: basket_create returns an
explicit handle, basket_id, and every later call passes it back as an ordinary argument.
One JSON-RPC message per line comes in on stdin; one reply per request goes out on stdout.
stdout is the wire and carries nothing else; diagnostics go to stderr.
"""

import json
import os
import sys

VERSION = "2026-07-28"
SERVER_NAME = "basket"
SERVER_VERSION = "1.0.0"

HANDLE = {"type": "string", "description": "The basket_id that basket_create returned"}
BASKET_VIEW = {
    "type": "object",
    "properties": {
        "basket_id": {"type": "string"},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "sku": {"type": "string"},
                    "quantity": {"type": "integer"},
                    "price_cents": {"type": "integer"},
                },
                "required": ["sku", "quantity", "price_cents"],
            },
        },
        "total_cents": {"type": "integer"},
    },
    "required": ["basket_id", "items", "total_cents"],
}
WRITES = {
    "readOnlyHint": False,
    "destructiveHint": False,
    "idempotentHint": False,
    "openWorldHint": False,
}

# ANCHOR: tools
# What tools/list sends. The lifetime of a basket is stated where the model decides to make
# one: in basket_create's description.
TOOLS = [
    {
        "name": "basket_create",
        "title": "Create a basket",
        "description": (
            "Open a new, empty shopping basket and return its id as basket_id. Pass that basket_id"
            " to basket_add, basket_show and basket_checkout. A basket lasts until it is checked"
            " out or until this server stops, whichever comes first; after that its basket_id is"
            " no longer accepted and a new basket must be created."
        ),
        "inputSchema": {"type": "object", "additionalProperties": False},
        "outputSchema": {
            "type": "object",
            "properties": {"basket_id": {"type": "string"}},
            "required": ["basket_id"],
            "additionalProperties": False,
        },
        "annotations": WRITES,
    },
    {
        "name": "basket_add",
        "title": "Add to a basket",
        "description": (
            "Add a quantity of one product to an open basket and return the whole basket. Adding"
            " a product that is already in the basket raises its quantity. Products: TEA-GREEN,"
            " HONEY, MUG."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "basket_id": HANDLE,
                "sku": {"type": "string", "enum": ["TEA-GREEN", "HONEY", "MUG"]},
                "quantity": {"type": "integer", "minimum": 1},
            },
            "required": ["basket_id", "sku", "quantity"],
            "additionalProperties": False,
        },
        "outputSchema": BASKET_VIEW,
        "annotations": WRITES,
    },
    {
        "name": "basket_show",
        "title": "Show a basket",
        "description": "Return the contents and the total of an open basket, without changing it.",
        "inputSchema": {
            "type": "object",
            "properties": {"basket_id": HANDLE},
            "required": ["basket_id"],
            "additionalProperties": False,
        },
        "outputSchema": BASKET_VIEW,
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "basket_checkout",
        "title": "Check out a basket",
        "description": (
            "Turn an open, non-empty basket into an order and close the basket. Returns the"
            " order_id and the total. The basket_id is no longer accepted afterwards."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"basket_id": HANDLE},
            "required": ["basket_id"],
            "additionalProperties": False,
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "order_id": {"type": "string"},
                "basket_id": {"type": "string"},
                "total_cents": {"type": "integer"},
            },
            "required": ["order_id", "basket_id", "total_cents"],
            "additionalProperties": False,
        },
        "annotations": {**WRITES, "destructiveHint": True},
    },
]
# ANCHOR_END: tools

PRODUCTS = {"TEA-GREEN": 450, "HONEY": 650, "MUG": 900}  # sku -> price in cents


class ToolError(Exception):
    """A tool that ran and failed: the message goes back to the model with isError: true."""


class ProtocolError(Exception):
    """A request that makes no sense: it goes back as a JSON-RPC error."""

    def __init__(self, code, message, data=None):
        super().__init__(message)
        self.code, self.message, self.data = code, message, data


# ANCHOR: store
# Who is asking. On stdio that is whoever started this process, so there is one caller; over
# Streamable HTTP it would come from the access token on this very request, and it is checked
# against the basket on every call, because a handle is a name, not a permission.
CALLER = "local-user"

# Every basket, by handle: {"owner": ..., "items": {sku: quantity}, "order_id": None or str}.
# Kept in this process's memory, so it lives as long as the process.
baskets = {}
counters = {"created": 0, "orders": 0}


def new_handle():
    # A real server would use a high-entropy, unguessable value here, such as a UUIDv4.
    # This one counts, so that the answer key is the same, byte for byte, on every run.
    counters["created"] += 1
    return f"bsk_{counters['created']}"


def open_basket(caller, args):
    """The open basket args["basket_id"] names, if the caller may use it. An unknown handle,
    someone else's basket and a closed basket are tool execution errors (isError: true) whose
    text tells the model how to recover."""
    basket_id = args.get("basket_id")
    if not isinstance(basket_id, str):
        raise ToolError("basket_id is required: pass the basket_id that basket_create returned.")
    basket = baskets.get(basket_id)
    # Another caller's basket gets the same answer as a handle that never existed, so handles
    # cannot be probed.
    if basket is None or basket["owner"] != caller:
        raise ToolError(
            f"Unknown basket_id {basket_id}. Baskets last until checkout or until the server stops;"
            " create a new one with basket_create."
        )
    if basket["order_id"] is not None:
        raise ToolError(
            f"Basket {basket_id} was checked out as {basket['order_id']} and is closed."
            " Create a new basket with basket_create."
        )
    return basket_id, basket


# ANCHOR_END: store


# ANCHOR: tools-impl
def basket_create(caller, args):
    only_known_arguments(args, [])
    basket_id = new_handle()
    baskets[basket_id] = {"owner": caller, "items": {}, "order_id": None}
    return {"basket_id": basket_id}


def basket_add(caller, args):
    only_known_arguments(args, ["basket_id", "sku", "quantity"])
    basket_id, basket = open_basket(caller, args)
    sku = args.get("sku")
    if not isinstance(sku, str) or sku not in PRODUCTS:
        raise ToolError("sku must be one of TEA-GREEN, HONEY, MUG")
    quantity = args.get("quantity")
    if not is_int(quantity) or quantity < 1:
        raise ToolError("quantity must be a whole number of at least 1")
    # Python's ints never overflow; the Rust twin's i64 does, so the total is held to its range.
    if total_cents(basket) + PRODUCTS[sku] * quantity >= 2**63:
        raise ToolError(f"quantity {quantity} is too large: the basket's total must fit in 64 bits")
    basket["items"][sku] = basket["items"].get(sku, 0) + quantity
    return view(basket_id, basket)


def basket_show(caller, args):
    only_known_arguments(args, ["basket_id"])
    basket_id, basket = open_basket(caller, args)
    return view(basket_id, basket)


def basket_checkout(caller, args):
    only_known_arguments(args, ["basket_id"])
    basket_id, basket = open_basket(caller, args)
    if not basket["items"]:
        raise ToolError(f"Basket {basket_id} is empty; add something with basket_add first.")
    counters["orders"] += 1
    basket["order_id"] = f"ord_{counters['orders']}"
    return {
        "order_id": basket["order_id"],
        "basket_id": basket_id,
        "total_cents": total_cents(basket),
    }


# ANCHOR_END: tools-impl


def total_cents(basket):
    return sum(PRODUCTS[sku] * n for sku, n in basket["items"].items())


def view(basket_id, basket):
    """What basket_add and basket_show return."""
    items = [
        {"sku": sku, "quantity": n, "price_cents": PRODUCTS[sku]}
        for sku, n in basket["items"].items()
    ]
    return {"basket_id": basket_id, "items": items, "total_cents": total_cents(basket)}


def only_known_arguments(args, known):
    """The schemas say additionalProperties: false, and the server holds itself to that."""
    for key in args:
        if key not in known:
            takes = ", ".join(known) if known else "no arguments"
            raise ToolError(f"Unknown argument {key}; this tool takes: {takes}")


def is_int(value):
    """An integer in the range of the Rust twin's i64 (Python's own ints have no limit)."""
    return type(value) is int and -(2**63) <= value < 2**63


def text_block(text):
    return {"type": "text", "text": text}


def call_tool(params):
    """tools/call. An unknown tool or a malformed call is a protocol error (-32602); a tool
    that ran and failed, including one handed a bad basket_id, is a result with isError."""
    name = params.get("name")
    if not isinstance(name, str):
        raise ProtocolError(-32602, "Invalid params: params.name must be a string")
    args = params.get("arguments", {})
    if not isinstance(args, dict):
        raise ProtocolError(-32602, "Invalid params: params.arguments must be an object")
    tools = {
        "basket_create": basket_create,
        "basket_add": basket_add,
        "basket_show": basket_show,
        "basket_checkout": basket_checkout,
    }
    if name not in tools:
        raise ProtocolError(-32602, f"Unknown tool: {name}")
    try:
        value = tools[name](CALLER, args)
    except ToolError as failure:
        return result(content=[text_block(str(failure))], isError=True)
    return result(content=[text_block(dumps(value))], structuredContent=value, isError=False)


# --- The envelope: every request is checked on its own, and every result carries serverInfo.

PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO = {"name": SERVER_NAME, "version": SERVER_VERSION}


def dumps(value):
    """Compact JSON, non-ASCII kept as is: the same bytes the Rust twin writes."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def result(**members):
    """resultType first, then the members, then _meta naming this server."""
    meta = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}
    return {"resultType": "complete", **members, "_meta": meta}


def discover(params):
    return result(
        supportedVersions=[VERSION], capabilities={"tools": {}}, ttlMs=3_600_000, cacheScope="public"
    )


def list_tools(params):
    return result(tools=TOOLS, ttlMs=300_000, cacheScope="public")


HANDLERS = {"server/discover": discover, "tools/list": list_tools, "tools/call": call_tool}


def parse(line):
    """The JSON object on this line, or the ProtocolError that refuses it."""
    try:
        message = json.loads(line)
        # A lone surrogate ("\ud800") is no character: refuse the line, as the Rust twin does.
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except ValueError:
        raise ProtocolError(-32700, "Parse error") from None
    if not isinstance(message, dict):
        raise ProtocolError(-32600, "Invalid Request: not an object")
    return message


def require_meta(params):
    """params._meta must name the protocol version and the client's capabilities, every time."""
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        raise ProtocolError(-32602, "Invalid params: params._meta is required")
    needs = "Invalid params: params._meta needs"
    if not isinstance(meta.get(PROTOCOL_VERSION), str):
        raise ProtocolError(-32602, f"{needs} a string {PROTOCOL_VERSION}")
    if not isinstance(meta.get(CLIENT_CAPABILITIES), dict):
        raise ProtocolError(-32602, f"{needs} an object {CLIENT_CAPABILITIES}")
    if meta[PROTOCOL_VERSION] != VERSION:
        mismatch = {"supported": [VERSION], "requested": meta[PROTOCOL_VERSION]}
        raise ProtocolError(-32022, "Unsupported protocol version", mismatch)


def handle(line):
    """One line in, at most one reply out. Notifications (no id) never get a reply."""
    id_ = None  # an error before the request's id is known to be good goes back with id null
    try:
        message = parse(line)
        method = message.get("method")
        if "id" not in message:
            shown = method if isinstance(method, str) else "?"
            print(f"{SERVER_NAME}: notification {shown}, no reply", file=sys.stderr)
            return None
        if not (isinstance(message["id"], str) or is_int(message["id"])):
            raise ProtocolError(-32600, "Invalid Request: bad id")
        id_ = message["id"]
        if not isinstance(method, str):
            raise ProtocolError(-32600, "Invalid Request: no method")
        if method not in HANDLERS:
            raise ProtocolError(-32601, f"Method not found: {method}")
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        require_meta(params)
        return {"jsonrpc": "2.0", "id": id_, "result": HANDLERS[method](params)}
    except ProtocolError as failure:
        error = {"code": failure.code, "message": failure.message}
        if failure.data is not None:
            error["data"] = failure.data
        return {"jsonrpc": "2.0", "id": id_, "error": error}


def stdout_closed():
    """The client closed our stdout: it has gone. Say so, and let the flush at exit write to nowhere."""
    print(f"{SERVER_NAME}: stdout closed, exiting", file=sys.stderr)
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def main():
    for raw in iter(sys.stdin.buffer.readline, b""):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:  # refused whole, never patched with U+FFFD and acted on
            reply = {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
        else:
            reply = handle(line) if line else None
        if reply is not None:
            try:
                sys.stdout.buffer.write(dumps(reply).encode("utf-8") + b"\n")
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                return stdout_closed()
    # EOF on stdin: the client has closed it. Every basket goes with the process.


if __name__ == "__main__":
    main()
