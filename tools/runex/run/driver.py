"""The seam where a transport plugs into the run stage: a Driver holds one conversation with a built server.

run/example.py builds each implementation, asks its `driver_for` which driver speaks its transport, and hands the driver
the transcript's lines; the driver starts the server in the sandbox, sends the lines, and returns a RunResult:
the messages the server wrote, in the order the answer key records them, its stderr, its exit status and, when the
conversation could not be completed, one sentence saying why. Everything after (twins, the wire check, the answer
key, the pages) reads RunResults only, so it does not know how the bytes travelled.

Two drivers: `stdio.Lockstep`, the server's stdin and stdout, one line at a time, waiting for each request's reply;
and `http.StreamableHttp` for an implementation example.toml declares to serve HTTP (the server listens on the
sandbox's loopback and each line is POSTed), which records the HTTP side of each exchange beside the messages for
the wire stage's HTTP rules (wire/http.py). `paced.Paced` is the stdio driver for transcripts that do not wait for
every reply (example.toml's [[send]]): it changes how the lines are paced, not this contract; what may be owed when
belongs to the wire stage (wire/accounting.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Protocol

from .. import sandboxing
from ..wire.transcript import TranscriptLine



@dataclass
class RunResult:
    stdout: bytes  # the messages the server wrote, one per line, as the answer key records them
    stderr: bytes  # the tail of its stderr
    returncode: int | None
    failure: str | None  # None when the conversation completed and the server exited by itself
    seconds: float
    lines_sent: int | None = None  # how many transcript lines reached the server in full (None: every one)
    exchanges: list | None = None  # over HTTP: each request's wire/http.Exchange, in the order sent

    def failure_report(self, who: str) -> str:
        """The failure as the author reads it: who failed, why, and the last 15 lines of its stderr."""
        tail = self.stderr.decode("utf-8", "replace").strip().splitlines()[-15:]
        shown = "\n".join("    " + line for line in tail) or "    (stderr was empty)"
        return f"{who}: {self.failure}\n  last lines of stderr:\n{shown}"


class Driver(Protocol):
    """Holds one conversation: `spec_for(home)` starts the server (home: its writable working directory)."""

    def converse(self, spec_for: Callable[[str], sandboxing.Spec], lines: list[TranscriptLine], *, timeout: float,
                 max_output: int, sandbox: sandboxing.Sandbox, cwd_parent: Path | None = None) -> RunResult: ...
