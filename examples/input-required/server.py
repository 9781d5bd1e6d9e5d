# input-required: the Python twin of src/*.rs on the official SDK, `mcp` 2.3.0 (its low-level
# Server). One tool, book_table, that needs an answer from the user: the first call returns
# `input_required` with a form and a sealed requestState, the retry carries the answer back.
# The sealing is the standard library's hmac, hashlib and base64, byte for byte what the Rust
# twin's hmac, sha2 and base64 crates write, so both twins answer every line alike.

import base64
import hashlib
import hmac
import json
import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

# ANCHOR: seal
# A fixed key keeps the answer key the same on every run. A real server loads a random key of
# at least 32 bytes from its secret store, shares it between its replicas and rotates it.
DEMO_KEY = b"input-required demo key: not a secret, never reuse it"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def seal(payload: str) -> str:
    """`base64url(payload) "." base64url(HMAC-SHA256(key, payload))`, no padding."""
    tag = hmac.new(DEMO_KEY, payload.encode(), hashlib.sha256).digest()
    return f"{b64url(payload.encode())}.{b64url(tag)}"


def open_sealed(token: str) -> str | None:
    """The payload, if `token` is exactly what `seal` made of it; None for anything else.
    Python's decoder forgives padding, stray characters and stray low bits, so the token is
    sealed again and compared whole, in constant time: only the one form `seal` writes passes."""
    encoded, _, _ = token.partition(".")
    try:
        payload = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
    except ValueError:  # binascii.Error and UnicodeDecodeError are both ValueErrors
        return None
    return payload if hmac.compare_digest(seal(payload), token) else None


def digest(salient: str) -> str:
    """SHA-256 of the bytes that identify a request, base64url: what the state is bound to."""
    return b64url(hashlib.sha256(salient.encode()).digest())
# ANCHOR_END: seal


# ANCHOR: tool
SLOTS = ["18:00", "19:00", "20:30", "21:30"]
ASK = "booking_name"  # the key of the one input request; the retry's inputResponses use it too

BOOK_TABLE = types.Tool(
    name="book_table",
    description="Books a table at the example restaurant. Asks the user, through the client, for the "
    "name to book under and to confirm the time: 19:00 is always full, so a request for 19:00 is offered 20:30.",
    input_schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "additionalProperties": False,
        "properties": {
            "date": {"description": "The day, as YYYY-MM-DD", "type": "string"},
            # "uint32" is what schemars writes for Rust's u32: an annotation, not a check.
            "party_size": {"description": "How many people, 1 to 12", "format": "uint32",
                           "maximum": 12, "minimum": 1, "type": "integer"},
            "time": {"description": "18:00, 19:00, 20:30 or 21:30", "type": "string"},
        },
        "required": ["date", "time", "party_size"],
        "type": "object",
    },
)


def book_table(args: dict, params: types.CallToolRequestParams) -> types.CallToolResult | types.InputRequiredResult:
    if args.get("time") not in SLOTS or args.get("party_size") not in range(1, 13) or "date" not in args:
        return text_result("We seat 1 to 12 people at 18:00, 19:00, 20:30 or 21:30: pick one of those.", error=True)
    request_digest = digest(salient(args))
    if params.request_state is None:  # first round: nothing was offered yet
        return ask(params, args, offer_for(args["time"]), request_digest)
    offer = open_offer(params.request_state, request_digest)
    answer = (params.input_responses or {}).get(ASK)
    if answer is None:  # the retry lacks the answer: ask again rather than fail (a SHOULD of the spec)
        return ask(params, args, offer["time"], request_digest)
    return finish(args, offer["time"], answer)
# ANCHOR_END: tool


# ANCHOR: ask
def ask(params, args: dict, time: str, request_digest: str) -> types.InputRequiredResult:
    """The first reply: a form for the user and the sealed offer, or -32021 if this request did not
    declare elicitation (an input request the client cannot serve MUST NOT be sent)."""
    capabilities = (params.meta or {}).get("io.modelcontextprotocol/clientCapabilities") or {}
    if "elicitation" not in capabilities:
        raise MCPError(code=types.MISSING_REQUIRED_CLIENT_CAPABILITY, message="Missing required client capability",
                       data={"requiredCapabilities": {"elicitation": {}}})
    date, size = args["date"], args["party_size"]
    if time == args["time"]:
        message = f"A table for {size} is free on {date} at {time}. Whose name should it be booked under?"
    else:
        message = (f"{args['time']} is full on {date}; a table for {size} is free at {time}. "
                   "To book it, give the name to book under.")
    form = types.ElicitRequestFormParams(message=message, requested_schema={
        "type": "object",
        "properties": {"name": {"type": "string", "title": "Name for the booking", "minLength": 1}},
        "required": ["name"],
    })
    offer = json.dumps({"request": "tools/call", "digest": request_digest, "time": time}, separators=(",", ":"))
    return types.InputRequiredResult(input_requests={ASK: types.ElicitRequest(params=form)}, request_state=seal(offer))
# ANCHOR_END: ask


# ANCHOR: check
def open_offer(token: str, request_digest: str) -> dict:
    """The offer inside an echoed requestState, after checking its tag and that it was issued for
    this very request. The client holds the state, so it is attacker-controlled input."""
    def refused(why: str) -> MCPError:
        return MCPError(code=types.INVALID_PARAMS, message=f"Invalid requestState: {why}")

    payload = open_sealed(token)
    if payload is None:
        raise refused("it fails verification (changed, or not issued by this server)")
    offer = json.loads(payload)  # the tag checked out, so these are bytes this server wrote
    if offer["request"] != "tools/call" or offer["digest"] != request_digest:
        raise refused("it was issued for a different request; resend the original name and arguments")
    return offer


def salient(args: dict) -> str:
    """The bytes the state is bound to: the tool's name and its arguments, in the order the Rust
    twin's structs declare them, whatever order the client wrote them in."""
    arguments = {"date": args["date"], "time": args["time"], "party_size": args["party_size"]}
    return json.dumps({"name": "book_table", "arguments": arguments}, separators=(",", ":"), ensure_ascii=False)
# ANCHOR_END: check


# ANCHOR: finish
def finish(args: dict, time: str, answer) -> types.CallToolResult:
    """The final result, from the user's answer to the form."""
    malformed = MCPError(code=types.INVALID_PARAMS, message=f"inputResponses.{ASK}: expected an ElicitResult; "
                         "accept needs content.name, a non-empty string")
    if not isinstance(answer, types.ElicitResult):
        raise malformed
    if answer.action == "accept":
        name = (answer.content or {}).get("name")
        if not isinstance(name, str) or not name:
            raise malformed
        return text_result(f"Booked: a table for {args['party_size']} on {args['date']} at {time}, "
                           f"under the name {name}.")
    if answer.action == "decline":
        return text_result(f"Nothing booked: the user declined the table at {time} on {args['date']}.")
    return text_result(f"Nothing booked: the user closed the form for {time} on {args['date']}.")


def offer_for(time: str) -> str:
    """Made-up availability: 19:00 is always full and the next free table is at 20:30."""
    return "20:30" if time == "19:00" else time


def text_result(text: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], is_error=error)
# ANCHOR_END: finish


# ANCHOR: handlers
async def list_tools(ctx, params) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[BOOK_TABLE], ttl_ms=0, cache_scope="public")


async def call_tool(ctx, params: types.CallToolRequestParams):
    if params.name != BOOK_TABLE.name:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {params.name}")
    return book_table(params.arguments or {}, params)


server = Server("input-required", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)
# ANCHOR_END: handlers


# ANCHOR: key-order
# The SDK writes a result's keys in its own order, rmcp in another; JSON gives key order no meaning,
# but the twins share one answer key, compared byte for byte. This middleware reorders each result
# the way rmcp writes it; it changes no key and no value.
RMCP_ORDER = {
    "server/discover": ("resultType", "supportedVersions", "capabilities", "ttlMs", "cacheScope", "_meta"),
    "tools/list": ("resultType", "_meta", "ttlMs", "cacheScope", "tools"),
    "tools/call": ("resultType", "content", "isError", "inputRequests", "requestState", "_meta"),
}


def ordered(item: dict, keys: tuple[str, ...]) -> dict:
    return {key: item[key] for key in keys if key in item} | {k: v for k, v in item.items() if k not in keys}


def sorted_deep(value):
    """serde_json writes an object it holds as a Value with its keys sorted."""
    if isinstance(value, dict):
        return {key: sorted_deep(value[key]) for key in sorted(value)}
    return [sorted_deep(item) for item in value] if isinstance(value, list) else value


async def rmcp_key_order(ctx, call_next):
    result = await call_next(ctx)
    if ctx.method not in RMCP_ORDER or not isinstance(result, dict):
        return result
    result = ordered(result, RMCP_ORDER[ctx.method])
    for tool in result.get("tools", []):
        tool["inputSchema"] = sorted_deep(tool["inputSchema"])
    if "tools" in result:
        result["tools"] = [ordered(tool, ("name", "description", "inputSchema")) for tool in result["tools"]]
    if "content" in result:
        result["content"] = [ordered(block, ("type", "text")) for block in result["content"]]
    if "inputRequests" in result:
        result["inputRequests"] = {key: {"method": request["method"], "params": sorted_deep(request["params"])}
                                   for key, request in result["inputRequests"].items()}
    return result


server.middleware.append(rmcp_key_order)
# ANCHOR_END: key-order


# ANCHOR: main
async def serve_stdio() -> None:
    async with stdio_server() as (read, write):  # until stdin reaches EOF
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    try:
        anyio.run(serve_stdio)
    except* BrokenPipeError:  # stdout closed: the client has gone, which is no error here
        print("input-required: the client has gone (broken pipe)", file=sys.stderr)
# ANCHOR_END: main
