"""A wire problem: one broken rule at one place, and how declared (expected) violations are matched."""

from __future__ import annotations

from dataclasses import dataclass

# Every rule the tool knows, with the file its line numbers refer to.
RULES = {
    "stdout-not-a-message": "stdout",
    "stdout-not-utf8": "stdout",
    "stdout-unterminated-line": "stdout",
    "stdout-not-jsonrpc": "stdout",
    "stdout-server-request": "stdout",
    "stdout-result-and-error": "stdout",
    "stdout-reply-without-request": "stdout",
    "stdout-duplicate-reply": "stdout",
    "stdout-missing-reply": "transcript",
    "stdout-schema": "stdout",
    "stdout-discover-failed": "stdout",
    "stdout-reply-after-cancel": "stdout",
    "stdout-progress-unknown-token": "stdout",
    "stdout-progress-after-reply": "stdout",
    "stdout-progress-not-increasing": "stdout",
    "stdout-listen-no-subscription-id": "stdout",
    "stdout-listen-unknown-subscription": "stdout",
    "stdout-listen-not-acknowledged-first": "stdout",
    "transcript-not-json": "transcript",
    "transcript-not-jsonrpc": "transcript",
    "transcript-bad-id": "transcript",
    "transcript-duplicate-id": "transcript",
    "transcript-response": "transcript",
    "transcript-meta-beside-params": "transcript",
    "transcript-meta-missing": "transcript",
    "transcript-meta-key-missing": "transcript",
    "transcript-params-missing": "transcript",
    "transcript-schema": "transcript",
    "transcript-cancels-answered": "transcript",
    "transcript-lone-surrogate": "transcript",
    # Streamable HTTP (wire/http.py): the line is the transcript line whose POST broke the rule (the GET probe: 1).
    "http-notification-not-202": "transcript",
    "http-content-type": "transcript",
    "http-server-request": "transcript",
    "http-json-body": "transcript",
    "http-stream-end": "transcript",
    "http-error-status": "transcript",
    "http-foreign-origin": "transcript",
    "http-allowed-origin": "transcript",
    "http-header-mismatch": "transcript",
    "http-get-not-405": "transcript",
    "http-session-id": "transcript",
    "http-401-without-challenge": "transcript",
    "http-unrelated-notification": "transcript",
}


@dataclass(frozen=True)
class ExpectedViolation:
    """A rule an example breaks on purpose, at one line, with the reason (example.toml's [[expected_violation]])."""

    rule: str
    line: int
    reason: str


@dataclass(frozen=True)
class Problem:
    rule: str
    file: str  # path relative to the repository root
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: [{self.rule}] {self.message}"


@dataclass
class Matched:
    """Problems held against what an example declares in example.toml."""

    unexpected: list[Problem]  # broken rules nobody declared: the example fails
    expected: list[Problem]  # declared and seen: reported, not failed
    vanished: list[ExpectedViolation]  # declared but not seen: the example fails too


def match(problems: list[Problem], declared: tuple[ExpectedViolation, ...]) -> Matched:
    """An example that breaks a rule on purpose is exempt from exactly that rule at exactly that line."""
    remaining = list(declared)
    unexpected, expected = [], []
    for problem in problems:
        hit = next((d for d in remaining if d.rule == problem.rule and d.line == problem.line), None)
        if hit is None:
            unexpected.append(problem)
        else:
            remaining.remove(hit)
            expected.append(problem)
    return Matched(unexpected, expected, remaining)
