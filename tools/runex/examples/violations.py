"""example.toml's [[expected_violation]] tables: the rules an example breaks on purpose, each at its line, with
the reason. `at` is model.py's locator of keys, for errors that name the line to change."""

from __future__ import annotations

from ..wire.rules import RULES, ExpectedViolation

KEYS = {"rule", "line", "reason"}


def parse(data: dict, at) -> tuple[ExpectedViolation, ...]:
    entries = data.get("expected_violation", [])
    if not isinstance(entries, list):
        raise at.error("expected_violation must be written as [[expected_violation]] tables",
                       at.key("expected_violation"))
    violations = []
    for index, entry in enumerate(entries):
        line = at.table(index)
        if not isinstance(entry, dict) or set(entry) != KEYS:
            raise at.error("each [[expected_violation]] needs exactly rule, line and reason", line)
        rule, number, reason = entry["rule"], entry["line"], entry["reason"]
        if rule not in RULES:
            raise at.error(f"expected_violation rule {rule!r} is not a rule the tool knows; known: "
                           f"{', '.join(sorted(RULES))}", line)
        if not (isinstance(number, int) and not isinstance(number, bool)) or number < 1:
            raise at.error(f"expected_violation line must be a positive integer, got {number!r}", line)
        if not isinstance(reason, str) or not reason.strip():
            raise at.error("expected_violation reason must say, in words, why the example breaks the rule", line)
        violations.append(ExpectedViolation(rule, number, reason))
    return tuple(violations)
