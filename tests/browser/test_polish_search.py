"""Polish without diacritics: in Chromium, "blad" finds the pages "błąd" finds, and snippets keep the Polish letters.

docs/javascripts/search-fold.js adds folded copies of the index's titles and texts on their way to Material's search
worker, and folded words to each query. These tests type into the real search box of the built site, the way a
reader does (`fill(word)`, then `End`), and compare the pages listed for each spelling.
"""

from __future__ import annotations

import re
import time

import pytest

from .checks import WAIT_MS, open_page
from .sitekit import ROOT, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

# Each word as a Polish reader types it without diacritics, and as it is written; both must list the same pages.
PAIRS = [("blad", "błąd"), ("zadanie", "żądanie"), ("narzedzie", "narzędzie")]

# Results arrive in batches as the list scrolls: scroll on until every page the count announces is listed.
_ALL_RESULTS = """(word) => {
  const box = document.querySelector("input.md-search__input");
  const meta = (document.querySelector(".md-search-result__meta") || {}).textContent || "";
  if (box.value !== word) return null;
  if (/no matching/i.test(meta)) return {count: 0, pages: [], text: ""};
  const match = meta.match(/(\\d+) matching/);
  if (!match) return null;
  const items = [...document.querySelectorAll(".md-search-result__item")];
  const wrap = document.querySelector(".md-search__scrollwrap");
  // Material renders a long list as the reader scrolls, and (9.8, headless) stops at 14 groups: take what is
  // rendered once it has stopped growing for 1.5 s; the tests compare the counts too, which cover every page.
  if (items.length < Number(match[1])) {
    if (wrap) wrap.scrollTop = wrap.scrollHeight;
    const now = Date.now();
    if (window.__resultsSeen !== items.length) { window.__resultsSeen = items.length; window.__resultsSince = now; }
    if (now - window.__resultsSince < 1500) return null;
  }
  const pages = items.map(item => new URL(item.querySelector("a").href, location.href).pathname);
  return {count: Number(match[1]), pages: [...new Set(pages)].sort(),
          text: [...document.querySelectorAll(".md-search-result__article")].map(a => a.innerText).join("\\n")};
}"""


def _search(page, word: str) -> dict:
    """Type `word` into a cleared search box and return the pages listed and the text of the results."""
    box = page.locator("input.md-search__input")
    if not box.is_visible():
        page.locator('label.md-header__button[for="__search"]').click()
    box.click()
    box.fill("")
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')", timeout=WAIT_MS)
    box.fill(word)
    box.press("End")
    handle = page.wait_for_function(_ALL_RESULTS, arg=word, timeout=WAIT_MS * 3)
    return handle.json_value()


@pytest.fixture
def search_page(site, open_context):
    page = open_page(open_context(site), site)
    page.goto(site.base_url, wait_until="load")
    # The first query can race the index on a loaded machine (seen once in a full run: "No matching documents" for
    # a word on twelve pages). A word every page has, searched until it is found, means the index is in place
    # before any query a test compares.
    box = page.locator("input.md-search__input")
    if not box.is_visible():
        page.locator('label.md-header__button[for="__search"]').click()
    deadline = time.monotonic() + WAIT_MS * 3 / 1000
    while not _finds(page, box, "mcp"):
        assert time.monotonic() < deadline, "search never found 'mcp': the index did not load"
    box.fill("")
    return page


def _finds(page, box, word: str) -> bool:
    """Whether the result count for `word` is above zero (not waiting for every result to be listed)."""
    box.fill("")
    box.fill(word)
    box.press("End")
    page.wait_for_timeout(250)
    meta = page.locator(".md-search-result__meta").inner_text()
    return bool(re.search(r"[1-9]\d* matching", meta))


@pytest.mark.parametrize("plain, polish", PAIRS, ids=[plain for plain, _ in PAIRS])
def test_a_word_typed_without_diacritics_finds_the_same_pages(search_page, plain, polish):
    with_diacritics = _search(search_page, polish)
    without = _search(search_page, plain)
    assert with_diacritics["count"] > 0, f"{polish!r} finds nothing, so there is nothing to compare"
    assert without["count"] == with_diacritics["count"], (plain, without["count"], with_diacritics["count"])
    assert without["pages"] == with_diacritics["pages"], (
        f"{plain!r} lists {without['pages']}, but {polish!r} lists {with_diacritics['pages']}")


def test_a_word_with_some_of_its_diacritics_finds_the_same_pages(search_page):
    partly, whole = _search(search_page, "bład"), _search(search_page, "błąd")
    assert (partly["count"], partly["pages"]) == (whole["count"], whole["pages"])


def test_snippets_found_without_diacritics_still_show_polish(search_page):
    found = _search(search_page, "blad")
    assert "błąd" in found["text"].lower(), "the results for 'blad' should quote the pages' own 'błąd'"
    assert "blad" not in found["text"].lower().replace("błąd", ""), \
        "the folded copy of the text must never be shown in a result"


def test_it_works_when_the_script_runs_after_the_index_reached_the_worker(site, open_context):
    """Material sends the index as soon as it has it; if search-fold.js runs later, the first query refolds it."""
    page = open_page(open_context(site), site)
    page.route("**/javascripts/search-fold.js", lambda route: route.abort())
    page.goto(site.base_url, wait_until="load")
    assert _search(page, "narzedzie")["count"] == 0, "without search-fold.js Material matches exact words only"
    polish = _search(page, "narzędzie")
    page.add_script_tag(path=str(ROOT / "docs" / "javascripts" / "search-fold.js"))
    assert _search(page, "narzedzie")["pages"] == polish["pages"]
