"""Every reader: a keyboard reader runs "Run it here" with the focus in sight all the way, and the axe check that
test_site_pages.py runs on every page (both palettes, both sizes, on the pages it loads anyway) is shown to catch
what it is for, naming the rule, the element and the fix.

What axe cannot judge is on the contributor page (docs/contributing/adding-an-example.md, "Every reader").
"""

from __future__ import annotations

import pytest

from support.repo import skip_or_fail

from .accessibility import AXE_FIX, axe_installed, check_accessibility, run_axe
from .checks import DESKTOP
from .keyboard import Walk
from .runkit import box, conversation_pages, open_page, wait_ended
from .sitekit import ROOT, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

NAME = "first-server"  # both twins run in the browser: the walk can switch languages
VIEWPORT = f"desktop {DESKTOP['width']}x{DESKTOP['height']}"


@pytest.fixture(scope="module", autouse=True)
def installed():
    if not axe_installed():
        skip_or_fail(f"the accessibility check needs node_modules/axe-core, which is missing; fix: {AXE_FIX}")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm").is_file():
        skip_or_fail("'Run it here' needs node_modules/pyodide, which is missing; fix: npm ci")


# ---------------------------------------------------------------- axe catches what it is for

# A link with no name (a fault in both palettes) and text that only the dark palette draws too faintly.
_PLANT = """() => {
  const article = document.querySelector(".md-content article");
  const p = document.createElement("p");
  p.innerHTML = '<a id="axe-probe-link" href="#x"></a> <span id="axe-probe-dark">faint in the dark</span>';
  article.append(p);
  const style = document.createElement("style");
  style.textContent = '[data-md-color-scheme="slate"] #axe-probe-dark { color: #3a3d48; }';
  document.head.append(style);
}"""


def test_axe_names_the_rule_the_element_and_the_fix_in_each_palette(site, open_context):
    doc = site.doc(conversation_pages()[NAME])
    page, _ = open_page(open_context, site, doc.src)
    assert run_axe(page) == [], "the page must be clean before the plant (test_site_pages.py says why not)"
    page.evaluate(_PLANT)
    problems = check_accessibility(page, doc, VIEWPORT)
    by_palette = {scheme: [p for p in problems if f"palette {scheme}:" in p] for scheme in ("default", "slate")}
    for scheme, found in by_palette.items():
        named = [p for p in found if "axe rule link-name" in p]
        assert len(named) == 1 and "#axe-probe-link" in named[0] and doc.label in named[0], (scheme, problems)
        assert "https://dequeuniversity.com/rules/axe/4.14/link-name" in named[0], named[0]
        assert "aria-label attribute does not exist" in named[0], named[0]  # axe's failure summary: what to add
    faint = [p for p in problems if "axe rule color-contrast" in p]
    assert len(faint) == 1 and "#axe-probe-dark" in faint[0] and "palette slate" in faint[0], problems
    # The check leaves the page as it found it: the light palette, every collapsed block closed.
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "default"
    assert page.locator(".md-content details[open]").count() == 0


# ---------------------------------------------------------------- the keyboard walk

def test_a_keyboard_reader_runs_an_example_reads_the_reply_and_switches_language(site, open_context):
    doc = site.doc(conversation_pages()[NAME])
    page, requests = open_page(open_context, site, doc.src)
    here = f'.run-here[data-example="{NAME}"]'
    button, choice = f"{here} .run-here-button", f"{here} .run-choice input"
    walk = Walk(page)

    assert walk.to(button), f"Tab never reached 'Run it here' on {doc.label}; the last stops: {walk.trail()}"
    walk.press("Enter")
    assert wait_ended(page, NAME) == "done", box(page, NAME).inner_text()
    assert walk.focused(button), f"the focus left 'Run it here' while it ran: {walk.trail(2)}"

    # The reply: the next stops are the choice of server, then the Rust server's stdout, which holds the answer key.
    stdout = f'{here} .run-lane[data-runtime="rust"] pre.run-stdout'
    assert walk.to(stdout), f"Tab never reached the Rust server's stdout; the last stops: {walk.trail()}"
    key = (ROOT / "examples" / NAME / "answer_key.jsonl").read_text(encoding="utf-8")
    assert page.locator(stdout).text_content() == key
    assert "byte for byte" in page.locator(f"{here} .run-verdict").inner_text()

    # Switch the language: back to the choice, the arrow key to Python, back to the button, Space.
    assert walk.to(f'{choice}[value="rust"]', "Shift+Tab"), walk.trail()
    walk.press("ArrowRight")
    assert walk.focused(f'{choice}[value="python"]:checked'), f"the arrow key did not choose Python: {walk.trail(2)}"
    assert walk.to(button, "Shift+Tab"), walk.trail()
    walk.press("Space")
    assert wait_ended(page, NAME) == "done", box(page, NAME).inner_text()
    verdict = page.locator(f'{here} .run-lane[data-runtime="python"] .run-verdict').inner_text()
    assert verdict == f"The browser's stdout equals examples/{NAME}/answer_key.jsonl byte for byte."

    assert not walk.unseen, f"{len(walk.unseen)} stop(s) where the focus cannot be seen on {doc.label}:\n" + \
        "\n".join(walk.unseen)
    # What the run added to the page (output, editor, its label) meets the same rules as the page.
    problems = check_accessibility(page, doc, VIEWPORT + ", after a run")
    assert not problems, "\n".join(problems)
    assert requests.outside(site) == []
