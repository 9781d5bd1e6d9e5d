"""The answer key (and a stderr lane) against what the run wrote, and the diffs an author reads."""

from __future__ import annotations

from ..examples.model import STDERR_TAIL_BYTES, Example
from ..examples.outcome import Outcome, Status


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


EXCERPT_BEFORE, EXCERPT_AFTER = 30, 40  # characters shown around a difference: the value, not the whole line
SHOWN_LINES = 3  # differing lines shown as excerpts; the rest are counted


def disagreement(outputs: dict[str, bytes], key: bytes | None, sources: dict[str, str]) -> tuple[str, int]:
    """What twins that wrote different stdout are told: which of them still writes the answer key (so which one
    changed), then each differing line as a short aligned excerpt with a caret under the first different character.
    `sources` names each twin's file. Returns the text after "twins disagree: ..." and the first differing line."""
    split = {name: out.split(b"\n") for name, out in outputs.items()}
    differing = [n for n in range(max(len(s) for s in split.values()))
                 if len({s[n] if n < len(s) else None for s in split.values()}) > 1]
    parts = [_who_matches(outputs, key, sources)]
    for number in differing[:SHOWN_LINES]:
        parts.append(excerpt({name: s[number] if number < len(s) else None for name, s in split.items()}, number + 1))
    if len(differing) > SHOWN_LINES:
        parts.append(f"... and {len(differing) - SHOWN_LINES} more stdout lines differ")
    return "\n".join(parts), differing[0] + 1 if differing else 1


def _who_matches(outputs: dict[str, bytes], key: bytes | None, sources: dict[str, str]) -> str:
    if key is None:
        return "There is no answer key yet to say which twin is right: make them agree, then write it."
    same = [name for name, out in outputs.items() if out == key]
    other = [name for name in outputs if name not in same]
    if not same:
        return ("Neither twin writes the answer key any more: both changed; make them agree, then review the new "
                "answer key.")
    changed = " and ".join(f"{name} ({sources[name]})" for name in other)
    return (f"{' and '.join(same)} still {'writes' if len(same) == 1 else 'write'} the answer key; {changed} "
            f"changed: fix {'it' if len(other) == 1 else 'them'}, or, if the change is meant, make "
            f"{' and '.join(same)} do the same.")


def excerpt(lines: dict[str, bytes | None], number: int) -> str:
    """One stdout line as each twin wrote it, cut to a window around the first difference, aligned, with a caret."""
    texts = {name: None if raw is None else raw.decode("utf-8", "replace") for name, raw in lines.items()}
    present = [t for t in texts.values() if t is not None]
    at = next((i for i, chars in enumerate(zip(*present)) if len(set(chars)) > 1), min(map(len, present)))
    start = max(0, at - EXCERPT_BEFORE)
    width = max(len(name) for name in texts)
    rows = [f"stdout line {number}, from character {start + 1}:" if start else f"stdout line {number}:"]
    for name, text in texts.items():
        if text is None:
            rows.append(f"    {name:<{width}}  (no line {number})")
            continue
        shown = text[start:at + EXCERPT_AFTER]
        rows.append(f"    {name:<{width}}  {'…' if start else ''}{shown}{'…' if len(text) > at + EXCERPT_AFTER else ''}")
    rows.append(f"    {'':<{width}}  {' ' * ((1 if start else 0) + at - start)}^")
    return "\n".join(rows)
