"""The HTTP side of a Streamable HTTP run: each exchange's response read as messages, its rules, and its record.

Every rule cites the sentence of basic/transports/streamable-http.mdx (revision 2026-07-28) it holds a server to.
The messages of each response go to the same answer key stdio writes (run/http.py compares them); what only HTTP
has (status, content type, the headers the spec names) is recorded per implementation in `http.<impl>.jsonl`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from . import accounting
from .protocol import id_key
from .rules import Problem
from .transcript import TranscriptLine

# Response headers the spec names, recorded when present (lower-case, as HTTP/1.1 compares them).
RECORDED_HEADERS = ("content-type", "allow", "www-authenticate", "mcp-session-id")
MISMATCH = -32020
ENDPOINT = "/mcp"
LOCAL_ORIGINS = ("http://127.0.0.1", "http://localhost", "http://[::1]")
MIRRORED = ("mcp-protocol-version", "mcp-method", "mcp-name")


@dataclass
class Exchange:
    line: TranscriptLine | None  # None for the GET probe after the transcript
    method: str  # the HTTP method
    request_headers: list[tuple[str, str]]
    derived_headers: list[tuple[str, str]]  # what a conforming client sends; differs only under an override
    status: int | None  # None: no response began (a stream closed before it, a CLOSE entry)
    headers: list[tuple[str, str]]  # every response header, names lower-case
    body: bytes
    overridden: bool = False
    path: str = "/mcp"  # a GET example.toml's http_get asks for names another path
    escaped: bool = False  # the same messages as over stdio, with other JSON string escapes
    messages: list[bytes] = field(default_factory=list)
    events: list[str] = field(default_factory=list)  # SSE: each event's kind ("response" or its method)
    sse: list[SseEvent] = field(default_factory=list)  # SSE: each event as written
    cut_event: bool = False  # SSE: the stream ended in the middle of an event
    origin_allowed: bool = False  # an override whose Origin the server is configured to accept
    closed: bool = False  # the client closed this stream before the response ended (a cancel)
    closed_by: int | None = None  # the transcript line whose cancel closed it
    closes: int | None = None  # method "CLOSE": nothing POSTed; this line's cancel closed that line's stream
    ended_first: bool = False  # CLOSE: the stream it was to close had already ended (the cancel raced the reply)
    ended: int | None = None  # the how-manieth response of the run to end: timing, checked, never recorded

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k == name), None)

    @property
    def media_type(self) -> str:
        return (self.header("content-type") or "").split(";")[0].strip().lower()


def read_body(exchange: Exchange) -> None:
    """Split the body into JSON-RPC messages: one JSON body, or each SSE event's data in order."""
    text = exchange.body.decode("utf-8", "surrogateescape")
    if exchange.media_type == "text/event-stream":
        exchange.sse, exchange.cut_event = sse_events(text)
        exchange.messages = [e.data.encode("utf-8", "surrogateescape") for e in exchange.sse]
        exchange.events = [_kind(m) for m in exchange.messages]
    elif exchange.body.strip():
        exchange.messages = [exchange.body.rstrip(b"\r\n")]


@dataclass(frozen=True)
class SseEvent:
    """One dispatched SSE event: its data and the fields the server wrote beside it (None: not written)."""
    data: str
    event: str | None = None  # absent means the SSE default type, "message"
    id: str | None = None
    retry: str | None = None

    def fields(self, kind: str) -> dict[str, str]:
        """What the record keeps of this event: the fields written, and the data as its message's kind."""
        written = {"event": self.event, "id": self.id, "retry": self.retry}
        return {**{k: v for k, v in written.items() if v is not None}, "data": kind}


def sse_events(text: str) -> tuple[list[SseEvent], bool]:
    """The events of an SSE stream in order, read as the WHATWG HTML standard says ("Interpreting an event
    stream"): a blank line dispatches the event, `:` lines are comments, a field's value loses one leading space,
    data lines are joined by newlines; an event the stream ends in the middle of is not dispatched (the bool says
    whether one was cut off that way)."""
    events: list[SseEvent] = []
    fields: dict[str, str] = {}
    data: list[str] = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[:-1]:
        if line == "":
            if data:
                events.append(SseEvent("\n".join(data), fields.get("event"), fields.get("id"), fields.get("retry")))
            fields, data = {}, []
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            data.append(value)
        elif name in ("event", "id", "retry"):
            fields[name] = value
    tail = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")[-1]
    return events, bool(data or fields or (tail and not tail.startswith(":")))


def sse_data(text: str) -> list[str]:
    """The data of each event (its `data:` lines joined by newlines); comments and other fields are skipped."""
    return [event.data for event in sse_events(text)[0]]


def without_comments(text: str) -> str:
    """The stream as written, less its comment-only blocks (keep-alives such as `: ping`, whose number depends on
    time): what the record keeps of it, line endings and all."""
    kept, block = [], []
    for line in re.split(r"(?<=\n)|(?<=\r)(?!\n)", text):
        block.append(line)
        if line.rstrip("\r\n") == "":
            if any(l.rstrip("\r\n") and not l.startswith(":") for l in block):
                kept += block
            block = []
    return "".join(kept + block)


def _parse(message: bytes) -> object:
    try:
        return json.loads(message)
    except ValueError:
        return None


def error_codes(messages: list[bytes]) -> list[object]:
    """The `error.code` of each JSON-RPC error among `messages` (other messages, and text that is not JSON, skipped)."""
    parsed = [_parse(m) for m in messages]
    return [p["error"].get("code") for p in parsed if isinstance(p, dict) and isinstance(p.get("error"), dict)]


def _kind(message: bytes) -> str:
    parsed = _parse(message)
    if isinstance(parsed, dict) and isinstance(parsed.get("method"), str):
        return parsed["method"] if "id" not in parsed else "request " + parsed["method"]
    return "response" if isinstance(parsed, dict) else "not JSON"


def record(exchanges: list[Exchange]) -> bytes:
    """http.<impl>.jsonl: one line per exchange, what HTTP adds to the messages (the body only where the answer key
    does not hold it: an overridden request, the probe)."""
    out = []
    for ex in exchanges:
        if ex.closes is not None:  # nothing went over the wire for this line but the closing of another's stream
            out.append(json.dumps({"line": ex.line.number, "closes_stream_of": ex.closes}))
            continue
        entry: dict[str, object] = {"line": ex.line.number} if ex.line else \
            ({"probe": ex.method} if ex.path == ENDPOINT else {"get": ex.path})
        entry["request"] = {k: v for k, v in ex.request_headers if k not in ("Accept", "Content-Type")}
        entry["status"] = ex.status
        entry["headers"] = {k: v for k, v in ex.headers if k in RECORDED_HEADERS}
        if ex.media_type == "text/event-stream":
            entry["sse"] = [event.fields(kind) for event, kind in zip(ex.sse, ex.events)]
        if ex.media_type == "text/event-stream" and not (ex.overridden or ex.line is None):
            entry["stream"] = without_comments(ex.body.decode("utf-8", "replace"))  # the curl view shows it
        if ex.closed_by is not None:
            entry["closed_by"] = ex.closed_by  # no response on this stream: the client closed it
        if ex.escaped:
            entry["json"] = "the same message as over stdio, with other string escapes"
        if ex.overridden or ex.line is None:
            entry["body"] = ex.body.decode("utf-8", "replace")
        out.append(json.dumps(entry, ensure_ascii=False))
    return "".join(line + "\n" for line in out).encode("utf-8")


def check(exchanges: list[Exchange], rel: str) -> list[Problem]:
    """The HTTP rules; problems point at the transcript line whose POST broke one (the probe at line 1)."""
    problems: list[Problem] = []
    for ex in exchanges:
        at = ex.line.number if ex.line else 1

        def fault(rule: str, message: str) -> None:
            problems.append(Problem(rule, rel, at, message))

        if ex.header("mcp-session-id") is not None:
            fault("http-session-id", "the response sets Mcp-Session-Id; 2026-07-28 has no sessions: a server "
                                     "never mints one (streamable-http.mdx, \"Backwards Compatibility\")")
        if ex.status == 401 and ex.header("www-authenticate") is None:
            fault("http-401-without-challenge", "a 401 without WWW-Authenticate; \"A server generating a 401 "
                                                "(Unauthorized) response MUST send a WWW-Authenticate header field\" "
                                                "(RFC 9110 §15.5.2), and MCP clients find the resource metadata "
                                                "through it (authorization-server-discovery.mdx)")
        if ex.line is None and ex.path != ENDPOINT:
            continue  # a GET example.toml asks for (http_get): recorded, judged by the rule above only
        if ex.line is None:
            _probe_rules(ex, fault)
        elif ex.closes is not None:
            continue  # nothing was sent: run/http_stage.py checks that the stream it closed was still open
        elif ex.closed_by is not None:
            _closed_rules(ex, fault)
        elif ex.overridden:
            _override_rules(ex, fault)
        elif ex.line.kind == "notification":
            _notification_rules(ex, fault)
        elif ex.line.expects_reply:
            _request_rules(ex, fault)
    return problems


def _probe_rules(ex: Exchange, fault) -> None:
    if ex.status != 405:
        fault("http-get-not-405", f"GET on the MCP endpoint got {ex.status}; a server that supports only "
                                  f"2026-07-28 SHOULD answer 405 Method Not Allowed (streamable-http.mdx, "
                                  f"\"Backwards Compatibility\")")


def _notification_rules(ex: Exchange, fault) -> None:
    if ex.status != 202 or ex.body:
        fault("http-notification-not-202", f"a notification got {ex.status} with {len(ex.body)} body bytes; "
                                           f"\"the server MUST return HTTP status code 202 Accepted with no body\" "
                                           f"(streamable-http.mdx, \"Sending Messages to the Server\")")


def _request_rules(ex: Exchange, fault) -> None:
    if ex.media_type not in ("application/json", "text/event-stream"):
        fault("http-content-type", f"a request was answered with Content-Type {ex.header('content-type')!r}; the "
                                   f"server MUST answer with application/json or text/event-stream "
                                   f"(streamable-http.mdx, \"Sending Messages to the Server\")")
        return
    parsed = [_parse(m) for m in ex.messages]
    if any(isinstance(p, dict) and "method" in p and "id" in p for p in parsed):
        fault("http-server-request", "the response stream carries a JSON-RPC request; the server MUST NOT send "
                                     "requests on it (streamable-http.mdx, \"Sending Messages to the Server\")")
    replies = [p for p in parsed if isinstance(p, dict) and "method" not in p]
    for note in (p for p in parsed if isinstance(p, dict) and "method" in p and "id" not in p):
        if not _related(note, ex.line.message):
            fault("http-unrelated-notification", f"{note['method']} on this request's stream does not relate to "
                                                 f"it; notifications before the response MUST relate to the "
                                                 f"originating request, and list changes travel on a "
                                                 f"subscriptions/listen stream (streamable-http.mdx, \"Sending "
                                                 f"Messages to the Server\")")
    if ex.media_type == "application/json" and len(ex.messages) != 1:
        fault("http-json-body", "an application/json response must hold exactly one JSON-RPC response")
    if not replies or parsed[-1] is not replies[-1] or len(replies) != 1 \
            or id_key(replies[0].get("id")) != id_key(ex.line.reply_id):
        fault("http-stream-end", f"{_stream_said(ex, replies)}the response must carry one JSON-RPC response with "
                                 f"id {ex.line.reply_id!r}, last; \"The final JSON-RPC response SHOULD terminate "
                                 f"the stream\" (streamable-http.mdx, \"Sending Messages to the Server\")")
    _status_rule(ex, replies[0] if len(replies) == 1 else None, fault)


def _stream_said(ex: Exchange, replies: list) -> str:
    """What an SSE stream that broke the end rule showed, for the message: closed before its reply, or cut."""
    if ex.media_type != "text/event-stream":
        return ""
    said = f"the SSE stream closed after {len(ex.sse)} event(s) ({', '.join(ex.events) or 'none'})"
    if ex.cut_event:
        said += ", in the middle of one more (no blank line ended it)"
    return said + (" without the reply; " if not replies else "; ")


def _closed_rules(ex: Exchange, fault) -> None:
    """A stream the client closed to cancel its request: what came before the close is judged like any stream's;
    that no response came is the cancel's point (streamable-http.mdx, "Cancellation")."""
    if ex.status is None:
        return  # closed before the response began
    if ex.media_type not in ("application/json", "text/event-stream"):
        fault("http-content-type", f"a request was answered with Content-Type {ex.header('content-type')!r}; the "
                                   f"server MUST answer with application/json or text/event-stream "
                                   f"(streamable-http.mdx, \"Sending Messages to the Server\")")
    for note in (p for p in map(_parse, ex.messages) if isinstance(p, dict) and "method" in p and "id" not in p):
        if not _related(note, ex.line.message):
            fault("http-unrelated-notification", f"{note['method']} on this request's stream does not relate to "
                                                 f"it; notifications before the response MUST relate to the "
                                                 f"originating request (streamable-http.mdx, \"Sending Messages to "
                                                 f"the Server\")")


def _related(note: dict, request: object) -> bool:
    """Progress with the token this request sent, or a log message (notifications/message, deprecated) for it."""
    params = note.get("params") if isinstance(note.get("params"), dict) else {}
    if note["method"] == "notifications/progress":
        token = accounting.progress_token(request)
        return token is not None and id_key(params.get("progressToken")) == token
    return note["method"] == "notifications/message"


# Statuses the spec gives an error (streamable-http.mdx, "Protocol Version Header" and "Server Validation";
# basic/index.mdx, error codes): unknown method 404; header mismatch, missing capability, unsupported version 400.
ERROR_STATUS = {-32601: 404, -32020: 400, -32021: 400, -32022: 400}


def _status_rule(ex: Exchange, reply: dict | None, fault) -> None:
    error = reply.get("error") if isinstance(reply, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    wanted = ERROR_STATUS.get(code) if isinstance(code, int) else None
    if wanted is not None and ex.status != wanted:
        fault("http-error-status", f"error {code} came with HTTP {ex.status}; the spec gives it {wanted}")


def _override_rules(ex: Exchange, fault) -> None:
    """A deliberate case from example.toml: a header that no longer mirrors the body, or a foreign Origin."""
    sent = {k.lower(): v for k, v in ex.request_headers}
    origin = sent.get("origin")
    if origin is not None and ex.origin_allowed:
        if not 200 <= ex.status < 300:
            fault("http-allowed-origin", f"an Origin the server is configured to accept ({origin}) got {ex.status}; "
                                         f"example.toml says origin_allowed, so it must be served")
        return
    if origin is not None and not origin.startswith(LOCAL_ORIGINS):
        if ex.status != 403:
            fault("http-foreign-origin", f"a foreign Origin ({origin}) got {ex.status}; servers MUST validate "
                                         f"Origin and answer an invalid one with 403 Forbidden "
                                         f"(streamable-http.mdx, \"Security Warning\")")
        return
    derived = {k.lower(): v for k, v in ex.derived_headers}
    mirrored = [n for n in derived if n in MIRRORED or n.startswith("mcp-param-")]
    if any(sent.get(n) != derived[n] for n in mirrored):
        codes = error_codes(ex.messages)
        if ex.status != 400 or MISMATCH not in codes:
            fault("http-header-mismatch", f"a header that does not mirror the body got {ex.status} "
                                          f"{codes or 'without an error'}; servers MUST reject it with 400 and "
                                          f"-32020 (streamable-http.mdx, \"Server Validation\")")


def group_by_line(stdout: bytes, lines: list[TranscriptLine],
                  sends: tuple[accounting.Send, ...] = ()) -> dict[int, list[bytes]]:
    """A stdio run's messages per transcript line. In lockstep: everything written after the previous reply up to
    and including the reply to the line (a line that expects no reply gets what arrived before the next one). Paced
    by [[send]]: the messages that belong to the line (its reply, its progress, its listen stream), as run/paced.py
    recorded them; a message that belongs to no line is in no group."""
    if sends:
        return _group_by_owner(stdout, lines)
    owed = [l for l in lines if l.expects_reply]
    groups: dict[int, list[bytes]] = {l.number: [] for l in lines}
    at = 0
    for message in stdout.splitlines():
        if at >= len(owed):
            break  # after the last reply: what the server wrote at exit, compared by the stdio rules alone
        groups[owed[at].number].append(message)
        parsed = _parse(message)
        if isinstance(parsed, dict) and "method" not in parsed and id_key(parsed.get("id")) == id_key(owed[at].reply_id):
            at += 1
    return groups


def _group_by_owner(stdout: bytes, lines: list[TranscriptLine]) -> dict[int, list[bytes]]:
    from .pairing import Ledger

    ledger: Ledger[TranscriptLine] = Ledger()
    streams = accounting.Streams()
    for line in lines:
        if line.expects_reply:
            ledger.owe(line, id_key(line.reply_id), null_allowed=line.null_reply_allowed)
            streams.open(line, line.message)
    groups: dict[int, list[bytes]] = {l.number: [] for l in lines}
    for message in stdout.splitlines():
        parsed = _parse(message)
        owner = None
        if isinstance(parsed, dict) and "method" not in parsed and ("result" in parsed or "error" in parsed):
            answered = ledger.answer(parsed.get("id"))
            owner = answered.line if answered is not None else None
            if answered is not None and not answered.duplicate:
                streams.close(owner)
        elif isinstance(parsed, dict):
            owner = streams.owner(parsed)
        if owner is not None:
            groups[owner.number].append(message)
    return groups


def same_message(a: bytes, b: bytes) -> bool | str:
    """True for the same bytes; "escapes" for the same JSON written with other string escapes (\\u00f3 for ó);
    False otherwise. Key order counts: a reader compares the two lines by eye."""
    if a == b:
        return True
    def pairs(m: bytes):
        try:
            return json.loads(m, object_pairs_hook=list)
        except ValueError:
            return None
    parsed = pairs(a)
    return "escapes" if parsed is not None and parsed == pairs(b) else False


def differences(exchanges: list[Exchange], stdio_groups: dict[int, list[bytes]]) -> list[tuple[Exchange, list[bytes]]]:
    """The exchanges (not overridden) whose messages are not the stdio run's for the same line; marks each one
    that differs only in escapes (recorded in the http file, never hidden)."""
    found = []
    for ex in exchanges:
        if ex.line is None or ex.overridden:
            continue
        stdio = stdio_groups.get(ex.line.number, [])
        verdicts = [same_message(a, b) for a, b in zip(stdio, ex.messages)]
        if len(stdio) != len(ex.messages) or False in verdicts:
            found.append((ex, stdio))
        ex.escaped = "escapes" in verdicts
    return found
