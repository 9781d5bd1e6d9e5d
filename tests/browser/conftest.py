"""Fixtures for the browser tests: one Chromium per session, the built site served on 127.0.0.1, fresh contexts.

Chromium is Debian's package (or $CHROMIUM, which GitHub's runner points at Google Chrome), driven by the
playwright Python package with `executable_path`; `playwright install` is never needed. Without a browser the
tests skip with one line saying what to install, except in CI (CI=true), where that fails the run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support.repo import skip_or_fail

from .checks import new_context
from .sitekit import ROOT, Site, SiteServer, discover_docs, find_chromium

LAUNCH_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", "--disable-quic"]
SCREENSHOTS = ROOT / "screenshots"  # git-ignored; CI uploads it as an artefact


@pytest.fixture(scope="package")
def chromium_executable() -> str:
    executable, reason = find_chromium()
    if executable is None:
        skip_or_fail(reason)
    return executable


@pytest.fixture(scope="package")
def chromium(chromium_executable):
    """One browser for the whole session; every test opens its own context in it."""
    from playwright.sync_api import sync_playwright

    driver = sync_playwright().start()
    try:
        browser = driver.chromium.launch(executable_path=chromium_executable, args=LAUNCH_FLAGS, headless=True)
    except Exception as error:
        driver.stop()
        skip_or_fail(f"browser tests: {chromium_executable} does not start under playwright ({error})")
    try:
        yield browser
    finally:
        browser.close()
        driver.stop()


@pytest.fixture(scope="package")
def site(chromium, built_site) -> Site:
    """The real site (mkdocs.yml and docs/ of this checkout), the run's one strict build (built_site in
    tests/conftest.py), served on 127.0.0.1 until the session ends.

    It asks for the browser first, so that without one the tests skip before spending time on the build. The
    server stops in the fixture's finally block: after the last test, on a failure, and on Ctrl-C alike.
    """
    server = SiteServer(built_site)
    try:
        yield Site(root=ROOT, site_dir=built_site, base_url=server.base_url, docs=discover_docs(ROOT))
    finally:
        server.stop()


@pytest.fixture
def open_context(chromium):
    """open_context(site, phone=False, search=True) -> a fresh browser context (checks.new_context); every context is
    closed after the test."""
    opened = []

    def open_(site: Site, phone: bool = False, search: bool = True):
        opened.append(new_context(chromium, site, phone, search))
        return opened[-1]

    yield open_
    for context in opened:
        context.close()


@pytest.fixture
def screenshots() -> Path:
    return SCREENSHOTS
