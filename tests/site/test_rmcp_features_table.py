"""The rmcp features table (tools/runex/feature_table/table.py) renders the checked-in record whole and unedited, on the
rmcp page. tests/interop/test_rmcp_features.py holds the record to what building finds; this builds nothing."""

from __future__ import annotations

from runex.feature_table import record, table
from support.repo import ROOT

PAGE = ROOT / "docs" / "mcp" / "rmcp.md"


def test_the_page_holds_the_table_once():
    text = PAGE.read_text(encoding="utf-8")
    assert text.count("<!-- rmcp-features -->") == 1, "docs/mcp/rmcp.md: put the line <!-- rmcp-features --> once"


def test_every_recorded_feature_and_error_is_a_line_of_the_table():
    rows = record.load()
    assert rows, f"{record.RECORD.relative_to(ROOT)} is empty or missing; run: {record.WRITE}"
    lines = table.render()
    for row in rows:
        mine = [line for line in lines if line.startswith((f"| {row['label']}: ", f"| {row['label']} |"))]
        for feature, said in row["without"].items():
            assert any(f"| `{feature}` | {table.code(said)} |" in line for line in mine), f"{row['row']}: {feature}"
        for feature, said in row["with"].items():
            assert any(f"| with `{feature}` added | {table.code(said)} |" in line for line in mine), row["row"]
        wanted = len(row["without"]) + len(row["not_needed"]) + len(row["with"])
        assert len(mine) == wanted, f"{row['row']}: {len(mine)} lines in the table, {wanted} in the record"
        assert row["command"] in mine[0], f"{row['row']}: the first line names no command"


def test_a_missing_record_says_how_to_make_it(tmp_path, monkeypatch):
    monkeypatch.setattr(record, "RECORD", tmp_path / "record.jsonl")
    try:
        table.render()
    except table.TableError as exc:
        assert record.WRITE in str(exc)
    else:
        raise AssertionError("an empty record rendered a table")
