"""The conversation view: an example's transcript and answer key as the request/reply exchanges they are.

A NAME/conversation marker pair stays empty in the page; the site build puts what `render` returns there
(markdown_ext.py): Markdown with HTML blocks (md_in_html) and fenced code (superfences), needing no JavaScript:

- the whole view is `<div class="conversation">`; each request with its reply is `<div class="exchange"
  data-id="ID">` (ID as JSON text: 1 and "1" differ); notifications, stray stdout lines, replies nobody asked for
  and requests nobody answered are rows of their own (`exchange notification`, `exchange stray`, ...); a request's
  own notifications (progress, its listen stream) sit above its reply in `exchange-column` (paste/in_flight_view.py);
- each side shows the message pretty-printed (2-space indent, keys and numbers exactly as on the wire, non-ASCII
  as characters) in a `.no-copy` block, and under it a closed `<details class="raw-line">` whose code block holds
  the exact line from the file, so Material's copy button copies the wire bytes and not the pretty form;
- a long exchange stays one code block per side, cut by CSS to its first lines with its own scroll, and an empty
  `<details class="show-all">` lifts the cut (CSS `:has`). One block, not "first lines" and "the rest": search
  indexes every key, and a browser without `:has` still shows everything by scrolling.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from functools import cached_property

from ..wire import accounting
from ..wire.pairing import Ledger
from ..wire.rules import RULES, ExpectedViolation
from . import in_flight_view
from .pretty import META_HOLDER, meta_of, parse_keep_text, pretty, pretty_value
from ..wire.protocol import id_key, valid_id
from ..wire.transcript import classify

LONG = 12  # pretty lines per side above which an exchange is cut to its first 10 (extra.css) with "show all"


# ---------------------------------------------------------------- the lines of both files

@dataclass
class Line:
    file: str  # "transcript" or "answer key"
    rel: str  # the file's path from the repository root, for the raw line's data-file
    number: int
    raw: str  # the exact line, decoded (invalid UTF-8 shows as U+FFFD; the caption says the file is the truth)
    message: object  # parsed JSON, or None
    kind: str  # transcript: request, notification, response, invalid; stdout: reply, notification, request, text
    notes: list[ExpectedViolation] = field(default_factory=list)
    meta_as_in: int | None = None  # params._meta (result._meta) repeating an earlier line's of this file: {…}

    @cached_property
    def shown(self) -> str | None:
        """The pretty form, parsed once (the height check and the markup both need it). conversation() sets
        meta_as_in before anything reads this."""
        return pretty(self.raw, elide_meta=META_HOLDER[self.file] if self.meta_as_in is not None else None)

    @property
    def method(self) -> str | None:
        return self.message.get("method") if isinstance(self.message, dict) else None

    @property
    def id_key(self):
        if isinstance(self.message, dict) and valid_id(self.message.get("id")):
            return id_key(self.message["id"])
        return None


def _chunks(data: bytes) -> list[bytes]:
    chunks = data.split(b"\n")
    if chunks and chunks[-1] == b"":
        chunks.pop()
    return chunks


def _text(chunk: bytes) -> str:
    return chunk.decode("utf-8", errors="replace").removesuffix("\r")


def _load(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None


def _stdout_kind(message) -> str:
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return "text"
    if "method" in message:
        return "request" if "id" in message else "notification"
    if "result" in message or "error" in message:
        return "reply"
    return "text"


# ---------------------------------------------------------------- pairing

@dataclass
class Row:
    kind: str  # exchange, notification, response, unanswered, orphan, stray, server-notification, server-request
    request: Line | None = None
    reply: Line | None = None
    after_reply: Line | None = None  # for a stdout-only row: the reply it came before on stdout
    related: list[Line] = field(default_factory=list)  # its own progress and listen stream, drawn above the reply
    send: object = None  # its [[send]]; cancels, cancelled_by (line numbers), arrival: set by in_flight_view.annotate
    cancels: int | None = None
    cancelled_by: int | None = None
    arrival: int | None = None


def pair(transcript: list[Line], stdout: list[Line]) -> list[Row]:
    """Rows in transcript order; each stdout-only line right after the exchange whose reply it preceded. Which reply
    answers which line is the wire check's own rule (wire/pairing.py); which notification belongs to which request
    (its progress, its listen stream) too (wire/accounting.py): those go inside the request's row."""
    ledger: Ledger[Row] = Ledger()
    streams = accounting.Streams()
    rows: list[Row] = []
    for line in transcript:
        if line.kind in ("notification", "response"):
            rows.append(Row(line.kind, request=line))
            continue
        rows.append(Row("unanswered", request=line))
        # Only a declared lone surrogate may be answered with a null id here: an undeclared one fails the example.
        declared_lone = any(n.rule == "transcript-lone-surrogate" for n in line.notes)
        ledger.owe(rows[-1], line.id_key, null_allowed=declared_lone)
        streams.open(rows[-1], line.message)  # as the check does: every line owed a reply
    extra: dict[int, list[Row]] = {}  # index of a row -> stdout-only rows shown after it
    tail: list[Row] = []
    for line in stdout:
        if line.kind == "notification" and (owner := streams.owner(line.message)) is not None:
            owner.related.append(line)
            continue
        answered = None
        if line.kind == "reply":
            raw_id = line.message.get("id")
            answered = ledger.answer(raw_id) if raw_id is None or line.id_key is not None else None
        if answered is None or answered.duplicate:
            kind = {"reply": "orphan", "notification": "server-notification",
                    "request": "server-request"}.get(line.kind, "stray")
            tail.append(Row(kind, reply=line))
            continue
        target = answered.line
        target.reply = line
        target.kind = "exchange"
        streams.close(target)
        if tail:
            for row in tail:
                row.after_reply = line
            extra.setdefault(rows.index(target), []).extend(tail)
            tail = []
    ordered: list[Row] = []
    for index, row in enumerate(rows):
        ordered.append(row)
        ordered.extend(extra.get(index, []))
    return ordered + tail


# ---------------------------------------------------------------- markup

def _fence(content: str, attrs: str) -> list[str]:
    longest = max((len(m.group(1)) for m in re.finditer(r"^[ \t]*(`{3,})", content, re.M)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence} {{ {attrs} }}\n", *(l + "\n" for l in content.split("\n")), f"{fence}\n"]


def _label(text: str) -> str:
    return f'<p class="exchange-label">{text}</p>\n'


def _where(line: Line) -> str:
    return f"{line.file} line {line.number}"


def _side(line: Line, role: str, title: str, notes: list[str] = ()) -> list[str]:
    """One message: a label (`title`, HTML), the pretty form (not copied), the exact line (copied), and its declared
    notes (then `notes`, HTML)."""
    out = [f'<div class="exchange-side exchange-{role}" markdown>\n', "\n",
           _label(f"{title} <span class=\"exchange-where\">{html.escape(_where(line))}</span>"), "\n"]
    shown = line.shown
    raw_lang = ".json" if shown is not None else ".text"
    if shown is None:
        what = "Not JSON." if line.file == "transcript" else "Not a message: plain text on stdout."
        out += [f'<p class="exchange-note">{what}</p>\n', "\n"]
        out += _fence(line.raw, ".text .no-copy")
    else:
        if line.kind in ("invalid", "text"):
            out += ['<p class="exchange-note">JSON, but not a valid JSON-RPC 2.0 message.</p>\n', "\n"]
        out += _fence(shown, ".json .no-copy")
    out += ["\n"]
    for declared in line.notes:
        out += [f'<p class="exchange-note exchange-declared">Breaks <code>{html.escape(declared.rule)}</code> '
                f'on purpose: {html.escape(declared.reason)}</p>\n', "\n"]
    out += notes
    # data-file and data-line say which exact line the raw block holds (the browser tests compare it byte for byte).
    out += [f'<details class="raw-line" data-file="{html.escape(line.rel, quote=True)}" data-line="{line.number}" '
            f'markdown>\n',
            f"<summary>Raw line{_elided_note(line)}</summary>\n", "\n"]
    out += _fence(line.raw, raw_lang)
    out += ["\n", "</details>\n", "\n", "</div>\n", "\n"]
    return out


def _elided_note(line: Line) -> str:
    """Said where the exact line is one click away: what the pretty form left out, and where it is shown."""
    if line.meta_as_in is None:
        return ""
    return f" · <code>_meta</code> as on line {line.meta_as_in}"


def _data_id(row: Row) -> str:
    for line in (row.request, row.reply):
        if isinstance(line and line.message, dict) and "id" in line.message:
            return f' data-id="{html.escape(json.dumps(line.message["id"], ensure_ascii=False), quote=True)}"'
    return ""


def _id_text(row: Row) -> str:
    for line in (row.request, row.reply):
        if isinstance(line and line.message, dict) and "id" in line.message:
            return "id " + json.dumps(line.message["id"], ensure_ascii=False)
    return ""


def _heading(row: Row) -> str:
    method = row.request.method if row.request else None
    words = {
        "exchange": "Request and reply",
        "unanswered": "Request with no reply",
        "cancelled": "Request cancelled in flight",
        "notification": "Notification: no reply, by design",
        "response": "A response the client sent (nobody answers a response)",
        "orphan": "A reply no request asked for",
        "stray": "A line on stdout that is not a message",
        "server-notification": "Server notification: no reply, by design",
        "server-request": "A request from the server",
    }[row.kind]
    parts = [words]
    if method:
        parts.append(f"<code>{html.escape(method)}</code>")
    elif row.reply is not None and row.reply.method:
        parts.append(f"<code>{html.escape(row.reply.method)}</code>")
    ident = _id_text(row)
    if ident:
        parts.append(html.escape(ident))
    error = row.reply.message.get("error") if row.reply is not None and isinstance(row.reply.message, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), int):
        parts.append(f"error {error['code']}")
    if row.after_reply is not None:
        parts.append(f"on stdout before the reply on {html.escape(_where(row.after_reply))}")
    return " · ".join(parts + in_flight_view.heading_parts(row))


def _pretty_lines(line: Line | None) -> int:
    return 0 if line is None else 1 if line.shown is None else line.shown.count("\n") + 1


# The label above each message, by the kind of line it is (transcript kinds, then stdout kinds).
_SIDE_TITLES = {"request": "Request", "notification": "Notification", "response": "Response",
                "invalid": "Client line", "reply": "Reply", "text": "Stdout line"}


def _row(row: Row) -> list[str]:
    classes = "exchange" if row.kind == "exchange" else f"exchange {row.kind}"
    long = max([_pretty_lines(row.request), _pretty_lines(row.reply), *map(_pretty_lines, row.related)]) > LONG
    if long:
        classes += " long"
    out = [f'<div class="{classes}"{_data_id(row)} markdown>\n', "\n",
           f'<p class="exchange-heading">{_heading(row)}</p>\n', "\n"]
    if row.request is not None:
        out += _side(row.request, "request", _SIDE_TITLES[row.request.kind], in_flight_view.reason_note(row))
    reply_title = in_flight_view.reply_title(row, _SIDE_TITLES[row.reply.kind]) if row.reply is not None else ""
    if row.related or row.kind == "cancelled":
        out += in_flight_view.column(row, _side, reply_title)
    elif row.reply is not None:
        out += _side(row.reply, "reply", reply_title)
    elif row.kind == "unanswered":
        out += ['<p class="exchange-note exchange-missing">No reply on stdout.</p>\n', "\n"]
    if long:
        out += ['<details class="show-all"><summary><span class="show-more">Show all</span>'
                '<span class="show-less">Show less</span></summary></details>\n', "\n"]
    out += ["</div>\n", "\n"]
    return out


def conversation(transcript: bytes, answer_key: bytes, violations: tuple[ExpectedViolation, ...],
                 transcript_rel: str = "transcript.jsonl", answer_key_rel: str = "answer_key.jsonl",
                 sends: tuple = ()) -> list[Row]:
    """Both files read, classified, annotated with their declared violations and [[send]] tables, paired into rows."""
    # A transcript line's kind is the one the runner and the wire check give it (transcript.classify), so the view
    # pairs exactly the lines the tool expects replies to.
    classified = [classify(n, chunk, transcript_rel)[0] for n, chunk in enumerate(_chunks(transcript), start=1)]
    lines_in = [Line("transcript", transcript_rel, t.number, _text(t.raw), _load(_text(t.raw)), t.kind)
                for t in classified]
    lines_out = [Line("answer key", answer_key_rel, n, _text(chunk), _load(_text(chunk)), "")
                 for n, chunk in enumerate(_chunks(answer_key), start=1)]
    for line in lines_out:
        line.kind = _stdout_kind(line.message)
    _mark_repeated_meta(lines_in, "request")
    _mark_repeated_meta(lines_out, "reply")
    for declared in violations:
        where = lines_in if RULES.get(declared.rule, "transcript") == "transcript" else lines_out
        if 1 <= declared.line <= len(where):
            where[declared.line - 1].notes.append(declared)
    rows = pair(lines_in, lines_out)
    in_flight_view.annotate(rows, classified, sends)
    return rows


def _mark_repeated_meta(lines: list[Line], kind: str) -> None:
    """Shown once in full, then as {…}: a `_meta` equal to the first one of its file (requests' params._meta,
    replies' result._meta)."""
    first: tuple[str, int] | None = None  # the first _meta (pretty) and its line
    for line in lines:
        if line.kind != kind:
            continue
        try:
            meta = meta_of(parse_keep_text(line.raw), META_HOLDER[line.file])
        except ValueError:
            continue
        if meta is None:
            continue
        if first is None:
            first = (pretty_value(meta), line.number)
        elif pretty_value(meta) == first[0]:
            line.meta_as_in = first[1]


@dataclass(frozen=True)
class StderrLane:
    implementation: str  # whose stderr (example.toml's stderr_lane)
    rel: str  # examples/NAME/stderr.txt
    data: bytes


# A reader knows languages, not the tool's implementation kinds (a single-file rustc build vs a cargo project).
SERVER_LANGUAGE = {"rust": "Rust", "cargo": "Rust", "python": "Python"}


def _stderr_lane(lane: StderrLane) -> list[str]:
    """The server's stderr as its own lane under the exchanges: the log a reader sees in a terminal, never the wire."""
    text = lane.data.decode("utf-8", errors="replace").removesuffix("\n")
    out = ['<div class="stderr-lane" markdown>\n', "\n",
           f'<p class="exchange-heading">stderr of the {SERVER_LANGUAGE[lane.implementation]} server '
           f'<span class="exchange-where">{html.escape(lane.rel)}</span>: its log, beside the wire and never on '
           f'it</p>\n', "\n"]
    out += _fence(text if text else "(nothing on stderr)", ".text")
    return out + ["\n", "</div>\n", "\n"]


class RangeError(ValueError):
    """A line range that names no part of the transcript."""


def select(rows: list[Row], first: int, last: int, count: int) -> list[Row]:
    """The rows of transcript lines first..last, each with the stdout-only rows shown after it (replies nobody
    asked for, at the very end, go with the range that reaches the last line)."""
    if last > count:
        raise RangeError(f"the transcript has {count} line{'s' if count != 1 else ''}; lines {first}-{last} "
                         f"run past its end")
    kept: list[Row] = []
    keeping = False
    for row in rows:
        if row.request is not None:
            keeping = first <= row.request.number <= last
        if keeping:  # a stdout-only row goes with the exchange it follows
            kept.append(row)
    return kept


def render(transcript: bytes, answer_key: bytes, violations: tuple[ExpectedViolation, ...],
           transcript_rel: str, answer_key_rel: str, indent: str = "", stderr: StderrLane | None = None,
           lines: tuple[int, int] | None = None, runs_here: dict[str, str] | None = None,
           sends: tuple = ()) -> list[str]:
    """The pasted body: a blank line, the view, its caption, a blank line (as markers.fenced lays out a file).
    With `lines`, only the exchanges of those transcript lines (and no stderr lane: it covers the whole run).

    `runs_here` is the view's data-* attributes for an example the reader's browser can run, or whose page says why
    not (run_here.py: data-example, data-python, data-rust, data-not-here); docs/javascripts/run-here.js adds the
    "Run it here" button or the reason. Without JavaScript the attributes do nothing."""
    rows = conversation(transcript, answer_key, violations, transcript_rel, answer_key_rel, sends)
    part = ""
    if lines is not None:
        rows = select(rows, *lines, count=len(_chunks(transcript)))
        first, last = lines
        part = f", transcript line {first}" if first == last else f", transcript lines {first}\u2013{last}"
        stderr = None
    attrs = ""
    if runs_here is not None:
        attrs = "".join(f' data-{key}="{html.escape(value, quote=True)}"' for key, value in runs_here.items())
    body = [f'<div class="conversation"{attrs} markdown>\n', "\n"]
    for row in rows:
        body += _row(row)
    if stderr is not None:
        body += _stderr_lane(stderr)
    body += ["</div>\n", "\n",
             f"Conversation{part}: `{transcript_rel}` (what the client writes) paired by id with "
             f"`{answer_key_rel}` (what the server answers), laid out by `tools/run_examples.py`; the raw lines are "
             f"the files' exact bytes.\n", "{: .example-caption }\n"]
    return ["\n"] + [f"{indent}{line}" if line.strip() else "\n" for line in body] + ["\n"]
