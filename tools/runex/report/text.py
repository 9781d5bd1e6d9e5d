"""What the author sees: one line per example, diffs, annotations for GitHub, a summary and the fixing command.

A Reporter is the pipeline's Listener (it prints each example as it finishes) and then prints the rest of the
Report (`finish`); `render` gives the whole text of a Report as one string, for a log.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

from ..environment import default_root
from ..examples.outcome import Status


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
        colours = {Status.VERIFIED: "green", Status.WRITTEN: "green", Status.DRIFTED: "yellow", Status.FAILED: "red"}
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
        if self.verbose or outcome.status == Status.FAILED:
            for impl, stderr in outcome.stderr.items():
                if self.verbose and stderr:
                    self.line(_indent(f"stderr of {impl}:\n" + stderr.decode("utf-8", "replace").rstrip()))
        for file, line, text in outcome.locations:
            self.annotate(file, line, f"{outcome.example.name}: {text}")


    def removed(self, rel: str) -> None:
        self.line(f"removed {rel} (left by an interrupted run)")

    def broken(self, error) -> None:
        self.failure("failed  ", error)

    def failure(self, label: str, error) -> None:
        self.line(f"{self.paint(label, 'red')} {error}")
        self.annotate(error.file, error.line, error.message)

    def finish(self, report) -> None:
        """Everything after the examples: broken pages, a changed input, drift or pastes, the summary, the fix."""
        pastes = report.pastes
        for error in pastes.errors:
            self.failure("broken  ", error)
        for error in report.stale_record:
            self.failure("stale   ", error)
        if report.tampered is not None:
            self.line(f"{self.paint('failed  ', 'red')} {report.tampered}")
            self.annotate(report.tampered.file, None, report.tampered.message)
            return
        if report.options.check:
            self._drift(pastes.drifted, report.root)
        for rel in report.written_pages:
            self.line(f"{self.paint('pasted  ', 'green')} {rel}")
        self.line(summary(report))
        fix = fix_line(report)
        if fix:
            self.line(fix)

    def _drift(self, drifted, root: Path) -> None:
        if not drifted:
            return
        from ..answer_key.compare import diff_bytes
        from ..paste.origin import hand_edit_note
        from ..paste.pages import is_conversation

        for result in drifted:
            for block in result.stale:
                conversation = is_conversation(block.target)
                said = (f"text between the markers of {block.target}: a conversation's markers stay empty, its view "
                        f"is rendered when the site is built (tools/runex/paste/markdown_ext.py)") if conversation \
                    else f"the block pasted from examples/{block.target} differs from the file"
                self.line(f"{self.paint('drifted ', 'yellow')} {result.rel}:{block.line}: {said}")
                if not conversation:
                    self.line(_indent(hand_edit_note(root, result.old, result.new, result.rel, block)))
                self.annotate(result.rel, block.line, said if conversation else
                              f"pasted block differs from examples/{block.target}")
            self.line("\n".join("    " + l for l in diff_bytes(result.old.encode(), result.new.encode(),
                                 f"{result.rel} (checked in)", f"{result.rel} (as pasted)").splitlines()))


def render(report, verbose: bool = False) -> str:
    """The whole text a terminal would have shown for `report`, without colour."""
    out = io.StringIO()
    reporter = Reporter(out, verbose=verbose)
    for rel in report.removed:
        reporter.removed(rel)
    for error in report.broken:
        reporter.broken(error)
    for outcome in report.outcomes:
        reporter.example(outcome)
    reporter.finish(report)
    return out.getvalue()


def summary(report) -> str:
    """One line: the examples by status, the pages, the time."""
    outcomes, pastes, check = report.outcomes, report.pastes, report.options.check
    parts = [f"{n} {s}" for s in Status if (n := report.count(s))]
    cached = sum(o.cached for o in outcomes)
    if cached:
        parts[0] += f" ({cached} cached)"
    if report.broken:
        parts.append(f"{len(report.broken)} broken")
    drifted, unpasted = pastes.drifted, pastes.unpasted
    marker_errors = len(pastes.errors) - len(unpasted)
    page_note = (f"{len(pastes.results) + marker_errors} pages: "
                 + (f"{len(drifted)} {'drifted' if check else 'pasted'}, " if drifted else "")
                 + (f"{marker_errors} broken, " if marker_errors else "")
                 + f"{len(pastes.results) - len(drifted)} up to date"
                 + (f" ({len(pastes.cache.hits)} cached)" if pastes.cache.hits else "")
                 + (f"; {len(unpasted)} example{'s' if len(unpasted) != 1 else ''} pasted by no page"
                    if unpasted else ""))
    if report.stale_record:
        page_note += f"; the conformance record: {len(report.stale_record)} out of date"
    total = len(outcomes) + len(report.broken)
    return (f"{total} example{'s' if total != 1 else ''}: {', '.join(parts) or 'none'}; {page_note} "
            f"in {report.seconds:.1f} s")


def fix_line(report) -> str | None:
    """What to run next, or None when there is nothing to fix."""
    names, root = list(report.options.names), report.root
    failures = report.count(Status.FAILED) + len(report.broken)
    if failures:
        return f"Fix the failing example{'s' if failures > 1 else ''} above, then run: {fix_command(names, root)}"
    if report.pastes.errors:
        return (f"Fix the page marker{'s' if len(report.pastes.errors) > 1 else ''} above, then run: "
                f"{fix_command(names, root)}")
    if report.stale_record:
        return f"Bring the conformance record in line as each line above says, then run: {fix_command(names, root)}"
    if report.options.check and report.drifted:
        return f"Update answer keys and pages with: {fix_command(names, root)}"
    return None


def fix_command(names: list[str], root: Path | None = None) -> str:
    exe = Path(sys.executable)
    cwd = Path.cwd()
    python = str(exe.relative_to(cwd)) if exe.is_relative_to(cwd) else "python3"
    where = ["--root", str(root)] if root is not None and root != default_root() else []
    import shlex  # here: only a run that has something to fix prints a command

    return shlex.join([python, "tools/run_examples.py", *names, *where])


def _indent(text: str) -> str:
    return "\n".join("    " + l if l else l for l in text.splitlines())
