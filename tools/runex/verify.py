"""Verify one example: build every implementation, run it against the transcript, check the wire, compare twins,
repeat for determinism, and compare with the answer key."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from . import build, problems
from . import sandbox as sandboxing
from .errors import BuildError, ExampleError
from .model import Example
from .problems import Problem


@dataclass
class Outcome:
    example: Example
    root: Path
    status: str  # "verified", "written", "drifted", "failed"
    stdout: bytes | None = None  # what the answer key should hold (None when the example failed)
    messages: list[str] = field(default_factory=list)  # what went wrong, for the author
    locations: list[tuple[str, int | None, str]] = field(default_factory=list)  # (file, line, text) annotations
    expected: list[Problem] = field(default_factory=list)
    stderr: dict[str, bytes] = field(default_factory=dict)
    stderr_lane: bytes | None = None  # what stderr.txt should hold (example.toml's stderr_lane), else None
    compiled: list[str] = field(default_factory=list)
    cached: bool = False  # taken from the cached verdicts (results_cache.py): nothing was built or run
    seconds: float = 0.0
    diff: str = ""

    def fail(self, text: str, file: str | None = None, line: int | None = None) -> None:
        self.status = "failed"
        self.messages.append(text)
        self.locations.append((file or self.rel(self.example.dir), line, text.splitlines()[0]))

    def rel(self, path: Path) -> str:
        return str(path.relative_to(self.root))


def verify(root: Path, example: Example, cache: build.Cache, *, check: bool, repeat: int,
           validator: wire.MessageValidator | None, sandbox: sandboxing.Sandbox | None = None) -> Outcome:
    started = time.monotonic()
    outcome = Outcome(example, root, "verified")
    sandbox = sandbox or sandboxing.Sandbox()
    try:
        _verify(root, example, cache, outcome, check=check, repeat=repeat, validator=validator, sandbox=sandbox)
    except ExampleError as exc:
        outcome.fail(exc.message, exc.file, exc.line)
    outcome.seconds = time.monotonic() - started
    if outcome.status == "failed":
        outcome.stdout = None
    return outcome


def _verify(root: Path, example: Example, cache: build.Cache, outcome: Outcome, *, check: bool, repeat: int,
            validator: wire.MessageValidator | None, sandbox: sandboxing.Sandbox) -> None:
    # Imported here: a run whose every verdict is cached builds an Outcome but verifies nothing.
    from . import conversation, transcript, wire

    rel_transcript = outcome.rel(example.transcript)
    rel_key = outcome.rel(example.answer_key)
    lines, found = transcript.read(example.transcript, rel_transcript)
    found += wire.check_transcript_schema(lines, rel_transcript, validator)
    found += wire.check_late_cancels(lines, rel_transcript)
    verdict = problems.match(found, example.config.expected_violations)
    if verdict.unexpected:
        for problem in verdict.unexpected:
            outcome.fail(str(problem), problem.file, problem.line)
        # A transcript that breaks rules is not fed to a server: fix the transcript first.
        return
    transcript_expected = verdict.expected

    outputs: dict[str, bytes] = {}
    for impl in example.implementations:
        try:
            built = build.prepare(root, impl, cache, locked=check, sandbox=sandbox)
        except BuildError:
            outcome.compiled.append(impl.name)  # the compiler ran and failed: not a cached build
            raise
        if built.compiled:
            outcome.compiled.append(impl.name)
        runs = []
        for _ in range(max(1, repeat)):
            result = conversation.converse(lambda home: built.spec(sandbox.enabled, home), lines,
                                           timeout=example.config.timeout,
                                           max_output=example.config.max_output_bytes, sandbox=sandbox)
            outcome.stderr[impl.name] = result.stderr
            if result.failure is None and result.returncode != example.config.exit_code:
                result.failure = (f"the server exited with status {result.returncode}, "
                                  f"expected {example.config.exit_code}")
            if result.failure is not None:
                tail = result.stderr.decode("utf-8", "replace").strip().splitlines()[-15:]
                shown = "\n".join("    " + l for l in tail) or "    (stderr was empty)"
                outcome.fail(f"{outcome.rel(impl.entry)} ({impl.name}): {result.failure}\n"
                             f"  last lines of stderr:\n{shown}",
                             outcome.rel(impl.entry))
                return
            runs.append(result.stdout)
        for number, other in enumerate(runs[1:], start=2):
            if other != runs[0]:
                outcome.fail(f"{outcome.rel(impl.entry)} ({impl.name}): nondeterministic: run 1 and run {number} "
                             f"wrote different stdout\n" + diff_bytes(runs[0], other, "run 1", f"run {number}"),
                             outcome.rel(impl.entry))
                return
        outputs[impl.name] = runs[0]

    names = list(outputs)
    for name in names[1:]:
        if outputs[name] != outputs[names[0]]:
            line = first_difference(outputs[names[0]], outputs[name])
            outcome.fail(f"{rel_key}:{line}: twins disagree: {names[0]} and {name} wrote different stdout for the "
                         f"same transcript; they must match byte for byte\n"
                         + diff_bytes(outputs[names[0]], outputs[name], names[0], name), rel_key, line)
            return
    stdout = outputs[names[0]]

    found = wire.check_stdout(stdout, lines, rel_key, rel_transcript, validator)
    verdict = problems.match(found, example.config.expected_violations)
    verdict.vanished = [v for v in verdict.vanished
                        if not any(p.rule == v.rule and p.line == v.line for p in transcript_expected)]
    for problem in verdict.unexpected:
        outcome.fail(str(problem), problem.file, problem.line)
    for vanished in verdict.vanished:
        rel_config = outcome.rel(example.dir / "example.toml")
        outcome.fail(f"{rel_config} declares [{vanished.rule}] at line {vanished.line}, but it did not happen; "
                     f"fix the example or remove the declaration", rel_config)
    outcome.expected = transcript_expected + verdict.expected
    if outcome.status == "failed":
        return

    outcome.stdout = stdout
    if example.config.stderr_lane is not None and not _stderr_lane(example, outcome, check):
        return
    current = example.answer_key.read_bytes() if example.answer_key.exists() else None
    if current == stdout:
        return
    if check:
        outcome.status = "drifted"
        if current is None:
            outcome.diff = f"{rel_key} is missing\n" + outcome.diff
            outcome.locations.append((rel_key, None, "answer key missing"))
        else:
            outcome.diff = diff_bytes(current, stdout, f"{rel_key} (checked in)", f"{rel_key} (server output)") \
                + outcome.diff  # a stderr lane's diff, if any, follows
            outcome.locations.append((rel_key, first_difference(current, stdout), "answer key drifted"))
    else:
        outcome.status = "written"


def _stderr_lane(example: Example, outcome: Outcome, check: bool) -> bool:
    """Record the lane's stderr like the answer key: False when the example failed over it."""
    from . import conversation

    lane = outcome.stderr[example.config.stderr_lane]
    rel = outcome.rel(example.stderr_file)
    if len(lane) >= conversation.STDERR_TAIL_BYTES:
        outcome.fail(f"{rel}: stderr of {example.config.stderr_lane} is {conversation.STDERR_TAIL_BYTES} bytes or "
                     f"more, more than a page should show; log less, or remove stderr_lane", rel)
        return False
    outcome.stderr_lane = lane
    current = example.stderr_file.read_bytes() if example.stderr_file.exists() else None
    if current != lane:
        if check:
            outcome.status = "drifted"
            outcome.diff += (f"{rel} is missing\n" if current is None
                             else diff_bytes(current, lane, f"{rel} (checked in)", f"{rel} (server stderr)"))
            outcome.locations.append((rel, None, "stderr lane drifted"))
        else:
            outcome.status = "written"
    return True


def diff_bytes(a: bytes, b: bytes, label_a: str, label_b: str, limit: int = 200) -> str:
    import difflib

    lines = list(difflib.unified_diff(a.decode("utf-8", "replace").splitlines(keepends=True),
                                      b.decode("utf-8", "replace").splitlines(keepends=True),
                                      label_a, label_b))
    lines = [l if l.endswith("\n") else l + "\n\\ No newline at end of file\n" for l in lines]
    if len(lines) > limit:
        lines = lines[:limit] + [f"... ({len(lines) - limit} more diff lines)\n"]
    return "".join(lines)


def first_difference(a: bytes, b: bytes) -> int:
    for number, (x, y) in enumerate(zip(a.split(b"\n"), b.split(b"\n")), start=1):
        if x != y:
            return number
    return min(a.count(b"\n"), b.count(b"\n")) + 1
