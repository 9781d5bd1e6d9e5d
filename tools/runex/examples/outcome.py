"""What happened to one example: its status, what its answer key should hold, and what the author must read."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

from .model import Example
from ..wire.rules import Problem


class Status(enum.StrEnum):
    """An example's result; the value is the word printed and the order is the summary's."""

    VERIFIED = "verified"  # the run matches the answer key (and stderr lane)
    WRITTEN = "written"  # it did not, and without --check the new answer key is written
    DRIFTED = "drifted"  # it did not, under --check
    FAILED = "failed"  # it could not be verified: build error, crash, hang, wire violation, twins disagree, ...


@dataclass
class Outcome:
    example: Example
    root: Path
    status: Status
    stdout: bytes | None = None  # what the answer key should hold (None when the example failed)
    messages: list[str] = field(default_factory=list)  # what went wrong, for the author
    locations: list[tuple[str, int | None, str]] = field(default_factory=list)  # (file, line, text) annotations
    expected: list[Problem] = field(default_factory=list)
    stderr: dict[str, bytes] = field(default_factory=dict)
    stderr_lane: bytes | None = None  # what stderr.txt should hold (example.toml's stderr_lane), else None
    side_files: dict[Path, bytes] = field(default_factory=dict)  # http.<impl>.jsonl: what each should hold
    compiled: list[str] = field(default_factory=list)
    cached: bool = False  # taken from the cached results (cache/results.py): nothing was built or run
    seconds: float = 0.0
    diff: str = ""

    def fail(self, text: str, file: str | None = None, line: int | None = None) -> None:
        self.status = Status.FAILED
        self.messages.append(text)
        self.locations.append((file or self.rel(self.example.dir), line, text.splitlines()[0]))

    def fail_first(self, text: str, file: str | None = None, line: int | None = None) -> None:
        """As fail, but said before what was said already: the cause before the symptom it explains."""
        self.fail(text, file, line)
        self.messages.insert(0, self.messages.pop())
        self.locations.insert(0, self.locations.pop())

    def rel(self, path: Path) -> str:
        return str(path.relative_to(self.root))
