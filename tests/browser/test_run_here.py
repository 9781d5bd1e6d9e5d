""""Run it here" in Chromium: every stdlib-only Python twin runs in the browser (Pyodide, from the site's own copy)
and its stdout equals the checked-in answer key byte for byte, a third runtime agreeing with CPython and the Rust
build. A reader's own line gets the server's reply, or the tool's own wire message; nothing leaves 127.0.0.1; and a
page whose button is never pressed loads no Pyodide and shows the same conversation as with JavaScript off. (That
each box offers the languages its example runs in is checked on the page loads test_site_pages.py makes anyway.)

Pyodide's files come from `npm ci` (node_modules/pyodide); without them these tests skip outside CI and fail in CI.
"""

from __future__ import annotations

import pytest

from .runkit import conversation_pages, open_page as _open, run, send, stdout_bytes
from .sitekit import ROOT, skip_module_without_browser

from support.repo import skip_or_fail

from runex.paste import run_here as browser
from runex.wire import transcript

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

NPM_FIX = "npm ci   (installs node_modules/pyodide, pinned in package-lock.json)"

RUNS = {run.name: run for run in browser.browser_runs(ROOT) if run.python is not None}
SHOWN = conversation_pages()


@pytest.fixture(scope="module", autouse=True)
def pyodide_installed():
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm").is_file():
        reason = f"'Run it here' needs node_modules/pyodide, which is missing; fix: {NPM_FIX}"
        skip_or_fail(reason)


# ---------------------------------------------------------------- every twin, byte for byte

@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_browser_run_of_every_python_twin_equals_its_answer_key(site, open_context, name):
    if name not in SHOWN:
        pytest.fail(f"examples/{name} has a stdlib-only Python twin but no page shows its conversation, so it has "
                    f"no 'Run it here' button; add <!-- example-begin: {name}/conversation --> "
                    f"<!-- example-end --> to a page and run: python tools/run_examples.py", pytrace=False)
    page, requests = _open(open_context, site, SHOWN[name])
    state = run(page, name, "python")
    box = page.locator(f'.run-here[data-example="{name}"]')
    assert state == "done", box.inner_text()
    key = RUNS[name].answer_key.read_bytes()
    assert stdout_bytes(page, name, "python") == key
    verdict = box.locator(".run-lane[data-runtime='python'] .run-verdict")
    assert verdict.inner_text() == f"The browser's stdout equals examples/{name}/answer_key.jsonl byte for byte."
    # The conversation filled in live: every exchange with an id got the browser's reply, equal to the pasted one.
    view = page.locator(f'.conversation[data-example="{name}"]')
    answered = view.locator(".exchange.exchange[data-id]:has(.exchange-reply)")
    assert view.locator(".run-mark[data-runtime='python']").count() == answered.count() > 0
    assert view.locator('.run-mark[data-same="false"]').count() == 0
    assert requests.outside(site) == []
    assert any(u.endswith("/assets/run/pyodide/pyodide.asm.wasm") for u in requests.urls)  # the worker is seen


# ---------------------------------------------------------------- the reader's own line

def test_an_edited_request_gets_the_servers_reply_and_a_bad_line_the_tools_own_words(site, open_context):
    name = "first-server"
    page, requests = _open(open_context, site, SHOWN[name])
    assert run(page, name, "python") == "done"
    prefilled = page.locator(f'.run-here[data-example="{name}"] textarea.run-line').input_value()
    assert '"method":"tools/call"' in prefilled

    # An edited tools/call: other arguments, a fresh id; the reply is the server's own arithmetic.
    meta = ('"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
            '"io.modelcontextprotocol/clientCapabilities":{}}')
    edited = ('{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{' + meta +
              ',"name":"add","arguments":{"a":40,"b":2}}}')
    reply, problems = send(page, name, edited)["python"]
    assert '"id":40' in reply and "40 + 2 = 42" in reply
    assert problems == []

    # Not JSON: the server answers -32700 with a null id, and the wire check speaks in the tool's words.
    rel = f"examples/{name}/transcript.jsonl"
    number = len(RUNS[name].transcript.read_bytes().splitlines()) + 1
    bad = '{"jsonrpc":"2.0","id":41,"method":"tools/list"'
    _, expected = transcript.classify(number, bad.encode(), rel)
    reply, problems = send(page, name, bad)["python"]
    assert '"id":null' in reply and "-32700" in reply
    assert problems == [str(p) for p in expected] and "[transcript-not-json]" in problems[0]

    # No params._meta: the tool's transcript-meta-missing message, beside the server's own -32602.
    no_meta = '{"jsonrpc":"2.0","id":42,"method":"tools/list","params":{}}'
    _, expected = transcript.classify(number, no_meta.encode(), rel)
    reply, problems = send(page, name, no_meta)["python"]
    assert '"id":42' in reply and "-32602" in reply
    assert problems == [str(p) for p in expected] and "[transcript-meta-missing]" in problems[0]

    assert requests.outside(site) == []


# ---------------------------------------------------------------- the button never pressed

def test_a_page_whose_button_is_never_pressed_loads_no_pyodide_and_shows_the_same_view(site, chromium, open_context):
    src = SHOWN["first-server"]
    page, requests = _open(open_context, site, src)
    assert page.locator(".run-here-button").count() >= 1
    assert "CI holds both to the same answer key" in page.locator(".run-here-note").first.inner_text()
    assert requests.pyodide() == [] and requests.run_assets() == []  # neither Pyodide nor a Rust module nor a worker
    assert requests.outside(site) == []
    with_js = page.locator(".conversation").first.inner_text()

    context = chromium.new_context(java_script_enabled=False)
    try:
        plain = context.new_page()
        plain.goto(site.url(site.doc(src)), wait_until="load")
        assert plain.locator(".run-here-button").count() == 0
        assert plain.locator(".conversation").first.inner_text() == with_js
    finally:
        context.close()
