"""The checks catch what they promise to: a copy of the built site with three deliberately broken pages fails them.

A copy of the run's one site build (built_site, hard links: nothing is built again) gets a stale pasted block on one
page (a line of it edited by hand), a link to an external font on another and a tab set that does not switch on a
third; it is served the same way. Each test calls the very check function the tests over the real site use and
asserts that it fails with a message naming the broken page.
"""

from __future__ import annotations

import html
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from .checks import check_page_loads, check_pasted_blocks, check_tabs, open_page
from .sitekit import ROOT, Doc, Site, SiteServer, discover_docs, pages, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

FONT_HOST = "fonts.googleapis.com"
FONT_LINK = f'<link rel="stylesheet" href="https://{FONT_HOST}/css2?family=Roboto:wght@400;700&display=swap">'
# A script that swallows clicks on tab labels before the browser can select the tab: the tabs stop switching.
FROZEN_TABS = """<script>
window.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest(".tabbed-labels")) {
    event.preventDefault();
    event.stopPropagation();
  }
}, true);
</script>"""
HAND_EDIT = "EDITED BY HAND "


@dataclass
class Broken:
    stale: Doc  # a pasted block was edited by hand
    stale_title: str
    font: Doc  # links a stylesheet on an external font host
    tabs: Doc  # its tab labels no longer switch anything


def _rewrite(path: Path, text: str) -> None:
    """A new file in place of a hard link: the run's own build keeps its page."""
    path.unlink()
    path.write_text(text, encoding="utf-8")


def _edit_a_pasted_block(site: Site, doc: Doc) -> str | None:
    """Put HAND_EDIT at the start of the first code line of the page's first pasted block; return its title."""
    path = site.html_file(doc)
    text = path.read_text(encoding="utf-8")
    for item in site.expected(doc):
        if pages.is_conversation(item.target):
            continue
        title = text.find(f'<span class="filename">{html.escape(item.title, quote=False)}</span>')
        code = text.find("<code>", title) if title >= 0 else -1
        if code >= 0:
            at = code + len("<code>")
            _rewrite(path, text[:at] + HAND_EDIT + text[at:])
            return item.title
    return None


def _append(site: Site, doc: Doc, markup: str) -> None:
    path = site.html_file(doc)
    text = path.read_text(encoding="utf-8")
    at = text.rindex("</article>")
    _rewrite(path, text[:at] + markup + "\n" + text[at:])


def _break_copy(site: Site) -> Broken:
    used: set[str] = set()

    def pick(test) -> Doc | None:
        for doc in sorted(site.docs, key=lambda d: d.src in used):  # prefer a page not broken yet
            if test(doc):
                used.add(doc.src)
                return doc
        return None

    stale_title = None

    def stale_test(doc: Doc) -> bool:
        nonlocal stale_title
        stale_title = _edit_a_pasted_block(site, doc)
        return stale_title is not None

    stale = pick(stale_test)
    tabs = pick(lambda doc: 'class="tabbed-set' in site.html_file(doc).read_text(encoding="utf-8"))
    font = pick(lambda doc: True)
    if stale is None or tabs is None:
        pytest.fail("no page has a pasted block or a content tab set left to break; the broken-page tests need both")
    _append(site, font, FONT_LINK)
    _append(site, tabs, FROZEN_TABS)
    return Broken(stale, stale_title, font, tabs)


@pytest.fixture(scope="module")
def broken(tmp_path_factory, chromium, built_site):
    site_dir = tmp_path_factory.mktemp("broken-copy") / "site"
    shutil.copytree(built_site, site_dir, copy_function=os.link)
    server = SiteServer(site_dir)
    try:
        site = Site(root=ROOT, site_dir=site_dir, base_url=server.base_url, docs=discover_docs(ROOT))
        yield site, _break_copy(site)
    finally:
        server.stop()


def _names_page(problems: list[str], doc: Doc) -> bool:
    return bool(problems) and all(problem.startswith(doc.label + ":") for problem in problems)


def test_stale_pasted_block_fails_naming_the_page(broken, open_context):
    site, plan = broken
    problems = check_pasted_blocks(open_page(open_context(site), site), site, plan.stale)
    assert _names_page(problems, plan.stale), problems
    stale = [p for p in problems if repr(plan.stale_title) in p and "differs from the file" in p]
    assert stale, f"expected a stale-block problem for {plan.stale_title!r}, got: {problems}"
    assert HAND_EDIT in stale[0], stale[0]  # the diff shows the edited line


def test_external_font_link_fails_naming_the_page(broken, open_context):
    site, plan = broken
    problems = check_page_loads(open_page(open_context(site), site), site, plan.font)
    assert _names_page(problems, plan.font), problems
    assert any("request to another host" in p and FONT_HOST in p for p in problems), problems
    assert any("element refers to another host" in p and FONT_HOST in p for p in problems), problems


def test_tab_set_that_does_not_switch_fails_naming_the_page(broken, open_context):
    site, plan = broken
    problems = check_tabs(open_page(open_context(site), site), site, plan.tabs)
    assert _names_page(problems, plan.tabs), problems
    assert any("clicking tab" in p for p in problems), problems


def test_unbroken_pages_of_the_copy_pass_the_same_checks(broken, open_context):
    """The three failures come from the edits: a page left alone in the copy passes all three checks."""
    site, plan = broken
    spoiled = {plan.stale.src, plan.font.src, plan.tabs.src}
    intact = next((doc for doc in site.docs if doc.src not in spoiled and site.expected(doc)), None)
    if intact is None:
        pytest.fail("every page with a pasted block was broken on purpose: no intact page left to compare")
    page = open_page(open_context(site), site)
    problems = check_page_loads(page, site, intact) + check_pasted_blocks(page, site, intact)
    assert not problems, problems
