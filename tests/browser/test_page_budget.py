"""The reading path in a browser: every track page fits its screen budget, and the footer follows the nav.

Budget (issues 10 and 34): at 1280x800 with every collapsible block closed, every track page is at most 12 screens
of document height. The track is read from mkdocs.yml's nav, so a new track
page is measured without touching this file. Heights are measured, never timed: a page load gets a generous
timeout because the machine may be busy, and the assertion is about pixels only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .checks import DESKTOP, new_context
from .sitekit import ROOT, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

SCREEN = DESKTOP["height"]
BUDGET_SCREENS = 12
LOAD_TIMEOUT_MS = 120_000


def nav_pages(root: Path = ROOT) -> list[str]:
    """Every page of mkdocs.yml's nav in reading order (Home and Browse by level first, Contributing last)."""
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))

    def walk(items):
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                yield from walk(value)
            else:
                yield value

    return list(walk(config["nav"]))


def track_pages(root: Path = ROOT) -> list[str]:
    """The track: the pages under docs/mcp/ in nav order."""
    return [page for page in nav_pages(root) if page.startswith("mcp/")]


def url_of(site, page: str) -> str:
    return site.url(site.doc("docs/" + page))


def open_closed(context, url: str):
    """The page as a reader first sees it on a desktop: loaded, fonts settled, every <details> closed."""
    page = context.new_page()
    page.set_default_timeout(LOAD_TIMEOUT_MS)
    page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_MS)
    page.evaluate("document.fonts ? document.fonts.ready : null")
    page.evaluate("document.querySelectorAll('details[open]').forEach(d => d.removeAttribute('open'))")
    return page


def document_height(page) -> int:
    return page.evaluate("Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)")


def test_the_track_is_not_empty():
    assert "mcp/what-is-mcp.md" in track_pages(), "mkdocs.yml's nav must list mcp/what-is-mcp.md on the track"


@pytest.mark.parametrize("source", track_pages())
def test_track_page_fits_its_screen_budget(chromium, site, source):
    context = new_context(chromium, site, search=False)
    try:
        page = open_closed(context, url_of(site, source))
        height = document_height(page)
    finally:
        context.close()
    screens = height / SCREEN
    assert screens <= BUDGET_SCREENS, (
        f"docs/{source}: {height} px at {DESKTOP['width']}x{SCREEN} with every collapsible closed is "
        f"{screens:.1f} screens, over the budget of {BUDGET_SCREENS}; move depth to the page that owns it and link "
        f"there, or put whole-file blocks inside a collapsed ??? block")


def test_footer_links_follow_the_nav(chromium, site):
    """Material's footer (navigation.footer): each page's previous/next links are its neighbours in the nav."""
    order = nav_pages()
    urls = [url_of(site, page) for page in order]
    context = new_context(chromium, site, search=False)
    problems = []
    try:
        for position, url in enumerate(urls):
            page = open_closed(context, url)
            found = page.evaluate("""() => {
                const href = sel => { const a = document.querySelector(sel); return a ? a.href : null; };
                return {prev: href('a.md-footer__link--prev'), next: href('a.md-footer__link--next')};
            }""")
            page.close()
            want_prev = urls[position - 1] if position > 0 else None
            want_next = urls[position + 1] if position + 1 < len(urls) else None
            if found["prev"] != want_prev or found["next"] != want_next:
                problems.append(f"docs/{order[position]}: footer links previous={found['prev']} next={found['next']}, "
                                f"the nav says previous={want_prev} next={want_next}")
    finally:
        context.close()
    assert not problems, "\n".join(problems)
