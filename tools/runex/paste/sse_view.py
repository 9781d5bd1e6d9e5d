"""NAME/sse#LINE: one transcript line's POST as a reader sends it with curl, and the SSE stream each implementation
sent back, as its http.<impl>.jsonl recorded it (the stream as written, keep-alive comments left out).

The command is derived from the record (the headers the client sent) and the transcript line (the body); the
stream is the record's, which the tool writes and `--check` verifies, so nothing in the block is typed by hand. The
address is the one `serve NAME --http` suggests, where a reader can send the same request.
"""

from __future__ import annotations

import json

from . import markers

ADDRESS = "127.0.0.1:8000"  # commands.HTTP_DEFAULT: `serve --http`'s suggested address
SENT_BY_CURL = ("Accept", "Content-Type")  # the record leaves these out: every POST sends the same two


class NoStream(ValueError):
    """The line's record holds no SSE stream for any implementation."""


def render(name: str, line_number: int, raw_line: bytes, records: dict[str, bytes], files: dict[str, str],
           indent: str) -> list[str]:
    """One tab per implementation that answered the line with an SSE stream: the curl command, then the stream."""
    streams = {impl: rec for impl, data in records.items() if (rec := _record_of(data, line_number)) and
               "stream" in rec}
    if not streams:
        raise NoStream(f"no implementation of {name} answered transcript line {line_number} with an SSE stream "
                       f"(text/event-stream); show a line whose reply is one")
    out: list[str] = []
    for impl, record in streams.items():
        block = markers.fenced(_console(record, raw_line), "text", f"curl -N: transcript line {line_number}, "
                               f"{impl}", _caption(files[impl], record["stream"]), indent + "    ")
        out += ["\n", f'{indent}=== "{impl}"\n'] + block
    return out


def _record_of(data: bytes, line_number: int) -> dict | None:
    for raw in data.decode("utf-8").splitlines():
        record = json.loads(raw)
        if record.get("line") == line_number:
            return record
    return None


def _console(record: dict, raw_line: bytes) -> str:
    headers = [("Accept", "application/json, text/event-stream"), ("Content-Type", "application/json")]
    headers += [(k, v) for k, v in record["request"].items() if k not in SENT_BY_CURL]
    command = [f"$ curl -N -X POST http://{ADDRESS}/mcp \\"]
    command += [f"    -H {_quoted(f'{k}: {v}')} \\" for k, v in headers]
    command.append(f"    --data-raw {_quoted(raw_line.decode('utf-8').rstrip(chr(10)))}")
    stream = record["stream"].replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(command) + "\n" + stream


def _quoted(text: str) -> str:
    """Single-quoted for a POSIX shell: nothing inside is expanded; a ' closes, escapes and reopens."""
    return "'" + text.replace("'", "'\\''") + "'"


def _caption(record_file: str, stream: str) -> str:
    ends = "CRLF" if "\r\n" in stream else "LF"
    return (f"The stream as `{record_file}` recorded it (line ends {ends}, keep-alive comments left out), written "
            f"by `tools/run_examples.py` and verified by CI; never typed by hand.")
