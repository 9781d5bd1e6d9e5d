"""Every page of the built site, in Chromium: loads cleanly, pasted code is the real code, tabs, palette, search,
phone.

Pages are every Markdown file under docs/ (so a new page is covered without touching this file), and
test_every_built_page_is_tested checks that this list and the built site agree. Screenshots of every page, desktop
(the whole page) and phone (its first screen), go to screenshots/ at the repository root.

The desktop tests of one page share one browser tab (`visit`), in the order they are written here: the page is
loaded once for the load check, the tab check, the block check (tabs first, while collapsed blocks are still
closed as a reader first sees them) and axe-core's WCAG 2.1 AA check in both palettes (accessibility.py), the
palette check goes on to the next page, and the searches start from there. The phone tests of a page share one
phone-sized tab (`phone`) the same way: axe's check, then the layout check. pytest runs all tests of one page
before the next page, because `visit` is a module-scoped parametrized fixture (and `phone` depends on it).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

from support.repo import skip_or_fail

from .accessibility import AXE_FIX, axe_installed, check_accessibility
from .checks import (DESKTOP, PHONE, check_page_loads, check_palette, check_pasted_blocks, check_phone, check_search,
                     check_tabs, new_context, open_page)
from .sitekit import ROOT, Doc, built_pages, discover_docs, search_terms, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

PAGES = [doc.src for doc in discover_docs(ROOT)]


@dataclass
class Visit:
    doc: Doc
    page: object  # the playwright Page, shared by this page's desktop tests


@pytest.fixture(scope="module", params=PAGES)
def visit(request, chromium, site):
    context = new_context(chromium, site)
    try:
        yield Visit(site.doc(request.param), open_page(context, site))
    finally:
        context.close()


@pytest.fixture(scope="module")
def phone(visit, chromium, site):
    """The page of `visit`, loaded once on a phone-sized screen, for the phone tests of that page."""
    context = new_context(chromium, site, phone=True, search=False)
    try:
        page = open_page(context, site)
        page.goto(site.url(visit.doc), wait_until="load")
        yield page
    finally:
        context.close()


@pytest.fixture(scope="module")
def axe():
    if not axe_installed():
        skip_or_fail(f"the accessibility check needs node_modules/axe-core, which is missing; fix: {AXE_FIX}")


def _report(problems: list[str]) -> str:
    return f"{len(problems)} problem(s):\n" + "\n".join(problems)


def test_every_built_page_is_tested(site):
    built = built_pages(site.site_dir)
    listed = {doc.path for doc in site.docs}
    assert built == listed, (f"pages built but not under test: {sorted(built - listed)}; "
                             f"pages under test but not built: {sorted(listed - built)}")


def test_page_loads_without_errors_or_other_hosts(site, visit, screenshots):
    problems = check_page_loads(visit.page, site, visit.doc, screenshots / "desktop" / f"{visit.doc.slug}.jpg")
    assert not problems, _report(problems)


def test_content_tabs_switch_and_linked_tabs_follow(site, visit):
    problems = check_tabs(visit.page, site, visit.doc)
    assert not problems, _report(problems)


def test_pasted_blocks_show_and_copy_their_files(site, visit):
    problems = check_pasted_blocks(visit.page, site, visit.doc)
    assert not problems, _report(problems)


def test_page_meets_wcag_21_aa_in_both_palettes(site, visit, axe):
    problems = check_accessibility(visit.page, visit.doc, f"desktop {DESKTOP['width']}x{DESKTOP['height']}")
    assert not problems, _report(problems)


def test_light_dark_toggle_works_and_persists(site, visit):
    problems = check_palette(visit.page, site, visit.doc, site.after(visit.doc))
    assert not problems, _report(problems)


def test_search_finds_english_json_and_polish_words(site, visit):
    doc, page = visit.doc, visit.page
    terms, missing = search_terms(doc, site.outline(doc), site.index, site.expected(doc))
    problems = [f"{doc.label}: {text}" for text in missing]
    for number, term in enumerate(terms):
        # The first word is typed on another page (where the palette check left the browser), the next ones on
        # the page the last result opened; after a failure, or off the site, the search starts on the next page.
        here = urlsplit(page.url)
        on_site = here.netloc == urlsplit(site.base_url).netloc
        start = None if on_site and (number > 0 or here.path != "/" + doc.path) else site.after(doc)
        found = check_search(page, site, term, start)
        if found:
            page.goto("about:blank")
        problems += found
    assert not problems, _report(problems)


def test_some_page_is_searched_for_a_transcript_word(site):
    kinds = {term.kind for doc in site.docs
             for term in search_terms(doc, site.outline(doc), site.index, site.expected(doc))[0]}
    assert "JSON transcript" in kinds, "no page pastes a transcript.jsonl, so no transcript word is searched for"


def test_phone_page_meets_wcag_21_aa_in_both_palettes(visit, phone, axe):
    problems = check_accessibility(phone, visit.doc, f"phone {PHONE['width']}x{PHONE['height']}")
    assert not problems, _report(problems)


def test_phone_viewport_has_no_sideways_scroll_and_navigation_opens(site, visit, phone, screenshots):
    problems = check_phone(phone, site, visit.doc, screenshots / "phone" / f"{visit.doc.slug}.png")
    assert not problems, _report(problems)
