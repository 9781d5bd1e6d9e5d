"""The conversation view (NAME/conversation markers) in Chromium: it is there, its pretty form has no copy button, and
"Show all" lifts the cut; the search index holds its pretty-printed JSON.

Pages are found from their sources (a conversation marker pair), so every page that gains one is covered. The checks
made on every such page, that no exchange is wider than its box at 1280 px or at 390 px and that every raw line and
its copy button give exactly the line of the file named in its data-file/data-line, run in test_site_pages.py on the
page loads it makes anyway (their functions: conversation.py).
"""

from __future__ import annotations

import pytest

from .checks import WAIT_MS, new_context, open_page
from .conversation import SHOWN_CONVERSATION, WITH_CONVERSATION, WITH_TRANSCRIPT
from .sitekit import skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()


def test_some_page_shows_a_conversation():
    assert WITH_CONVERSATION, ("no page under docs/ has a <!-- example-begin: NAME/conversation --> marker pair; "
                               "every page that shows a transcript must show its conversation view")


def test_every_page_with_a_transcript_shows_a_conversation(site):
    missing = []
    for src in WITH_TRANSCRIPT:
        built = site.html_file(site.doc(src)).read_text(encoding="utf-8")
        if 'class="conversation"' not in built:
            missing.append(src)
    assert not missing, (f"pages that paste a transcript.jsonl but show no conversation view: {missing}; add "
                         f"<!-- example-begin: NAME/conversation --> and <!-- example-end --> above the transcript")


def test_some_page_shows_a_conversation_as_loaded():
    assert SHOWN_CONVERSATION, ("every conversation view sits in a collapsed ??? block; the Show-all check needs one "
                                "page whose <!-- example-begin: NAME/conversation --> marker starts its line")


@pytest.mark.parametrize("src", SHOWN_CONVERSATION[:1])
def test_the_pretty_form_has_no_copy_button_and_show_all_lifts_the_cut(chromium, site, src):
    context = new_context(chromium, site, search=False)
    try:
        page = open_page(context, site)
        page.goto(site.url(site.doc(src)), wait_until="load")
        pretty_buttons = page.evaluate("""() => document.querySelectorAll(
            '.conversation .exchange-side > .highlight button.md-code__button[data-md-type="copy"]').length""")
        long = page.locator(".conversation .exchange.long").first
        has_long = long.count() > 0
        cut = None
        if has_long:
            code = long.locator(":scope > .exchange-side > .highlight pre > code").first
            code.scroll_into_view_if_needed()
            cut = code.evaluate("c => [c.clientHeight, c.scrollHeight]")
            long.locator(":scope > details.show-all > summary").click()
            page.wait_for_function("c => c.clientHeight >= c.scrollHeight", arg=code.element_handle(),
                                   timeout=WAIT_MS)
    finally:
        context.close()
    assert pretty_buttons == 0, f"{src}: {pretty_buttons} copy buttons on pretty-printed JSON (.no-copy missing)"
    assert has_long, f"{src}: no exchange is long enough to be cut; pick a page with one"
    if has_long:
        assert cut[0] < cut[1], f"{src}: a long exchange is not cut to its first lines ({cut})"


@pytest.mark.parametrize("src", WITH_CONVERSATION)
def test_search_indexes_the_pretty_printed_json(site, src):
    """The pretty form is one block per message, so the search index holds every key of it (no JavaScript needed)."""
    doc = site.doc(src)
    text = " ".join(entry["text"] for entry in site.index_json["docs"] if entry["location"].split("#")[0] == doc.path)
    assert "Request and reply" in text, f"{src}: the search index has no exchange of the conversation view"
    assert '"jsonrpc": "2.0"' in text, (f"{src}: the search index has no pretty-printed JSON from the "
                                        f"conversation view (looked for '\"jsonrpc\": \"2.0\"')")
