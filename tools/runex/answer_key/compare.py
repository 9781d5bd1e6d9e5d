"""The answer key (and a stderr lane) against what the run wrote, and the diffs an author reads."""

from __future__ import annotations

from ..examples.model import Example
from ..report.outcome import Outcome, Status
from ..run.driver import STDERR_TAIL_BYTES


def record(example: Example, outcome: Outcome, stdout: bytes, check: bool) -> None:
    """Hold `stdout` (the run's agreed stdout, wire-checked) against the answer key, and a stderr lane against
    stderr.txt: the outcome stays verified, or becomes drifted (--check) or written."""
    rel_key = outcome.rel(example.answer_key)
    if example.config.stderr_lane is not None and not _stderr_lane(example, outcome, check):
        return
    for path, data in outcome.side_files.items():
        _side_file(outcome, path, data, check)
    current = example.answer_key.read_bytes() if example.answer_key.exists() else None
    if current == stdout:
        return
    if check:
        outcome.status = Status.DRIFTED
        if current is None:
            outcome.diff = f"{rel_key} is missing\n" + outcome.diff
            outcome.locations.append((rel_key, None, "answer key missing"))
        else:
            outcome.diff = diff_bytes(current, stdout, f"{rel_key} (checked in)", f"{rel_key} (server output)") \
                + outcome.diff  # a stderr lane's diff, if any, follows
            outcome.locations.append((rel_key, first_difference(current, stdout), "answer key drifted"))
    else:
        outcome.status = Status.WRITTEN


def _stderr_lane(example: Example, outcome: Outcome, check: bool) -> bool:
    """Record the lane's stderr like the answer key: False when the example failed over it."""
    lane = outcome.stderr[example.config.stderr_lane]
    rel = outcome.rel(example.stderr_file)
    if len(lane) >= STDERR_TAIL_BYTES:
        outcome.fail(f"{rel}: stderr of {example.config.stderr_lane} is {STDERR_TAIL_BYTES} bytes or "
                     f"more, more than a page should show; log less, or remove stderr_lane", rel)
        return False
    outcome.stderr_lane = lane
    current = example.stderr_file.read_bytes() if example.stderr_file.exists() else None
    if current != lane:
        if check:
            outcome.status = Status.DRIFTED
            outcome.diff += (f"{rel} is missing\n" if current is None
                             else diff_bytes(current, lane, f"{rel} (checked in)", f"{rel} (server stderr)"))
            outcome.locations.append((rel, None, "stderr lane drifted"))
        else:
            outcome.status = Status.WRITTEN
    return True


def _side_file(outcome: Outcome, path, data: bytes, check: bool) -> None:
    """An http.<impl>.jsonl file, recorded like the answer key."""
    rel = outcome.rel(path)
    current = path.read_bytes() if path.exists() else None
    if current == data:
        return
    if check:
        outcome.status = Status.DRIFTED
        outcome.diff += (f"{rel} is missing\n" if current is None
                         else diff_bytes(current, data, f"{rel} (checked in)", f"{rel} (HTTP run)"))
        outcome.locations.append((rel, None if current is None else first_difference(current, data),
                                  "http record drifted"))
    else:
        outcome.status = Status.WRITTEN


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
