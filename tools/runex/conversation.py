"""Talk to a server the way a real client does: one line at a time, waiting for each request's reply.

Feeding the whole transcript at once and closing stdin is not enough: SDK servers answer concurrently (reply order
then varies) and drop requests still in flight when stdin closes.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .transcript import TranscriptLine

# What a server process may use. Generous for a small example, tight enough to stop a runaway.
CPU_SECONDS = 60
ADDRESS_SPACE_BYTES = 8 << 30
FILE_SIZE_BYTES = 64 << 20
STDERR_TAIL_BYTES = 64 << 10

SCRUBBED_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass
class RunResult:
    stdout: bytes
    stderr: bytes
    returncode: int | None
    failure: str | None  # None when the conversation completed and the server exited by itself
    seconds: float


def scrubbed_env(home: str) -> dict[str, str]:
    """The same small environment for every run: nothing inherited, nothing secret."""
    return {
        "PATH": SCRUBBED_PATH,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "HOME": home,
        "TMPDIR": home,
        "PYTHONDONTWRITEBYTECODE": "1",
    }


def _limit_resources(pid: int) -> None:
    """Cap the server right after it starts. prlimit from the parent, not preexec_fn in the child: preexec_fn is
    documented as unsafe when other threads run (-j), and the window before the caps apply is a few microseconds."""
    for limit, value in ((resource.RLIMIT_CPU, CPU_SECONDS), (resource.RLIMIT_AS, ADDRESS_SPACE_BYTES),
                         (resource.RLIMIT_FSIZE, FILE_SIZE_BYTES), (resource.RLIMIT_CORE, 0)):
        try:
            resource.prlimit(pid, limit, (value, value))
        except ProcessLookupError:
            return  # already gone: nothing left to cap


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
        self.replies: list[object] = []  # ids of the responses seen so far, in order; None for a null id
        self.selector = selectors.DefaultSelector()
        for stream in (proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
            self.selector.register(stream, selectors.EVENT_READ)

    def pump(self, deadline: float) -> None:
        """Read whatever is ready, waiting at most until `deadline`."""
        timeout = max(0.0, deadline - time.monotonic())
        if not self.selector.get_map():
            time.sleep(min(timeout, 0.01))
            return
        for key, _ in self.selector.select(timeout):
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

    def _scan_lines(self) -> None:
        while True:
            end = self.stdout.find(b"\n", self._scanned)
            if end < 0:
                return
            line = bytes(self.stdout[self._scanned:end])
            self._scanned = end + 1
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and "method" not in message and ("result" in message or "error" in message):
                self.replies.append(_id_key(message.get("id")))


def _id_key(value: object) -> object:
    """JSON-RPC ids compare by type and value: 1, "1" and true are three different things."""
    return None if value is None else (type(value).__name__, value)


def converse(cmd: list[str], lines: list[TranscriptLine], *, timeout: float, max_output: int,
             cwd_parent: Path | None = None) -> RunResult:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="run-example-", dir=cwd_parent) as home:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=home, env=scrubbed_env(home), process_group=0,
        )
        _limit_resources(proc.pid)
        pipes = _Pipes(proc, max_output)
        os.set_blocking(proc.stdin.fileno(), False)  # a server that stops reading must not block the tool
        try:
            failure = _feed(proc, pipes, lines, timeout)
            if failure is None:
                failure = _await_exit(proc, pipes, timeout)
        finally:
            _kill_group(proc)
            proc.wait()
            for stream in (proc.stdin, proc.stdout, proc.stderr):
                try:
                    stream.close()
                except OSError:
                    pass
        return RunResult(bytes(pipes.stdout), bytes(pipes.stderr), proc.returncode, failure,
                         time.monotonic() - started)


def _feed(proc: subprocess.Popen, pipes: _Pipes, lines: list[TranscriptLine], timeout: float) -> str | None:
    answered = 0  # how many replies have been matched to transcript lines so far
    for line in lines:
        try:
            written = _write(proc, pipes, line.raw + b"\n", time.monotonic() + timeout)
        except BrokenPipeError:
            return (f"the server closed its stdin before transcript line {line.number} was written "
                    f"(exit status {proc.poll()})")
        if not written:
            return _flood_message(pipes) if pipes.flooded else (
                f"hang: the server stopped reading its stdin; transcript line {line.number} could not be "
                f"written within {timeout:g} s")
        if not line.expects_reply:
            continue
        want = {_id_key(line.reply_id)} | ({None} if line.null_reply_allowed else set())
        deadline = time.monotonic() + timeout
        while want.isdisjoint(pipes.replies[answered:]):
            if pipes.flooded:
                return _flood_message(pipes)
            if pipes.stdout_eof:
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    return (f"hang: the server closed its stdout without answering transcript line "
                            f"{line.number} (id {line.reply_id!r}) and did not exit within {timeout:g} s")
                return (f"the server exited (status {proc.returncode}) without answering transcript line "
                        f"{line.number} (id {line.reply_id!r})")
            if time.monotonic() >= deadline:
                others = [key[1] if key else None for key in pipes.replies[answered:]]
                if others:  # it did answer, under another id: say so, that is the bug to fix
                    return (f"no reply with id {line.reply_id!r} to transcript line {line.number} within "
                            f"{timeout:g} s; the server answered with id(s) "
                            f"{', '.join(repr(o) for o in others)} instead")
                return (f"hang: no reply to transcript line {line.number} (id {line.reply_id!r}) within "
                        f"{timeout:g} s; does the server flush stdout after each line? (raise `timeout` in "
                        f"example.toml if it is only slow)")
            pipes.pump(deadline)
        answered = len(pipes.replies)
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
        pipes.pump(min(deadline, time.monotonic() + 0.01))
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


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
