"""Regenerate the record of the rmcp features each of CI's builds needs (tests/interop/rmcp-features/record.jsonl):
build every row of tools/runex/feature_table/rows.py with its minimal feature set, then once without each feature, in the
build sandbox, offline. `--check` writes nothing, prints the rows that changed and exits 5 when the record is out
of date; `--row KEY` measures one row (with --check, compares that row alone).

    .venv/bin/python tools/rmcp_features.py [--check] [--row KEY]

tests/interop/test_rmcp_features.py runs `--check`; docs/mcp/rmcp.md renders the record (feature_table/table.py).
"""

from __future__ import annotations

import argparse
import sys

from runex.feature_table import build, minimise, record, rows
from runex import sandboxing
from runex.errors import SandboxError


def measure(keys: list[str]) -> list[dict]:
    sandbox = sandboxing.Sandbox()
    sandbox.check()
    copy = build.prepare()
    return [minimise.measure(row, copy, sandbox) for row in rows.ROWS if not keys or row.key in keys]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 5 if the record is out of date")
    parser.add_argument("--row", action="append", default=[], choices=[row.key for row in rows.ROWS],
                        help="measure this row only (repeatable)")
    args = parser.parse_args()
    try:
        found = measure(args.row)
    except (minimise.MeasureError, SandboxError) as exc:
        print(f"rmcp_features: {exc}", file=sys.stderr)
        return 1
    old = record.load()
    if args.check:
        diff = record.changed([r for r in old if not args.row or r["row"] in args.row], found)
        if not diff:
            return 0
        print("The rows that changed:\n" + "\n".join(diff) + f"\nThe record is out of date; run: {record.WRITE}",
              file=sys.stderr)
        return 5
    kept = {row["row"]: row for row in old}
    kept.update({row["row"]: row for row in found})
    order = [row.key for row in rows.ROWS]
    record.write(record.dump([kept[key] for key in order if key in kept]))
    print(f"wrote {record.RECORD.relative_to(record.ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
