"""The checks catch what they promise to: a copy of the site with three deliberately broken pages fails them.

One temporary copy of docs/ and mkdocs.yml gets a stale pasted block on one page, a link to an external font on
another and a tab set that does not switch on a third; it is built with the same `mkdocs build --strict` and served
the same way. Each test calls the very check function the tests over the real site use and asserts that it fails
with a message naming the broken page.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from .checks import check_page_loads, check_pasted_blocks, check_tabs, open_page
from .sitekit import ROOT, BuildError, Doc, discover_docs, markers, pages, serve_site, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

FONT_HOST = "fonts.googleapis.com"
FONT_LINK = f'<link rel="stylesheet" href="https://{FONT_HOST}/css2?family=Roboto:wght@400;700&display=swap">'
# A script that swallows clicks on tab labels before the browser can select the tab: the tabs stop switching.
FROZEN_TABS = """<script>
window.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest(".tabbed-labels")) {
    event.preventDefault();
    event.stopPropagation();
  }
}, true);
</script>"""
HAND_EDIT = "EDITED BY HAND "
# Left out of the copy: sources that are replaced, and build output, caches and history.
NOT_LINKED = {"docs", "mkdocs.yml", "site", "screenshots", ".git", ".cache", ".pytest_cache", ".hypothesis"}


@dataclass
class Broken:
    stale: Doc  # a pasted block was edited by hand
    stale_title: str
    font: Doc  # links a stylesheet on an external font host
    tabs: Doc  # its tab labels no longer switch anything


def _copy_sources(root: Path) -> None:
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copy2(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    for entry in ROOT.iterdir():  # examples/, tools/ and whatever else mkdocs.yml may name, shared read-only
        if entry.name not in NOT_LINKED and not entry.name.startswith(".venv"):
            (root / entry.name).symlink_to(entry)


def _edit_a_pasted_block(root: Path, doc: Doc) -> str | None:
    """Change the first code line inside the page's first pasted block; return that block's title."""
    path = root / doc.src
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for segment in markers.parse("".join(lines), doc.src):
        if not isinstance(segment, markers.Block) or pages.is_conversation(segment.target):
            continue
        fence_seen = False
        for offset, line in enumerate(segment.body):
            if line.lstrip().startswith("```"):
                if fence_seen:
                    break
                fence_seen = True
                continue
            if fence_seen and line.strip():
                number = segment.line + offset  # index of this body line in `lines` (begin marker is line-1)
                indent = line[:len(line) - len(line.lstrip())]
                lines[number] = indent + HAND_EDIT + line.lstrip()
                path.write_text("".join(lines), encoding="utf-8")
                source_rel = f"examples/{segment.path}"
                source_text = (ROOT / source_rel).read_text(encoding="utf-8")
                return pages.title_for(source_rel, source_text, segment.region)
    return None


def _append(root: Path, doc: Doc, html: str) -> None:
    path = root / doc.src
    path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n\n" + html + "\n", encoding="utf-8")


def _break_copy(root: Path) -> Broken:
    docs = discover_docs(root)
    used: set[str] = set()

    def pick(test) -> Doc | None:
        for doc in sorted(docs, key=lambda d: d.src in used):  # prefer a page not broken yet
            if test(doc):
                used.add(doc.src)
                return doc
        return None

    stale_title = None

    def stale_test(doc: Doc) -> bool:
        nonlocal stale_title
        stale_title = _edit_a_pasted_block(root, doc)
        return stale_title is not None

    stale = pick(stale_test)
    tabs = pick(lambda doc: '=== "' in (root / doc.src).read_text(encoding="utf-8"))
    font = pick(lambda doc: True)
    if stale is None or tabs is None:
        pytest.fail("no page has a pasted block or a content tab set left to break; the broken-page tests need both")
    _append(root, font, FONT_LINK)
    _append(root, tabs, FROZEN_TABS)
    return Broken(stale, stale_title, font, tabs)


@pytest.fixture(scope="module")
def broken(tmp_path_factory, chromium):
    root = tmp_path_factory.mktemp("broken-copy")
    _copy_sources(root)
    plan = _break_copy(root)
    try:
        site, server = serve_site(root, root / "site")
    except BuildError as error:
        pytest.fail(f"the broken copy of the site did not build: {error}", pytrace=False)
    try:
        yield site, plan
    finally:
        server.stop()


def _names_page(problems: list[str], doc: Doc) -> bool:
    return bool(problems) and all(problem.startswith(doc.label + ":") for problem in problems)


def test_stale_pasted_block_fails_naming_the_page(broken, open_context):
    site, plan = broken
    problems = check_pasted_blocks(open_page(open_context(site), site), site, plan.stale)
    assert _names_page(problems, plan.stale), problems
    stale = [p for p in problems if repr(plan.stale_title) in p and "differs from the file" in p]
    assert stale, f"expected a stale-block problem for {plan.stale_title!r}, got: {problems}"
    assert HAND_EDIT in stale[0], stale[0]  # the diff shows the edited line


def test_external_font_link_fails_naming_the_page(broken, open_context):
    site, plan = broken
    problems = check_page_loads(open_page(open_context(site), site), site, plan.font)
    assert _names_page(problems, plan.font), problems
    assert any("request to another host" in p and FONT_HOST in p for p in problems), problems
    assert any("element refers to another host" in p and FONT_HOST in p for p in problems), problems


def test_tab_set_that_does_not_switch_fails_naming_the_page(broken, open_context):
    site, plan = broken
    problems = check_tabs(open_page(open_context(site), site), site, plan.tabs)
    assert _names_page(problems, plan.tabs), problems
    assert any("clicking tab" in p for p in problems), problems


def test_unbroken_pages_of_the_copy_pass_the_same_checks(broken, open_context):
    """The three failures come from the edits: a page left alone in the copy passes all three checks."""
    site, plan = broken
    spoiled = {plan.stale.src, plan.font.src, plan.tabs.src}
    intact = next((doc for doc in site.docs if doc.src not in spoiled and site.expected(doc)), None)
    if intact is None:
        pytest.fail("every page with a pasted block was broken on purpose: no intact page left to compare")
    page = open_page(open_context(site), site)
    problems = check_page_loads(page, site, intact) + check_pasted_blocks(page, site, intact)
    assert not problems, problems
