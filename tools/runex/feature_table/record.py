"""The checked-in record: one JSON line per row, written by tools/rmcp_features.py like an answer key."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RECORD = ROOT / "tests" / "interop" / "rmcp-features" / "record.jsonl"
WRITE = ".venv/bin/python tools/rmcp_features.py"


def shown(path: Path | None = None) -> str:
    """The record's path as a message names it: from the repository's root when it is inside."""
    path = path or RECORD
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def dump(rows: list[dict]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def load(path: Path | None = None) -> list[dict]:
    path = path or RECORD
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def changed(old: list[dict], new: list[dict]) -> list[str]:
    """The rows whose measurement differs, by name, with what differs."""
    before = {row["row"]: row for row in old}
    lines = []
    for row in new:
        then = before.pop(row["row"], None)
        if then is None:
            lines.append(f"  {row['row']}: not in the record")
            continue
        fields = [name for name in row if row[name] != then.get(name)]
        if fields:
            lines.append(f"  {row['row']}: {', '.join(fields)} changed")
            lines += [line for name in fields for line in _field(name, then.get(name), row[name])]
    lines += [f"  {name}: recorded, no longer a row" for name in before]
    return lines


def _field(name: str, then, now) -> list[str]:
    """One field's difference; a feature-to-error map, one feature a line."""
    if not (isinstance(then, dict) and isinstance(now, dict)):
        return [f"    {name}: recorded {json.dumps(then)}, now {json.dumps(now)}"]
    return [f"    {name} {key}: recorded {json.dumps(then.get(key))}, now {json.dumps(now.get(key))}"
            for key in dict.fromkeys([*then, *now]) if then.get(key) != now.get(key)]


def write(text: str, path: Path = RECORD) -> None:
    """Whole or not at all (the tool's own write_atomic: a temporary file beside it, then a rename)."""
    from ..fsutil import write_atomic  # here: run_examples.py reads the record on every run and never writes it

    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.encode("utf-8"))
