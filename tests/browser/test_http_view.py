"""The HTTP view (NAME/http markers) in Chromium: one row per recorded request, one column per implementation, the
rows where the implementations' statuses differ marked, and the page still no wider than a phone."""

from __future__ import annotations

import json

import pytest

from .checks import new_context, open_page
from .sitekit import ROOT, discover_docs, markers, pages, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()


def _http_targets(src: str) -> list[str]:
    text = (ROOT / src).read_text(encoding="utf-8")
    return [s.target for s in markers.parse(text, src) if isinstance(s, markers.Block) and pages.is_http_view(s.target)]


WITH_HTTP = [(d.src, t) for d in discover_docs(ROOT) for t in _http_targets(d.src)]

# Each table with the caption that follows it (a page may show several examples' HTTP views).
_TABLES = """() => {
  const tables = [];
  for (const el of document.querySelectorAll("article table, article .example-caption")) {
    if (el.matches("table")) {
      tables.push({head: [...el.querySelectorAll("thead th")].map(th => th.textContent.trim()),
                   rows: [...el.querySelectorAll("tbody tr")].map(tr => [...tr.querySelectorAll("td")]
                                                                      .map(td => td.textContent)),
                   caption: ""});
    } else if (tables.length && !tables[tables.length - 1].caption) {
      tables[tables.length - 1].caption = el.textContent;
    }
  }
  return tables;
}"""


def _records(target: str) -> dict[str, list[dict]]:
    """Each implementation's records that the view shows: all of them, or with NAME/http#A-B the transcript lines A
    to B and the GETs after the transcript (which are no line)."""
    name, _, shown = target.partition("#")
    first, _, last = shown.partition("-")
    wanted = range(int(first), int(last or first) + 1) if shown else None
    folder = ROOT / "examples" / name.split("/")[0]
    return {p.name[len("http."):-len(".jsonl")]: [r for r in map(json.loads, p.read_text().splitlines())
                                                  if wanted is None or "line" not in r or r["line"] in wanted]
            for p in sorted(folder.glob("http.*.jsonl"))}


def _sse_targets(src: str) -> list[str]:
    text = (ROOT / src).read_text(encoding="utf-8")
    return [s.target for s in markers.parse(text, src)
            if isinstance(s, markers.Block) and pages.is_view(s.target, pages.SSE_VIEW)]


WITH_SSE = [(d.src, t) for d in discover_docs(ROOT) for t in _sse_targets(d.src)]

_BLOCKS = """() => [...document.querySelectorAll("article .highlight")].map(b => ({
  title: (b.querySelector(".filename") || {}).textContent || "",
  code: (b.querySelector("code") || {}).textContent || "",
}))"""


def test_some_page_shows_an_sse_stream():
    assert WITH_SSE, "no page has a <!-- example-begin: NAME/sse#LINE --> marker pair"


@pytest.mark.parametrize("src, target", WITH_SSE)
def test_the_sse_view_shows_curl_and_each_recorded_stream(chromium, site, src, target):
    line = int(target.partition("#")[2])
    streams = {impl: next(r["stream"] for r in recs if r.get("line") == line and "stream" in r)
               for impl, recs in _records(target).items() if any(r.get("line") == line and "stream" in r for r in recs)}
    context = new_context(chromium, site, search=False)
    try:
        page = open_page(context, site)
        page.goto(site.url(site.doc(src)), wait_until="load")
        blocks = page.evaluate(_BLOCKS)
    finally:
        context.close()
    assert streams, f"{target}: no implementation's record holds a stream for line {line}"
    for impl, stream in streams.items():
        title = f"curl -N: transcript line {line}, {impl}"
        block = next((b for b in blocks if b["title"].strip() == title), None)
        assert block is not None, f"{src}: no block titled {title!r}: {[b['title'] for b in blocks]}"
        assert block["code"].startswith("$ curl -N -X POST http://127.0.0.1:8000/mcp"), block["code"][:200]
        shown = block["code"].split("\n", 1)[1]
        # A code block drops its last blank line, the one that ends the stream's last event.
        assert stream.replace("\r\n", "\n").rstrip("\n") in shown, \
            f"{src}: the {impl} block does not show the recorded stream"


def test_some_page_shows_an_http_view():
    assert WITH_HTTP, "no page has a <!-- example-begin: NAME/http --> marker pair"


@pytest.mark.parametrize("src, target", WITH_HTTP)
def test_the_table_has_a_row_per_request_and_marks_what_differs(chromium, site, src, target):
    records = _records(target)
    context = new_context(chromium, site, phone=True, search=False)
    try:
        page = open_page(context, site)
        page.goto(site.url(site.doc(src)), wait_until="load")
        tables = page.evaluate(_TABLES)
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    finally:
        context.close()
    folder = f"examples/{target.split('/')[0]}/http."
    table = next((t for t in tables if folder in t["caption"] and all(impl in t["head"] for impl in records)), None)
    assert table is not None, f"{src}: no table with a column for each of {list(records)}: {tables}"
    first = next(iter(records.values()))
    assert len(table["rows"]) == len(first), f"{src}: {len(table['rows'])} rows for {len(first)} requests"
    for index, row in enumerate(table["rows"]):
        statuses = {recs[index].get("status") for recs in records.values()}  # none: a cancel's closing, not sent
        marked = any("(differs)" in cell for cell in row)
        assert marked == (len(statuses) > 1), f"{src}: row {index + 1} {row}: statuses {statuses}"
        for column, recs in enumerate(records.values(), start=2):
            if recs[index].get("sse") and "closed_by" in recs[index]:  # closed by a cancel: no reply came
                assert "SSE:" in row[column] and f"then closed by line {recs[index]['closed_by']}" in row[column], \
                    f"{src}: row {index + 1}: a cancelled stream's cell does not say who closed it: {row[column]!r}"
            elif recs[index].get("sse"):  # an SSE reply names its events in order, the reply last
                assert "SSE:" in row[column] and row[column].rstrip().endswith(")") and "the reply" in row[column], \
                    f"{src}: row {index + 1}: an SSE reply's cell does not list its events: {row[column]!r}"
    assert overflow <= 1, f"{src}: the page is {overflow}px wider than a phone's screen"
