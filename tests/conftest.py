"""Fixtures shared by every test folder (the helpers they use live in tests/support/), and which tests share a
worker when pytest-xdist runs them (`make fast`, `make test`: tests/support/worker_groups.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.repo import ROOT


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, worker_id) -> Path:
    """This checkout's site, built once per run exactly as `make site` builds it (tools/site_assets.py, then
    `mkdocs build --strict`); the browser tests serve it, the site tests read it. Read-only for every test. Under
    pytest-xdist every worker reads one build (support/shared_site.py)."""
    from browser.sitekit import BuildError
    from support.shared_site import build_once

    base = tmp_path_factory.getbasetemp()
    shared = base.parent / "shared" if worker_id != "master" else base / "shared"  # workers' basetemps are siblings
    try:
        return build_once(shared)
    except BuildError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: called only when it runs the tests (-n)
def pytest_xdist_make_scheduler(config, log):
    from support import worker_groups

    return worker_groups.scheduler(config, log)
