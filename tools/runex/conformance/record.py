"""The checked-in record of the report card: one JSON line per (scenario, check), with each implementation's
result, like an answer key. The suite's own words describe each check; nothing in it is typed by hand.

{"scenario": "tools-call-image", "about": "Test calling a tool that returns image content.",
 "check": "tools-call-image", "description": "Tool returns image content",
 "results": {"conformance-reference/cargo": "pass", "streamable-http/python": "fail", ...}}

Its first line says what the rows were made from: the suite's version and each implementation's source digest
(gate.source_digest), so `run_examples.py --check` can tell a record that no longer matches the examples
(tools/runex/conformance/gate.py) without running the suite.

{"made_with": {"suite": "0.2.0-alpha.12", "sources": {"conformance-reference/cargo": "<sha256>", ...}}}
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RECORD = ROOT / "tests" / "interop" / "conformance" / "record.jsonl"
WORDS = {"SUCCESS": "pass", "FAILURE": "fail", "WARNING": "warning", "SKIPPED": "skipped", "INFO": "info"}
WRITE = ".venv/bin/python tools/conformance_record.py"
HEADER = "made_with"  # the key of the first line: the suite's version and the sources the rows were made from


def rows(order: list[str], found: dict[str, dict[str, dict[str, dict]]], about: dict[str, str] | None = None
         ) -> list[dict]:
    """found: implementation -> scenario -> check id -> outcome (suite.outcomes); about: scenario -> its summary
    (suite.about). One row per check of the required scenarios, in the suite's scenario order, then by check id."""
    table: dict[tuple[str, str], dict] = {}
    for impl in sorted(found):
        for scenario, checks in found[impl].items():
            if scenario not in order:
                continue
            for check, outcome in checks.items():
                row = table.setdefault((scenario, check), {
                    "scenario": scenario, "about": (about or {}).get(scenario, ""), "check": check,
                    "description": outcome["description"], "results": {}})
                row["results"][impl] = WORDS[outcome["status"]]
    return sorted(table.values(), key=lambda row: (order.index(row["scenario"]), row["check"]))


def dump(record: list[dict], suite: str, sources: dict[str, str]) -> str:
    """The header line, then one line per row."""
    header = {HEADER: {"suite": suite, "sources": dict(sorted(sources.items()))}}
    return "".join(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n" for row in [header, *record])


def load(path: Path = RECORD) -> list[dict]:
    """The rows, without the header line."""
    if not path.is_file():
        return []
    lines = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return [row for row in lines if HEADER not in row]


def column(record: list[dict], impl: str) -> dict[tuple[str, str], str]:
    """One implementation's results: (scenario, check) -> pass, fail, warning, skipped or info."""
    return {(row["scenario"], row["check"]): row["results"][impl] for row in record if impl in row["results"]}


def write(text: str, path: Path = RECORD) -> None:
    """Whole or not at all (the tool's own write_atomic: a temporary file beside it, then a rename)."""
    from ..fsutil import write_atomic  # here: run_examples.py reads the record on every run and never writes it

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.encode("utf-8"))
