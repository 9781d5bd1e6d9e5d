"""The headers a conforming Streamable HTTP client derives from each message body, and how a value is written.

Sources (the specification's basic/transports/streamable-http.mdx, revision 2026-07-28):
- every POST carries `MCP-Protocol-Version` (the spec leaves notification POSTs' headers undefined; this client
  sends the revision it speaks) equal to the body's `_meta` protocol version, `Mcp-Method` equal to
  `method`, and `Mcp-Name` equal to `params.name` (tools/call, prompts/get) or `params.uri` (resources/read):
  §"Standard MCP Request Headers";
- a tool parameter marked `"x-mcp-header": "Region"` in the tool's inputSchema is mirrored as `Mcp-Param-Region`
  when the call gives it a value (left out for null or absent): §"Custom Headers from Tool Parameters";
- a string is sent as-is; an integer in decimal; a boolean as `true`/`false`. A value with non-ASCII or control
  characters or leading/trailing whitespace, or one that itself looks like `=?base64?...?=`, is sent as
  `=?base64?{Base64 of its UTF-8}?=`; the same for `Mcp-Name`: §"Value Encoding";
- the client sends `Accept: application/json, text/event-stream` and `Content-Type: application/json`.
"""

from __future__ import annotations

import base64

from .protocol import PROTOCOL_VERSION, PROTOCOL_VERSION_KEY

ACCEPT = "application/json, text/event-stream"
NAME_FROM = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


def encode_value(value: object) -> str | None:
    """The header form of a parameter value, or None when no header is sent (null, or a type headers never carry)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if not isinstance(value, str):
        return None
    plain = (value.isascii() and value.isprintable() and value == value.strip()
             and not (value.startswith("=?base64?") and value.endswith("?=")))
    if plain:
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8", "surrogatepass")).decode("ascii") + "?="


def header_params(tools_list_result: object) -> dict[str, dict[str, str]]:
    """tool name -> {argument name: header suffix}, from a tools/list result: the top-level properties of each
    inputSchema that carry `x-mcp-header`."""
    found: dict[str, dict[str, str]] = {}
    tools = tools_list_result.get("tools") if isinstance(tools_list_result, dict) else None
    for tool in tools if isinstance(tools, list) else []:
        schema = tool.get("inputSchema") if isinstance(tool, dict) else None
        properties = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(properties, dict) or not isinstance(tool.get("name"), str):
            continue
        marked = {arg: spec["x-mcp-header"] for arg, spec in properties.items()
                  if isinstance(spec, dict) and isinstance(spec.get("x-mcp-header"), str)}
        if marked:
            found[tool["name"]] = marked
    return found


def derive(message: object, params_by_tool: dict[str, dict[str, str]]) -> list[tuple[str, str]]:
    """The headers for one POST of `message`, in the order they are sent."""
    headers = [("Accept", ACCEPT), ("Content-Type", "application/json")]
    if not isinstance(message, dict):
        return headers
    method = message.get("method")
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
    # A body without a version (a notification has no _meta) still travels as the revision the client speaks: the
    # header is on every POST, and the SDKs route a POST without it to their pre-2026 transport.
    version = meta.get(PROTOCOL_VERSION_KEY)
    headers.append(("MCP-Protocol-Version", version if isinstance(version, str) else PROTOCOL_VERSION))
    if isinstance(method, str):
        headers.append(("Mcp-Method", method))
    name = encode_value(params.get(NAME_FROM[method])) if method in NAME_FROM else None
    if name is not None:
        headers.append(("Mcp-Name", name))
    if method == "tools/call":
        arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        for arg, suffix in params_by_tool.get(params.get("name"), {}).items():
            value = encode_value(arguments.get(arg))
            if value is not None:
                headers.append((f"Mcp-Param-{suffix}", value))
    return headers


def apply_override(headers: list[tuple[str, str]], set_headers: dict[str, str],
                   drop: tuple[str, ...]) -> list[tuple[str, str]]:
    """`headers` with `drop` removed and `set_headers` replacing (or adding) by case-insensitive name."""
    dropped = {name.lower() for name in drop}
    replacing = {name.lower(): (name, value) for name, value in set_headers.items()}
    kept = [replacing.pop(k.lower(), (k, v)) for k, v in headers if k.lower() not in dropped]
    return kept + list(replacing.values())
