"""Fixtures for the run_examples tool tests (helpers live in runex_helpers.py)."""

from __future__ import annotations

import pytest

from support.tool_repos import require


@pytest.fixture
def rustc():
    require("rustc")


@pytest.fixture
def cargo():
    require("cargo")
    require("rustc")
