"""axe-core (Deque's rule engine, pinned in package.json) run inside a page the browser tests already loaded.

check_accessibility runs the WCAG 2.0 and 2.1 A and AA rules and axe's best-practice rules on the page as it is,
in the light palette and then in the dark one (toggled on the page, no reload), and returns one problem per rule
and palette, naming the elements and axe's fix. Collapsed blocks are opened for the run, so what a reader sees
only after a click is checked too, and closed again after it; the palette is switched back.
"""

from __future__ import annotations

import functools

from .checks import PALETTE_TOGGLE, WAIT_MS
from .sitekit import ROOT, Doc

AXE_SCRIPT = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_FIX = "npm ci   (installs node_modules/axe-core, pinned in package-lock.json)"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
NODES_SHOWN = 3  # elements named per rule; the rest are counted

_RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), html: n.html, summary: n.failureSummary})),
  }));
}"""

# Open every closed <details> in the article, marked, and close exactly those again after the run.
_OPEN_DETAILS = """() => { for (const d of document.querySelectorAll(".md-content details:not([open])")) {
  d.open = true; d.dataset.axeOpened = ""; } }"""
_CLOSE_DETAILS = """() => { for (const d of document.querySelectorAll(".md-content details[data-axe-opened]")) {
  d.open = false; delete d.dataset.axeOpened; } }"""

# Material fades colours in over 125-250 ms after a palette switch: axe must measure the colours that stay.
# (Endless animations, such as a spinner, never settle and do not count.)
SETTLED = """() => document.getAnimations().every(a => a.playState !== "running"
  || a.effect.getComputedTiming().iterations === Infinity)"""


def axe_installed() -> bool:
    return AXE_SCRIPT.is_file()


@functools.cache
def _axe_source() -> str:
    return AXE_SCRIPT.read_text(encoding="utf-8")


def run_axe(page) -> list[dict]:
    """axe's violations on the page as it is now: the rule, its impact, help, helpUrl and the elements."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(content=_axe_source())
    page.wait_for_function(SETTLED, timeout=WAIT_MS)
    return page.evaluate(_RUN, AXE_TAGS)


def _shorten(html: str, limit: int = 160) -> str:
    flat = " ".join(html.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"


def describe(doc: Doc, where: str, violation: dict) -> str:
    """One rule's finding as a problem: the rule, the elements (selector and markup) and axe's fix."""
    nodes = violation["nodes"]
    lines = [f"{doc.label}: {where}: axe rule {violation['id']} ({violation['impact']}), {len(nodes)} element(s): "
             f"{violation['help']}; how to fix: {violation['helpUrl']}"]
    for node in nodes[:NODES_SHOWN]:
        summary = " ".join((node["summary"] or "").split())
        lines.append(f"    at {node['target']}  {_shorten(node['html'])}\n      {summary}")
    if len(nodes) > NODES_SHOWN:
        lines.append(f"    ... and {len(nodes) - NODES_SHOWN} more element(s)")
    return "\n".join(lines)


def _scheme(page) -> str:
    return page.evaluate("document.body.getAttribute('data-md-color-scheme')")


def toggle_palette(page) -> str:
    """Switch light <-> dark with the header's toggle, as a reader does; the scheme it switched to."""
    before = _scheme(page)
    page.locator(PALETTE_TOGGLE).first.click()
    page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') !== {before!r}",
                           timeout=WAIT_MS)
    return _scheme(page)


def check_accessibility(page, doc: Doc, viewport: str) -> list[str]:
    """axe's findings on the loaded page in both palettes, at this viewport ("desktop 1280x800", ...)."""
    page.evaluate(_OPEN_DETAILS)
    problems = []
    start = _scheme(page)
    try:
        problems += [describe(doc, f"{viewport}, palette {start}", v) for v in run_axe(page)]
        other = toggle_palette(page)
        problems += [describe(doc, f"{viewport}, palette {other}", v) for v in run_axe(page)]
    finally:
        if _scheme(page) != start:
            toggle_palette(page)
        page.evaluate(_CLOSE_DETAILS)
    return problems
