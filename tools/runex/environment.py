"""Facts about where the tool runs that change what it does: CI, and where the repository is."""

from __future__ import annotations

import os
from pathlib import Path


def in_ci() -> bool:
    """CI=true (GitHub Actions and `.ci/run` set it; "1" is accepted too): every cache is bypassed, nothing skips."""
    return os.environ.get("CI", "").lower() in ("true", "1")


def default_root() -> Path:
    """The repository this copy of the tool belongs to (tools/runex/ is two folders below it)."""
    return Path(__file__).resolve().parent.parent.parent
