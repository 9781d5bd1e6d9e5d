"""The conversation view (NAME/conversation markers), checked on a page test_site_pages.py has loaded anyway: no
exchange is wider than its box, and every raw line shows, and every answer-key raw line's copy button copies,
exactly the line of the file named in its data-file/data-line.

Pages are found from their sources (a conversation marker pair), so every page that gains one is covered. Each check
leaves the page as it found it: what it opens it closes again.
"""

from __future__ import annotations

from .checks import WAIT_MS, on_page
from .sitekit import ROOT, Doc, Site, discover_docs, markers, pages


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

# Open every raw line and every "Show all" (the widest the view gets), marked, and close exactly those afterwards.
_OPEN_ALL = """() => { for (const d of document.querySelectorAll(".conversation details:not([open])")) {
  d.open = true; d.dataset.viewOpened = ""; } }"""
_CLOSE_OPENED = """() => { for (const d of document.querySelectorAll("details[data-view-opened]")) {
  d.open = false; delete d.dataset.viewOpened; } }"""

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

# Open a raw line and every block around it (a conversation may sit in a collapsed admonition), marked.
_OPEN_AROUND = ("d => { for (let e = d; e; e = e.parentElement && e.parentElement.closest('details')) "
                "if (!e.open) { e.open = true; e.dataset.viewOpened = ''; } }")


def _file_lines(rel: str) -> list[str]:
    data = (ROOT / rel).read_bytes()
    return [chunk.decode("utf-8", errors="replace") for chunk in data.split(b"\n")]


def exchanges_overflowing(page, site: Site, doc: Doc) -> list[str] | None:
    """The exchanges wider than their box with every raw line and "Show all" open; None if the page shows none."""
    on_page(page, site, doc)
    if page.locator(".conversation .exchange").count() == 0:
        return None
    page.evaluate(_OPEN_ALL)
    try:
        return page.evaluate(_OVERFLOW)
    finally:
        page.evaluate(_CLOSE_OPENED)


def check_raw_lines(page, site: Site, doc: Doc) -> list[str]:
    """Every raw line shows its file's line, and every answer-key raw line's copy button copies it."""
    on_page(page, site, doc)
    shown = page.evaluate(_RAW_LINES)
    if not shown:
        return [f"{doc.src}: the conversation view has no raw lines"]
    problems = []
    files: dict[str, list[str]] = {}
    for item in shown:
        want = files.setdefault(item["file"], _file_lines(item["file"]))[item["line"] - 1]
        if item["text"] is None or item["text"].rstrip("\n") != want:
            problems.append(f"raw line for {item['file']}:{item['line']} shows {item['text']!r}, the file has {want!r}")
    details = page.locator(".conversation details.raw-line[data-file$='answer_key.jsonl']")
    try:
        for number in range(details.count()):
            block = details.nth(number)
            block.evaluate(_OPEN_AROUND)
            rel, line = block.get_attribute("data-file"), int(block.get_attribute("data-line"))
            page.evaluate("navigator.clipboard.writeText('')")
            block.locator('button.md-code__button[data-md-type="copy"]').click(timeout=WAIT_MS)
            copied = page.evaluate("navigator.clipboard.readText()")
            want = files.setdefault(rel, _file_lines(rel))[line - 1]
            if copied.rstrip("\n") != want:
                problems.append(f"copy button of {rel}:{line} copies {copied!r}, the file has {want!r}")
    finally:
        page.evaluate(_CLOSE_OPENED)
    return problems
