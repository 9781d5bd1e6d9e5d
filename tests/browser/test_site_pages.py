"""Every page of the built site, in Chromium: loads cleanly, fits its screen budget, follows the nav, shows its
conversations whole and exact, pasted code is the real code, tabs, WCAG 2.1 AA, palette, search, phone.

Pages are every Markdown file under docs/ (so a new page is covered without touching this file), and
test_every_built_page_is_tested checks that this list and the built site agree. Screenshots of every page, desktop
(the whole page) and phone (its first screen), go to screenshots/ at the repository root.

A page is loaded once per viewport and every check that needs it runs on that load. The desktop tests of one page
share one browser tab (`visit`), in the order they are written here: the load check, the screen budget and the
footer (budget.py), the languages each "Run it here" box offers (runkit.py), the conversation view's width and raw
lines (conversation.py), the tab check and the block check
(while collapsed blocks are still closed as a reader first sees them: each check before them closes what it opened),
axe-core's WCAG 2.1 AA check in both palettes (accessibility.py), then the palette check goes on to the next page,
and the searches start from there. The phone tests of a page share one phone-sized tab (`phone`) the same way: the
conversation view's width, axe's check, then the layout check. pytest runs all tests of one page before the next
page, because `visit` is a module-scoped parametrized fixture (and `phone` depends on it); a test that concerns only
some pages (the track, the pages with a conversation) names them by parametrizing `visit` itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest

from support.repo import skip_or_fail

from .accessibility import AXE_FIX, axe_installed, check_accessibility
from .budget import check_budget, check_footer, track_pages
from .checks import (DESKTOP, PHONE, check_page_loads, check_palette, check_pasted_blocks, check_phone, check_search,
                     check_tabs, new_context, open_page)
from .conversation import WITH_CONVERSATION, check_raw_lines, exchanges_overflowing
from .runkit import check_offered_languages, conversation_pages
from .sitekit import ROOT, Doc, built_pages, discover_docs, search_terms, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

PAGES = [doc.src for doc in discover_docs(ROOT)]
TRACK = ["docs/" + page for page in track_pages()]
WITH_RUN_HERE = sorted(set(conversation_pages().values()))  # pages with an example's whole conversation


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


def test_the_track_is_not_empty():
    assert "docs/mcp/what-is-mcp.md" in TRACK, "mkdocs.yml's nav must list mcp/what-is-mcp.md on the track"


@pytest.mark.parametrize("visit", TRACK, indirect=True)
def test_track_page_fits_its_screen_budget(site, visit):
    problems = check_budget(visit.page, site, visit.doc)
    assert not problems, _report(problems)


def test_footer_links_follow_the_nav(site, visit):
    problems = check_footer(visit.page, site, visit.doc)
    assert not problems, _report(problems)


@pytest.mark.parametrize("visit", WITH_RUN_HERE, indirect=True)
def test_each_view_offers_the_languages_its_example_runs_in_and_says_why_not_for_the_others(site, visit):
    problems = check_offered_languages(visit.page, site, visit.doc)
    assert not problems, _report(problems)


def _overflow_report(doc: Doc, overflowing: list[str] | None, size: dict) -> str | None:
    if overflowing is None:
        return f"{doc.src}: no .exchange inside .conversation"
    return f"{doc.src} at {size['width']} px:\n" + "\n".join(overflowing) if overflowing else None


@pytest.mark.parametrize("visit", WITH_CONVERSATION, indirect=True)
def test_no_exchange_overflows_sideways_on_a_desktop(site, visit):
    problem = _overflow_report(visit.doc, exchanges_overflowing(visit.page, site, visit.doc), DESKTOP)
    assert problem is None, problem


@pytest.mark.parametrize("visit", WITH_CONVERSATION, indirect=True)
def test_raw_lines_show_and_copy_the_exact_file_lines(site, visit):
    problems = check_raw_lines(visit.page, site, visit.doc)
    assert not problems, f"{visit.doc.src}: " + _report(problems)


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


@pytest.mark.parametrize("visit", WITH_CONVERSATION, indirect=True)
def test_no_exchange_overflows_sideways_on_a_phone(site, visit, phone):
    problem = _overflow_report(visit.doc, exchanges_overflowing(phone, site, visit.doc), PHONE)
    assert problem is None, problem


def test_phone_page_meets_wcag_21_aa_in_both_palettes(visit, phone, axe):
    problems = check_accessibility(phone, visit.doc, f"phone {PHONE['width']}x{PHONE['height']}")
    assert not problems, _report(problems)


def test_phone_viewport_has_no_sideways_scroll_and_navigation_opens(site, visit, phone, screenshots):
    problems = check_phone(phone, site, visit.doc, screenshots / "phone" / f"{visit.doc.slug}.png")
    assert not problems, _report(problems)
