"""The wire check: every stdout line is one JSON-RPC message, and every request is answered exactly once.

Schema validation of individual messages plugs in through `MessageValidator` (see schema.py); this module knows
only the JSON-RPC and stdio rules.
"""

from __future__ import annotations

import json
from typing import Protocol

from .problems import Problem
from .transcript import TranscriptLine, classify, valid_id


class MessageValidator(Protocol):
    """Validates one message body; returns human-readable findings such as "ttlMs missing"."""

    def check_request(self, method: str, params: object) -> list[str]: ...

    def check_result(self, method: str, result: object) -> list[str]: ...

    def check_error(self, error: object) -> list[str]: ...

    def check_notification(self, method: str, params: object) -> list[str]: ...


STDERR_HINT = "diagnostics belong on stderr (eprintln!, print(..., file=sys.stderr)), never on stdout"


def check_transcript_schema(lines: list[TranscriptLine], rel: str, validator: MessageValidator | None) -> list[Problem]:
    if validator is None:
        return []
    problems = []
    for line in lines:
        if line.kind == "request":
            for finding in validator.check_request(line.method, line.message.get("params")):
                problems.append(Problem("transcript-schema", rel, line.number, f"{line.method} request: {finding}"))
        elif line.kind == "notification":
            for finding in validator.check_notification(line.method, line.message.get("params")):
                problems.append(Problem("transcript-schema", rel, line.number,
                                        f"{line.method} notification: {finding}"))
    return problems


CANCELLED = "notifications/cancelled"


def check_late_cancels(lines: list[TranscriptLine], rel: str) -> list[Problem]:
    """`transcript-cancels-answered`: a cancel for a request written above it.

    The runner waits for each request's reply before it writes the next line, so such a cancel always arrives after
    the reply: the transcript's client cancels a request it knows is finished.
    """
    asked: dict[tuple[str, object], int] = {}
    problems = []
    for line in lines:
        if line.kind == "request" or (line.kind == "invalid" and line.reply_id is not None):
            asked.setdefault((type(line.reply_id).__name__, line.reply_id), line.number)
        elif line.kind == "notification" and line.method == CANCELLED:
            params = line.message.get("params")
            target = params.get("requestId") if isinstance(params, dict) else None
            earlier = asked.get((type(target).__name__, target)) if valid_id(target) else None
            if earlier is not None:
                problems.append(Problem(
                    "transcript-cancels-answered", rel, line.number,
                    f"{CANCELLED} names request {json.dumps(target)} (line {earlier}), which is already answered "
                    f"when this line is written: the runner waits for each reply before the next line. A client "
                    f"MUST only cancel requests it believes are still in progress (MCP 2026-07-28, "
                    f"basic/patterns/cancellation, Behavior Requirements). Remove the line, or declare it in "
                    f"example.toml if a late cancel is what the example shows"))
    return problems


def check_stdout(stdout: bytes, lines: list[TranscriptLine], rel_stdout: str, rel_transcript: str,
                 validator: MessageValidator | None = None) -> list[Problem]:
    problems: list[Problem] = []
    # A malformed line whose id can be read (one declared transcript-not-jsonrpc, say) is owed a reply with that id,
    # as the conversation waits for one.
    requests = {(type(l.reply_id).__name__, l.reply_id): l for l in lines
                if l.kind == "request" or (l.kind == "invalid" and l.reply_id is not None)}
    # Lines whose id cannot be read (a deliberately malformed line) are owed one reply with a null id each.
    null_owed = [l for l in lines if l.kind == "invalid" and l.reply_id is None]
    # A request with a lone surrogate may get its one reply with a null id instead (see TranscriptLine).
    null_allowed = [(type(l.reply_id).__name__, l.reply_id) for l in lines if l.null_reply_allowed]
    answered: dict[object, int] = {}

    chunks = stdout.split(b"\n")
    if chunks[-1] == b"":
        chunks.pop()
    elif stdout:
        problems.append(Problem("stdout-unterminated-line", rel_stdout, len(chunks),
                                "the last line has no newline; every message ends with \\n"))

    for number, raw in enumerate(chunks, start=1):
        def problem(rule: str, text: str) -> None:
            problems.append(Problem(rule, rel_stdout, number, text))

        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            problem("stdout-not-utf8", f"not UTF-8 (byte {exc.start}); messages must be UTF-8")
            continue
        try:
            message = json.loads(text)
        except ValueError:
            shown = text if len(text) <= 80 else text[:77] + "..."
            problem("stdout-not-a-message", f"not a JSON-RPC message on stdout: {shown!r}; the spec forbids "
                                            f"it (some clients give up on the server, others log it and read "
                                            f"on). {STDERR_HINT}")
            continue
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            problem("stdout-not-jsonrpc", 'not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0")')
            continue
        if "method" in message:
            if "id" in message:
                problem("stdout-server-request", f"the server sent a request ({message['method']}); servers "
                                                 f"must not send requests (use input_required results)")
            elif validator is not None and isinstance(message["method"], str):  # a notification: is it real?
                for finding in validator.check_notification(message["method"], message.get("params")):
                    problem("stdout-schema", f"{message['method']} notification: {finding}")
            continue
        has_result, has_error = "result" in message, "error" in message
        if has_result and has_error:
            problem("stdout-result-and-error", "a response carries both result and error")
            continue
        if not has_result and not has_error:
            problem("stdout-not-jsonrpc", "neither a request, a notification nor a response")
            continue
        if has_error:
            error = message["error"]
            if not (isinstance(error, dict) and isinstance(error.get("code"), int)
                    and not isinstance(error.get("code"), bool) and isinstance(error.get("message"), str)):
                problem("stdout-not-jsonrpc", 'error must be an object with an integer "code" and a string "message"')
                continue
        reply_id = message.get("id")
        if reply_id is None:
            if null_owed:
                null_owed.pop(0)
            elif (owed := next((k for k in null_allowed if k not in answered), None)) is not None:
                answered[owed] = number
            else:
                problem("stdout-reply-without-request",
                        "a response with a null id answers no line of the transcript; notifications get no reply")
            continue
        if not valid_id(reply_id):
            problem("stdout-not-jsonrpc", f"response id must be a string or an integer, got {json.dumps(reply_id)}")
            continue
        key = (type(reply_id).__name__, reply_id)
        request = requests.get(key)
        if request is None:
            problem("stdout-reply-without-request",
                    f"response id {json.dumps(reply_id)} was never asked; notifications get no reply")
            continue
        if key in answered:
            problem("stdout-duplicate-reply", f"id {json.dumps(reply_id)} was already answered on stdout line "
                                              f"{answered[key]}; each request gets exactly one reply")
            continue
        answered[key] = number
        if has_error and request.method == "server/discover" and not classify(request.number, request.raw, "")[1]:
            # Servers MUST implement server/discover (2026-07-28, server/discover): a well-formed one gets a result.
            problem("stdout-discover-failed", f"server/discover (transcript line {request.number}) was answered "
                                              f"with error {message['error'].get('code')}; every 2026-07-28 server "
                                              f"must implement it and answer with a DiscoverResult")
        if validator is not None and (has_error or request.kind == "request"):  # a malformed line has no method
            findings = (validator.check_result(request.method, message["result"]) if has_result
                        else validator.check_error(message["error"]))
            kind = "result" if has_result else "error"
            for finding in findings:
                problem("stdout-schema", f"{request.method} {kind}: {finding}")

    for key, request in requests.items():
        if key not in answered:
            problems.append(Problem("stdout-missing-reply", rel_transcript, request.number,
                                    f"request id {json.dumps(request.reply_id)} ({request.method}) got no reply"))
    for line in null_owed:
        problems.append(Problem("stdout-missing-reply", rel_transcript, line.number,
                                "this malformed line got no error reply with a null id"))
    return problems
