"""A page's source is for a person to edit: most of it is prose, and it holds almost no pasted HTML.

The conversation view is rendered when the site is built (tools/runex/paste/markdown_ext.py), so its marker pair
stays empty in the page; what the tool still pastes (sources, transcripts, answer keys, the HTTP table) is fenced
code or a Markdown table. Before the view moved to the build, 79.7 % of the lines of docs/mcp/*.md were pasted,
2429 of them HTML, and a one-line change to an answer key rewrote dozens of lines of HTML in review.
"""

from __future__ import annotations

import pytest

from support.repo import ROOT

from runex.paste import markers, pages

MCP_PAGES = sorted((ROOT / "docs" / "mcp").glob("*.md"))
MAX_PASTED_SHARE = 0.65  # lines between markers, of all the lines of docs/mcp/*.md
MAX_PASTED_HTML = 50  # lines between markers whose first non-blank character is "<"


def blocks(path):
    return [s for s in markers.parse(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
            if isinstance(s, markers.Block)]


def test_the_mcp_pages_are_there():
    assert len(MCP_PAGES) >= 10, "docs/mcp/*.md: the track's pages are missing, so the limits below hold nothing"


def test_most_of_a_page_source_is_prose():
    total = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in MCP_PAGES)
    pasted = sum(len(b.body) for p in MCP_PAGES for b in blocks(p))
    assert pasted / total <= MAX_PASTED_SHARE, (
        f"{pasted} of the {total} lines of docs/mcp/*.md ({pasted / total:.1%}) are pasted by tools/run_examples.py, "
        f"over {MAX_PASTED_SHARE:.0%}: render the new view when the site is built (tools/runex/paste/markdown_ext.py) "
        f"or show a region (NAME/FILE#region) instead of a whole file")


def test_pages_paste_almost_no_html():
    found = [(str(p.relative_to(ROOT)), b.line, b.target) for p in MCP_PAGES for b in blocks(p)
             for line in b.body if line.lstrip().startswith("<")]
    assert len(found) <= MAX_PASTED_HTML, (
        f"{len(found)} pasted lines of HTML in docs/mcp/*.md, over {MAX_PASTED_HTML}; first at "
        f"{found[0][0]}:{found[0][1]} ({found[0][2]}): a view made of HTML is rendered when the site is built "
        f"(tools/runex/paste/markdown_ext.py), not pasted")


@pytest.mark.parametrize("path", MCP_PAGES, ids=lambda p: p.name)
def test_a_conversation_marker_pair_holds_nothing(path):
    held = [(b.line, b.target) for b in blocks(path) if pages.is_conversation(b.target) and b.body]
    assert not held, (f"{path.relative_to(ROOT)}:{held[0][0]}: text between the markers of {held[0][1]}; the view "
                      f"is rendered when the site is built; run: python tools/run_examples.py")
