"""What the browser tests check, as plain functions: each takes a playwright page and returns a list of problems.

Every problem is one string that starts with the page it is about (`docs/x.md (/x/): ...`). The tests over the real
site assert the lists are empty; the tests over deliberately broken copies of the site call the same functions and
assert they name the broken page. Nothing here knows which site it is looking at.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from urllib.parse import urlsplit

from .sitekit import SEARCH_INDEX, Doc, SearchTerm, Site

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 8000  # (generous: a loaded 2-core machine) how long a switch, a toggle or a search may take before it counts as not happening

COPY_BUTTON = 'button.md-code__button[data-md-type="copy"]'
PALETTE_TOGGLE = 'label.md-header__button[for^="__palette_"]:not([hidden])'


def _problem(doc: Doc, text: str) -> str:
    return f"{doc.label}: {text}"


def _is_local(url: str, site: Site) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    base = urlsplit(site.base_url)
    return parts.scheme == "http" and parts.hostname == base.hostname and parts.port == base.port


# Every page load starts Material's search worker, which fetches the whole site's index (1.1 MB) and builds it: 0.3
# of a page load's 0.9 CPU-seconds here. A test that does not search opens its context with search=False, and its
# pages get the index with the site's settings and no page. Not a refused request: without an index Material's page
# is laid out differently (on a phone it scrolls sideways), and these tests measure the page a reader gets.
def refuse_external(context, site: Site, search: bool = True) -> None:
    """Requests to any host but the local server never leave the machine; the checks report them. Without `search`
    the search index is served empty."""
    def route(route):
        url = route.request.url
        if not _is_local(url, site):
            route.abort("blockedbyclient")
        elif search or not urlsplit(url).path.endswith("/" + SEARCH_INDEX):
            route.continue_()
        else:
            route.fulfill(status=200, content_type="application/json", body=site.empty_index)
    context.route("**/*", route)


def new_context(browser, site: Site, phone: bool = False, search: bool = True):
    """A fresh context (own storage, own permissions) that can reach only the local server (see refuse_external)."""
    options = dict(viewport=PHONE, is_mobile=True, has_touch=True) if phone else dict(viewport=DESKTOP)
    context = browser.new_context(color_scheme="light", locale="en-US", **options)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site.base_url.rstrip("/"))
    refuse_external(context, site, search)
    return context


def open_page(context, site: Site):
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def on_page(page, site: Site, doc: Doc) -> None:
    """Be on doc's page: load it unless the browser already shows it (a hash or a query does not matter)."""
    here = urlsplit(page.url)
    if not (_is_local(page.url, site) and here.scheme == "http" and here.path == "/" + doc.path):
        page.goto(site.url(doc), wait_until="load")


# ---------------------------------------------------------------- loads cleanly

class Watch:
    """Console errors, uncaught exceptions, failed requests and requests to other hosts, while a page is open."""

    def __init__(self, page, site: Site):
        self.site = site
        self.console: list[str] = []
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.external: list[str] = []
        self.bad_status: list[str] = []
        self.page = page
        self.handlers = [("console", self._console), ("pageerror", self._error), ("request", self._request),
                         ("requestfailed", self._failed), ("response", self._response)]
        for event, handler in self.handlers:
            page.on(event, handler)

    def stop(self) -> None:
        for event, handler in self.handlers:
            self.page.remove_listener(event, handler)

    def _error(self, error) -> None:
        self.errors.append(str(error))

    def _console(self, message) -> None:
        if message.type == "error":
            location = message.location or {}
            where = f" ({location.get('url')}:{location.get('lineNumber')})" if location.get("url") else ""
            self.console.append(message.text + where)

    def _request(self, request) -> None:
        if not _is_local(request.url, self.site):
            self.external.append(request.url)

    def _failed(self, request) -> None:
        if _is_local(request.url, self.site):
            self.failed.append(f"{request.url} ({request.failure})")

    def _response(self, response) -> None:
        if response.status >= 400 and _is_local(response.url, self.site):
            self.bad_status.append(f"{response.url} (HTTP {response.status})")

    def problems(self, doc: Doc) -> list[str]:
        found = [_problem(doc, f"request to another host: {url}") for url in dict.fromkeys(self.external)]
        found += [_problem(doc, f"failed request: {text}") for text in dict.fromkeys(self.failed)]
        found += [_problem(doc, f"request answered with an error: {text}") for text in dict.fromkeys(self.bad_status)]
        found += [_problem(doc, f"console error: {text}") for text in dict.fromkeys(self.console)]
        found += [_problem(doc, f"uncaught script error: {text}") for text in dict.fromkeys(self.errors)]
        return found


_EXTERNAL_REFERENCES = """() => {
  const here = location.origin;
  const found = [];
  const skip = new Set(["canonical", "prev", "next", "alternate", "author", "license", "search"]);
  for (const el of document.querySelectorAll("[src], [srcset], link[href], object[data], [poster]")) {
    if (el.tagName === "LINK") {
      const rels = (el.getAttribute("rel") || "").toLowerCase().split(/\\s+/);
      if (rels.length && rels.every(r => skip.has(r))) continue;
    }
    for (const attr of ["src", "srcset", "href", "data", "poster"]) {
      const value = el.getAttribute(attr);
      if (!value || (attr === "href" && el.tagName !== "LINK")) continue;
      const candidates = attr === "srcset" ? value.split(",").map(c => c.trim().split(/\\s+/)[0]) : [value];
      for (const candidate of candidates) {
        let url;
        try { url = new URL(candidate, location.href); } catch (e) { continue; }
        if (["http:", "https:"].includes(url.protocol) && url.origin !== here)
          found.push(`<${el.tagName.toLowerCase()} ${attr}="${value}">`);
      }
    }
  }
  return found;
}"""


# Screenshots are artefacts for reviewers (CI uploads screenshots/), not measurements. A full-page shot of a long page
# on a phone is tens of thousands of pixels tall and took 3-4 s of a 4 s check here (0.8 s without it), so a phone
# shot is the first screen, as a reader arriving on a phone sees it; the desktop shot is the whole page, as JPEG
# (half the time of PNG). A generous timeout all the same: on a loaded two-core machine (load 5-7) a full page took
# more than the page's 10 s default twice in 90 tests.
SCREENSHOT_MS = 90_000


def save_screenshot(page, path: Path, full_page: bool = True) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page, timeout=SCREENSHOT_MS, animations="disabled",
                    **({"type": "jpeg", "quality": 80} if path.suffix == ".jpg" else {}))


def check_page_loads(page, site: Site, doc: Doc, screenshot: Path | None = None) -> list[str]:
    """The page loads with no console error, no failed request and nothing fetched from another host."""
    watch = Watch(page, site)
    response = page.goto(site.url(doc), wait_until="load")
    problems = []
    if response is None or response.status != 200:
        problems.append(_problem(doc, f"page answered HTTP {response.status if response else 'nothing'}"))
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(200)  # late console messages (search worker start-up) arrive after the network is idle
    watch.stop()
    problems += watch.problems(doc)
    problems += [_problem(doc, f"element refers to another host: {ref}")
                 for ref in page.evaluate(_EXTERNAL_REFERENCES)]
    if screenshot is not None:
        save_screenshot(page, screenshot)
    return problems


# ---------------------------------------------------------------- pasted blocks

# Make an element visible as a reader would: outermost first, select the content tab it sits in and open the
# collapsed admonition (<details>) around it.
_REVEAL = """(el) => {
  const chain = [];
  for (let n = el.parentElement; n; n = n.parentElement)
    if (n.classList.contains("tabbed-block") || n.tagName === "DETAILS") chain.unshift(n);
  for (const node of chain) {
    if (node.tagName === "DETAILS") { node.open = true; continue; }
    const set = node.closest(".tabbed-set");
    const position = [...node.parentElement.children].indexOf(node);
    const label = set.querySelectorAll(":scope > .tabbed-labels > label")[position];
    if (label) label.click();
  }
}"""

# Reveal every titled block in turn, as a reader would, and read what it shows: one round trip for the page.
_READ_BLOCKS = """(reveal) => {
  const show = new Function("return " + reveal)();
  return [...document.querySelectorAll(".md-content .highlight")].map(el => {
    // A whole file has line numbers: Pygments then puts the title and the code in a table (highlighttable).
    const title = el.querySelector(":scope > .filename, :scope > .highlighttable th.filename");
    if (!title) return null;
    show(el);
    const code = el.querySelector(":scope > pre > code, :scope > .highlighttable td.code pre > code");
    return {
      title: title.textContent.trim(),
      visible: !!code && code.checkVisibility(),
      text: code ? code.innerText : "",
      buttons: el.querySelectorAll('""" + COPY_BUTTON + """').length,
    };
  });
}"""


def _blank_edges(text: str) -> str:
    """The text without blank lines at its start and end: Pygments drops them, and nobody can see them."""
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return "\n".join(lines)


def _diff(expected: str, shown: str, expected_name: str, shown_name: str) -> str:
    lines = list(difflib.unified_diff(expected.splitlines(keepends=True), shown.splitlines(keepends=True),
                                      expected_name, shown_name, n=1))
    if len(lines) > 24:
        lines = lines[:24] + [f"... ({len(lines) - 24} more diff lines)\n"]
    return "".join("    " + line if line.endswith("\n") else "    " + line + "\n" for line in lines).rstrip("\n")


def check_pasted_blocks(page, site: Site, doc: Doc) -> list[str]:
    """Each pasted block shows exactly its file or region, and its copy button copies exactly that.

    Blank lines at the very start and end of a block are not compared: Pygments removes them when it renders,
    Material's copy button copies what is rendered, and a reader cannot see them either way.
    """
    expected = site.expected(doc)
    problems = []
    on_page(page, site, doc)
    shown = page.evaluate(_READ_BLOCKS, _REVEAL)
    wanted: dict[str, list] = {}
    for item in expected:
        wanted.setdefault(item.title, []).append(item)
    positions: dict[str, list[int]] = {}
    for position, block in enumerate(shown):
        if block is not None:
            positions.setdefault(block["title"], []).append(position)
    for title in positions:
        if title.startswith("examples/") and title not in wanted:
            problems.append(_problem(doc, f"code block titled {title!r} has no marker pair in the source "
                                          f"(typed by hand, or a stale title)"))
    blocks = page.locator(".md-content .highlight")
    for title, items in wanted.items():
        item = items[0]
        where = f"pasted block {title!r} ({doc.src}:{item.line}, marker {item.target})"
        found = positions.get(title, [])
        if len(found) != len(items):
            problems.append(_problem(doc, f"{where}: the source has {len(items)} marker pair(s) for it, "
                                          f"the built page shows {len(found)} block(s) with that title"))
        want = _blank_edges(item.text)
        for position in found:
            block = shown[position]
            if not block["visible"]:
                problems.append(_problem(doc, f"{where}: the block is not visible even with its tab selected "
                                              f"and its collapsed block opened"))
                continue
            if _blank_edges(block["text"]) != want:
                problems.append(_problem(doc, f"{where}: the page shows text that differs from the file; run "
                                              f"`python tools/run_examples.py` to paste it again\n"
                                              + _diff(want, _blank_edges(block["text"]),
                                                      f"examples/{item.target}", "on the page")))
            if block["buttons"] != 1:
                problems.append(_problem(doc, f"{where}: {block['buttons']} copy buttons instead of one"))
                continue
            element = blocks.nth(position)
            element.evaluate(_REVEAL)  # reading a later block may have switched this block's tab away
            page.evaluate("navigator.clipboard.writeText('')")
            element.locator(COPY_BUTTON).click()
            copied = page.evaluate("navigator.clipboard.readText()")
            if _blank_edges(copied) != want:
                problems.append(_problem(doc, f"{where}: the copy button puts different text on the clipboard\n"
                                              + _diff(want, _blank_edges(copied), f"examples/{item.target}",
                                                      "clipboard")))
    return problems


# ---------------------------------------------------------------- content tabs

_TAB_STATE = """() => [...document.querySelectorAll(".md-content .tabbed-set")].map(set => {
  const labels = [...set.querySelectorAll(":scope > .tabbed-labels > label")].map(l => l.textContent.trim());
  const inputs = [...set.querySelectorAll(":scope > input")];
  const blocks = [...set.querySelectorAll(":scope > .tabbed-content > .tabbed-block")];
  let heading = "";
  for (const h of document.querySelectorAll(".md-content h1, .md-content h2, .md-content h3, .md-content h4"))
    if (h.compareDocumentPosition(set) & Node.DOCUMENT_POSITION_FOLLOWING)
      heading = h.textContent.replace("¶", "").trim();
  return {
    labels,
    checked: inputs.findIndex(i => i.checked),
    shown: blocks.map((b, i) => b.checkVisibility() ? i : -1).filter(i => i >= 0),
    visible: set.checkVisibility(),
    closed: !!set.closest("details:not([open])"),
    heading,
  };
})"""


def _tab_problem(state: list[dict], number: int, label: str) -> str | None:
    """What is wrong after clicking tab `label` of set `number`, or None."""
    clicked = state[number]
    position = clicked["labels"].index(label)
    where = f"tab set {number + 1} (under {clicked['heading']!r})"
    if clicked["shown"] != [position]:
        shown = [clicked["labels"][i] for i in clicked["shown"] if i < len(clicked["labels"])]
        return f"{where}: clicking tab {label!r} shows {shown or 'no tab'}, not {label!r}"
    for other_number, other in enumerate(state):
        if other_number == number or label not in other["labels"]:
            continue
        if other["checked"] != other["labels"].index(label):
            selected = other["labels"][other["checked"]] if other["checked"] >= 0 else "nothing"
            why = ""
            if other["closed"]:
                why = (" (that set sits in a collapsed block, `???`: Material links tabs by the label text it can "
                       "see, and a closed <details> hides it, so a reader who opens the block finds the tab they "
                       "did not choose; open it by default with `???+`, or move the tabs out of the collapsed block)")
            return (f"{where}: clicking tab {label!r} did not switch the linked tab set {other_number + 1} "
                    f"(under {other['heading']!r}), which still selects {selected!r}{why}")
        if other["visible"] and other["shown"] != [other["labels"].index(label)]:
            return (f"{where}: clicking tab {label!r} selected it in tab set {other_number + 1} "
                    f"(under {other['heading']!r}) but that set does not show it")
    return None


def check_tabs(page, site: Site, doc: Doc) -> list[str]:
    """Every tab of every tab set shows its own content when clicked, and tabs with the same label follow.

    Run it on a page as loaded: collapsed blocks closed, as a reader first sees them.
    """
    on_page(page, site, doc)
    state = page.evaluate(_TAB_STATE)
    problems = []
    sets = page.locator(".md-content .tabbed-set")
    for number, tab_set in enumerate(state):
        if len(set(tab_set["labels"])) != len(tab_set["labels"]):
            problems.append(_problem(doc, f"tab set {number + 1} (under {tab_set['heading']!r}) has two tabs "
                                          f"with the same label: {tab_set['labels']}"))
            continue
        sets.nth(number).evaluate(_REVEAL)
        # Click every tab, ending on the first, so the page is left as it started.
        order = list(range(1, len(tab_set["labels"]))) + [0]
        for position in order:
            label = tab_set["labels"][position]
            sets.nth(number).locator(":scope > .tabbed-labels > label").nth(position).click()
            problem = None
            for _ in range(10):  # Material switches within a frame or two; give it a second
                problem = _tab_problem(page.evaluate(_TAB_STATE), number, label)
                if problem is None:
                    break
                page.wait_for_timeout(100)
            if problem is not None:
                problems.append(_problem(doc, problem))
                # Start the next set from the page as a first-time reader loads it (Material remembers the last
                # tab chosen in localStorage): tab sets left out of step with each other trip Material's linking
                # into further, secondary failures.
                page.evaluate("localStorage.clear(); sessionStorage.clear()")
                page.reload(wait_until="load")
                break
    return problems


# ---------------------------------------------------------------- light and dark

_SCHEME = """() => ({
  scheme: document.body.getAttribute("data-md-color-scheme"),
  background: getComputedStyle(document.body).backgroundColor,
})"""


def _toggle(page) -> dict | None:
    before = page.evaluate(_SCHEME)
    page.locator(PALETTE_TOGGLE).first.click()
    try:
        page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') !== "
                               f"{before['scheme']!r}", timeout=WAIT_MS)
    except Exception:  # playwright's TimeoutError: the scheme never changed
        return None
    return page.evaluate(_SCHEME)


def check_palette(page, site: Site, doc: Doc, other: Doc) -> list[str]:
    """The light/dark toggle changes the colours, the choice holds on the next page, and it switches back there."""
    on_page(page, site, doc)
    if page.locator(PALETTE_TOGGLE).count() == 0:
        return [_problem(doc, "no light/dark toggle in the header (theme.palette needs two schemes with a toggle)")]
    start = page.evaluate(_SCHEME)
    switched = _toggle(page)
    if switched is None:
        return [_problem(doc, f"clicking the light/dark toggle does not change the scheme {start['scheme']!r}")]
    problems = []
    if switched["background"] == start["background"]:
        problems.append(_problem(doc, f"the toggle changes the scheme to {switched['scheme']!r}, but the "
                                      f"background stays {start['background']}"))
    page.goto(site.url(other), wait_until="load")
    there = page.evaluate(_SCHEME)
    if there["scheme"] != switched["scheme"]:
        problems.append(_problem(doc, f"the scheme chosen here ({switched['scheme']!r}) is not kept on the next "
                                      f"page {other.label}, which shows {there['scheme']!r}"))
        return problems
    back = _toggle(page)
    if back is None or back["scheme"] != start["scheme"]:
        problems.append(_problem(doc, f"on {other.label} the toggle does not switch back to {start['scheme']!r}"))
    return problems


# ---------------------------------------------------------------- search

# Material renders results a few pages at a time as the list scrolls: scroll on until the wanted one is there.
_FIND_RESULT = """([path, hash]) => {
  for (const a of document.querySelectorAll(".md-search-result a")) {
    const url = new URL(a.href, location.href);
    if (url.pathname === path && url.hash === hash) return true;
  }
  const wrap = document.querySelector(".md-search__scrollwrap");
  if (wrap) wrap.scrollTop = wrap.scrollHeight;
  return false;
}"""

_MARK_RESULT = """([path, hash]) => {
  for (const a of document.querySelectorAll(".md-search-result a")) {
    const url = new URL(a.href, location.href);
    if (url.pathname === path && url.hash === hash) {
      for (let d = a.closest("details"); d; d = d.parentElement && d.parentElement.closest("details")) d.open = true;
      a.setAttribute("data-test-result", "");
      return true;
    }
  }
  return false;
}"""

_RESULTS = """() => ({
  meta: (document.querySelector(".md-search-result__meta") || {}).textContent || "",
  links: [...document.querySelectorAll(".md-search-result a")].slice(0, 8).map(a => {
    const url = new URL(a.href, location.href); return url.pathname + url.hash; }),
})"""

_HEADING_IN_VIEW = """(id) => {
  const el = id ? document.getElementById(id) : document.querySelector(".md-content h1");
  if (!el) return "missing";
  const top = el.getBoundingClientRect().top;
  return top >= -2 && top < window.innerHeight ? "ok" : `at ${Math.round(top)}px, outside the window`;
}"""


def check_search(page, site: Site, term: SearchTerm, start: Doc | None) -> list[str]:
    """Searching `term.word` lists the expected heading, and clicking that result opens the page there.

    The search is typed on `start`, or, when it is None, on whatever page the browser shows (the page the previous
    search opened), which saves a page load per word.
    """
    doc = term.doc
    target_path = "/" + doc.path
    target_hash = f"#{term.heading}" if term.heading else ""
    if start is not None:
        page.goto(site.url(start), wait_until="load")
    typed_on = urlsplit(page.url).path
    where = (f"search for the {term.kind} word {term.word!r} (from {term.why}), typed on {typed_on}, "
             f"expected to open /{doc.path}{target_hash}")
    box = page.locator("input.md-search__input")
    if not box.is_visible():
        page.locator('label.md-header__button[for="__search"]').click()
    box.click()
    box.fill(term.word)
    box.press("End")
    try:
        page.wait_for_function(_FIND_RESULT, arg=[target_path, target_hash], timeout=WAIT_MS * 2)
    except Exception:
        seen = page.evaluate(_RESULTS)
        return [_problem(doc, f"{where}: no such result; the search says {seen['meta'].strip()!r} and lists "
                              f"{seen['links']}")]
    page.evaluate(_MARK_RESULT, [target_path, target_hash])
    with page.expect_navigation(wait_until="load"):
        page.locator("[data-test-result]").first.click()
    arrived = urlsplit(page.url)
    if arrived.path != target_path or ("#" + arrived.fragment if arrived.fragment else "") != target_hash:
        return [_problem(doc, f"{where}: clicking the result opened {arrived.path}#{arrived.fragment}")]
    try:  # the browser scrolls to the fragment once the page has laid out
        page.wait_for_function(f"(id) => ({_HEADING_IN_VIEW})(id) === 'ok'", arg=term.heading, timeout=WAIT_MS)
    except Exception:
        pass
    placed = page.evaluate(_HEADING_IN_VIEW, term.heading)
    if placed != "ok":
        return [_problem(doc, f"{where}: the page opened, but the heading is {placed}")]
    return []


# ---------------------------------------------------------------- phone

_HORIZONTAL = """() => {
  const root = document.documentElement;
  const width = root.clientWidth;
  const y = window.scrollY;
  window.scrollTo(100000, y);
  const scrolled = window.scrollX;
  window.scrollTo(0, y);
  const culprits = [];
  if (scrolled > 0 || root.scrollWidth > width) {
    // An element cannot widen the page if a scrolling or clipping box holds it, or if it is fixed in place.
    const contained = el => {
      if (getComputedStyle(el).position === "fixed") return true;
      for (let n = el.parentElement; n && n !== document.body; n = n.parentElement) {
        const style = getComputedStyle(n);
        if (style.overflowX !== "visible" || style.position === "fixed") return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= width + 1 || contained(el)) continue;
      if (el.parentElement && culprits.some(c => c.el.contains(el))) continue;
      const cls = (el.getAttribute("class") || "").split(/\\s+/).filter(Boolean).slice(0, 2).join(".");
      culprits.push({el, text: `<${el.tagName.toLowerCase()}${cls ? "." + cls : ""}> ${Math.round(r.width)}px wide: `
        + JSON.stringify((el.textContent || "").trim().slice(0, 60))});
      if (culprits.length >= 5) break;
    }
  }
  return {width, scrollWidth: root.scrollWidth, scrolled, culprits: culprits.map(c => c.text)};
}"""

_DRAWER_OPEN = """() => {
  const nav = document.querySelector(".md-sidebar--primary");
  if (!nav || !document.getElementById("__drawer").checked) return false;
  const r = nav.getBoundingClientRect();
  return r.left >= -1 && r.right <= window.innerWidth + 1 && r.width > 100;
}"""


def check_phone(page, site: Site, doc: Doc, screenshot: Path | None = None) -> list[str]:
    """On a phone-sized viewport the page does not scroll sideways and the navigation drawer opens."""
    on_page(page, site, doc)
    page.evaluate("window.scrollTo(0, 0)")  # the first screen, also on a page an earlier check scrolled
    problems = []
    if screenshot is not None:
        save_screenshot(page, screenshot, full_page=False)
    layout = page.evaluate(_HORIZONTAL)
    if layout["scrolled"] > 0 or layout["scrollWidth"] > layout["width"]:
        problems.append(_problem(doc, f"at {PHONE['width']}px wide the page itself scrolls sideways "
                                      f"({layout['scrollWidth']}px of content, scrolls {layout['scrolled']}px); "
                                      f"too wide: {'; '.join(layout['culprits']) or 'unknown element'}"))
    opener = page.locator('label.md-header__button[for="__drawer"]')
    if not opener.is_visible():
        return problems + [_problem(doc, "no visible menu button to open the navigation on a phone")]
    opener.click()
    try:
        page.wait_for_function(_DRAWER_OPEN, timeout=WAIT_MS)
    except Exception:
        return problems + [_problem(doc, "the menu button does not slide the navigation onto the screen")]
    visible = page.evaluate("""() => [...document.querySelectorAll(".md-sidebar--primary a.md-nav__link")]
        .filter(a => a.checkVisibility() && a.getBoundingClientRect().right > 0).length""")
    if not visible:
        problems.append(_problem(doc, "the navigation opens on a phone but shows no links"))
    return problems
