"""The paced stdio driver: the lockstep driver's pipes (run/stdio.py), with writes paced by example.toml's [[send]].

Before each line the runner waits for what the plan says (wire/accounting.py): every reply still owed (a line with
no [[send]]), nothing (`no_wait`), or one message related to an earlier line (`wait_for`, `of_line`). A request
that a `notifications/cancelled` line cancels in flight is owed no reply any more.

The answer key cannot be stdout as it came: with several requests in flight, the order of their messages depends on
timing. It is recorded in an order that does not: for each transcript line in order, the messages that belong to it
(its progress, its listen stream, its reply) in the order the server wrote them; then every line that belongs to no
request (stray text, unknown ids), in the order it came. Arrival order is a timing fact: the runner checks the one
an example declares (`answered_before`) and fails the run when it did not hold.
"""

from __future__ import annotations

import subprocess
import time
from typing import Callable

from .. import sandboxing
from ..wire import accounting
from ..wire.pairing import Ledger
from ..wire.protocol import id_key
from ..wire.transcript import TranscriptLine
from . import stdio
from .driver import RunResult


class Paced:
    """A Driver (run/driver.py) for an example with [[send]] tables."""

    def __init__(self, sends: tuple[accounting.Send, ...]):
        self.sends = sends

    def converse(self, spec_for: Callable[[str], sandboxing.Spec], lines: list[TranscriptLine], *, timeout: float,
                 max_output: int, sandbox: sandboxing.Sandbox, cwd_parent=None) -> RunResult:
        talk = _Conversation(lines, self.sends)
        result = stdio.converse(spec_for, lines, timeout=timeout, max_output=max_output, sandbox=sandbox,
                                cwd_parent=cwd_parent, feed=talk.feed)
        result.stdout = talk.recorded(result.stdout)
        if result.failure is None:
            result.failure = talk.order_failure()
        return result


class _Conversation:
    def __init__(self, lines: list[TranscriptLine], sends: tuple[accounting.Send, ...]):
        self.lines = lines
        self.paced = accounting.by_line(sends)
        self.plan = accounting.plan(lines, sends)
        self.ledger: Ledger[TranscriptLine] = Ledger()
        self.streams = accounting.Streams()
        self.arrivals: list[tuple[bytes, int | None]] = []  # each whole stdout line, with the line it belongs to
        self.seen: dict[tuple[str, int], int] = {}  # (method or "reply", line) -> how many came
        self.replies: list[int] = []  # transcript lines in the order their replies came
        self.written: list[TranscriptLine] = []

    def on_line(self, raw: bytes, message: object) -> None:
        owner = None
        if isinstance(message, dict) and "method" not in message and ("result" in message or "error" in message):
            answered = self.ledger.answer(message.get("id"))
            if answered is not None:
                owner = answered.line
                if not answered.duplicate:
                    self.streams.close(owner)
                    self.replies.append(owner.number)
                    self._count(accounting.REPLY, owner.number)
        elif isinstance(message, dict):
            owner = self.streams.owner(message)
            if owner is not None:
                self._count(message.get("method"), owner.number)
        self.arrivals.append((raw, owner.number if owner is not None else None))

    def _count(self, what: str, number: int) -> None:
        self.seen[(what, number)] = self.seen.get((what, number), 0) + 1

    def owed(self) -> list[TranscriptLine]:
        """Written lines still owed a reply, the ones cancelled in flight left out."""
        return [l for l in self.ledger.unanswered() if l.number not in self.plan.cancelled]

    def feed(self, proc: subprocess.Popen, pipes, lines: list[TranscriptLine], timeout: float) -> str | None:
        pipes.on_line = self.on_line
        for line in lines:
            failure = self._gate(proc, pipes, line, timeout) or self._raced(line)
            if failure is not None:
                return failure
            if line.expects_reply:  # owed before it is written: its reply may come while it is being written
                self.ledger.owe(line, id_key(line.reply_id), null_allowed=line.null_reply_allowed)
                self.streams.open(line, line.message)
            try:
                written = stdio._write(proc, pipes, line.raw + b"\n", time.monotonic() + timeout)
            except BrokenPipeError:
                return (f"the server closed its stdin before transcript line {line.number} was written "
                        f"(exit status {stdio._status(proc) if proc.poll() is not None else None})")
            if not written:
                return stdio._flood_message(pipes) if pipes.flooded else (
                    f"hang: the server stopped reading its stdin; transcript line {line.number} could not be "
                    f"written within {timeout:g} s")
            pipes.sent += 1
        return self._wait(proc, pipes, lambda: not self.owed(), timeout, self._replies_text)

    def _gate(self, proc, pipes, line: TranscriptLine, timeout: float) -> str | None:
        send = self.paced.get(line.number)
        if send is None:
            return self._wait(proc, pipes, lambda: not self.owed(), timeout,
                              lambda: f"before transcript line {line.number}, {self._replies_text()}")
        if send.no_wait:
            return None
        key = (send.wait_for, send.of_line)
        what = ("the reply" if send.wait_for == accounting.REPLY else send.wait_for)

        def late() -> str:
            return (f"example.toml line {send.at}: [[send]] for transcript line {line.number} waits for {what} of "
                    f"transcript line {send.of_line}, and the server wrote none")
        return self._wait(proc, pipes, lambda: self.seen.get(key, 0) > 0, timeout, late)

    def _replies_text(self) -> str:
        owed = self.owed()
        return ("no reply to transcript line" + ("s " if len(owed) > 1 else " ")
                + ", ".join(f"{l.number} (id {l.reply_id!r})" for l in owed))

    def _raced(self, line: TranscriptLine) -> str | None:
        """A cancel of a request in flight whose reply already came: the race the spec allows, which an example
        cannot show a cancel with."""
        target = next((r for r, c in self.plan.cancelled.items() if c == line.number), None)
        if target is None or (accounting.REPLY, target) not in self.seen:
            return None
        return (f"transcript line {line.number} cancels line {target}, but line {target}'s reply reached the runner "
                f"before the cancel was written: the cancel raced the reply (a race the spec allows, so nothing to "
                f"show); make line {target}'s request wait until it is cancelled, and send line {line.number} with "
                f"wait_for its first progress in example.toml")

    def _wait(self, proc, pipes, ready: Callable[[], bool], timeout: float, what: Callable[[], str]) -> str | None:
        deadline = time.monotonic() + timeout
        while not ready():
            if pipes.flooded:
                return stdio._flood_message(pipes)
            if pipes.stdout_eof:
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    return f"hang: the server closed its stdout and did not exit within {timeout:g} s: {what()}"
                return f"the server exited (status {stdio._status(proc)}): {what()}"
            if time.monotonic() >= deadline:
                return (f"hang: {what()} within {timeout:g} s (raise `timeout` in example.toml if the server is "
                        f"only slow)")
            pipes.pump(deadline)
        return None

    def order_failure(self) -> str | None:
        """The first declared arrival order (answered_before) that did not hold, or None."""
        for send in self.paced.values():
            if send.answered_before is None:
                continue
            first, second = send.line, send.answered_before
            if first in self.replies and second in self.replies and \
                    self.replies.index(first) > self.replies.index(second):
                return (f"example.toml line {send.at}: [[send]] says transcript line {first} is answered before "
                        f"line {second}, but line {second}'s reply came first; the example races: give line "
                        f"{second}'s request more work, or drop answered_before")
        return None

    def recorded(self, stdout: bytes) -> bytes:
        """What the answer key records: each transcript line's messages in transcript order, in the order the server
        wrote them; then the lines that belong to none; a last line without its newline stays last."""
        tail = stdout[stdout.rfind(b"\n") + 1:]
        ordered = [raw for number in range(1, len(self.lines) + 1)
                   for raw, owner in self.arrivals if owner == number]
        ordered += [raw for raw, owner in self.arrivals if owner is None]
        return b"".join(raw + b"\n" for raw in ordered) + tail
