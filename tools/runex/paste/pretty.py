"""A message pretty-printed for a page: 2-space indent, small objects on one line, keys, numbers and strings exactly
as written on the wire (1.0 stays 1.0, key order and duplicate keys as sent, a lone surrogate as its escape), and a
`_meta` that repeats the first one of its file shown as `{…}`."""

from __future__ import annotations

import json
import re

class _Number(str):
    """A JSON number's text as written on the wire (1.0 stays 1.0, 1e3 stays 1e3)."""


class _Object(list):
    """A JSON object as its (key, value) pairs in wire order; duplicate keys stay as sent."""


def parse_keep_text(text: str):
    return json.loads(text, object_pairs_hook=_Object, parse_int=_Number, parse_float=_Number,
                      parse_constant=_Number)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _string(value: str) -> str:
    # A lone surrogate ("\ud800" on the wire) cannot be written as a character to a UTF-8 page: keep its escape.
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


INLINE_WIDTH = 40  # a small object or array that fits in this many columns (indent included) stays on one line


def _inline(value) -> str:
    """One line, with a space after each comma and colon: how a reader writes a small object by hand."""
    if isinstance(value, _Object):
        return "{" + ", ".join(f"{_string(k)}: {_inline(v)}" for k, v in value) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return pretty_value(value)


def pretty_value(value, indent: str = "", key_width: int = 0) -> str:
    """2-space indent; an object or array short enough for the narrow column stays on one line (`"arguments":
    {"a": 2, "b": 3}`), so the lines that differ between exchanges are not pushed below the cut."""
    inner = indent + "  "
    if isinstance(value, (_Number, _Elided)):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (_Object, list)) and value:
        flat = _inline(value)
        if len(indent) + key_width + len(flat) <= INLINE_WIDTH:
            return flat
    if isinstance(value, _Object):
        if not value:
            return "{}"
        return "{\n" + ",\n".join(f"{inner}{_string(k)}: {pretty_value(v, inner, len(_string(k)) + 2)}"
                                   for k, v in value) + f"\n{indent}}}"
    if isinstance(value, list):
        if not value:
            return "[]"
        return "[\n" + ",\n".join(inner + pretty_value(v, inner) for v in value) + f"\n{indent}]"
    if value is True:
        return "true"
    if value is False:
        return "false"
    return "null"


class _Elided(str):
    """A value left out of the pretty form (the raw line under it has it in full)."""


META_HOLDER = {"transcript": "params", "answer key": "result"}  # whose _meta repeats: a request's, a reply's


def _body(message, holder: str):
    """`params` of a request or `result` of a reply, read with `parse_keep_text`, or None."""
    if not isinstance(message, _Object):
        return None
    body = next((v for k, v in message if k == holder), None)
    return body if isinstance(body, _Object) else None


def meta_of(message, holder: str):
    body = _body(message, holder)
    return None if body is None else next((v for k, v in body if k == "_meta"), None)


def pretty(text: str, elide_meta: str | None = None) -> str | None:
    """The message pretty-printed, or None when the line is not JSON. With `elide_meta` ("params" or "result"),
    that member's `_meta` shows as `{…}`: every request repeats the same eight lines of `params._meta` and every
    reply the same `serverInfo`, which would bury the lines that differ."""
    try:
        message = parse_keep_text(text)
    except ValueError:
        return None
    body = _body(message, elide_meta) if elide_meta else None
    if body is not None:
        body[:] = [(k, _Elided("{…}") if k == "_meta" else v) for k, v in body]
    return pretty_value(message)
