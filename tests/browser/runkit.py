"""Driving "Run it here" from a test: open the page that shows an example's conversation, choose a server, press,
wait for the run to end (a wait on DOM state, never a sleep), and read what the browser wrote."""

from __future__ import annotations

from urllib.parse import urlsplit

from .sitekit import ROOT, discover_docs, markers, pages

RUN_TIMEOUT_MS = 180_000  # a cold Pyodide on a loaded 2-core machine; a wait on DOM state, never a sleep
ENDED = ['done', 'error', 'stopped']


def conversation_pages() -> dict[str, str]:
    """Example name -> the first page (source path) that shows its whole conversation."""
    found: dict[str, str] = {}
    for doc in discover_docs(ROOT):
        text = (ROOT / doc.src).read_text(encoding="utf-8")
        for segment in markers.parse(text, doc.src):
            # A whole view only: a range (NAME/conversation#3-5) is part of one and has no button.
            if isinstance(segment, markers.Block) and pages.is_conversation(segment.target) \
                    and "#" not in segment.target:
                found.setdefault(segment.path.split("/")[0], doc.src)
    return found


class Requests:
    """Every request the context makes, the workers' included (Chromium reports a dedicated worker's fetches)."""

    def __init__(self, context):
        self.urls: list[str] = []
        context.on("request", lambda request: self.urls.append(request.url))

    def outside(self, site) -> list[str]:
        base = urlsplit(site.base_url)
        return [u for u in self.urls
                if urlsplit(u).scheme not in ("data", "blob", "about")
                and (urlsplit(u).hostname, urlsplit(u).port) != (base.hostname, base.port)]

    def pyodide(self) -> list[str]:
        return [u for u in self.urls if "/assets/run/pyodide/" in u or "run-here-worker" in u]

    def run_assets(self) -> list[str]:
        return [u for u in self.urls if "/assets/run/" in u or "run-here-" in u]  # run-here.js itself: every page


def open_page(open_context, site, src: str):
    context = open_context(site, search=False)
    requests = Requests(context)
    page = context.new_page()
    page.set_default_timeout(RUN_TIMEOUT_MS)
    page.goto(site.url(site.doc(src)), wait_until="load")
    return page, requests


def box(page, name: str):
    return page.locator(f'.run-here[data-example="{name}"]')


def choose(page, name: str, kind: str) -> None:
    """Pick the server (rust, python or both) as a reader would; a choice of one is already made (and hidden)."""
    choice = box(page, name).locator(f'.run-choice input[value="{kind}"]')
    assert choice.count() == 1, f"{name} offers no {kind!r} choice"
    if choice.is_visible():
        choice.check()
    else:
        assert choice.is_checked()


def run(page, name: str, kind: str) -> str:
    here = box(page, name)
    # A view may sit in a collapsed block (println-trap's does): open it as a reader would.
    here.evaluate("b => { for (let d = b.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }")
    choose(page, name, kind)
    here.locator(".run-here-button").click()
    return wait_ended(page, name)


def wait_ended(page, name: str) -> str:
    """Wait for the run just started to end; its state (done, error, stopped)."""
    page.wait_for_function(
        "([name, ended]) => ended.includes(document.querySelector(`.run-here[data-example='${name}']`).dataset.state)",
        arg=[name, ENDED], timeout=RUN_TIMEOUT_MS)
    return box(page, name).get_attribute("data-state")


def stdout_bytes(page, name: str, kind: str) -> bytes:
    values = page.evaluate(
        "([name, kind]) => Array.from(document.querySelector("
        "`.run-here[data-example='${name}'] .run-lane[data-runtime='${kind}']`).runHereStdout)", [name, kind])
    return bytes(values)


def send(page, name: str, line: str):
    """Send a line after the transcript to the chosen server(s); (reply text, problems) of each lane, by runtime."""
    edit = box(page, name).locator(".run-edit")
    edit.locator("textarea.run-line").fill(line)
    edit.locator(".run-send").click()
    page.wait_for_function(
        "name => document.querySelector(`.run-here[data-example='${name}'] .run-edit`).dataset.state !== 'running'",
        arg=name, timeout=RUN_TIMEOUT_MS)
    assert edit.get_attribute("data-state") == "done", edit.inner_text()
    lanes = {}
    for lane in edit.locator(".run-reply-lane").all():
        problems = [t.strip() for t in lane.locator(".run-problem").all_inner_texts()]
        lanes[lane.get_attribute("data-runtime")] = (lane.locator(".run-reply").inner_text(), problems)
    return lanes


def check_offered_languages(page, site, doc) -> list[str]:
    """On a page that shows examples' whole conversations: each view offers the languages its example runs in the
    browser (both and "both" when it runs in two), and for the others says why, once per language, in a reader's
    words (the declared reason, no TOML)."""
    from runex.paste import run_here as browser

    from .checks import on_page

    on_page(page, site, doc)
    every = {r.name: r for r in browser.browser_runs(ROOT)}
    problems = []
    for name in sorted(n for n, src in conversation_pages().items() if src == doc.src):
        here, run_ = box(page, name), every.get(name)
        where = f"{doc.label}: the 'Run it here' box of examples/{name}"
        buttons = here.locator(".run-here-button").count()
        if buttons != (1 if run_ else 0):
            problems.append(f"{where} has {buttons} button(s), not {1 if run_ else 0}")
        offered = here.locator(".run-choice input").evaluate_all("inputs => inputs.map(i => i.value)") if run_ else []
        wanted = [k for k in ("rust", "python") if run_ and getattr(run_, k) is not None]
        wanted += ["both"] if len(wanted) == 2 else []
        if offered != wanted:
            problems.append(f"{where} offers {offered}, not {wanted}")
        config = browser.model.load_config(ROOT / "examples" / name / "example.toml", "example.toml")
        why = here.locator(".run-here-why").text_content() if here.locator(".run-here-why").count() else ""
        for _, reason in config.not_in_browser:  # a declared reason stands where the button would be
            # text_content: a view inside a collapsed block is in the page, only not drawn until opened
            if reason not in (why or ""):
                problems.append(f"{where} does not give the declared reason {reason!r}")
        lines = here.locator(".run-here-why li").all_text_contents()
        languages = [line.split(":", 1)[0] for line in lines]
        if len(languages) != len(set(languages)):
            problems.append(f"{where} gives more than one reason for a language: {lines}")
        if any("[[" in line or "example.toml" in line for line in lines):
            problems.append(f"{where} shows the TOML, not a reader's words: {lines}")
    return problems
