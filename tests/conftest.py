"""Fixtures shared by every test folder (the helpers they use live in tests/support/), and which tests share a
worker when pytest-xdist runs them (`make fast`, `make test WORKERS=2`: tests/support/worker_groups.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.repo import ROOT


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """This checkout's site, built once per run exactly as `make site` builds it (tools/site_assets.py, then
    `mkdocs build --strict`); the browser tests serve it, the site tests read it. Read-only for every test."""
    from browser.sitekit import BuildError, build_site

    site_dir = tmp_path_factory.mktemp("built-site") / "site"
    try:
        build_site(ROOT, site_dir)
    except BuildError as error:
        pytest.fail(str(error), pytrace=False)
    return site_dir


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: called only when it runs the tests (-n)
def pytest_xdist_make_scheduler(config, log):
    from support import worker_groups

    return worker_groups.scheduler(config, log)
