"""Every page has the shape readers rely on, shows only pasted code, and the site builds strictly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.repo import ROOT, run_tool

from runex.paste import markers

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
PAGE_IDS = [str(p.relative_to(ROOT)) for p in PAGES]
LEVELS = {"Level 101", "Level 201", "Level 301"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<lang>[\w+-]*)")


def front_matter(text: str) -> dict[str, str | list[str]]:
    """The few front-matter keys the pages use (title, description, tags), without a YAML dependency."""
    match = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    assert match, "the page must start with a front-matter block between --- lines"
    data: dict[str, str | list[str]] = {}
    key = None
    for line in match.group(1).splitlines():
        item = re.match(r"^\s+-\s+(.*)$", line)
        if item and key:
            data.setdefault(key, [])
            data[key].append(item.group(1).strip().strip("'\""))
            continue
        pair = re.match(r"^([A-Za-z_]+):\s*(.*)$", line)
        if pair:
            key = pair.group(1)
            if pair.group(2):
                data[key] = pair.group(2).strip().strip("'\"")
    return data


def fences_outside_markers(text: str, page: str) -> list[tuple[int, str]]:
    """(line, language) of every fenced block that the tool did not paste."""
    found = []
    for segment_line, segment in _text_lines(text, page):
        match = FENCE.match(segment)
        if match:
            found.append((segment_line, match.group("lang")))
    return found


def _text_lines(text: str, page: str):
    """Lines outside marker pairs, numbered, with fence bodies skipped (only opening fences are reported)."""
    number = 0
    fence = None
    for segment in markers.parse(text, page):
        if isinstance(segment, markers.Block):
            number += 2 + len(segment.body)
            continue
        number += 1
        if fence:
            if segment.strip() and set(segment.strip()) == {fence[0]} and len(segment.strip()) >= len(fence):
                fence = None
            continue
        match = FENCE.match(segment)
        if match:
            fence = match.group("fence")
            yield number, segment


def test_there_are_pages():
    assert len(PAGES) >= 3, "docs/ should hold at least the home page, What MCP is, and the contributor page"


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_page_declares_at_most_one_level_and_a_summary(page: Path):
    """The summary sits in !!! abstract "In short"; the level, if any, only in the tags (shown once, as a chip).
    Which pages must carry a level, and which one, is tests/site/test_reading_path.py's job (the nav decides)."""
    text = page.read_text(encoding="utf-8")
    meta = front_matter(text)
    levels = [t for t in meta.get("tags", []) if t in LEVELS] if isinstance(meta.get("tags"), list) else []
    assert len(levels) <= 1, f"{page.relative_to(ROOT)}: tags hold more than one of {sorted(LEVELS)}"
    assert meta.get("description"), f"{page.relative_to(ROOT)}: front matter needs a one-line description"
    body = text.split("\n---\n", 1)[1]
    assert re.search(r'^!!! abstract "In short"\s*$', body, re.M), \
        f'{page.relative_to(ROOT)}: the top needs !!! abstract "In short" with the one-line summary'
    assert not re.search(r'^!!! abstract "Level', body, re.M), \
        f"{page.relative_to(ROOT)}: the level shows once, as the tag chip, not again in the abstract's title"


POLISH_OPEN = '<div lang="pl" markdown>'


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_page_has_sources_and_polish_section_ending_with_search_phrases(page: Path):
    text = page.read_text(encoding="utf-8")
    rel = page.relative_to(ROOT)
    assert re.search(r"^## Sources\s*$", text, re.M), f"{rel}: needs a '## Sources' section"
    polish = re.search(r"^" + re.escape(POLISH_OPEN) + r"\s*\n\s*\n## Po polsku\s*$(.*?)^</div>\s*$", text,
                       re.M | re.S)
    assert polish, (f"{rel}: needs a '## Po polsku' section wrapped in {POLISH_OPEN} ... </div> (blank line after the "
                    f"opening tag), so that browsers and screen readers know it is Polish")
    section = polish.group(1)
    assert text.index("## Sources") < text.index("## Po polsku"), f"{rel}: Sources come before Po polsku"
    paragraphs = [p for p in re.split(r"\n\s*\n", section.strip()) if p.strip() and not p.startswith("**Szukaj")]
    assert 3 <= len(paragraphs) <= 6, f"{rel}: Po polsku needs 3-5 paragraphs, found {len(paragraphs)}"
    last = section.strip().splitlines()[-1]
    assert last.startswith("**Szukaj po polsku:**"), f"{rel}: Po polsku must end with a '**Szukaj po polsku:**' line"
    assert re.search(r"[ąćęłńóśźż]", section), f"{rel}: the Polish text has no Polish diacritics at all"


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_no_hand_typed_rust_or_python_block(page: Path):
    text = page.read_text(encoding="utf-8")
    typed = [(line, lang) for line, lang in fences_outside_markers(text, str(page.relative_to(ROOT)))
             if lang.lower() in {"rust", "rs", "python", "py", "python3", "toml"}]
    assert not typed, (f"{page.relative_to(ROOT)}: code on the site is pasted, never typed; hand-written "
                       f"{', '.join(f'```{lang} at line {line}' for line, lang in typed)}: move it into an "
                       f"example under examples/ and paste it with <!-- example-begin: ... --> markers")


def test_check_passes_so_every_example_is_pasted_and_every_block_equals_its_file():
    """--check fails on an unpasted example (exit 4) and on a pasted block that differs from its file (exit 5)."""
    result = run_tool("--check")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow  # a whole mkdocs build: the run's one build of this checkout (built_site in tests/conftest.py)
def test_site_builds_strictly(built_site: Path):
    assert (built_site / "index.html").is_file()


def test_hand_typed_rust_block_is_caught():
    page = "# T\n\n```rust\nfn main() {}\n```\n\n<!-- example-begin: x/main.rs -->\n```rust\nfn a(){}\n```\n<!-- example-end -->\n"
    assert fences_outside_markers(page, "t.md") == [(3, "rust")]


COLLAPSIBLE = re.compile(r'^(?P<indent>[ \t]*)\?\?\?(?P<open>\+?)[ \t]')
TAB = re.compile(r'^(?P<indent>[ \t]*)===\+?[ \t]+"(?P<label>[^"]*)"')


def tab_sets(text: str, page: str) -> list[tuple[int, list[str], frozenset[int]]]:
    """Each set of content tabs outside pasted blocks and fences: (line of its first tab, its labels, the lines of the
    closed `???` blocks around it). Tabs in a row at one indent, with only deeper lines between, are one set."""
    sets: list[tuple[int, list[str], frozenset[int]]] = []
    closed: list[tuple[int, int]] = []  # (indent, line) of each ??? block still open around this line
    current: tuple[int, list[str], frozenset[int]] | None = None
    current_indent = -1
    fenced = {number for number, _ in _text_lines(text, page)}
    for number, line in _outside_blocks(text, page, fenced):
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        closed = [(i, n) for i, n in closed if i < indent]
        tab = TAB.match(line)
        if current is not None and (indent < current_indent or (indent == current_indent and not tab)):
            current = None
        if tab and current is not None and indent == current_indent:
            current[1].append(tab.group("label"))
        elif tab:
            current, current_indent = (number, [tab.group("label")], frozenset(n for _, n in closed)), indent
            sets.append(current)
        block = COLLAPSIBLE.match(line)
        if block and not block.group("open"):
            closed.append((indent, number))
    return sets


def _outside_blocks(text: str, page: str, fence_openers: set[int]):
    """(line number, line) of every line outside pasted blocks and outside fenced code."""
    number, fence = 0, None
    for segment in markers.parse(text, page):
        if isinstance(segment, markers.Block):
            number += 2 + len(segment.body)
            continue
        number += 1
        if fence:
            if segment.strip() and set(segment.strip()) == {fence[0]} and len(segment.strip()) >= len(fence):
                fence = None
            continue
        if number in fence_openers:
            fence = FENCE.match(segment).group("fence")
            continue
        yield number, segment


def folded_linked_tabs(text: str, page: str) -> list[str]:
    """Tab sets that share a label with a set outside the closed `???` block they sit in: Material links tabs by the
    label it can see, so a reader who opens the block finds a tab they did not choose."""
    found = []
    sets = tab_sets(text, page)
    for line, labels, folded in sets:
        for other_line, other_labels, other_folded in sets:
            shared = set(labels) & set(other_labels)
            if other_line != line and shared and folded - other_folded:
                found.append(f"line {line}: tabs {sorted(shared)} inside the collapsed block at line "
                             f"{min(folded - other_folded)} are linked to the tab set at line {other_line}")
                break
    return found


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_linked_tabs_are_not_in_a_collapsed_block(page: Path):
    found = folded_linked_tabs(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))
    assert not found, (f"{page.relative_to(ROOT)}: " + "; ".join(found) + ". Give the folded tabs labels of their "
                       "own, open the block by default with ???+, or move the tabs out of it")


def test_folded_linked_tabs_are_caught():
    text = ('---\ndescription: d\n---\n\n=== "Rust"\n\n    a\n\n=== "Python"\n\n    b\n\n??? note "More"\n\n'
            '    === "Rust"\n\n        c\n\n    === "Python"\n\n        d\n')
    assert folded_linked_tabs(text, "p.md") == [
        "line 15: tabs ['Python', 'Rust'] inside the collapsed block at line 13 are linked to the tab set at line 5"]
    assert not folded_linked_tabs(text.replace("??? note", "???+ note"), "p.md")
    assert not folded_linked_tabs(text.replace('=== "Rust"\n\n        c', '=== "Rust, folded"\n\n        c')
                                  .replace('=== "Python"\n\n        d', '=== "Python, folded"\n\n        d'), "p.md")
