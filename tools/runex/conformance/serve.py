"""One example implementation serving Streamable HTTP on a free port of 127.0.0.1, outside the sandbox (the suite
needs to reach it), started with the command `run_examples.py --list --json` gives and stopped with SIGTERM."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

START_TIMEOUT = 60.0  # the Python twins import for seconds on a busy machine
STOP_TIMEOUT = 30.0


class ServerFailed(RuntimeError):
    pass


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_until_listening(server: subprocess.Popen, port: int, what: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise ServerFailed(f"{what} exited {server.returncode} before listening on 127.0.0.1:{port}:\n"
                               f"{server.stderr.read().decode('utf-8', 'replace')[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.1)
    raise ServerFailed(f"{what} did not listen on 127.0.0.1:{port} within {START_TIMEOUT:.0f} s")


@contextlib.contextmanager
def serving(command: list[str], cwd: Path, what: str) -> Iterator[str]:
    """http://localhost:PORT/mcp while the server runs (localhost: the suite's DNS-rebinding scenario needs it)."""
    port = free_port()
    env = dict(os.environ, MCP_HTTP_ADDR=f"127.0.0.1:{port}")
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd)
    try:
        _wait_until_listening(server, port, what)
        yield f"http://localhost:{port}/mcp"
    finally:
        stdout, stderr = _stop(server, what)
    if server.returncode != 0:
        raise ServerFailed(f"{what} exited {server.returncode} on SIGTERM:\n{stderr.decode('utf-8', 'replace')}")
    if stdout:
        raise ServerFailed(f"{what} wrote to stdout in HTTP mode: {stdout[:500]!r}")


def _stop(server: subprocess.Popen, what: str) -> tuple[bytes, bytes]:
    server.send_signal(signal.SIGTERM)
    try:
        return server.communicate(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        server.kill()
        server.communicate()
        raise ServerFailed(f"{what} was still running {STOP_TIMEOUT:.0f} s after SIGTERM") from None
