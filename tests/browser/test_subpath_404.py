"""The 404 page works where GitHub Pages serves a project site: under a sub-path (/mcp-from-the-wire-up/).

Every other page links relatively and works anywhere; the 404 page is served for any missing URL at any depth, so
MkDocs writes its links as absolute paths taken from site_url's path. Here the built site is mounted under that
sub-path on 127.0.0.1, a missing URL answers with 404.html and HTTP 404 as GitHub Pages does, and Chromium must load
every stylesheet, script and image of that page. The same page mounted under another prefix must fail the same
check, so the check is known to catch broken asset paths.
"""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

from .checks import Watch, new_context, open_page
from .sitekit import ROOT, Site, skip_module_without_browser

pytestmark = [pytest.mark.browser, pytest.mark.slow]
skip_module_without_browser()


def site_prefix() -> str:
    """site_url's path, the sub-path GitHub Pages serves the site under: "/mcp-from-the-wire-up/"."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    return urlsplit(config["site_url"]).path


class _MountedHandler(SimpleHTTPRequestHandler):
    """Serves site_dir under one prefix only; anything missing gets the site's 404.html with HTTP 404."""

    def __init__(self, *args, prefix: str, site_dir: Path, **kwargs):
        self.prefix = prefix
        self.site_dir = site_dir
        super().__init__(*args, directory=str(site_dir), **kwargs)

    def translate_path(self, path: str) -> str:
        path = urlsplit(path).path
        if not path.startswith(self.prefix):
            return str(self.site_dir / "__not-mounted__")
        return super().translate_path("/" + path[len(self.prefix):])

    def send_error(self, code, message=None, explain=None):
        if code != 404:
            return super().send_error(code, message, explain)
        body = (self.site_dir / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (signature of the base class)
        pass


@pytest.fixture
def mounted(site):
    """mounted(prefix) -> base URL of the built site served under prefix; every server stops after the test."""
    servers = []

    def mount(prefix: str) -> str:
        handler = functools.partial(_MountedHandler, prefix=prefix, site_dir=site.site_dir)
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        httpd.daemon_threads = True
        thread = threading.Thread(target=httpd.serve_forever, daemon=True)
        thread.start()
        servers.append((httpd, thread))
        return f"http://127.0.0.1:{httpd.server_address[1]}{prefix}"

    yield mount
    for httpd, thread in servers:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


def load_missing_page(chromium, site: Site, base: str) -> tuple[list[str], list[str], str]:
    """Open a missing URL two levels deep under base: (problems with its assets, asset URLs loaded, heading)."""
    served = Site(root=site.root, site_dir=site.site_dir, base_url=base, docs=[])
    context = new_context(chromium, served)
    try:
        page = open_page(context, served)
        watch = Watch(page, served)
        loaded: list[str] = []
        page.on("response", lambda r: loaded.append(r.url) if r.ok and r.request.resource_type in
                ("stylesheet", "script", "image") else None)
        missing = base + "no/such/page/"
        response = page.goto(missing, wait_until="load")
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(200)
        watch.stop()
        assert response is not None and response.status == 404, f"{missing}: expected the 404 page with HTTP 404"
        problems = [f"request to another host: {url}" for url in watch.external]
        problems += [f"failed request: {text}" for text in watch.failed]
        problems += [f"request answered with an error: {text}" for text in watch.bad_status
                     if not text.startswith(missing + " ")]
        # The document's own HTTP 404 is the point; Chromium reports it on the console too.
        problems += [f"console error: {text}" for text in watch.console if not text.endswith(f"({missing}:0)")]
        problems += [f"uncaught script error: {text}" for text in watch.errors]
        heading = page.locator(".md-content h1").first.inner_text()
        # Material's stylesheet lays the header out as a flex row; unstyled HTML leaves it a block.
        if page.evaluate("getComputedStyle(document.querySelector('.md-header__inner')).display") != "flex":
            problems.append("the theme's stylesheet is not applied (header is not laid out)")
        return problems, loaded, heading
    finally:
        context.close()


def test_404_page_loads_its_assets_under_the_sites_sub_path(chromium, site, mounted):
    prefix = site_prefix()
    assert prefix != "/" and prefix.endswith("/"), f"site_url's path {prefix!r}: GitHub Pages serves under a sub-path"
    problems, loaded, heading = load_missing_page(chromium, site, mounted(prefix))
    assert not problems, "the 404 page under " + prefix + ":\n" + "\n".join(problems)
    kinds = {Path(urlsplit(url).path).suffix for url in loaded}
    assert {".css", ".js"} <= kinds, f"the 404 page loaded no stylesheet or script: {loaded}"
    assert all(urlsplit(url).path.startswith(prefix) for url in loaded), loaded
    assert heading.strip() == "404 - Not found", heading


def test_404_page_under_another_prefix_fails_the_same_check(chromium, site, mounted):
    """The control: mounted where site_url does not point, the 404 page's absolute asset paths miss."""
    problems, _, _ = load_missing_page(chromium, site, mounted("/somewhere-else/"))
    assert any("main" in p and ".css" in p for p in problems), problems
