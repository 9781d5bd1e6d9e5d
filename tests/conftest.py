"""Fixtures shared by every test folder (the helpers they use live in tests/support/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.repo import ROOT


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return ROOT
