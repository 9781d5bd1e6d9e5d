"""example.toml's [[send]] tables: transcript lines written without waiting for every reply before them.

    [[send]]
    line = 4
    no_wait = true          # written right after line 3, whatever line 3 still owes
    reason = "..."          # optional: said on the page beside the line

    [[send]]
    line = 5
    wait_for = "notifications/progress"  # or "reply", or a subscriptions/listen notification
    of_line = 3             # ... related to line 3: progress with its token, or its listen stream's
    answered_before = 3     # optional: line 5's reply must reach the client before line 3's

What follows from the plan is wire/accounting.py's; what is wrong with it for the transcript is checked there too
(accounting.problems), once the transcript is read.
"""

from __future__ import annotations

from ..wire.accounting import WAITABLE, Send

KEYS = {"line", "no_wait", "wait_for", "of_line", "answered_before", "reason"}


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def parse(data: dict, at) -> tuple[Send, ...]:
    """The [[send]] tables of example.toml (`at`: model._Located, for the line each error names)."""
    entries = data.get("send", [])
    if not isinstance(entries, list):
        raise at.error("send must be written as [[send]] tables", at.key("send"))
    sends: dict[int, Send] = {}
    for index, entry in enumerate(entries):
        line = at.table(index, "send")
        sends_line = _one(entry, line, at)
        if sends_line.line in sends:
            raise at.error(f"transcript line {sends_line.line} has two [[send]] tables (the other at example.toml "
                           f"line {sends[sends_line.line].at}); keep one", line)
        sends[sends_line.line] = sends_line
    return tuple(sorted(sends.values(), key=lambda s: s.line))


def _one(entry: object, line: int | None, at) -> Send:
    if not isinstance(entry, dict):
        raise at.error("each [[send]] is a table with line and no_wait or wait_for", line)
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise at.error(f"[[send]] has unknown key {unknown[0]!r}; known: {', '.join(sorted(KEYS))}", line)
    number, no_wait, wait_for = entry.get("line"), entry.get("no_wait", False), entry.get("wait_for")
    of_line, before, reason = entry.get("of_line"), entry.get("answered_before"), entry.get("reason")
    if not _int(number):
        raise at.error(f"[[send]] line must be a transcript line number (1, 2, ...), got {number!r}", line)
    if not isinstance(no_wait, bool):
        raise at.error(f"[[send]] no_wait must be true or false, got {no_wait!r}", line)
    if no_wait == (wait_for is not None):
        raise at.error("[[send]] takes either no_wait = true or wait_for (with of_line), not both and not neither",
                       line)
    if wait_for is not None and wait_for not in WAITABLE:
        raise at.error(f"[[send]] wait_for = {wait_for!r} is nothing the runner can wait for; one of: "
                       f"{', '.join(sorted(WAITABLE))}", line)
    if (wait_for is None) != (of_line is None) or (of_line is not None and not _int(of_line)):
        raise at.error("[[send]] of_line goes with wait_for: the transcript line whose reply or notification to "
                       f"wait for, got {of_line!r}", line)
    if before is not None and not _int(before):
        raise at.error(f"[[send]] answered_before must be a transcript line number, got {before!r}", line)
    if reason is not None and (not isinstance(reason, str) or not reason.strip()):
        raise at.error("[[send]] reason, when given, says in words why the line does not wait", line)
    return Send(number, no_wait, wait_for, of_line, before, reason, line)
