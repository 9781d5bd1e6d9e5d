"""The server of an HTTP run as a process: started in its sandbox with stdin on /dev/null, its stdout and stderr
drained (a server must never block on a full pipe), its loopback reachable (loopback.py), stopped with SIGTERM.

Sandboxed, the process the tool started is bwrap: the sandbox's first process (its PID 1, named by --info-fd) has
the server as its one child, and bwrap exits with the server's status, a death by signal N as 128 + N."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading

from .. import sandboxing
from ..loopback import Loopback

SIGNALLED = 128  # bwrap's status for a child killed by signal N is 128 + N


class Drain:
    """What the server writes to one pipe: the first `limit` bytes kept (or with `tail`, the last), the rest read
    and dropped."""

    def __init__(self, pipe, limit: int, *, tail: bool = False):
        self.pipe, self.limit, self.tail, self.kept = pipe, limit, tail, bytearray()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with self.pipe:
            for chunk in iter(lambda: self.pipe.read1(65536), b""):
                if self.tail:
                    self.kept = (self.kept + chunk)[-self.limit:]
                else:
                    self.kept += chunk[:max(0, self.limit - len(self.kept))]

    def written(self, grace: float) -> bytes:
        self.thread.join(grace)
        return bytes(self.kept)


class ServerProcess:
    """`capture`: the first `max_output` bytes of stdout and the last `stderr_tail` of stderr kept (a run); without
    it both go where the tool's own go (`serve --http`)."""

    def __init__(self, spec: sandboxing.Spec, sandbox: sandboxing.Sandbox, max_output: int = 0,
                 stderr_tail: int = 0, *, capture: bool = True):
        output = subprocess.PIPE if capture else None
        pipes = dict(stdin=subprocess.DEVNULL, stdout=output, stderr=output)
        self.first = None  # sandboxed: the sandbox's PID 1, as this side sees it
        if sandbox.enabled:
            info_read, info_write = os.pipe()
            try:
                self.proc = sandbox.popen(spec, info_fd=info_write, **pipes)
            finally:
                os.close(info_write)
            self.first = _child_pid(info_read)
        else:
            self.proc = sandbox.popen(spec, **pipes)
        if capture:
            self.stdout = Drain(self.proc.stdout, max_output)
            self.stderr = Drain(self.proc.stderr, stderr_tail, tail=True)
        self.loopback = Loopback.inside(self.first) if self.first is not None else Loopback.here()

    def exited(self) -> int | None:
        """The server's exit status once it has one; a death by signal N is -N, sandboxed or not."""
        status = self.proc.poll()
        if status is not None and self.first is not None and status > SIGNALLED:
            return SIGNALLED - status
        return status

    def stop(self, grace: float) -> int:
        """SIGTERM, then the whole sandbox killed after `grace` seconds; the exit status as `exited` gives it."""
        self.loopback.close()
        server = self._server_pid()
        if server is not None:
            try:
                os.kill(server, signal.SIGTERM)
            except ProcessLookupError:
                pass
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            sandboxing.kill(self.proc)
            self.proc.wait()
        return self.exited()

    def _server_pid(self) -> int | None:
        if self.proc.poll() is not None:
            return None
        if self.first is None:
            return self.proc.pid
        try:
            with open(f"/proc/{self.first}/task/{self.first}/children") as children:
                found = children.read().split()
        except OSError:
            return None
        return int(found[0]) if found else None


def _child_pid(info: int) -> int:
    """The "child-pid" of the JSON bwrap writes on --info-fd once the sandbox's first process exists (or the end of
    the pipe, when bwrap failed before that)."""
    data = b""
    with os.fdopen(info, "rb", buffering=0) as pipe:
        for chunk in iter(lambda: pipe.read(4096), b""):
            data += chunk
            try:
                return int(json.loads(data)["child-pid"])
            except (ValueError, KeyError):
                continue
    raise sandboxing.SandboxError(f"bwrap did not say which process the sandbox runs ({data[:80]!r})")
