"""Markdown tables on every page hold together: Python-Markdown ends a table at a blank line, and ends a block (an
admonition, a tab) at a line indented less than it, so one slip turns the rest of a table into a paragraph of pipes.
Each problem names the page and line to change, and what to do there."""

from __future__ import annotations

import re

import pytest

from support.repo import ROOT

DOCS = ROOT / "docs"
DELIMITER = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def table_runs(text: str) -> list[tuple[int, list[str]]]:
    """(first line number, lines) of each run of lines starting with `|`, outside fenced code blocks."""
    runs, fence = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        opened = FENCE.match(line)
        if fence is not None:
            fence = None if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) else fence
            continue
        if opened:
            fence = opened.group(1)
            continue
        if line.lstrip().startswith("|"):
            if runs and runs[-1][0] + len(runs[-1][1]) == number:
                runs[-1][1].append(line)
            else:
                runs.append((number, [line]))
    return runs


def table_problems(text: str, page: str) -> list[str]:
    problems, previous_end = [], None
    for first, lines in table_runs(text):
        indent = len(lines[0]) - len(lines[0].lstrip())
        for offset, line in enumerate(lines[1:], start=1):
            own = len(line) - len(line.lstrip())
            if own != indent:
                problems.append(f"{page}:{first + offset}: this row is indented {own} spaces and its table {indent}: "
                                f"a row outside the table's block ends the block there; indent it by {indent}")
        if len(lines) < 2 or not DELIMITER.match(lines[1].strip()):
            split = previous_end is not None and text.splitlines()[previous_end:first - 1] and \
                all(not l.strip() for l in text.splitlines()[previous_end:first - 1])
            problems.append(f"{page}:{first}: these rows have no header row and |---| line, so they are no table"
                            + (f"; a blank line above them splits the table that ends at line {previous_end}: "
                               f"remove the blank line" if split else ""))
        previous_end = first + len(lines) - 1
    return problems


PAGES = sorted(DOCS.rglob("*.md"))


@pytest.mark.parametrize("path", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_table_holds_together(path):
    rel = str(path.relative_to(ROOT))
    assert table_problems(path.read_text(encoding="utf-8"), rel) == []


CONTRIBUTOR_PAGE = DOCS / "contributing" / "adding-an-example.md"


def test_a_blank_line_inside_a_table_is_named_at_its_line():
    text = CONTRIBUTOR_PAGE.read_text(encoding="utf-8")
    row = "| `stdout-reply-after-cancel` |"
    broken = text.replace(row, "\n" + row, 1)
    end = broken.splitlines().index(next(l for l in broken.splitlines() if l.startswith(row))) - 1
    assert table_problems(broken, "page.md") == [
        f"page.md:{end + 2}: these rows have no header row and |---| line, so they are no table; a blank line above "
        f"them splits the table that ends at line {end}: remove the blank line"]


def test_a_row_not_indented_inside_its_block_is_named_at_its_line():
    text = CONTRIBUTOR_PAGE.read_text(encoding="utf-8")
    row = "    | `drifted docs/PAGE.md:N: text between the markers of NAME/conversation` |"
    assert row in text
    broken = text.replace(row, row.lstrip(), 1)
    number = broken.splitlines().index(next(l for l in broken.splitlines() if l.startswith(row.lstrip()[:30]))) + 1
    assert table_problems(broken, "page.md") == [
        f"page.md:{number}: this row is indented 0 spaces and its table 4: a row outside the table's block ends the "
        f"block there; indent it by 4"]
