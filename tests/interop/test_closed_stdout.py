"""A client that goes away: every example server, told by a closed stdout, leaves quietly with status 0.

On stdio the client owns both pipes. When it closes the read end of the server's stdout and the server then writes
a reply, the write fails with EPIPE (Rust ignores SIGPIPE, so `write` returns Err(BrokenPipe); Python raises
BrokenPipeError). The examples are servers readers copy: each must take that as the client having left, say one
line on stderr and exit 0, never panic (exit 101) or print a traceback. The server is started with the command
`run_examples.py --list --json` gives for each implementation, the same one a check runs, so an example added
later is covered without editing this file.

The two SDK examples leave their transport to the SDK, and their pages show the SDK's code as it is: they are not
changed here. What the SDKs do today is recorded as a strict xfail, so the day an SDK leaves quietly the test says so.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from support.interop_cases import ROOT, declared, entry

pytestmark = [pytest.mark.interop, pytest.mark.slow]

WAIT = 30.0  # a guard against a server that never exits; the SDK examples take seconds to start on a busy machine
# Measured with mcp 2.3.0 and rmcp 3.11 (requirements.txt, examples/rmcp-server/Cargo.toml).
SDK_BEHAVIOUR = {
    "python-sdk": "mcp 2.3.0's stdio_server lets BrokenPipeError out of its stdout writer: an ExceptionGroup "
                  "traceback, exit 1",
    **{name: "mcp 2.3.0's stdio_server lets BrokenPipeError out of its stdout writer, as in python-sdk: an "
             "ExceptionGroup traceback, exit 1" for name in ("long-task", "long-task-cancel", "listen-stream",
                                                                "listen-tools-only-python",
                                                                "testing-python")},
    "rmcp-server": "rmcp 3.11's serve() fails to send the first reply with TransportError(BrokenPipe); main returns "
                   "it: 'Error: TransportError {...}', exit 1 (a pipe closed after the first reply ends with "
                   "'stopped reason=Closed' on stderr and exit 0)",
}
CASES = [pytest.param(example, impl, id=f"{example['name']}/{impl['name']}",
                      marks=[pytest.mark.xfail(strict=True, reason=SDK_BEHAVIOUR[example["name"]])]
                      if example["name"] in SDK_BEHAVIOUR else [])
         for example in declared() for impl in example["implementations"]]


def first_request(transcript: str) -> bytes:
    """The transcript's first line that expects a reply: a request with an id."""
    for raw in (ROOT / transcript).read_bytes().splitlines(keepends=True):
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        if isinstance(message, dict) and "method" in message and message.get("id") is not None:
            return raw if raw.endswith(b"\n") else raw + b"\n"
    raise AssertionError(f"{transcript} has no request that expects a reply")


@pytest.mark.parametrize("example, impl", CASES)
def test_a_closed_stdout_ends_the_server_with_status_0(example, impl):
    example, impl = entry(example["name"], impl["name"])
    if impl.get("error"):
        pytest.fail(f"{impl['entry']} does not build:\n{impl['error']}")
    read_end, write_end = os.pipe()
    os.close(read_end)  # the client has gone before the reply: nobody will ever read the server's stdout
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TZ="UTC")
    server = subprocess.Popen(impl["command"], stdin=subprocess.PIPE, stdout=write_end, stderr=subprocess.PIPE,
                              cwd=ROOT / example["dir"], env=env)
    os.close(write_end)
    try:
        # One request, then end of file: a server that did not notice its closed stdout still stops at the EOF.
        _, stderr = server.communicate(first_request(example["transcript"]), timeout=WAIT)
    except subprocess.TimeoutExpired:
        server.kill()
        _, stderr = server.communicate()
        pytest.fail(f"{impl['entry']} was still running {WAIT:.0f} s after its stdin closed; stderr:\n"
                    f"{stderr.decode('utf-8', 'replace')}")
    stderr, status = stderr.decode("utf-8", "replace"), server.returncode
    # "Exception ignored": Python's flush of sys.stdout at exit, failing once more on the closed pipe
    for crash in ("panicked", "Traceback", "Exception ignored"):
        assert crash not in stderr, f"{impl['entry']} crashed on a closed stdout:\n{stderr}"
    assert status == 0, f"{impl['entry']} exited {status} on a closed stdout; stderr:\n{stderr}"
