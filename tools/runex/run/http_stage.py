"""The same server over Streamable HTTP: run again, held to the stdio run's messages, its HTTP side recorded.

For an implementation example.toml lists under `http`, the stdio run comes first (its stdout is the answer key);
then run/http.py POSTs the same transcript lines. Every response's messages must be the stdio run's for the same
line (the answer key holds a server over both transports), except on a line example.toml overrides on purpose; the
HTTP rules (wire/http.py) judge each exchange; `http.<impl>.jsonl` records status and headers, checked like the key.
"""

from __future__ import annotations

import json
from pathlib import Path

from .. import sandboxing
from ..answer_key import compare
from ..builds import native
from ..examples.model import Example, Implementation
from ..examples.outcome import Outcome
from ..wire import http as wire_http
from ..wire import rules
from ..wire.rules import Problem
from . import http


def run(root: Path, example: Example, impl: Implementation, cache: native.Cache, outcome: Outcome, lines,
        stdio_stdout: bytes, *, check: bool, repeat: int, sandbox: sandboxing.Sandbox) -> list | None:
    """The exchanges of `impl`'s HTTP run, or None (the outcome failed)."""
    rel_config = outcome.rel(example.dir / "example.toml")
    numbers = {l.number for l in lines}
    stray = [o for o in example.config.http_overrides if o.line not in numbers]
    if stray:
        at = f"{rel_config}:{stray[0].toml_line}" if stray[0].toml_line else rel_config
        outcome.fail(f"{at}: [[http_override]] names line {stray[0].line}, but the transcript has lines 1 to "
                     f"{len(lines)}; fix the line number", rel_config, stray[0].toml_line)
        return None
    built = native.prepare(root, impl, cache, locked=check, sandbox=sandbox)
    sends = example.config.sends
    requests = http.plan(lines, example.config.http_overrides, tools_list_of(stdio_stdout, lines, sends),
                         example.config.http_headers, example.config.http_get, sends)
    rel_entry = outcome.rel(impl.entry)
    runs = []
    for _ in range(max(1, repeat)):
        result = http.StreamableHttp(requests).converse(lambda home: built.spec(sandbox.enabled, home).with_env(
                                                            example.config.http_env), lines,
                                                        timeout=example.config.timeout,
                                                        max_output=example.config.max_output_bytes, sandbox=sandbox)
        if result.failure is None and result.returncode != 0:
            result.failure = f"the server exited with status {result.returncode} when stopped with SIGTERM, expected 0"
        if result.failure is None:
            result.failure = _raced(result.exchanges, example, rel_config) or _out_of_order(result.exchanges,
                                                                                             example, rel_config)
        if result.failure is not None:
            result.failure += _cancel_hint(result.exchanges, example, rel_config)
            outcome.fail(result.failure_report(f"{rel_entry} ({impl.name} over HTTP)"), rel_entry)
            return None
        runs.append(result.exchanges)
    first, *others = [wire_http.record(run) for run in runs]
    for number, other in enumerate(others, start=2):
        if other != first:
            outcome.fail(f"{rel_entry} ({impl.name} over HTTP): nondeterministic: run 1 and run {number} differ\n"
                         + compare.diff_bytes(first, other, "run 1", f"run {number}"), rel_entry)
            return None
    if _breaks_rules(example, outcome, impl.name, runs[0]):
        return None  # the rule names the cause; the transports' diff would only show its symptom
    return runs[0] if _same_as_stdio(runs[0], stdio_stdout, lines, impl, outcome, example) else None


def tools_list_of(stdout: bytes, lines, sends=()) -> object:
    """The stdio run's tools/list result: what a client that listed the tools knows of their x-mcp-header
    parameters (the HTTP run must list the same, or the two runs differ anyway)."""
    groups = wire_http.group_by_line(stdout, lines, sends)
    for line in lines:
        if line.method == "tools/list":
            for message in groups.get(line.number, []):
                parsed = json.loads(message)
                if isinstance(parsed, dict) and isinstance(parsed.get("result"), dict):
                    return parsed["result"]
    return None


def _same_as_stdio(exchanges, stdio_stdout: bytes, lines, impl, outcome: Outcome, example: Example) -> bool:
    rel_transcript = outcome.rel(example.transcript)
    differing = wire_http.differences(exchanges, wire_http.group_by_line(stdio_stdout, lines, example.config.sends))
    hint = _cancel_hint(exchanges, example, outcome.rel(example.dir / "example.toml"))
    for ex, stdio in differing:
        over_stdio = b"".join(m + b"\n" for m in stdio)
        over_http = b"".join(m + b"\n" for m in ex.messages)
        outcome.fail(f"{rel_transcript}:{ex.line.number}: transports disagree: {impl.name} answered this line over "
                     f"HTTP (status {ex.status}) with other messages than over stdio; one answer key holds both, "
                     f"so fix the server (or declare a deliberate HTTP case with [[http_override]] in example.toml)"
                     + hint + "\n" + compare.diff_bytes(over_stdio, over_http, "stdio", "HTTP"), rel_transcript,
                     ex.line.number)
    return not differing


def _send_at(example: Example, line: int, rel_config: str) -> str:
    send = next((s for s in example.config.sends if s.line == line), None)
    return f"{rel_config}:{send.at}" if send is not None and send.at else rel_config


def _raced(exchanges, example: Example, rel_config: str) -> str | None:
    """A cancel whose stream had already ended (or brought its response) when the client closed it: the race the
    spec allows, which cannot show a cancel; the example's to fix, as on stdio (run/paced.py)."""
    by_line = {ex.line.number: ex for ex in exchanges if ex.line is not None}
    for ex in (e for e in exchanges if e.closes is not None):
        target = by_line.get(ex.closes)
        answered = target is not None and any(isinstance(m, dict) and "method" not in m
                                              for m in map(wire_http._parse, target.messages))
        if ex.ended_first or answered:
            return (f"{_send_at(example, ex.line.number, rel_config)}: over HTTP transcript line {ex.line.number} "
                    f"cancels line {ex.closes} by closing its response stream, but line {ex.closes}'s response had "
                    f"already ended: the cancel raced the reply (a race the spec allows, so nothing to show); make "
                    f"line {ex.closes}'s request wait until it is cancelled, and send line {ex.line.number} with "
                    f"wait_for its first progress in example.toml")
    return None


def _out_of_order(exchanges, example: Example, rel_config: str) -> str | None:
    """answered_before over HTTP: the response to the line must end before the other line's (the order the client
    saw them end in, as run/paced.py checks the order replies reach it on stdio)."""
    by_line = {ex.line.number: ex for ex in exchanges if ex.line is not None}
    for send in (s for s in example.config.sends if s.answered_before is not None):
        first, second = by_line.get(send.line), by_line.get(send.answered_before)
        if first is None or second is None or first.ended is None or second.ended is None:
            continue
        if first.ended > second.ended:
            return (f"{_send_at(example, send.line, rel_config)}: [[send]] says transcript line {send.line} is "
                    f"answered before line {send.answered_before}, but over HTTP line {send.answered_before}'s "
                    f"response ended first; the example races: give line {send.answered_before}'s request more "
                    f"work, or drop answered_before")
    return None


def _cancel_hint(exchanges, example: Example, rel_config: str) -> str:
    """What a failure after an HTTP cancel may mean: the server did not treat the closed stream as a cancel."""
    closes = [ex for ex in exchanges or () if ex.closes is not None]
    if not closes:
        return ""
    said = ", ".join(f"line {ex.line.number} cancelled line {ex.closes} ({_send_at(example, ex.line.number, rel_config)})"
                     for ex in closes)
    return (f"\nOver HTTP {said} by closing its response stream. If the server kept that work running, this is "
            f"where it shows: the server MUST treat a closed response stream as a cancel of its request and SHOULD "
            f"stop the work (streamable-http.mdx, \"Cancellation\"); make it do so (the `mcp` package does only "
            f"in SSE mode, not with json_response=True)")


def _judged(example: Example, outcome: Outcome, name: str, exchanges: list):
    """`name`'s exchanges under the HTTP rules, sorted against example.toml's declared http- violations."""
    declared = tuple(v for v in example.config.expected_violations if v.rule.startswith("http-"))
    found = [Problem(p.rule, p.file, p.line, f"{name} over HTTP: {p.message}")
             for p in wire_http.check(exchanges, outcome.rel(example.transcript))]
    return rules.match(found, declared)


def _breaks_rules(example: Example, outcome: Outcome, name: str, exchanges: list) -> bool:
    unexpected = _judged(example, outcome, name, exchanges).unexpected
    for problem in unexpected:
        outcome.fail(str(problem), problem.file, problem.line)
    return bool(unexpected)


def rules_and_records(example: Example, outcome: Outcome, http_runs: dict[str, list]) -> None:
    """The HTTP rules over every implementation's exchanges, and the http file each one records."""
    declared = tuple(v for v in example.config.expected_violations if v.rule.startswith("http-"))
    seen: set[tuple[str, int]] = set()
    for name, exchanges in http_runs.items():
        sorted_out = _judged(example, outcome, name, exchanges)
        for problem in sorted_out.unexpected:
            outcome.fail(str(problem), problem.file, problem.line)
        seen |= {(p.rule, p.line) for p in sorted_out.expected}
        outcome.expected += sorted_out.expected
        outcome.side_files[example.http_file(name)] = wire_http.record(exchanges)
    rel_config = outcome.rel(example.dir / "example.toml")
    for declared_one in (d for d in declared if (d.rule, d.line) not in seen):
        outcome.fail(f"{rel_config} declares [{declared_one.rule}] at line {declared_one.line}, but no "
                     f"implementation broke it over HTTP; fix the example or remove the declaration", rel_config)
