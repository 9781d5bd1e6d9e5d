# conformance-reference: the Python twin of src/*.rs on the official SDK, `mcp` 2.3.0. One server
# that shows every feature a 2026-07-28 server can offer, under the names the official conformance
# suite calls. With MCP_HTTP_ADDR unset it serves stdio; with MCP_HTTP_ADDR=127.0.0.1:PORT it serves
# Streamable HTTP at http://127.0.0.1:PORT/mcp under uvicorn.

import base64
import hashlib
import hmac
import json
import os
import signal
import sys

import anyio
import mcp_types as types
import uvicorn
from mcp.server.caching import CacheHint
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

# ANCHOR: content
# A 1x1 red PNG and 8 samples of 8 kHz silence as WAV, base64: the smallest real files of each kind.
RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"
SILENCE_WAV = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQgAAACAgICAgICAgA=="


def text(value: str) -> types.TextContent:
    return types.TextContent(type="text", text=value)


def image() -> types.ImageContent:
    return types.ImageContent(type="image", data=RED_PIXEL_PNG, mime_type="image/png")


def embedded(uri: str, value: str, mime_type: str = "text/plain") -> types.EmbeddedResource:
    return types.EmbeddedResource(type="resource",
                                  resource=types.TextResourceContents(uri=uri, mime_type=mime_type, text=value))


def done(value: str, error: bool = False) -> types.CallToolResult:
    return types.CallToolResult(content=[text(value)], is_error=error)


CONTENT = {
    "test_simple_text": lambda: [text("This is a simple text response for testing.")],
    "test_image_content": lambda: [image()],
    "test_audio_content": lambda: [types.AudioContent(type="audio", data=SILENCE_WAV, mime_type="audio/wav")],
    "test_embedded_resource": lambda: [embedded("test://embedded-resource", "This is an embedded resource content.")],
    "test_multiple_content_types": lambda: [
        text("Multiple content types test:"), image(),
        embedded("test://mixed-content-resource", '{"test":"data","value":123}', "application/json"),
    ],
}


async def with_progress(ctx) -> types.CallToolResult:
    """Progress 0, 50 and 100 of 100, 50 ms apart; the SDK sends them only if the request carried a token."""
    for step, progress in enumerate([0.0, 50.0, 100.0]):
        if step > 0:
            await anyio.sleep(0.05)
        await ctx.session.report_progress(progress, total=100.0)
    return done("Counted to 100, reporting progress on the way.")


def logging_tool() -> types.CallToolResult:
    """Logs to stderr, never to the client: notifications/message is deprecated in 2026-07-28, and a
    server MUST NOT send one for a request that did not set _meta logLevel."""
    print("conformance-reference: test_logging_tool ran", file=sys.stderr)
    return done("Done; the log line went to the server's stderr.")
# ANCHOR_END: content


# ANCHOR: capabilities
CHANNELS = {"elicitation": "elicitation", "sampling": "sampling", "roots": "roots"}


def declared(params) -> dict:
    return (params.meta or {}).get("io.modelcontextprotocol/clientCapabilities") or {}


def require(params, *channels: str) -> None:
    """-32021 naming every capability this request needs and did not declare: a server MUST NOT send
    an input request the client has not said it can serve."""
    missing = {channel: {} for channel in ("roots", "sampling", "elicitation")
               if channel in channels and channel not in declared(params)}
    if missing:
        raise MCPError(code=types.MISSING_REQUIRED_CLIENT_CAPABILITY, message="Missing required client capability",
                       data={"requiredCapabilities": missing})
# ANCHOR_END: capabilities


# ANCHOR: requests
def form(message: str, field: str, yes_no: bool = False) -> types.ElicitRequest:
    """A form with one required field for the user: a string, or a yes/no."""
    schema = {"type": "object", "properties": {field: {"type": "boolean" if yes_no else "string"}},
              "required": [field]}
    return types.ElicitRequest(params=types.ElicitRequestFormParams(message=message, requested_schema=schema))


def question(value: str, max_tokens: int) -> types.CreateMessageRequest:
    """A question for the client's model (sampling)."""
    message = types.SamplingMessage(role="user", content=text(value))
    return types.CreateMessageRequest(params=types.CreateMessageRequestParams(messages=[message],
                                                                             max_tokens=max_tokens))


def roots() -> types.ListRootsRequest:
    return types.ListRootsRequest()


def input_required(asks: dict, state: str | None = None) -> types.InputRequiredResult:
    return types.InputRequiredResult(input_requests=dict(sorted(asks.items())), request_state=state)
# ANCHOR_END: requests


# ANCHOR: answers
def answer(params, key: str):
    return (params.input_responses or {}).get(key)


def malformed(key: str, expected: str) -> MCPError:
    return MCPError(code=types.INVALID_PARAMS, message=f"inputResponses.{key}: expected {expected}")


def accepted(key: str, value, field: str):
    """The field of an accepted form, or None when the user declined or cancelled it."""
    if not isinstance(value, types.ElicitResult):
        raise malformed(key, 'an elicitation result: {"action": "accept" | "decline" | "cancel", "content"}')
    if value.action != "accept":
        return None
    if field not in (value.content or {}):
        raise malformed(key, 'an elicitation result: {"action": "accept" | "decline" | "cancel", "content"}')
    return value.content[field]


def accepted_text(key: str, value, field: str):
    found = accepted(key, value, field)
    if found is not None and not isinstance(found, str):
        raise malformed(key, f"content.{field} to be a string")
    return found


def model_text(key: str, value) -> str:
    """The text of the model's reply (a sampling result)."""
    content = getattr(value, "content", None) if isinstance(value, types.CreateMessageResult) else None
    if not isinstance(content, types.TextContent):
        raise malformed(key, "a sampling result with text content")
    return content.text


def root_uris(key: str, value) -> list[str]:
    """The URIs of the client's roots (a roots/list result)."""
    if not isinstance(value, types.ListRootsResult):
        raise malformed(key, "a roots/list result")
    return [str(root.uri) for root in value.roots]
# ANCHOR_END: answers


# ANCHOR: state
# requestState, signed: `base64url(payload) "." base64url(HMAC-SHA256(key, payload))`, no padding.
# Fixed so that the answer key is the same on every run; a real server loads a random secret key.
DEMO_KEY = b"conformance-reference demo key: not a secret"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def seal(payload: str) -> str:
    tag = hmac.new(DEMO_KEY, payload.encode(), hashlib.sha256).digest()
    return f"{b64url(payload.encode())}.{b64url(tag)}"


def unseal(token: str) -> str | None:
    """The payload, if `token` is exactly what `seal` wrote (compared whole, in constant time)."""
    encoded, _, _ = token.partition(".")
    try:
        payload = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
    except ValueError:
        return None
    return payload if hmac.compare_digest(seal(payload), token) else None


def sealed(tool: str, round_: int, name: str | None = None) -> str:
    """The signed state: which tool issued it, for which round, and what the user said so far."""
    return seal(json.dumps({"name": name, "round": round_, "tool": tool}, separators=(",", ":"), ensure_ascii=False))


def opened(tool: str, token: str) -> dict:
    """An echoed state, after checking its signature and that this tool issued it."""
    def refused(why: str) -> MCPError:
        return MCPError(code=types.INVALID_PARAMS, message=f"Invalid requestState: {why}")

    payload = unseal(token)
    if payload is None:
        raise refused("it fails verification (changed, or not issued here)")
    state = json.loads(payload)
    if state.get("tool") != tool:
        raise refused("it was issued for another tool")
    return state
# ANCHOR_END: state


def greet(params):
    require(params, "elicitation")
    value = answer(params, "user_name")
    if value is None:  # first call, or a retry without this answer: ask (again) rather than fail
        return input_required({"user_name": form("What is your name?", "name")})
    name = accepted_text("user_name", value, "name")
    return done(f"Hello, {name}!" if name is not None else "Hello, whoever you are: the user did not say.")


def ask_model(params):
    require(params, "sampling")
    value = answer(params, "capital_question")
    if value is None:
        return input_required({"capital_question": question("What is the capital of France?", 100)})
    return done(f"The model answered: {model_text('capital_question', value)}")


def list_roots(params):
    require(params, "roots")
    value = answer(params, "client_roots")
    if value is None:
        return input_required({"client_roots": roots()})
    return done(f"The client shares these roots: {', '.join(root_uris('client_roots', value))}")


def confirm(tool: str, params):
    """A yes/no form whose retry must bring back the signed state, unchanged."""
    require(params, "elicitation")
    state = opened(tool, params.request_state) if params.request_state is not None else None
    value = answer(params, "confirm")
    if state is None or value is None:
        return input_required({"confirm": form("Please confirm", "ok", yes_no=True)}, sealed(tool, 1))
    ok = accepted("confirm", value, "ok")
    if ok is None:
        return done("state-ok: the requestState checked out; the user closed the form.")
    if not isinstance(ok, bool):
        raise malformed("confirm", "content.ok to be a boolean")
    return done("state-ok: the requestState checked out and the user confirmed." if ok
                else "state-ok: the requestState checked out; the user said no.")


# ANCHOR: several
def several(tool: str, params):
    """Three requests in one round; a retry that lacks some gets asked for those alone."""
    require(params, "elicitation", "sampling", "roots")
    asks = {"client_roots": roots(), "greeting": question("Generate a greeting", 50),
            "user_name": form("What is your name?", "name")}
    if params.request_state is None:
        return input_required(asks, sealed(tool, 1))
    opened(tool, params.request_state)
    missing = {key: request for key, request in asks.items() if answer(params, key) is None}
    if missing:
        return input_required(missing, params.request_state)
    name = accepted_text("user_name", answer(params, "user_name"), "name") or "friend"
    greeting = model_text("greeting", answer(params, "greeting"))
    count = len(root_uris("client_roots", answer(params, "client_roots")))
    return done(f"{greeting} {name}, your client shares {count} root(s).")
# ANCHOR_END: several


def two_rounds(tool: str, params):
    """Two forms, one after the other; the state carries the first answer into the second round."""
    require(params, "elicitation")
    first = {"step1": form("Step 1: What is your name?", "name")}
    second = {"step2": form("Step 2: What is your favorite color?", "color")}
    if params.request_state is None:
        return input_required(first, sealed(tool, 1))
    state = opened(tool, params.request_state)
    if state["round"] == 1:
        value = answer(params, "step1")
        if value is None:
            return input_required(first, params.request_state)
        name = accepted_text("step1", value, "name") or "someone"
        return input_required(second, sealed(tool, 2, name))
    name = state["name"] or "someone"
    value = answer(params, "step2")
    if value is None:
        return input_required(second, params.request_state)
    color = accepted_text("step2", value, "color")
    return done(f"{name}'s favorite color is {color}." if color is not None
                else f"{name} kept their favorite color to themselves.")


def whatever_declared(params):
    """Asks through every channel this request declared, and only those."""
    offered = [("elicitation", "user_name", form("What is your name?", "name")),
               ("sampling", "suggestion", question("Suggest a name for a cat", 20)),
               ("roots", "client_roots", roots())]
    asks = {key: request for channel, key, request in offered if channel in declared(params)}
    if not asks:
        require(params, "elicitation")
    answered = [key for key in asks if answer(params, key) is not None]
    if not answered:
        return input_required(asks)
    return done(f"Answered: {', '.join(answered)}")


def context_prompt(params):
    """prompts/get can answer input_required too: this prompt asks the user for its context first."""
    require(params, "elicitation")
    value = answer(params, "user_context")
    if value is None:
        return input_required({"user_context": form("What context should the prompt use?", "context")})
    context = accepted_text("user_context", value, "context") or "none given"
    message = types.PromptMessage(role="user", content=text(f"Answer with this context in mind: {context}"))
    return types.GetPromptResult(description="A prompt built from context the user gave", messages=[message])


# ANCHOR: tools
TOOLS = {
    "test_simple_text": "Returns one text block.",
    "test_image_content": "Returns one image block: a 1x1 red PNG.",
    "test_audio_content": "Returns one audio block: a short WAV of silence.",
    "test_embedded_resource": "Returns one embedded text resource.",
    "test_multiple_content_types": "Returns text, an image and an embedded JSON resource, in that order.",
    "test_error_handling": "Always fails, with a result the model can read (isError), not a protocol error.",
    "test_tool_with_progress": "Reports progress 0, 50 and 100 of 100 when the request carries a progressToken.",
    "test_logging_tool": "Logs a line to the server's stderr; it sends the client no log messages.",
    "test_missing_capability": "Asks the client's model a question; needs the sampling capability.",
    "test_streaming_elicitation": "Asks the user for a name, through input_required, never a request on the stream.",
    "test_input_required_result_elicitation": "Asks the user for a name, then greets them.",
    "test_input_required_result_sampling": "Asks the client's model a question, then quotes its answer.",
    "test_input_required_result_list_roots": "Asks the client for its roots, then lists them.",
    "test_input_required_result_request_state": "Asks for a confirmation and checks the signed requestState.",
    "test_input_required_result_multiple_inputs": "Asks for a name, a model's greeting and the roots at once.",
    "test_input_required_result_multi_round": "Asks for a name, then a favorite color, in two rounds.",
    "test_input_required_result_tampered_state": "Like the request_state tool: a changed requestState is refused.",
    "test_input_required_result_capabilities": "Asks only through the capabilities the request declared.",
}
NO_ARGUMENTS = {"type": "object", "additionalProperties": False}


async def list_tools(ctx, params) -> types.ListToolsResult:
    tools = [types.Tool(name=name, description=about, input_schema=NO_ARGUMENTS) for name, about in TOOLS.items()]
    return types.ListToolsResult(tools=tools)


async def call_tool(ctx, params: types.CallToolRequestParams):
    name = params.name
    if name not in TOOLS:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}")
    if params.arguments:  # the schema allows none: the tool's error, which the model can act on
        return done(f"{name} takes no arguments; leave out: {', '.join(sorted(params.arguments))}", error=True)
    if name in CONTENT:
        return types.CallToolResult(content=CONTENT[name]())
    routes = {
        "test_error_handling": lambda: done("This tool intentionally returns an error for testing", error=True),
        "test_logging_tool": logging_tool,
        "test_missing_capability": lambda: ask_model(params),
        "test_input_required_result_sampling": lambda: ask_model(params),
        "test_streaming_elicitation": lambda: greet(params),
        "test_input_required_result_elicitation": lambda: greet(params),
        "test_input_required_result_list_roots": lambda: list_roots(params),
        "test_input_required_result_request_state": lambda: confirm(name, params),
        "test_input_required_result_tampered_state": lambda: confirm(name, params),
        "test_input_required_result_multiple_inputs": lambda: several(name, params),
        "test_input_required_result_multi_round": lambda: two_rounds(name, params),
        "test_input_required_result_capabilities": lambda: whatever_declared(params),
    }
    if name == "test_tool_with_progress":
        return await with_progress(ctx)
    return routes[name]()
# ANCHOR_END: tools


# ANCHOR: resources
TEMPLATE = "test://template/{id}/data"


async def list_resources(ctx, params) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=[
        types.Resource(uri="test://static-text", name="static-text", description="A short text document",
                       mime_type="text/plain"),
        types.Resource(uri="test://static-binary", name="static-binary", description="A 1x1 red PNG image",
                       mime_type="image/png"),
    ])


async def list_templates(ctx, params) -> types.ListResourceTemplatesResult:
    template = types.ResourceTemplate(uri_template=TEMPLATE, name="template-data",
                                      description="A JSON document for any id", mime_type="application/json")
    return types.ListResourceTemplatesResult(resource_templates=[template])


def template_id(uri: str) -> str | None:
    """The {id} of test://template/{id}/data: one path segment, not empty."""
    prefix, suffix = "test://template/", "/data"
    if not (uri.startswith(prefix) and uri.endswith(suffix)) or len(uri) < len(prefix) + len(suffix):
        return None
    found = uri[len(prefix):-len(suffix)]
    return found if found and "/" not in found else None


async def read_resource(ctx, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    """One document by URI. An unknown URI is -32602 with the URI in data, never an empty contents list."""
    uri = params.uri
    if uri == "test://static-text":
        contents = types.TextResourceContents(uri=uri, mime_type="text/plain",
                                              text="This is the content of the static text resource.")
    elif uri == "test://static-binary":
        contents = types.BlobResourceContents(uri=uri, mime_type="image/png", blob=RED_PIXEL_PNG)
    elif (found := template_id(uri)) is not None:
        data = {"data": f"Data for ID: {found}", "id": found, "templateTest": True}
        contents = types.TextResourceContents(uri=uri, mime_type="application/json",
                                              text=json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    else:
        raise MCPError(code=types.INVALID_PARAMS, message="Resource not found", data={"uri": uri})
    return types.ReadResourceResult(contents=[contents])
# ANCHOR_END: resources


# ANCHOR: prompts
def required(name: str, about: str) -> types.PromptArgument:
    return types.PromptArgument(name=name, description=about, required=True)


PROMPTS = [
    types.Prompt(name="test_simple_prompt", description="A prompt with no arguments"),
    types.Prompt(name="test_prompt_with_arguments", description="A prompt that quotes its two arguments",
                 arguments=[required("arg1", "First test argument"), required("arg2", "Second test argument")]),
    types.Prompt(name="test_prompt_with_embedded_resource", description="A prompt that embeds a resource",
                 arguments=[required("resourceUri", "URI of the resource to embed")]),
    types.Prompt(name="test_prompt_with_image", description="A prompt that shows an image"),
    types.Prompt(name="test_input_required_result_prompt", description="A prompt that first asks the user for context"),
]


async def list_prompts(ctx, params) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=PROMPTS)


def argument(params, name: str) -> str:
    value = (params.arguments or {}).get(name)
    if not isinstance(value, str):
        raise MCPError(code=types.INVALID_PARAMS, message=f"Missing required argument: {name}")
    return value


def user(content) -> types.PromptMessage:
    return types.PromptMessage(role="user", content=content)


async def get_prompt(ctx, params: types.GetPromptRequestParams):
    name = params.name
    if name == "test_input_required_result_prompt":
        return context_prompt(params)
    if name == "test_simple_prompt":
        messages = [user(text("This is a simple prompt for testing."))]
    elif name == "test_prompt_with_arguments":
        arg1, arg2 = argument(params, "arg1"), argument(params, "arg2")
        messages = [user(text(f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"))]
    elif name == "test_prompt_with_embedded_resource":
        uri = argument(params, "resourceUri")
        messages = [user(embedded(uri, "Embedded resource content for testing.")),
                    user(text("Please process the embedded resource above."))]
    elif name == "test_prompt_with_image":
        messages = [user(image()), user(text("Please analyze the image above."))]
    else:
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {name}")
    return types.GetPromptResult(messages=messages)
# ANCHOR_END: prompts


# ANCHOR: completion
async def complete(ctx, params: types.CompleteRequestParams) -> types.CompleteResult:
    """Suggestions for what has been typed so far: the prompt's two arguments, or the template's id."""
    ref, argument_name = params.ref, params.argument.name
    if isinstance(ref, types.PromptReference) and ref.name == "test_prompt_with_arguments" \
            and argument_name in ("arg1", "arg2"):
        candidates = ["paris", "park", "party", "test", "testing"]
    elif isinstance(ref, types.ResourceTemplateReference) and ref.uri == TEMPLATE and argument_name == "id":
        candidates = ["123", "456", "789"]
    else:
        raise MCPError(code=types.INVALID_PARAMS, message="Nothing to complete for this reference and argument")
    values = [value for value in candidates if value.startswith(params.argument.value)]
    return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))
# ANCHOR_END: completion


# ANCHOR: server
# Lists never change while the server runs: an hour. A read: a minute. Nothing depends on who asks.
LIST = CacheHint(ttl_ms=3_600_000, scope="public")
server = Server(
    "conformance-reference", version="0.1.0",
    cache_hints={"tools/list": LIST, "prompts/list": LIST, "resources/list": LIST,
                 "resources/templates/list": LIST, "resources/read": CacheHint(ttl_ms=60_000, scope="public")},
    on_list_tools=list_tools, on_call_tool=call_tool,
    on_list_resources=list_resources, on_list_resource_templates=list_templates, on_read_resource=read_resource,
    on_list_prompts=list_prompts, on_get_prompt=get_prompt, on_completion=complete,
)
# ANCHOR_END: server

# ANCHOR: key-order
# The SDK writes a result's keys in its own order, rmcp in another; JSON gives key order no meaning, but the
# twins share one answer key, compared byte for byte. This middleware reorders each result the way rmcp writes
# it; it changes no key and no value.
LISTS = {"tools/list": "tools", "resources/list": "resources", "resources/templates/list": "resourceTemplates",
         "prompts/list": "prompts"}
TOP = {"server/discover": ("resultType", "supportedVersions", "capabilities", "ttlMs", "cacheScope", "_meta"),
       "resources/read": ("resultType", "ttlMs", "cacheScope", "contents", "_meta")}
BODY = ("resultType", "content", "isError", "description", "messages", "completion", "inputRequests",
        "requestState", "_meta")
# Inside a result: rmcp writes each struct's fields in declaration order, which this one ranking agrees with.
RANK = {key: rank for rank, key in enumerate((
    "type", "role", "uri", "uriTemplate", "name", "description", "data", "mimeType", "text", "blob", "resource",
    "content", "arguments", "required", "inputSchema", "values", "total", "hasMore", "completions", "prompts",
    "resources", "tools", "subscribe", "listChanged"))}


def sorted_deep(value):
    """serde_json writes an object it holds as a Value with its keys sorted."""
    if isinstance(value, dict):
        return {key: sorted_deep(value[key]) for key in sorted(value)}
    return [sorted_deep(item) for item in value] if isinstance(value, list) else value


def ranked(value):
    if isinstance(value, list):
        return [ranked(item) for item in value]
    if not isinstance(value, dict):
        return value
    keys = sorted(value, key=lambda key: RANK.get(key, len(RANK)))
    return {key: sorted_deep(value[key]) if key in ("inputSchema", "params") else ranked(value[key]) for key in keys}


def top_order(method: str) -> tuple[str, ...]:
    if method in LISTS:
        return ("resultType", "_meta", "ttlMs", "cacheScope", LISTS[method])
    return TOP.get(method, BODY)


async def rmcp_key_order(ctx, call_next):
    result = await call_next(ctx)
    if not isinstance(result, dict):
        return result
    order = top_order(ctx.method)
    keys = [key for key in order if key in result] + [key for key in result if key not in order]
    return {key: result[key] if key == "_meta" else ranked(result[key]) for key in keys}


server.middleware.append(rmcp_key_order)
# ANCHOR_END: key-order


# ANCHOR: main
async def serve_stdio() -> None:
    async with stdio_server() as (read, write):  # until stdin reaches EOF
        await server.run(read, write, server.create_initialization_options())


# ANCHOR: version-guard
VERSION_META = "io.modelcontextprotocol/protocolVersion"


class RefuseVersionMismatch:
    """The spec: the MCP-Protocol-Version header MUST equal the body's protocolVersion, or the server answers 400
    with -32020. mcp 2.3.0 picks its legacy or its 2026-07-28 handling by the header alone, so a 2026-07-28 body
    under a legacy header would be served the legacy way. This ASGI layer checks the pair first."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST":
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:  # read the whole body, then hand it on unchanged
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        refusal = mismatch(dict(scope["headers"]).get(b"mcp-protocol-version"), body)
        if refusal is not None:
            return await answer_400(send, refusal)
        handed = [{"type": "http.request", "body": body, "more_body": False}]

        async def replay():  # the body once, then whatever the connection says next (a disconnect)
            return handed.pop() if handed else await receive()
        await self.app(scope, replay, send)


def mismatch(header: bytes | None, body: bytes) -> dict | None:
    """The -32020 reply when the body names a protocol version the header does not (a missing header too)."""
    try:
        message = json.loads(body)
        version = message["params"]["_meta"][VERSION_META]
    except (ValueError, TypeError, KeyError):
        return None  # no per-request version: the SDK judges the rest
    sent = header.decode("latin-1") if header is not None else None
    if sent == version:
        return None
    text = f"MCP-Protocol-Version header {sent!r} does not match the body's protocol version {version!r}"
    return {"jsonrpc": "2.0", "id": message.get("id"), "error": {"code": -32020, "message": text}}


async def answer_400(send, reply: dict) -> None:
    payload = json.dumps(reply, separators=(",", ":")).encode()
    await send({"type": "http.response.start", "status": 400,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})
# ANCHOR_END: version-guard


def serve_http(address: str) -> None:
    host, _, port = address.rpartition(":")
    # Not json_response, in which mode the SDK drops request-scoped notifications (progress). Without it a
    # reply is still one JSON body unless the handler sends a notification first; then it becomes an SSE
    # stream that carries the progress before the result, as rmcp's does.
    app = server.streamable_http_app(stateless_http=True, host=host)
    app.add_middleware(RefuseVersionMismatch)  # outermost: before the SDK routes by the header
    print(f"conformance-reference: listening on http://{address}/mcp", file=sys.stderr)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # exit 0 after uvicorn's graceful shutdown
    uvicorn.run(app, host=host, port=int(port), log_level="warning", access_log=False)


if __name__ == "__main__":
    if "MCP_HTTP_ADDR" in os.environ:
        serve_http(os.environ["MCP_HTTP_ADDR"])
    else:
        try:
            anyio.run(serve_stdio)
        except* BrokenPipeError:  # stdout closed: the client has gone, which is no error here
            print("conformance-reference: the client has gone (broken pipe)", file=sys.stderr)
# ANCHOR_END: main
