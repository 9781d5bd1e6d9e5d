"""The page's own controls in Chromium: "copy page" puts the page's Markdown rendition (index.md, as served) on the
clipboard, asking this site and nobody else; "report a problem" opens a new GitHub issue naming the page and the
commit; both are where a reader looks, beside the edit link."""

from __future__ import annotations

import subprocess
import urllib.request
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from .checks import Watch, new_context, open_page, refuse_external
from .sitekit import ROOT, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()

CONFIG = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
# A page with conversations, code in tabs and the inline diagram; and the home page, at the site's root.
PAGES = ["docs/mcp/stdio-transport.md", "docs/index.md"]


def _served_markdown(site, doc) -> str:
    with urllib.request.urlopen(site.url(doc).split("#")[0] + "index.md", timeout=10) as response:
        return response.read().decode("utf-8")


@pytest.mark.parametrize("src", PAGES)
def test_copy_page_puts_the_pages_markdown_on_the_clipboard_with_no_request_elsewhere(site, chromium, src):
    doc = site.doc(src)
    context = new_context(chromium, site, search=False)  # clipboard permissions for this origin only
    try:
        page = open_page(context, site)
        watch = Watch(page, site)
        page.goto(site.url(doc), wait_until="load")
        button = page.locator("article button.page-copy")
        assert button.is_visible(), f"{src}: no visible copy button"
        assert button.get_attribute("aria-label") == "Copy this page as Markdown"
        with page.expect_response(lambda r: r.url.endswith("/index.md")) as response:
            button.click()
        assert response.value.status == 200
        page.locator("article .page-copy-status").filter(has_text="Page copied as Markdown").wait_for()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == _served_markdown(site, doc), f"{src}: the clipboard is not the page's index.md"
        assert copied.startswith("# ") and "```" in copied
        watch.stop()
        assert not watch.problems(doc), watch.problems(doc)
    finally:
        context.close()


def test_without_javascript_the_copy_button_stays_hidden(site, chromium):
    context = chromium.new_context(java_script_enabled=False)
    refuse_external(context, site, search=False)
    try:
        page = context.new_page()
        page.goto(site.url(site.doc(PAGES[0])), wait_until="load")
        assert page.locator("article button.page-copy").count() == 1
        assert not page.locator("article button.page-copy").is_visible()
    finally:
        context.close()


def test_a_failed_copy_says_where_the_markdown_is(site, chromium):
    """A site built without the plugin (mkdocs.serve.yml) has no index.md: the button says so, and where to look."""
    doc = site.doc(PAGES[0])
    context = new_context(chromium, site, search=False)
    try:
        context.route("**/index.md", lambda route: route.fulfill(status=404, body="not here"))
        page = open_page(context, site)
        page.goto(site.url(doc), wait_until="load")
        page.locator("article button.page-copy").click()
        status = page.locator("article .page-copy-status")
        status.filter(has_text="Could not copy").wait_for()
        assert "index.md" in status.text_content() and "404" in status.text_content()
    finally:
        context.close()


@pytest.mark.parametrize("src", PAGES)
def test_report_a_problem_opens_an_issue_naming_the_page_and_the_commit(site, chromium, src):
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    doc = site.doc(src)
    context = new_context(chromium, site, search=False)
    try:
        page = open_page(context, site)
        page.goto(site.url(doc), wait_until="load")
        link = page.locator("article a.page-report")
        assert link.is_visible() and link.get_attribute("aria-label") == "Report a problem with this page"
        # The request the click makes (refused: the tests reach no other host) is the issue form, prefilled.
        with page.expect_request(lambda r: "/issues/new" in r.url) as request:
            link.click()
        url = urlsplit(request.value.url)
        assert f"{url.scheme}://{url.netloc}{url.path}" == CONFIG["repo_url"] + "/issues/new"
        body = parse_qs(url.query)["body"][0]
        source = src.removeprefix("docs/")
        page_url = CONFIG["site_url"] + ("" if source == "index.md" else source.removesuffix(".md") + "/")
        assert f"Page: {page_url}\n" in body, body
        assert f"Source: docs/{source} at commit {commit}\n" in body, body
    finally:
        context.close()
