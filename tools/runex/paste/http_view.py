"""NAME/http: the HTTP side of an example's runs as one Markdown table, every implementation in its own column.

Each row is a transcript line (and last, the GET probe): the headers the client derived from the body (an override's
headers marked, with its reason), then per implementation the status, the content type (an SSE stream with its
events in order, the reply last) and, for an error reply, its code. Where the implementations answer differently, the cells say so: the SDKs do not agree on every status, and the
page shows it rather than hiding it. The messages themselves are in the answer key, the same for every row.
"""

from __future__ import annotations

import json

from ..wire import http as wire_http
from ..wire.transcript import TranscriptLine

MEDIA = {"application/json": "JSON", "text/event-stream": "SSE"}


def render(lines: list[TranscriptLine], answer_key: bytes, records: dict[str, bytes], overrides: dict[int, str],
           indent: str, record_files: list[str], shown: tuple[int, int] | None = None, sends: tuple = ()) -> list[str]:
    """The table's lines; `records` maps an implementation to its http.<impl>.jsonl (named in `record_files`),
    `overrides` a line to its reason; `shown` (first, last) keeps only those transcript lines' rows (and the GETs
    after the transcript, which are no line)."""
    parsed = {impl: [json.loads(l) for l in data.decode("utf-8").splitlines()] for impl, data in records.items()}
    groups = wire_http.group_by_line(answer_key, lines, sends)
    impls = list(parsed)
    header = ["Line", "Headers sent (besides Accept and Content-Type)"] + [f"`{i}`" for i in impls]
    rows = [header, ["---"] * len(header)]
    keys = [_key(r) for r in parsed[impls[0]]]
    if shown is not None:
        keys = [k for k in keys if not isinstance(k, int) or shown[0] <= k <= shown[1]]  # GETs stay: not lines
    by_line = {impl: {_key(r): r for r in recs} for impl, recs in parsed.items()}
    for key in keys:
        first = by_line[impls[0]][key]
        # An overridden line's messages are in its record, not the answer key.
        cells = [_cell(by_line[i].get(key), groups.get(key, [])) for i in impls]
        if len({(by_line[i].get(key) or {}).get("status") for i in impls}) > 1:
            cells = [c + " (differs)" for c in cells]
        rows.append([_what(key, lines), _sent(first, overrides.get(key))] + cells)
    caption = ("HTTP records: " + ", ".join(f"`{r}`" for r in record_files) + ", written by "
               "`tools/run_examples.py` and verified by CI; the replies themselves are the answer key's.")
    table = [f"{indent}| " + " | ".join(row) + " |\n" for row in rows]
    return ["\n"] + table + ["\n", f"{indent}{caption}\n", f"{indent}{{: .example-caption }}\n", "\n"]


def _key(record: dict) -> object:
    return record["line"] if "line" in record else ("GET " + record["get"] if "get" in record else record["probe"])


def _what(key: object, lines: list[TranscriptLine]) -> str:
    if isinstance(key, str) and key.startswith("GET /"):
        return f"`{key}`"
    if not isinstance(key, int):
        return f"{key} `/mcp` (no body)"
    method = next((l.method for l in lines if l.number == key), None)
    return f"{key} `{method}`" if method else str(key)


def _sent(record: dict, reason: str | None) -> str:
    if "closes_stream_of" in record:
        return f"*nothing POSTed: the cancel is closing line {record['closes_stream_of']}'s response stream*"
    shown = "<br>".join(f"`{name}: {value}`" for name, value in record["request"].items())
    return shown + (f"<br>*on purpose: {_escape(reason)}*" if reason else "")


def _cell(record: dict | None, messages: list[bytes]) -> str:
    if record is None:
        return "not sent"
    if "closes_stream_of" in record:
        return f"closed line {record['closes_stream_of']}'s stream"
    if record["status"] is None:
        return f"closed by line {record['closed_by']} before a response began"
    media = MEDIA.get(record["headers"].get("content-type", "").split(";")[0].strip(), "")
    text = f"**{record['status']}**" + (f" {media}" if media else "")
    if record.get("sse"):
        text += ": " + _events(record["sse"])
    body = record.get("body")
    codes = wire_http.error_codes([body.encode("utf-8")] if body is not None else messages)
    if codes:
        text += " " + ", ".join(f"`{c}`" for c in codes)
    for name in ("allow", "www-authenticate"):
        value = record["headers"].get(name)
        if value:
            text += f" `{name.title()}: {_escape(value)}`"
    if "json" in record:
        text += ", `\\u` escapes"
    if "closed_by" in record:  # the events are listed above; then the client closed the stream
        text += f", then closed by line {record['closed_by']}: no response"
    return text


def _events(events: list[dict]) -> str:
    """An SSE stream's events in order, runs of one kind counted: `notifications/progress` ×3, then the reply; and
    the `event:` name they carried, if any (none means the SSE default, "message")."""
    runs: list[list] = []
    for event in events:
        kind = "the reply" if event["data"] == "response" else f"`{event['data']}`"
        if runs and runs[-1][0] == kind:
            runs[-1][1] += 1
        else:
            runs.append([kind, 1])
    said = ", then ".join(kind + (f" ×{n}" if n > 1 else "") for kind, n in runs)
    names = {event.get("event") for event in events}
    if names == {None}:
        return said + " (no `event:` line)"
    return said + "".join(f" (`event: {n}`)" for n in sorted(names, key=str) if n is not None)


def _escape(text: str) -> str:
    return text.replace("|", "\\|")
