""""Run it here" in Rust, in Chromium: every Rust implementation the site runs in the browser (built by the tool for
wasm32-wasip1, run under @bjorn3/browser_wasi_shim) writes its example's answer key byte for byte; a reader's own line
gets the Rust server's reply; "both" shows the Rust and Python replies to one line side by side, differences marked;
and a server that never exits is stopped after the time limit, its worker terminated, with a message.

The shim comes from `npm ci` (node_modules/@bjorn3/browser_wasi_shim), the modules from the tool's build cache;
without the shim these tests skip outside CI and fail in CI.
"""

from __future__ import annotations

import json

import pytest

from .runkit import box, conversation_pages, open_page, run, send, stdout_bytes
from .sitekit import ROOT, skip_module_without_browser

from support.repo import skip_or_fail

from runex.paste import run_here as browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

RUST = {run.name: run for run in browser.browser_runs(ROOT) if run.rust is not None}
SHOWN = conversation_pages()
META = ('"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        '"io.modelcontextprotocol/clientCapabilities":{}}')
# (module (memory (export "memory") 1) (func (export "_start") (loop (br 0)))): a server that never exits.
LOOPING_MODULE = bytes.fromhex("0061736d01000000010401600000030201000503010001071302066d656d6f72790200065f737461727400"
                               "000a0901070003400c000b0b")


@pytest.fixture(scope="module", autouse=True)
def shim_installed():
    if not (ROOT / "node_modules" / "@bjorn3" / "browser_wasi_shim" / "dist" / "index.js").is_file():
        skip_or_fail("'Run it here' in Rust needs node_modules/@bjorn3/browser_wasi_shim, which is missing; fix: "
                     "npm ci   (pinned in package-lock.json)")


def test_the_site_runs_every_rust_example_but_the_declared_one():
    assert {"first-server", "serde-json", "toy-scanner-hard", "state-handles"} <= set(RUST)
    assert "rmcp-server" not in RUST  # declared in its example.toml: tokio's io-std does not build for wasm32-wasip1


@pytest.mark.parametrize("name", sorted(RUST))
def test_the_browser_run_of_every_rust_implementation_equals_its_answer_key(site, open_context, name):
    assert name in SHOWN, f"examples/{name}: no page shows its conversation, so it has no 'Run it here' button"
    page, requests = open_page(open_context, site, SHOWN[name])
    state = run(page, name, "rust")
    here = box(page, name)
    assert state == "done", here.inner_text()
    assert stdout_bytes(page, name, "rust") == RUST[name].answer_key.read_bytes()
    verdict = here.locator(".run-lane[data-runtime='rust'] .run-verdict")
    assert verdict.inner_text() == f"The browser's stdout equals examples/{name}/answer_key.jsonl byte for byte."
    view = page.locator(f'.conversation[data-example="{name}"]')
    answered = view.locator(".exchange.exchange[data-id]:has(.exchange-reply)")
    assert view.locator(".run-mark[data-runtime='rust']").count() == answered.count() > 0
    assert view.locator('.run-mark[data-same="false"]').count() == 0
    assert requests.outside(site) == []
    assert any(u.endswith(f"/assets/run/examples/{name}/server.wasm") for u in requests.urls)
    assert requests.pyodide() == []  # Rust alone loads no Python


def test_an_edited_request_gets_the_rust_servers_reply(site, open_context):
    name = "first-server"
    page, requests = open_page(open_context, site, SHOWN[name])
    assert run(page, name, "rust") == "done"
    edited = ('{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{' + META +
              ',"name":"add","arguments":{"a":40,"b":2}}}')
    lanes = send(page, name, edited)
    assert list(lanes) == ["rust"]
    reply, problems = lanes["rust"]
    assert reply.count("\n") == 0 and json.loads(reply)["id"] == 40 and "40 + 2 = 42" in reply
    assert problems == []
    assert requests.pyodide() == [] and requests.outside(site) == []


def test_both_shows_the_two_replies_to_one_line_side_by_side_and_marks_where_they_differ(site, open_context):
    name = "first-server"
    page, requests = open_page(open_context, site, SHOWN[name])
    assert run(page, name, "both") == "done"
    lanes = box(page, name).locator(".run-output .run-lane")
    assert lanes.evaluate_all("ls => ls.map(l => l.dataset.runtime)") == ["rust", "python"]
    key = RUST[name].answer_key.read_bytes()
    assert stdout_bytes(page, name, "rust") == key == stdout_bytes(page, name, "python")

    summary = box(page, name).locator(".run-diff-summary")
    same = '{"jsonrpc":"2.0","id":40,"method":"tools/call","params":{' + META + ',"name":"add","arguments":{"a":1,"b":2}}}'
    lanes = send(page, name, same)
    assert lanes["rust"][0] == lanes["python"][0] and "1 + 2 = 3" in lanes["rust"][0]
    assert summary.get_attribute("data-same") == "true" and box(page, name).locator("mark.run-diff").count() == 0

    # Python's None as the id (the serde-json page's line 4): the toy scanner and the json module disagree.
    none_id = (ROOT / "examples" / "serde-json" / "transcript.jsonl").read_text(encoding="utf-8").splitlines()[3]
    lanes = send(page, name, none_id)
    assert "-32700" in lanes["python"][0] and "-32600" in lanes["rust"][0]
    assert summary.get_attribute("data-same") == "false"
    assert "first difference is at line 1" in summary.inner_text()
    marked = box(page, name).locator(".run-reply-lane mark.run-diff").all_inner_texts()
    assert len(marked) == 2 and marked[0].startswith("600,") and marked[1].startswith("700,")  # -32600, -32700
    assert requests.outside(site) == []


def test_a_server_that_never_exits_is_stopped_after_the_time_limit_with_a_message(site, open_context):
    name = "first-server"
    context = open_context(site, search=False)
    module = f"/assets/run/examples/{name}/server.wasm"
    context.route(f"**{module}", lambda route: route.fulfill(status=200, body=LOOPING_MODULE,
                                                             headers={"Content-Type": "application/wasm"}))
    page = context.new_page()
    page.set_default_timeout(180_000)
    page.goto(site.url(site.doc(SHOWN[name])), wait_until="load")
    assert run(page, name, "rust") == "stopped"
    status = box(page, name).locator(".run-lane[data-runtime='rust'] .run-status").inner_text()
    assert status.startswith("Stopped: the Rust server did not exit within 10 s of its start and was stopped")
    assert box(page, name).locator(".run-here-button").is_enabled()

    # The terminated worker is replaced: with the real module back, the next press in the same page answers.
    context.unroute(f"**{module}")
    assert run(page, name, "rust") == "done"
    assert stdout_bytes(page, name, "rust") == RUST[name].answer_key.read_bytes()


def test_a_page_showing_a_declared_examples_view_says_why_once_and_offers_no_button(site, open_context):
    config = browser.model.load_config(ROOT / "examples" / "rmcp-server" / "example.toml", "example.toml")
    reason = dict(config.not_in_browser)["cargo"]
    context = open_context(site, search=False)
    page = context.new_page()
    page.goto(site.url(site.doc("docs/mcp/rmcp.md")), wait_until="load")
    assert page.locator('.conversation[data-example="rmcp-server"]').count() >= 1  # its view, whole or in parts
    here = page.locator('.run-here[data-example="rmcp-server"]')
    assert here.count() == 1 and here.locator(".run-here-button").count() == 0
    # One line per language, in a reader's words.
    assert here.locator(".run-here-why p").text_content() == "Not in your browser:"
    assert here.locator(".run-here-why li").all_text_contents() == [f"Rust: {reason}."]
