"""The conformance report card (tools/conformance/card.py) renders the checked-in record, whole and unedited.

tests/interop/test_conformance.py holds the record to what the suite finds; these tests hold the page's tables to
the record, and the scenario-to-page map to pages that exist. They run no server and no suite.
"""

from __future__ import annotations

import re

import pytest
import yaml

from conformance import card, record
from support.repo import ROOT

ROWS = record.load()
PAGES = yaml.safe_load((ROOT / "tests" / "interop" / "conformance" / "pages.yaml").read_text(encoding="utf-8"))


def test_the_record_is_there():
    assert ROWS, f"{record.RECORD.relative_to(ROOT)} is empty or missing; run: {record.WRITE}"


def test_every_scenario_of_the_record_has_one_row_and_a_page():
    scenarios = list(dict.fromkeys(row["scenario"] for row in ROWS))
    table = card.render("scenarios")
    for scenario in scenarios:
        assert sum(line.startswith(f"| `{scenario}` |") for line in table) == 1, f"{scenario}: not one row"
        assert scenario in PAGES, f"tests/interop/conformance/pages.yaml names no page for {scenario}"


def test_every_page_in_the_map_exists_with_its_section():
    for scenario, target in PAGES.items():
        path, _, fragment = target.partition("#")
        page = ROOT / "docs" / path
        assert page.is_file(), f"pages.yaml: {scenario} -> {target}: no such page under docs/"
        if fragment:
            headings = [re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
                        for h in re.findall(r"^#+ (.+)$", page.read_text(encoding="utf-8"), re.M)]
            assert fragment in headings, f"pages.yaml: {scenario} -> {target}: no heading with that anchor"


def test_the_summary_counts_what_the_record_holds():
    summary = card.render("summary")
    for impl in {impl for row in ROWS for impl in row["results"]}:
        results = [row["results"][impl] for row in ROWS if impl in row["results"]]
        failed = {row["scenario"] for row in ROWS if row["results"].get(impl) == "fail"}
        scenarios = {row["scenario"] for row in ROWS}
        expected = (f"| {card.label(impl)} | {len(scenarios) - len(failed)} of {len(scenarios)} | "
                    f"{results.count('fail')} of {len(results)} |")
        assert expected in summary, f"{impl}: the summary does not say {expected}"


def test_a_part_the_card_does_not_have_is_refused():
    with pytest.raises(card.CardError, match="summary, scenarios and reasons"):
        card.render("everything")
