"""The reading path in a browser, checked on a page test_site_pages.py has loaded anyway: a track page fits its
screen budget, and the footer's previous/next links are the page's neighbours in mkdocs.yml's nav.

Budget (issues 10 and 34): at 1280x800 with every collapsible block closed, a track page (the nav's pages under
docs/mcp/) is at most 12 screens of document height. Heights are measured, never timed.
"""

from __future__ import annotations

from support import nav

from .checks import DESKTOP, on_page
from .sitekit import Doc, Site

SCREEN = DESKTOP["height"]
BUDGET_SCREENS = 12

# Close every open <details> in the page (a `???+` block is open as loaded), marked, and reopen exactly those after.
_CLOSE_OPEN = """() => { for (const d of document.querySelectorAll("details[open]")) {
  d.open = false; d.dataset.budgetClosed = ""; } }"""
_REOPEN = """() => { for (const d of document.querySelectorAll("details[data-budget-closed]")) {
  d.open = true; delete d.dataset.budgetClosed; } }"""
_HEIGHT = "Math.max(document.documentElement.scrollHeight, document.body.scrollHeight)"
_FOOTER = """() => {
  const href = sel => { const a = document.querySelector(sel); return a ? a.href : null; };
  return {prev: href('a.md-footer__link--prev'), next: href('a.md-footer__link--next')};
}"""


def track_pages() -> list[str]:
    """The track: the nav's pages under docs/mcp/, in nav order ("mcp/what-is-mcp.md")."""
    return [page for page in nav.pages() if page.startswith("mcp/")]


def _url(site: Site, page: str) -> str:
    return site.url(site.doc("docs/" + page))


def check_budget(page, site: Site, doc: Doc) -> list[str]:
    """The page's document height with every collapsible closed is within the budget (the page is left as found)."""
    on_page(page, site, doc)
    page.evaluate("document.fonts ? document.fonts.ready : null")
    page.evaluate(_CLOSE_OPEN)
    try:
        height = page.evaluate(_HEIGHT)
    finally:
        page.evaluate(_REOPEN)
    screens = height / SCREEN
    if screens <= BUDGET_SCREENS:
        return []
    return [f"{doc.src}: {height} px at {DESKTOP['width']}x{SCREEN} with every collapsible closed is "
            f"{screens:.1f} screens, over the budget of {BUDGET_SCREENS}; move depth to the page that owns it and "
            f"link there, or put whole-file blocks inside a collapsed ??? block"]


def check_footer(page, site: Site, doc: Doc) -> list[str]:
    """Material's footer (navigation.footer): the previous/next links are the page's neighbours in the nav."""
    order = nav.pages()
    source = doc.src.removeprefix("docs/")
    if source not in order:
        return [f"{doc.src}: not in mkdocs.yml's nav, so it has no place on the reading path"]
    on_page(page, site, doc)
    found = page.evaluate(_FOOTER)
    position = order.index(source)
    want_prev = _url(site, order[position - 1]) if position > 0 else None
    want_next = _url(site, order[position + 1]) if position + 1 < len(order) else None
    if found["prev"] == want_prev and found["next"] == want_next:
        return []
    return [f"{doc.src}: footer links previous={found['prev']} next={found['next']}, the nav says "
            f"previous={want_prev} next={want_next}"]
