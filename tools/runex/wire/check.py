"""The wire check: every stdout line is one JSON-RPC message, and every request is answered exactly once.

Schema validation of individual messages plugs in through `MessageValidator` (see schema/validator.py); this module
knows only the JSON-RPC and stdio rules.
"""

from __future__ import annotations

import json
from typing import Protocol

from . import accounting
from .accounting import cancel_target
from .inflight import InFlight
from .pairing import Ledger
from .protocol import CANCELLED, DISCOVER, id_key, valid_id
from .rules import Problem
from .transcript import TranscriptLine, classify


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


def check_late_cancels(lines: list[TranscriptLine], rel: str, sends: tuple = ()) -> list[Problem]:
    """`transcript-cancels-answered`: a cancel for a request whose reply the runner awaits before it writes the cancel.

    In lockstep the runner waits for each request's reply before it writes the next line, so a cancel for a request
    above it always arrives after the reply: the transcript's client cancels a request it knows is finished. Only a
    line example.toml's [[send]] lets go before that reply (wire/accounting.py) cancels a request in flight.
    """
    problems = []
    for number, earlier in accounting.plan(lines, sends).late_cancels:
        line = lines[number - 1]
        target = cancel_target(line.message)
        problems.append(Problem(
            "transcript-cancels-answered", rel, number,
            f"{CANCELLED} names request {json.dumps(target)} (line {earlier}), which is already answered "
            f"when this line is written: the runner waits for each reply before the next line. A client "
            f"MUST only cancel requests it believes are still in progress (MCP 2026-07-28, "
            f"basic/patterns/cancellation, Behavior Requirements). Remove the line, send it without waiting "
            f"([[send]] in example.toml), or declare it in example.toml if a late cancel is what the example "
            f"shows"))
    return problems


def owed_replies(lines: list[TranscriptLine], cancelled: frozenset[int] | set[int] = frozenset()
                 ) -> Ledger[TranscriptLine]:
    """Every line that expects a reply, owed one (pairing.py). A malformed line whose id can be read (one declared
    transcript-not-jsonrpc, say) is owed a reply with that id, as the runner waits for one; one whose id cannot be
    read is owed one reply with a null id; a request with a lone surrogate may get its one reply with a null id.
    A request cancelled in flight (the line numbers in `cancelled`) is owed none."""
    ledger: Ledger[TranscriptLine] = Ledger()
    for line in lines:
        if line.kind in ("request", "invalid") and line.number not in cancelled:
            ledger.owe(line, id_key(line.reply_id), null_allowed=line.null_reply_allowed)
    return ledger


def check_stdout(stdout: bytes, lines: list[TranscriptLine], rel_stdout: str, rel_transcript: str,
                 validator: MessageValidator | None = None, sends: tuple = ()) -> list[Problem]:
    """Every problem of a run's stdout, in stdout order, then the requests it left unanswered. `sends`: example.toml's
    [[send]] tables, which say what is in flight when (wire/accounting.py)."""
    problems: list[Problem] = []
    flight = InFlight(lines, sends)
    ledger = owed_replies(lines, set(flight.plan.cancelled))
    chunks = stdout.split(b"\n")
    if chunks[-1] == b"":
        chunks.pop()
    elif stdout:
        problems.append(Problem("stdout-unterminated-line", rel_stdout, len(chunks),
                                "the last line has no newline; every message ends with \\n"))
    for number, raw in enumerate(chunks, start=1):
        problems += [Problem(rule, rel_stdout, number, text)
                     for rule, text in _line_problems(raw, number, ledger, flight, validator)]
    for line in ledger.unanswered():
        if line.reply_id is None:
            problems.append(Problem("stdout-missing-reply", rel_transcript, line.number,
                                    "this malformed line got no error reply with a null id"))
        else:
            problems.append(Problem("stdout-missing-reply", rel_transcript, line.number,
                                    f"request id {json.dumps(line.reply_id)} ({line.method}) got no reply"))
    return problems


Found = list[tuple[str, str]]  # (rule, message) for one stdout line


def _line_problems(raw: bytes, number: int, ledger: Ledger[TranscriptLine], flight: InFlight,
                   validator: MessageValidator | None) -> Found:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [("stdout-not-utf8", f"not UTF-8 (byte {exc.start}); messages must be UTF-8")]
    try:
        message = json.loads(text)
    except ValueError:
        shown = text if len(text) <= 80 else text[:77] + "..."
        return [("stdout-not-a-message", f"not a JSON-RPC message on stdout: {shown!r}; the spec forbids it (some "
                                         f"clients give up on the server, others log it and read on). {STDERR_HINT}")]
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return [("stdout-not-jsonrpc", 'not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0")')]
    if "method" in message:
        found = _server_message_problems(message, validator)
        return found if "id" in message else found + flight.notification(message)
    return _reply_problems(message, number, ledger, flight, validator)


def _server_message_problems(message: dict, validator: MessageValidator | None) -> Found:
    if "id" in message:
        return [("stdout-server-request", f"the server sent a request ({message['method']}); servers must not send "
                                          f"requests (use input_required results)")]
    if validator is None or not isinstance(message["method"], str):
        return []
    return [("stdout-schema", f"{message['method']} notification: {finding}")  # a notification: is it real?
            for finding in validator.check_notification(message["method"], message.get("params"))]


def _reply_problems(message: dict, number: int, ledger: Ledger[TranscriptLine], flight: InFlight,
                    validator: MessageValidator | None) -> Found:
    has_result, has_error = "result" in message, "error" in message
    if has_result and has_error:
        return [("stdout-result-and-error", "a response carries both result and error")]
    if not has_result and not has_error:
        return [("stdout-not-jsonrpc", "neither a request, a notification nor a response")]
    error = message.get("error")
    if has_error and not (isinstance(error, dict) and isinstance(error.get("code"), int)
                          and not isinstance(error.get("code"), bool) and isinstance(error.get("message"), str)):
        return [("stdout-not-jsonrpc", 'error must be an object with an integer "code" and a string "message"')]
    reply_id = message.get("id")
    if reply_id is not None and not valid_id(reply_id):
        return [("stdout-not-jsonrpc", f"response id must be a string or an integer, got {json.dumps(reply_id)}")]
    answered = ledger.answer(reply_id, number)
    if answered is None and flight.stray_reply(reply_id):
        return flight.stray_reply(reply_id)
    if answered is None:
        return [("stdout-reply-without-request",
                 "a response with a null id answers no line of the transcript; notifications get no reply"
                 if reply_id is None else
                 f"response id {json.dumps(reply_id)} was never asked; notifications get no reply")]
    if answered.duplicate:
        return [("stdout-duplicate-reply", f"id {json.dumps(reply_id)} was already answered on stdout line "
                                           f"{answered.earlier}; each request gets exactly one reply")]
    flight.answered(answered.line)
    if reply_id is None:
        return []
    return _answer_problems(message, answered.line, validator)


def _answer_problems(message: dict, request: TranscriptLine, validator: MessageValidator | None) -> Found:
    found: Found = []
    if "error" in message and request.method == DISCOVER and not classify(request.number, request.raw, "")[1]:
        # Servers MUST implement server/discover (2026-07-28, server/discover): a well-formed one gets a result.
        found.append(("stdout-discover-failed", f"server/discover (transcript line {request.number}) was answered "
                                                f"with error {message['error'].get('code')}; every 2026-07-28 server "
                                                f"must implement it and answer with a DiscoverResult"))
    if validator is not None and ("error" in message or request.kind == "request"):  # a malformed line: no method
        findings = (validator.check_result(request.method, message["result"]) if "result" in message
                    else validator.check_error(message["error"]))
        kind = "result" if "result" in message else "error"
        found += [("stdout-schema", f"{request.method} {kind}: {finding}") for finding in findings]
    return found
