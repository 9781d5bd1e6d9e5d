"""Sockets made in a sandbox's network namespace (runex/loopback.py): they reach the server in that sandbox and
nothing of this machine, this machine cannot reach the server without them, and the helper that makes them is
gone when the run ends."""

from __future__ import annotations

import os
import shutil
import socket
import textwrap
from pathlib import Path

import pytest

from runex import sandboxing
from runex.run import http_client, http_server, http_stream

from support.repo import free_port
from support.tool_repos import skip_or_fail

SERVER = textwrap.dedent("""\
    import socket, sys
    listener = socket.create_server((sys.argv[1], int(sys.argv[2])))
    while True:
        connection, _ = listener.accept()
        connection.sendall(b"inside the sandbox")
        connection.close()
""")


@pytest.fixture(autouse=True)
def bwrap_present():
    if shutil.which("bwrap") is None:
        skip_or_fail("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")


def _start(bind: str, port: int) -> http_server.ServerProcess:
    spec = sandboxing.Spec(["/usr/bin/python3", "-c", SERVER, bind, str(port)], env=sandboxing.base_env())
    return http_server.ServerProcess(spec, sandboxing.Sandbox(), 1024, 1024)


def _children() -> set[int]:
    found = set()
    for task in Path("/proc/self/task").iterdir():
        try:
            found |= {int(pid) for pid in (task / "children").read_text().split()}
        except OSError:
            continue
    return found


@pytest.mark.parametrize("bind, said", [("127.0.0.1", ["loopback"]), ("0.0.0.0", ["all interfaces"])])
def test_the_loopback_reaches_the_sandboxed_server_and_nothing_else(bind, said):
    port = free_port()  # free here too, so a refusal below is the namespaces' doing
    with socket.create_server(("127.0.0.1", 0)) as here:
        server = _start(bind, port)
        helper = None
        try:
            inside = http_stream.Address(server.loopback, "127.0.0.1", port)
            assert http_client.wait_listening(inside, server.exited, 10) is True, server.stderr.written(1)
            helper = server.loopback._helper
            with inside.connect(5) as connection:
                assert connection.recv(100) == b"inside the sandbox"
            assert server.loopback.listening(port) == said
            with pytest.raises(ConnectionRefusedError):  # this machine's own loopback has no such server
                socket.create_connection(("127.0.0.1", port), timeout=5).close()
            outward = http_stream.Address(server.loopback, "127.0.0.1", here.getsockname()[1])
            with pytest.raises(ConnectionRefusedError):  # nor does the sandbox reach what listens here
                outward.connect(5).close()
        finally:
            status = server.stop(5)
    assert status == -15  # python's default SIGTERM: a death by that signal, as run/http.py expects
    assert helper is not None and helper not in _children()  # the helper exited and was reaped


def test_the_helper_holds_no_file_of_the_tool():
    """A pipe whose write end the tool closes ends for its reader while the helper lives (the helper is a fork and
    would otherwise hold a copy of every fd the tool has open, such as another server's stdin)."""
    import select

    read_end, write_end = os.pipe()
    server = _start("127.0.0.1", free_port())
    try:
        os.close(write_end)
        ready, _, _ = select.select([read_end], [], [], 10)  # a guard against a hang, not a measurement
        assert ready and os.read(read_end, 1) == b"", "the pipe did not end: the helper holds its write end"
    finally:
        os.close(read_end)
        server.stop(5)

