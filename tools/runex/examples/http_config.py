"""example.toml's Streamable HTTP keys: `http`, `[[http_override]]`, `http_headers`, `http_get` and `http_env` (run/http_stage.py
reads them). Each parser takes the parsed table and `at`, model.py's locator of keys, for errors that name
the line to change."""

from __future__ import annotations

import re
from dataclasses import dataclass

_OVERRIDE_KEYS = {"line", "headers", "drop", "reason", "origin_allowed"}
# RFC 9110 5.1 and 5.5: a field name is a token; a value never holds CR, LF, NUL or other controls but HTAB. MCP
# sends a non-ASCII value base64-encoded (streamable-http.mdx, "Value Encoding"), so a value here is ASCII.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_VALUE = re.compile(r"[\t\x20-\x7e]*")


@dataclass(frozen=True)
class HttpOverride:
    """[[http_override]]: over HTTP, transcript line `line` is sent with headers set (or added) and headers left
    out, on purpose, for `reason`; its response is recorded in the http file instead of the answer key."""

    line: int
    set_headers: dict[str, str]
    drop: tuple[str, ...]
    reason: str
    toml_line: int | None = None  # where its [[http_override]] table starts in example.toml
    origin_allowed: bool = False  # its Origin is one the server is configured to accept: it must be served



def http(data: dict, at, known: tuple[str, ...]) -> bool | tuple[str, ...]:
    """`http`: true, or the implementations (drawn from `known`, model.py's names) that also serve HTTP."""
    http = data.get("http", False)
    if isinstance(http, bool):
        return http
    if isinstance(http, list) and http and all(n in known for n in http) and len(set(http)) == len(http):
        return tuple(http)
    raise at.error(f"http is true (every implementation also serves Streamable HTTP) or a list drawn from "
                   f"{', '.join(known)}; got {http!r}", at.key("http"))


def overrides(data: dict, at) -> tuple[HttpOverride, ...]:
    entries = data.get("http_override", [])
    if entries and not data.get("http"):
        raise at.error("[[http_override]] needs http = true (or a list of implementations): nothing is sent over "
                       "HTTP", at.table(0, "http_override"))
    found: list[HttpOverride] = []
    for index, entry in enumerate(entries if isinstance(entries, list) else [entries]):
        line = at.table(index, "http_override")
        if not isinstance(entry, dict) or not {"line", "reason"} <= set(entry) or set(entry) - _OVERRIDE_KEYS:
            raise at.error("each [[http_override]] has line, reason, and headers (a table of header = value) "
                           "and/or drop (a list of header names)", line)
        headers, drop = entry.get("headers", {}), entry.get("drop", [])
        if not _is_int(entry["line"]) or entry["line"] < 1 or any(o.line == entry["line"] for o in found):
            raise at.error(f"http_override line must be a positive integer, once per line; got {entry['line']!r}",
                           line)
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()) \
                or not isinstance(drop, list) or not all(isinstance(d, str) for d in drop) or not (headers or drop):
            raise at.error("http_override headers must map header names to strings and drop list header names; "
                           "give at least one", line)
        if not isinstance(entry["reason"], str) or not entry["reason"].strip():
            raise at.error("http_override reason must say, in words, what the deliberate case shows", line)
        origin_allowed = entry.get("origin_allowed", False)
        if not isinstance(origin_allowed, bool) or (origin_allowed and not any(h.lower() == "origin" for h in headers)):
            raise at.error("http_override origin_allowed = true says the Origin this override sets is one the server "
                           "accepts; it needs an Origin in headers", line)
        _legal(headers, at, line, "http_override headers")
        _legal(dict.fromkeys(drop, ""), at, line, "http_override drop")
        found.append(HttpOverride(entry["line"], dict(headers), tuple(drop), entry["reason"], line, origin_allowed))
    return tuple(found)


def headers(data: dict, at) -> dict[str, str]:
    headers = data.get("http_headers", {})
    if headers and not data.get("http"):
        raise at.error("http_headers needs http = true: nothing is sent over HTTP", at.key("http_headers"))
    if not isinstance(headers, dict) or not all(isinstance(k, str) and isinstance(v, str) and k.strip() == k and k
                                                for k, v in headers.items()):
        raise at.error(f"http_headers is a table of header names to strings, such as "
                       f"{{ Authorization = \"Bearer test-token\" }}; got {headers!r}", at.key("http_headers"))
    _legal(headers, at, at.key("http_headers"), "http_headers")
    return dict(headers)


def _legal(headers: dict[str, str], at, line: int | None, where: str) -> None:
    """Refuse what HTTP cannot carry, here at its line: the HTTP client would fail before its first request."""
    for name, value in headers.items():
        if not _TOKEN.fullmatch(name):
            raise at.error(f"{where}: {name!r} is not a header name HTTP allows (RFC 9110, 5.1: letters, digits and "
                           f"!#$%&'*+-.^_`|~ only, ASCII); rename it", line)
        if not _VALUE.fullmatch(value):
            raise at.error(f"{where}: the value of {name} holds {_first_illegal(value)!r}, which an HTTP header "
                           f"cannot carry (RFC 9110, 5.5: no CR, LF or other control characters); a non-ASCII value "
                           f"is sent base64-encoded as =?base64?...?= (streamable-http.mdx, \"Value Encoding\")",
                           line)


def _first_illegal(value: str) -> str:
    return next(c for c in value if not _VALUE.fullmatch(c))


def gets(data: dict, at) -> tuple[str, ...]:
    paths = data.get("http_get", [])
    if paths and not data.get("http"):
        raise at.error("http_get needs http = true: nothing is sent over HTTP", at.key("http_get"))
    if not isinstance(paths, list) or not all(isinstance(p, str) and p.startswith("/") and " " not in p
                                              for p in paths):
        raise at.error(f"http_get lists paths on the server to GET, each starting with /, such as "
                       f"[\"/.well-known/oauth-protected-resource/mcp\"]; got {paths!r}", at.key("http_get"))
    return tuple(paths)


_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")


def environment(data: dict, at) -> dict[str, str]:
    """`http_env`: variables the server gets when it serves HTTP (its deployment's settings, such as the public
    URL a proxy serves it at), in the check and under `serve --http` alike."""
    env = data.get("http_env", {})
    if env and not data.get("http"):
        raise at.error("http_env needs http = true: nothing is served over HTTP", at.key("http_env"))
    if not isinstance(env, dict) or not all(isinstance(k, str) and _ENV_NAME.fullmatch(k) and isinstance(v, str)
                                            and "\0" not in v for k, v in env.items()):
        raise at.error(f"http_env is a table of environment variable names (capitals, digits, _) to strings, such "
                       f"as {{ MCP_PUBLIC_URL = \"https://mcp.example.com\" }}; got {env!r}", at.key("http_env"))
    if "MCP_HTTP_ADDR" in env:
        raise at.error("http_env cannot set MCP_HTTP_ADDR: the runner chooses the address", at.key("http_env"))
    return dict(env)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
