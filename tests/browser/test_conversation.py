"""The conversation view (NAME/conversation markers) in Chromium: it is there, it fits, and its raw lines are exact.

Pages are found from their sources (a conversation marker pair), so every page that gains one is covered. With
every "Raw line" and "Show all" opened (the widest the view gets), no exchange may be wider than its box at 1280 px
or at 390 px; every raw line shows, and every answer-key raw line's copy button copies, exactly the line of the
file named in its data-file/data-line.
"""

from __future__ import annotations

import pytest

from .checks import DESKTOP, PHONE, WAIT_MS, new_context, open_page
from .sitekit import ROOT, discover_docs, markers, pages, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()


def _targets(src: str) -> list[str]:
    text = (ROOT / src).read_text(encoding="utf-8")
    return [s.target for s in markers.parse(text, src) if isinstance(s, markers.Block)]


def _shown_as_loaded(src: str) -> bool:
    """A conversation marker at the start of a line: the view is not inside a collapsed ??? block."""
    text = (ROOT / src).read_text(encoding="utf-8")
    return any(s.indent == "" and pages.is_conversation(s.target)
               for s in markers.parse(text, src) if isinstance(s, markers.Block))


DOCS = discover_docs(ROOT)
WITH_CONVERSATION = [d.src for d in DOCS if any(pages.is_conversation(t) for t in _targets(d.src))]
# The "Show all" check clicks a long exchange as the page loads, so it needs a conversation outside any ??? block.
SHOWN_CONVERSATION = [src for src in WITH_CONVERSATION if _shown_as_loaded(src)]
WITH_TRANSCRIPT = [d.src for d in DOCS if any(t.endswith("/transcript.jsonl") for t in _targets(d.src))]

# Open every raw line and every "Show all": the widest the view gets.
_OPEN_ALL = """() => {
  for (const d of document.querySelectorAll(".conversation details")) d.open = true;
}"""

# Exchanges wider than their own box, and children sticking out of them, with a short description of each.
_OVERFLOW = """() => {
  const found = [];
  document.querySelectorAll(".conversation .exchange").forEach((ex, i) => {
    const box = ex.getBoundingClientRect();
    const label = `exchange ${i + 1} (data-id ${ex.dataset.id ?? "none"}, class "${ex.className}")`;
    if (ex.scrollWidth > ex.clientWidth + 1)
      found.push(`${label}: content ${ex.scrollWidth}px wide in a ${ex.clientWidth}px box`);
    for (const child of ex.querySelectorAll("*")) {
      const r = child.getBoundingClientRect();
      if (r.width && r.right > box.right + 1 && !child.closest("pre")) {
        found.push(`${label}: <${child.tagName.toLowerCase()} class="${child.className}"> ends at ${r.right}px, `
                   + `past the exchange's right edge at ${box.right}px`);
        break;
      }
    }
  });
  return found;
}"""

_RAW_LINES = """() => [...document.querySelectorAll(".conversation details.raw-line")].map(d => ({
  file: d.dataset.file, line: Number(d.dataset.line),
  text: d.querySelector("pre > code") ? d.querySelector("pre > code").textContent : null,  // closed: innerText would be ""
}))"""


def _file_lines(rel: str) -> list[str]:
    data = (ROOT / rel).read_bytes()
    return [chunk.decode("utf-8", errors="replace") for chunk in data.split(b"\n")]


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


@pytest.mark.parametrize("width", ["desktop", "phone"])
@pytest.mark.parametrize("src", WITH_CONVERSATION)
def test_no_exchange_overflows_sideways(chromium, site, src, width):
    context = new_context(chromium, site, phone=width == "phone", search=False)
    try:
        page = open_page(context, site)
        page.goto(site.url(site.doc(src)), wait_until="load")
        assert page.locator(".conversation .exchange").count() > 0, f"{src}: no .exchange inside .conversation"
        page.evaluate(_OPEN_ALL)
        problems = page.evaluate(_OVERFLOW)
    finally:
        context.close()
    size = DESKTOP if width == "desktop" else PHONE
    assert not problems, f"{src} at {size['width']} px:\n" + "\n".join(problems)


@pytest.mark.parametrize("src", WITH_CONVERSATION)
def test_raw_lines_show_and_copy_the_exact_file_lines(chromium, site, src):
    context = new_context(chromium, site, search=False)
    try:
        page = open_page(context, site)
        page.goto(site.url(site.doc(src)), wait_until="load")
        shown = page.evaluate(_RAW_LINES)
        problems = []
        files: dict[str, list[str]] = {}
        for item in shown:
            lines = files.setdefault(item["file"], _file_lines(item["file"]))
            want = lines[item["line"] - 1]
            if item["text"] is None or item["text"].rstrip("\n") != want:
                problems.append(f"raw line for {item['file']}:{item['line']} shows {item['text']!r}, "
                                f"the file has {want!r}")
        assert shown, f"{src}: the conversation view has no raw lines"
        details = page.locator(".conversation details.raw-line[data-file$='answer_key.jsonl']")
        for number in range(details.count()):
            block = details.nth(number)
            # Open it and every block around it (a conversation may sit in a collapsed admonition).
            block.evaluate("d => { for (let e = d; e; e = e.parentElement && e.parentElement.closest('details')) "
                           "e.open = true; }")
            rel, line = block.get_attribute("data-file"), int(block.get_attribute("data-line"))
            page.evaluate("navigator.clipboard.writeText('')")
            block.locator('button.md-code__button[data-md-type="copy"]').click(timeout=WAIT_MS)
            copied = page.evaluate("navigator.clipboard.readText()")
            want = files.setdefault(rel, _file_lines(rel))[line - 1]
            if copied.rstrip("\n") != want:
                problems.append(f"copy button of {rel}:{line} copies {copied!r}, the file has {want!r}")
    finally:
        context.close()
    assert not problems, f"{src}: {len(problems)} problem(s):\n" + "\n".join(problems)


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
