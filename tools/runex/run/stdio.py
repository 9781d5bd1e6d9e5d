"""The stdio driver (run/driver.py): talk to a server the way a real client does, over its stdin and stdout, one line
at a time, waiting for each request's reply.

Feeding the whole transcript at once and closing stdin is not enough: SDK servers answer concurrently (reply order
then varies) and drop requests still in flight when stdin closes.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import selectors
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable

from .. import sandboxing
from ..wire.protocol import id_key
from ..wire.transcript import TranscriptLine
from ..examples.model import STDERR_TAIL_BYTES
from .driver import RunResult

class _Pipes:
    """Non-blocking reads of stdout (kept whole, up to a cap) and stderr (only its tail is kept)."""

    def __init__(self, proc: subprocess.Popen, max_output: int):
        self.proc = proc
        self.max_output = max_output
        self.stdout = bytearray()
        self.stderr = bytearray()
        self.stdout_eof = False
        self.flooded = False
        self._scanned = 0  # stdout bytes already split into lines
        self.sent = 0  # transcript lines written in full
        # Ids of the responses seen and not yet matched to a transcript line (None for a null id). A multiset, not
        # a position in a list: a reply that arrives early (even before its request was written) is still found,
        # so the verdict never depends on timing.
        self.unmatched: collections.Counter = collections.Counter()
        self.on_line = None  # called with (line bytes, parsed message or None) for each whole stdout line
        self.selector = selectors.DefaultSelector()
        for stream in (proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ)

    def pump(self, deadline: float, writer=None) -> bool:
        """Read whatever is ready, waiting at most until `deadline`, or until `writer` (the server's stdin) can
        take more. Returns True when the writer is ready."""
        timeout = max(0.0, deadline - time.monotonic())
        if writer is not None:
            self.selector.register(writer, selectors.EVENT_WRITE)
        try:
            if not self.selector.get_map():
                time.sleep(min(timeout, 0.01))
                return False
            ready = self.selector.select(timeout)
        finally:
            if writer is not None:
                self.selector.unregister(writer)
        writable = False
        for key, events in ready:
            if key.fileobj is writer:
                writable = True
                continue
            chunk = os.read(key.fd, 65536)
            if key.fileobj is self.proc.stdout:
                if not chunk:
                    self.stdout_eof = True
                    self.selector.unregister(key.fileobj)
                    continue
                self.stdout += chunk
                if len(self.stdout) > self.max_output:
                    self.flooded = True
                self._scan_lines()
            else:
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                self.stderr += chunk
                if len(self.stderr) > STDERR_TAIL_BYTES:
                    del self.stderr[: len(self.stderr) - STDERR_TAIL_BYTES]
        return writable

    def _scan_lines(self) -> None:
        while True:
            end = self.stdout.find(b"\n", self._scanned)
            if end < 0:
                return
            line = bytes(self.stdout[self._scanned:end])
            self._scanned = end + 1
            try:  # a stray non-UTF-8 byte must not hide the reply: the wire check names that byte later
                message = json.loads(line.decode("utf-8", "surrogateescape"))
            except ValueError:
                message = None
            if isinstance(message, dict) and "method" not in message and ("result" in message or "error" in message):
                self.unmatched[id_key(message.get("id"))] += 1
            if self.on_line is not None:
                self.on_line(line, message)


class Lockstep:
    """The stdio Driver: write a line, wait for its reply, write the next; then close stdin and await the exit."""

    def converse(self, spec_for: Callable[[str], sandboxing.Spec], lines: list[TranscriptLine], *, timeout: float,
                 max_output: int, sandbox: sandboxing.Sandbox, cwd_parent: Path | None = None) -> RunResult:
        return converse(spec_for, lines, timeout=timeout, max_output=max_output, sandbox=sandbox,
                        cwd_parent=cwd_parent)


def converse(spec_for: Callable[[str], sandboxing.Spec], lines: list[TranscriptLine], *, timeout: float,
             max_output: int, sandbox: sandboxing.Sandbox, cwd_parent: Path | None = None, feed=None) -> RunResult:
    """Start the server from `spec_for(home)` (home: its writable working directory, /tmp in the sandbox) and
    hold the conversation. `feed(proc, pipes, lines, timeout)` writes the lines (lockstep by default; run/paced.py
    paces them otherwise) and returns why it stopped, or None."""
    started = time.monotonic()
    workdir = (contextlib.nullcontext("/tmp") if sandbox.enabled
               else tempfile.TemporaryDirectory(prefix="run-example-", dir=cwd_parent))
    with workdir as home:
        proc = sandbox.popen_pipes(spec_for(home), host_cwd=None if sandbox.enabled else home)
        pipes = _Pipes(proc, max_output)
        os.set_blocking(proc.stdin.fileno(), False)  # a server that stops reading must not block the tool
        try:
            failure = (feed or _feed)(proc, pipes, lines, timeout)
            if failure is None:
                failure = _await_exit(proc, pipes, timeout)
        finally:
            sandboxing.kill(proc)
            proc.wait()
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    stream.close()
                except OSError:
                    pass
        return RunResult(bytes(pipes.stdout), bytes(pipes.stderr), _status(proc), failure,
                         time.monotonic() - started, lines_sent=pipes.sent)


def _status(proc: subprocess.Popen) -> int | None:
    """The exit status, with a death by signal as -N whether or not a sandbox ran it: bwrap passes a command's
    death by signal N on as its own exit status 128+N."""
    code = proc.returncode
    if getattr(proc, "sandboxed", False) and code is not None and 128 < code < 128 + 65:
        return 128 - code
    return code


def _feed(proc: subprocess.Popen, pipes: _Pipes, lines: list[TranscriptLine], timeout: float) -> str | None:
    for line in lines:
        try:
            written = _write(proc, pipes, line.raw + b"\n", time.monotonic() + timeout)
        except BrokenPipeError:
            return (f"the server closed its stdin before transcript line {line.number} was written "
                    f"(exit status {_status(proc) if proc.poll() is not None else None})")
        if not written:
            return _flood_message(pipes) if pipes.flooded else (
                f"hang: the server stopped reading its stdin; transcript line {line.number} could not be "
                f"written within {timeout:g} s")
        pipes.sent += 1
        if not line.expects_reply:
            continue
        # A declared lone-surrogate request may be answered under its id or, by a parser that refuses the line,
        # with a null id: wait for either, and count off the first one there.
        wants = [id_key(line.reply_id)] + ([None] if line.null_reply_allowed else [])
        deadline = time.monotonic() + timeout
        while not any(pipes.unmatched[w] > 0 for w in wants):
            if pipes.flooded:
                return _flood_message(pipes)
            if pipes.stdout_eof:
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    return (f"hang: the server closed its stdout without answering transcript line "
                            f"{line.number} (id {line.reply_id!r}) and did not exit within {timeout:g} s")
                return (f"the server exited (status {_status(proc)}) without answering transcript line "
                        f"{line.number} (id {line.reply_id!r})")
            if time.monotonic() >= deadline:
                others = [key[1] if key else None for key in pipes.unmatched.elements()]
                if others:  # it did answer, under another id: say so, that is the bug to fix
                    return (f"no reply with id {line.reply_id!r} to transcript line {line.number} within "
                            f"{timeout:g} s; the server answered with id(s) "
                            f"{', '.join(repr(o) for o in others)} instead")
                return (f"hang: no reply to transcript line {line.number} (id {line.reply_id!r}) within "
                        f"{timeout:g} s; does the server flush stdout after each line? (raise `timeout` in "
                        f"example.toml if it is only slow)")
            pipes.pump(deadline)
        pipes.unmatched[next(w for w in wants if pipes.unmatched[w] > 0)] -= 1
    return None


def _write(proc: subprocess.Popen, pipes: _Pipes, data: bytes, deadline: float) -> bool:
    """Write `data` to the server's (non-blocking) stdin, draining its output meanwhile. False when the server
    floods or the deadline passes first."""
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(proc.stdin.fileno(), view):]
            continue
        except BlockingIOError:
            pass
        if pipes.flooded or time.monotonic() >= deadline:
            return False
        pipes.pump(deadline, writer=proc.stdin)  # wakes as soon as the pipe has room: feeding at pipe speed
    return True


def _await_exit(proc: subprocess.Popen, pipes: _Pipes, timeout: float) -> str | None:
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    deadline = time.monotonic() + timeout
    hang = (f"hang: the server did not exit within {timeout:g} s after its stdin was closed; "
            f"a stdio server must exit on end of input")
    while not pipes.stdout_eof:
        if pipes.flooded:
            return _flood_message(pipes)
        if time.monotonic() >= deadline:
            return hang
        pipes.pump(deadline)
    try:  # stdout is closed: the process is exiting, or holds on without its stdout
        proc.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return hang
    # Drain what stderr still holds.
    while pipes.selector.get_map() and time.monotonic() < deadline:
        pipes.pump(min(deadline, time.monotonic() + 0.05))
    return _flood_message(pipes) if pipes.flooded else None


def _flood_message(pipes: _Pipes) -> str:
    return (f"flood: the server wrote more than {pipes.max_output} bytes to stdout and was stopped "
            f"(raise `max_output_bytes` in example.toml if that much output is intended)")
