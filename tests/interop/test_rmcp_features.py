"""The rmcp features each of CI's builds needs (the table on docs/mcp/rmcp.md) are what building finds today:
`tools/rmcp_features.py --check --row KEY` builds the row's crate with its recorded minimal features, then once
without each, in the build sandbox, offline, and fails when anything differs from
tests/interop/rmcp-features/record.jsonl. One test per row, so after an rmcp upgrade the failures name the rows
that changed; `.venv/bin/python tools/rmcp_features.py` rewrites the record.

Every build runs here: a warm target folder (.cache/cargo-target/rmcp-features, which CI caches) makes each a
fingerprint check, and benchmarks/LOG.md has the cold and warm times.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from runex.feature_table import record, rows
from support.repo import ROOT

pytestmark = [pytest.mark.interop]


def test_every_row_is_in_the_record_and_nothing_else():
    recorded = [row["row"] for row in record.load()]
    assert recorded == [row.key for row in rows.ROWS], (
        f"{record.RECORD.relative_to(ROOT)} holds the rows {recorded}, tools/runex/feature_table/rows.py "
        f"{[row.key for row in rows.ROWS]}; run: {record.WRITE}")


@pytest.mark.slow
@pytest.mark.timeout(3600)  # a fresh clone builds rmcp once per feature set: minutes a row, past the suite's 900 s
@pytest.mark.parametrize("row", [row.key for row in rows.ROWS],
                         ids=[f"{row.crate}-{row.key}" for row in rows.ROWS])  # -k NAME picks an example's rows
def test_the_row_builds_as_recorded(row):
    command = [sys.executable, str(ROOT / "tools" / "rmcp_features.py"), "--check", "--row", row]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=3600)
    said = "\n".join(line for line in done.stderr.splitlines() if not line.startswith("rmcp features: "))
    assert done.returncode == 0, f"{row}: {said}"
