"""The Streamable HTTP driver: the server listens on the sandbox's loopback, each transcript line is POSTed to it.

The server starts in its sandbox with MCP_HTTP_ADDR set (run/http_server.py); the tool reaches the sandbox's
loopback through sockets made in its network namespace (loopback.py), and its client (run/http_client.py) waits
until the server listens, sends each request on its own connection, one after another (or, under example.toml's
[[send]], while earlier ones are still open, and a cancel in flight as the closing of that request's stream), then a
GET (which a 2026-07-28-only server answers with 405); then the server is stopped with SIGTERM. This module prepares
the requests (headers derived from each body, wire/http_headers.py, with example.toml's deliberate overrides) and
reads the client's report into a RunResult whose `stdout` holds every response's messages, one per line, like a
stdio run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import sandboxing
from ..examples.http_config import HttpOverride
from ..wire import accounting
from ..wire import http as wire_http
from ..wire import http_headers
from ..wire.transcript import TranscriptLine
from ..examples.model import STDERR_TAIL_BYTES
from . import http_client, http_server, http_stream
from .driver import RunResult

HOST = "127.0.0.1"
PORT = 8765  # inside the sandbox's own network namespace nothing else listens; unsandboxed, see _free_port
PATH = "/mcp"
GRACE_SECONDS = 5.0


@dataclass
class Request:
    line: TranscriptLine | None
    method: str
    headers: list[tuple[str, str]]
    derived: list[tuple[str, str]]
    body: bytes
    overridden: bool = False
    path: str = PATH
    origin_allowed: bool = False
    gate: dict = field(default_factory=lambda: {"kind": "all"})  # when the client writes it (http_client.py)
    closes: int | None = None  # CLOSE: the transcript line whose response stream this cancel closes


def plan(lines: list[TranscriptLine], overrides: tuple[HttpOverride, ...], tools_list_result: object,
         always: dict[str, str] | None = None, gets: tuple[str, ...] = (),
         sends: tuple[accounting.Send, ...] = ()) -> list[Request]:
    """One POST per transcript line (a response the transcript holds is still POSTed: it is the server's to
    refuse), then a GET for each path in `gets`, then the GET probe; `always` (example.toml's http_headers, such as
    a test token) goes on every one of them. Each line waits as example.toml's [[send]] says (`gate`), and a
    notifications/cancelled of a request in flight is not POSTed: the client closes that request's response stream,
    which is the cancel on Streamable HTTP (streamable-http.mdx, "Cancellation": no notifications/cancelled is
    "required or expected" there)."""
    by_line = {o.line: o for o in overrides}
    params = http_headers.header_params(tools_list_result)
    extra = list((always or {}).items())
    closes = {cancel: request for request, cancel in accounting.plan(lines, sends).cancelled.items()}
    paced = accounting.by_line(sends)
    requests = []
    for line in lines:
        gate = _gate(paced.get(line.number))
        if line.number in closes:
            requests.append(Request(line, "CLOSE", [], [], b"", gate=gate, closes=closes[line.number]))
            continue
        derived = http_headers.derive(line.message, params) + extra
        override = by_line.get(line.number)
        headers = derived if override is None else http_headers.apply_override(derived, override.set_headers,
                                                                                  override.drop)
        requests.append(Request(line, "POST", headers, derived, line.raw, overridden=override is not None,
                                origin_allowed=override is not None and override.origin_allowed, gate=gate))
    for path in gets:
        get = [("Accept", "application/json")] + extra
        requests.append(Request(None, "GET", get, get, b"", path=path))
    probe = [("Accept", "text/event-stream"), ("MCP-Protocol-Version", "2026-07-28")] + extra
    requests.append(Request(None, "GET", probe, probe, b""))
    return requests


class StreamableHttp:
    """The HTTP Driver (run/driver.py): the requests are planned up front, one RunResult comes back."""

    def __init__(self, requests: list[Request]):
        self.requests = requests

    def converse(self, spec_for: Callable[[str], sandboxing.Spec], lines: list[TranscriptLine], *, timeout: float,
                 max_output: int, sandbox: sandboxing.Sandbox, cwd_parent: Path | None = None) -> RunResult:
        started = time.monotonic()
        port = PORT if sandbox.enabled else _free_port()
        spec = spec_for("/tmp").with_env({"MCP_HTTP_ADDR": f"{HOST}:{port}"})
        server = http_server.ServerProcess(spec, sandbox, max_output, STDERR_TAIL_BYTES)
        try:
            events = http_client.converse(http_stream.Address(server.loopback, HOST, port), server.exited,
                                          [_wire(r) for r in self.requests], timeout, max_output)
        finally:
            status = server.stop(GRACE_SECONDS)
        return _result(self.requests, events, status, server.stdout.written(GRACE_SECONDS),
                       server.stderr.written(GRACE_SECONDS), time.monotonic() - started)


def _gate(send: accounting.Send | None) -> dict:
    """A [[send]] table as the client's gate; request i is transcript line i + 1."""
    if send is None:
        return {"kind": "all"}
    if send.no_wait:
        return {"kind": "sent"}
    if send.wait_for == accounting.REPLY:
        return {"kind": "ended", "of": send.of_line - 1}
    return {"kind": "event", "of": send.of_line - 1, "method": send.wait_for}


def _wire(request: Request) -> dict:
    wired = {"method": request.method, "path": request.path, "headers": [list(h) for h in request.headers],
             "body": request.body, "gate": request.gate}
    if request.closes is not None:
        wired["closes"] = request.closes - 1
    return wired


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _at(requests: list[Request], index: object) -> str:
    """ " (transcript line N)" for the request at `index`, or the GET after the transcript; "" for no index."""
    if not isinstance(index, int) or not 0 <= index < len(requests):
        return ""
    request = requests[index]
    return (f" (transcript line {request.line.number})" if request.line is not None
            else f" (the GET {request.path} after the transcript)")


def _missing(requests: list[Request], indexes: list[int]) -> str | None:
    """Every planned request must come back as an exchange, in order: the tool counts them, never the client."""
    if indexes == list(range(len(requests))):
        return None
    missing = next(i for i in range(len(requests)) if i >= len(indexes) or indexes[i] != i)
    return (f"no exchange came back for request {missing + 1} of {len(requests)}{_at(requests, missing)}: "
            f"{len(indexes)} exchanges reported, {len(requests)} planned")


def _result(requests: list[Request], events: list[dict], status: int, server_stdout: bytes, err: bytes,
            seconds: float) -> RunResult:
    """The client's events and how the server ended (its exit status, what it wrote) as one RunResult."""
    exchanges, indexes, failure = [], [], None
    for event in events:
        kind = event["event"]
        if kind == "listening" and "all interfaces" in event.get("bound", []) and failure is None:
            failure = ("the server listens on every interface (0.0.0.0 or ::); a local server SHOULD bind only to "
                       "127.0.0.1 (streamable-http.mdx, \"Security Warning\"): bind the host of MCP_HTTP_ADDR")
        if kind == "exchange" and event.get("index") in range(len(requests)):
            exchanges.append(_exchange(requests[event["index"]], event))
            indexes.append(event["index"])
        elif kind == "failure" and failure is None:
            failure = event["message"] + _at(requests, event.get("index"))
    if failure is None:
        failure = _missing(requests, indexes)
    elif failure.startswith("hang") and len(indexes) < len(requests):
        failure += f", waiting on request {len(indexes) + 1} of {len(requests)}{_at(requests, len(indexes))}"
    if failure is None and server_stdout:
        failure = (f"the server wrote {len(server_stdout)} bytes to stdout while serving HTTP "
                   f"({server_stdout[:60]!r}); over HTTP stdout carries nothing: log to stderr")
    _mark_closed(exchanges)
    stdout = b"".join(m + b"\n" for ex in exchanges if ex.line is not None and not ex.overridden
                      for m in ex.messages)
    # Stopped by the SIGTERM the tool sent: the end of a normal HTTP run, like EOF on stdin for stdio.
    returncode = 0 if status == -15 else status
    sent = sum(1 for ex in exchanges if ex.line is not None)
    return RunResult(stdout, err, returncode, failure, seconds, lines_sent=sent, exchanges=exchanges)


def _exchange(request: Request, event: dict) -> wire_http.Exchange:
    if request.method == "CLOSE":
        return wire_http.Exchange(request.line, "CLOSE", [], [], None, [], b"", closes=request.closes,
                                  ended_first=bool(event.get("ended_first")))
    exchange = wire_http.Exchange(request.line, request.method, request.headers, request.derived, event["status"],
                                  [(k, v) for k, v in event["headers"]], event["body"],
                                  overridden=request.overridden, path=request.path,
                                  origin_allowed=request.origin_allowed, closed=bool(event.get("closed")),
                                  ended=event.get("ended"))
    wire_http.read_body(exchange)
    return exchange


def _mark_closed(exchanges: list[wire_http.Exchange]) -> None:
    """Each stream a CLOSE entry closed learns which line closed it (the record says so on both lines)."""
    by_line = {ex.line.number: ex for ex in exchanges if ex.line is not None}
    for ex in exchanges:
        if ex.closes is not None and ex.closes in by_line:
            by_line[ex.closes].closed_by = ex.line.number
