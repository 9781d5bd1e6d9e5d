"""Regenerate the conformance report card's record (tests/interop/conformance/record.jsonl): run the official
suite's required 2026-07-28 server scenarios against every implementation of every example that serves
Streamable HTTP, and write what it finds. `--check` writes nothing and exits 5 when the record is out of date.

    .venv/bin/python tools/conformance_record.py [--check]

tests/interop/test_conformance.py runs the same measurement and fails on any difference from the record.
"""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
from pathlib import Path

from runex.conformance import collect, record, suite

ROOT = Path(__file__).resolve().parents[1]


def listing(names: list[str]) -> dict:
    command = [sys.executable, str(ROOT / "tools" / "run_examples.py"), "--list", "--json", *names]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"run_examples.py --list --json failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def measure_all() -> str:
    version = suite.installed_version()
    if version != suite.pinned(ROOT):
        sys.exit(f"node_modules holds {suite.NAME} {version}, package-lock.json pins {suite.pinned(ROOT)}; "
                 f"run: make setup")
    cases = collect.http_implementations()
    examples = {e["name"]: e for e in listing(sorted({name for name, _ in cases}))["examples"]}
    found, sources = {}, collect.source_digests(cases)  # the sources as they were before the runs began
    for name, impl in cases:
        entry = next(i for i in examples[name]["implementations"] if i["name"] == impl)
        print(f"conformance: {name}/{impl}", file=sys.stderr)
        found[collect.key(name, impl)] = collect.measure(entry["command"], ROOT / examples[name]["dir"],
                                                         entry["entry"])
    if collect.source_digests(cases) != sources:
        sys.exit("an example's sources changed while the suite ran; nothing written. Run it again: "
                 f"{record.WRITE}")
    return record.dump(record.rows(suite.required(), found, suite.about()), version, sources)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 5 if the record is out of date")
    args = parser.parse_args()
    text = measure_all()
    old = record.RECORD.read_text(encoding="utf-8") if record.RECORD.is_file() else ""
    if args.check:
        if text == old:
            return 0
        diff = difflib.unified_diff(old.splitlines(), text.splitlines(), "record (checked in)", "the suite now",
                                    lineterm="")
        print("\n".join(diff) + f"\nThe record is out of date; run: {record.WRITE}", file=sys.stderr)
        return 5
    record.write(text)
    print(f"wrote {record.RECORD.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
