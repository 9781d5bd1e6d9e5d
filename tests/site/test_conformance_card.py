"""The conformance report card (tools/runex/conformance/card.py) renders the checked-in record, whole and unedited.

tests/interop/test_conformance.py holds the record to what the suite finds; these tests hold the page's tables to
the record, and the scenario-to-page map to pages that exist. They run no server and no suite.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import pytest
import yaml

from runex.conformance import card, record
from support.repo import ROOT

ROWS = record.load()
PAGES = yaml.safe_load((ROOT / "tests" / "interop" / "conformance" / "pages.yaml").read_text(encoding="utf-8"))


def test_the_record_is_there():
    assert ROWS, f"{record.RECORD.relative_to(ROOT)} is empty or missing; run: {record.WRITE}"


def test_every_scenario_of_the_record_has_one_row_and_a_page():
    scenarios = list(dict.fromkeys(row["scenario"] for row in ROWS))
    table = card.render("scenarios")
    for scenario in scenarios:
        row = f'| <a id="{card.row_id(scenario)}"></a>`{scenario}` |'
        assert sum(line.startswith(row) for line in table) == 1, f"{scenario}: not one row"
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


ROW_LINK = re.compile(r'href="(?P<href>[^"]*#scenario-[^"]*)"')


def built_url(source: str) -> str:
    """The address a page under docs/ has on the built site (use_directory_urls): /mcp/tools-a-model-can-pick/."""
    stem = source.removesuffix(".md")
    return "/" + (stem.removesuffix("index") if stem == "index" or stem.endswith("/index") else stem + "/")


def built_html(site, source: str) -> Path:
    return site / built_url(source).lstrip("/") / "index.html"


CARD_URL = built_url(card.PAGE)


def row_links(site, source: str) -> set[str]:
    """The card rows the built page links to: the fragment of every link that lands on the card."""
    from urllib.parse import urljoin, urlsplit

    html = built_html(site, source).read_text(encoding="utf-8")
    found = set()
    for match in ROW_LINK.finditer(html):
        target = urlsplit(urljoin(built_url(source), match["href"]))
        if target.path == CARD_URL:
            found.add(target.fragment)
    return found


def taught_on() -> dict[str, list[str]]:
    """Teaching page (under docs/) -> the scenarios pages.yaml maps to it."""
    pages: dict[str, list[str]] = {}
    for scenario, target in PAGES.items():
        pages.setdefault(target.partition("#")[0], []).append(scenario)
    return pages


@pytest.mark.parametrize("source", sorted(taught_on()))
def test_a_teaching_page_links_to_its_rows_on_the_built_card(built_site, source):
    card_html = built_html(built_site, card.PAGE).read_text(encoding="utf-8")
    rows = set(re.findall(r'id="(scenario-[^"]+)"', card_html))
    linked = row_links(built_site, source)
    missing = [s for s in taught_on()[source] if card.row_id(s) not in linked]
    assert not missing, (f"docs/{source} teaches {', '.join(missing)} (tests/interop/conformance/pages.yaml) but "
                         f"does not link to {'their rows' if len(missing) > 1 else 'its row'} on the card: add "
                         + ", ".join(f"[`{s}`]({_relative(source)}#{card.row_id(s)})" for s in missing))
    dangling = sorted(linked - rows)
    assert not dangling, f"docs/{source} links to rows the built card does not have: {dangling}"


def _relative(source: str) -> str:
    return "" if source == card.PAGE else posixpath.relpath(card.PAGE, posixpath.dirname(source))


def test_no_built_page_links_to_a_row_the_card_does_not_have(built_site):
    card_html = built_html(built_site, card.PAGE).read_text(encoding="utf-8")
    rows = set(re.findall(r'id="(scenario-[^"]+)"', card_html))
    assert {card.row_id(s) for s in PAGES} <= rows, "the built card lacks a row anchor pages.yaml implies"
    sources = [str(p.relative_to(ROOT / "docs")) for p in (ROOT / "docs").rglob("*.md")]
    dangling = [f"docs/{source} -> #{fragment}" for source in sorted(sources)
                if built_html(built_site, source).is_file()
                for fragment in sorted(row_links(built_site, source) - rows)]
    assert not dangling, "links to rows the built card does not have:\n" + "\n".join(dangling)


@pytest.mark.parametrize("source", sorted(taught_on()))
def test_the_polish_section_of_a_teaching_page_links_to_a_row_too(source):
    text = (ROOT / "docs" / source).read_text(encoding="utf-8")
    polish = text.split("## Po polsku", 1)[-1]
    rows = [f"#{card.row_id(scenario)})" for scenario in PAGES]
    assert any(row in polish for row in rows), (f"docs/{source}: Po polsku says nothing of the report card; add a "
                                                f"short sentence linking a row, as the English does")
