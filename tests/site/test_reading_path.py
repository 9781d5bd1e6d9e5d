"""The reading path (issue 10), checked from the sources without a browser.

The nav in mkdocs.yml is the one statement of the reading order: Home and "Browse by level" first, then one section
per level, then Contributing. These tests hold the pages and mkdocs.yml to it: levels never go down along the
track, every track page sits in the section of its own level and shows that level once, "Browse by level" lists
exactly the track in nav order, Material's footer navigation is on, and no page carries hand-written
Previous/Next lines that would drift from the nav.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from support.nav import SECTION_LEVEL, mkdocs_config, nav_sections, track
from support.repo import ROOT

DOCS = ROOT / "docs"
LEVEL_TAG = re.compile(r"^Level (101|201|301)$")
NAVIGATION_PAGES = ("index.md", "levels.md")  # Home and Browse by level: they list the track, they are not on it


def front_matter(page: str) -> dict:
    text = (DOCS / page).read_text(encoding="utf-8")
    match = re.match(r"^---\n(.*?)\n---\n", text, re.S)
    assert match, f"docs/{page}: the page must start with a front-matter block between --- lines"
    return yaml.safe_load(match.group(1)) or {}


def page_level(page: str) -> str | None:
    levels = [LEVEL_TAG.match(t).group(1) for t in front_matter(page).get("tags") or [] if LEVEL_TAG.match(t)]
    assert len(levels) <= 1, f"docs/{page}: more than one level tag: {levels}"
    return levels[0] if levels else None


def body(page: str) -> str:
    return (DOCS / page).read_text(encoding="utf-8").split("\n---\n", 1)[1]


TRACK = track()
TRACK_PAGES = [page for page, _ in TRACK]


def test_nav_has_the_agreed_shape():
    titles = [title for title, _ in nav_sections()]
    flat = [pages for _, pages in nav_sections()]
    assert flat[0] == ["index.md"] and flat[1] == ["levels.md"], "the nav starts with Home, then Browse by level"
    assert [t for t in titles if t and SECTION_LEVEL.match(t)] == [
        "101 · First contact", "201 · Working knowledge", "301 · Deep dive"], f"one nav section per level: {titles}"
    assert titles[-1] == "Contributing", "the contributor pages come last, after the track"
    assert TRACK_PAGES and TRACK_PAGES[0] == "mcp/mcp-in-your-editor.md", "the track starts at the 101 page"


def test_every_track_page_exists_and_every_page_is_in_the_nav():
    in_nav = {page for _, pages in nav_sections() for page in pages}
    on_disk = {str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")}
    assert in_nav <= on_disk, f"nav names pages that do not exist: {sorted(in_nav - on_disk)}"
    assert on_disk <= in_nav, f"pages missing from the nav: {sorted(on_disk - in_nav)}"
    assert len(TRACK_PAGES) == len(set(TRACK_PAGES)), "a track page is listed twice"


def level_drops(pages: list[tuple[str, str | None]]) -> list[str]:
    """Every place where the level goes down from one page to the next (pages without a level are skipped)."""
    leveled = [(page, level) for page, level in pages if level]
    return [f"{a} ({la}) before {b} ({lb})" for (a, la), (b, lb) in zip(leveled, leveled[1:]) if int(lb) < int(la)]


def test_levels_never_go_down_along_the_track():
    drops = level_drops([(page, page_level(page)) for page in TRACK_PAGES])
    assert not drops, "the level goes down along the track: " + "; ".join(drops)


@pytest.mark.parametrize("page,section_level", TRACK, ids=[p for p, _ in TRACK])
def test_track_page_shows_its_level_once_and_sits_in_its_section(page, section_level):
    level = page_level(page)
    assert level is not None, f"docs/{page}: a track page needs one level tag (tags: [Level NNN]) in its front matter"
    assert level == section_level, (f"docs/{page}: tagged Level {level} but listed in the nav section for "
                                    f"{section_level}; move it in mkdocs.yml or change its tag")
    assert re.search(r'^!!! abstract "In short"\s*$', body(page), re.M), \
        f'docs/{page}: the one-line summary sits in !!! abstract "In short" (the chip already shows the level)'
    shown = re.findall(r"^(?:#+ |!!! \w+ \").*Level (?:101|201|301)", body(page), re.M)
    assert not shown, f"docs/{page}: the level shows again in a heading or admonition title: {shown}"


@pytest.mark.parametrize("page", NAVIGATION_PAGES)
def test_navigation_pages_carry_no_level(page):
    assert page_level(page) is None, f"docs/{page} lists the track but is not on it: it carries no level tag"


def listed_track_links(page: str) -> list[str]:
    """The track pages a page links to, in order of first appearance within its reading-path section."""
    text = body(page)
    start = re.search(r"^## (The track in reading order|The reading path)\s*$", text, re.M)
    assert start, f"docs/{page}: needs a '## The track in reading order' (or '## The reading path') section"
    rest = text[start.end():]
    end = re.search(r"^## ", rest, re.M)
    section = rest[:end.start()] if end else rest
    base = Path(page).parent
    links = []
    for target in re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)", section):
        resolved = str((base / target)).replace("\\", "/")
        resolved = re.sub(r"^\./", "", resolved)
        if resolved in TRACK_PAGES and resolved not in links:
            links.append(resolved)
    return links


@pytest.mark.parametrize("page", NAVIGATION_PAGES)
def test_page_lists_exactly_the_track_in_nav_order(page):
    links = listed_track_links(page)
    assert links == TRACK_PAGES, (f"docs/{page} lists the track as {links}, but mkdocs.yml's nav says {TRACK_PAGES}; "
                                  f"keep the list in nav order, every track page once, without Home or the "
                                  f"contributor page")


def test_browse_by_level_lists_neither_home_nor_the_contributor_pages():
    section = body("levels.md")
    assert "(index.md)" not in section.split("## Sources")[0], "Browse by level must not list Home"
    assert "contributing/" not in section, "Browse by level must not list the contributor pages"
    assert "<!-- material/tags" not in section, "the tags plugin's listing sorts by title, not in reading order"


def test_material_footer_navigation_is_on():
    features = mkdocs_config()["theme"].get("features", [])
    assert "navigation.footer" in features, "mkdocs.yml: theme.features needs navigation.footer (issue 10)"


@pytest.mark.parametrize("page", sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")))
def test_no_hand_written_previous_next_lines(page):
    lines = [line for line in body(page).splitlines() if re.match(r"^\s*(Previous|Next)\s*:", line)]
    assert not lines, (f"docs/{page}: hand-written navigation {lines[:2]}; Material's footer (navigation.footer) "
                       f"links the previous and next page in nav order, delete these lines")


def test_level_drops_reports_a_level_going_down():
    """The monotonic check itself can fail: a 301 page before a 201 page is reported, equal levels are not."""
    assert level_drops([("a.md", "101"), ("b.md", "301"), ("c.md", "201"), ("d.md", "301")]) == \
        ["b.md (301) before c.md (201)"]
    assert level_drops([("a.md", "101"), ("b.md", "201"), ("c.md", "201"), ("d.md", None), ("e.md", "301")]) == []


def test_sequence_diagram_is_accessible_inline_and_follows_the_theme():
    """The stdio sequence diagram (docs/assets/stdio-sequence.svg, pasted inline by pymdownx.snippets): a named image
    for screen readers, no request to anywhere, and no colour of its own (currentColor and the theme's CSS classes),
    so it stays readable in dark mode. The first page of the track shows it."""
    import xml.etree.ElementTree as ET

    text = (DOCS / "assets" / "stdio-sequence.svg").read_text(encoding="utf-8")
    svg = ET.fromstring(text[text.index("<svg"):])
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.get("role") == "img", "the diagram needs role=\"img\""
    labelled_by = (svg.get("aria-labelledby") or "").split()
    named = {el.get("id"): el.tag.removeprefix(ns) for el in svg if el.get("id")}
    assert labelled_by and all(named.get(i) in ("title", "desc") for i in labelled_by), \
        f"aria-labelledby={labelled_by} must name the diagram's own <title> and <desc>"
    assert {"title", "desc"} <= set(named.values()), "the diagram needs a <title> and a <desc>"
    for element in svg.iter():
        for name, value in element.attrib.items():
            assert "://" not in value or name == "xmlns", f"<{element.tag}> {name}={value!r}: no external reference"
            assert not (name in ("fill", "stroke", "style", "color") and re.search(r"#[0-9a-fA-F]{3,8}|rgb", value)), \
                f"<{element.tag}> {name}={value!r}: colours come from the stylesheet, so dark mode works"
    for page in ("mcp/mcp-in-your-editor.md",):
        assert '--8<-- "stdio-sequence.svg"' in body(page), f"docs/{page}: shows the sequence diagram"
