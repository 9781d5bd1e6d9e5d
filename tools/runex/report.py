"""What the author sees: one line per example, diffs, annotations for GitHub, a summary and the fixing command."""

from __future__ import annotations

import os
import sys


class Reporter:
    def __init__(self, stream=None, verbose: bool = False):
        self.stream = stream or sys.stdout
        self.verbose = verbose
        self.colour = self.stream.isatty() and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"
        self.github = os.environ.get("GITHUB_ACTIONS") == "true"

    def paint(self, text: str, colour: str) -> str:
        codes = {"green": "32", "red": "31", "yellow": "33", "dim": "2", "bold": "1"}
        return f"\033[{codes[colour]}m{text}\033[0m" if self.colour else text

    def line(self, text: str = "") -> None:
        print(text, file=self.stream, flush=True)

    def annotate(self, file: str | None, line: int | None, message: str) -> None:
        if not self.github:
            return
        where = f"file={file}" + (f",line={line}" if line else "") if file else ""
        text = message.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        self.line(f"::error {where}::{text}")

    def example(self, outcome) -> None:
        colours = {"verified": "green", "written": "green", "drifted": "yellow", "failed": "red"}
        impls = "+".join(i.name for i in outcome.example.implementations)
        notes = []
        if outcome.cached:
            notes.append("verified, cached")
        elif outcome.compiled:
            notes.append("built " + "+".join(outcome.compiled))
        else:
            notes.append("cached build" if any(i.name != "python" for i in outcome.example.implementations)
                         else "no build")
        if outcome.expected:
            notes.append("expected: " + ", ".join(f"{p.rule} at {p.file.rsplit('/', 1)[-1]}:{p.line}"
                                                  for p in outcome.expected))
        status = self.paint(f"{outcome.status:<8}", colours[outcome.status])
        self.line(f"{status} {outcome.example.name:<24} {impls:<14} {outcome.seconds:6.2f} s  ({'; '.join(notes)})")
        for message in outcome.messages:
            self.line(_indent(message))
        if outcome.diff:
            self.line(_indent(outcome.diff.rstrip("\n")))
        if self.verbose or outcome.status == "failed":
            for impl, stderr in outcome.stderr.items():
                if self.verbose and stderr:
                    self.line(_indent(f"stderr of {impl}:\n" + stderr.decode("utf-8", "replace").rstrip()))
        for file, line, text in outcome.locations:
            self.annotate(file, line, f"{outcome.example.name}: {text}")


def _indent(text: str) -> str:
    return "\n".join("    " + l if l else l for l in text.splitlines())
