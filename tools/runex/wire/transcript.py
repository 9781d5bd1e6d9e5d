"""The transcript: what the client writes, one JSON-RPC message per line, checked before it is fed to a server."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from .protocol import PROTOCOL_VERSION, REQUIRED_META_KEYS, id_key, valid_id
from .rules import Problem


@dataclass(frozen=True)
class TranscriptLine:
    number: int
    raw: bytes
    message: object  # the parsed JSON value, or None when the line is not JSON
    kind: str  # "request", "notification", "response" (a client must not send one) or "invalid"

    @property
    def method(self) -> str | None:
        return self.message.get("method") if isinstance(self.message, dict) else None

    @property
    def reply_id(self) -> object:
        """The id the reply must carry: the request's id, or null for a line whose id cannot be read."""
        if isinstance(self.message, dict) and valid_id(self.message.get("id")):
            return self.message["id"]
        return None

    @property
    def expects_reply(self) -> bool:
        return self.kind not in ("notification", "response")  # nobody answers a response

    @property
    def null_reply_allowed(self) -> bool:
        """A request with a lone surrogate may be answered with a null id: a parser that refuses the line (serde_json
        does) cannot read its id. A lenient one (Python's json) reads on and answers with the id."""
        return self.kind == "request" and has_lone_surrogate(self.message)


def has_lone_surrogate(value: object) -> bool:
    """A string holding half of a UTF-16 surrogate pair, such as "\\ud800": no Unicode character, so not UTF-8."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def read(path: Path, rel: str) -> tuple[list[TranscriptLine], list[Problem]]:
    return parse(path.read_bytes(), rel)


def parse(data: bytes, rel: str) -> tuple[list[TranscriptLine], list[Problem]]:
    """A transcript's bytes as lines, and the problems of each (`rel` names the file in them)."""
    problems: list[Problem] = []
    lines: list[TranscriptLine] = []
    seen_ids: dict[object, int] = {}
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    for number, raw in enumerate(raw_lines, start=1):
        line, found = classify(number, raw, rel)
        problems.extend(found)
        if line.kind == "request":
            key = id_key(line.message["id"])
            if key in seen_ids:
                problems.append(Problem("transcript-duplicate-id", rel, number,
                                        f"request id {line.message['id']!r} was already used on line "
                                        f"{seen_ids[key]}; ids must be unique within a transcript"))
            seen_ids.setdefault(key, number)
        lines.append(line)
    if not lines:
        problems.append(Problem("transcript-not-json", rel, 1, "the transcript is empty"))
    return lines, problems


def classify(number: int, raw: bytes, rel: str) -> tuple[TranscriptLine, list[Problem]]:
    def problem(rule: str, text: str) -> Problem:
        return Problem(rule, rel, number, text)

    try:
        message = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        return TranscriptLine(number, raw, None, "invalid"), [problem("transcript-not-json", f"not JSON: {exc}")]
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return TranscriptLine(number, raw, message, "invalid"), [
            problem("transcript-not-jsonrpc", 'not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0")')]
    if "method" not in message:
        if "result" in message or "error" in message:
            return TranscriptLine(number, raw, message, "response"), [
                problem("transcript-response", "a client must not write responses to the server")]
        return TranscriptLine(number, raw, message, "invalid"), [
            problem("transcript-not-jsonrpc", 'no "method": neither a request nor a notification')]
    if not isinstance(message["method"], str):
        return TranscriptLine(number, raw, message, "invalid"), [
            problem("transcript-not-jsonrpc", '"method" must be a string')]

    problems: list[Problem] = []
    if "_meta" in message:
        problems.append(problem("transcript-meta-beside-params",
                                '"_meta" sits beside "params"; it belongs inside them, as params._meta'))
    if "id" not in message:
        return TranscriptLine(number, raw, message, "notification"), problems
    if not valid_id(message["id"]):
        problems.append(problem("transcript-bad-id", f"request id must be a string or an integer, "
                                                     f"got {json.dumps(message['id'])}"))
        return TranscriptLine(number, raw, message, "invalid"), problems

    if has_lone_surrogate(message):
        problems.append(problem("transcript-lone-surrogate",
                                "a string holds a lone surrogate (half of a \\uD800-\\uDFFF pair), which is no "
                                "character, and RFC 8259 section 8.2 calls what a parser does with it unpredictable: a "
                                "strict one refuses the line (-32700, id null), a lenient one reads on. Either reply is "
                                "accepted; declare the line in example.toml if sending it is the point"))
    params = message.get("params")
    if "_meta" in message:
        pass  # already reported as meta-beside-params: one fault, one finding
    elif not isinstance(params, dict):
        problems.append(problem("transcript-params-missing",
                                f'{message["method"]} request has no "params" object; every request in '
                                f'{PROTOCOL_VERSION} carries params._meta'))
    elif not isinstance(params.get("_meta"), dict):
        problems.append(problem("transcript-meta-missing",
                                f'{message["method"]} request has no params._meta; every request carries it'))
    else:
        missing = [key for key in REQUIRED_META_KEYS if key not in params["_meta"]]
        if missing:
            problems.append(problem("transcript-meta-key-missing",
                                    f"params._meta lacks required key(s): {', '.join(missing)}"))
    return TranscriptLine(number, raw, message, "request"), problems
