"""The GitHub workflows stay clean under actionlint and zizmor, and CI runs the README's test command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from support.repo import ROOT, skip_or_fail

WORKFLOWS = ROOT / ".github" / "workflows"


def _actionlint() -> str | None:
    found = shutil.which("actionlint")
    fallback = Path.home() / "go" / "bin" / "actionlint"
    return found or (str(fallback) if fallback.is_file() else None)


def test_actionlint_is_clean():
    binary = _actionlint()
    if binary is None:
        skip_or_fail("actionlint is not installed: go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12")
    result = subprocess.run([binary, "-no-color"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_zizmor_is_clean():
    zizmor = Path(sys.executable).parent / "zizmor"
    if not zizmor.exists():
        skip_or_fail("zizmor is not installed: pip install -r requirements.txt -c constraints.txt")
    result = subprocess.run([str(zizmor), "--offline", "--no-progress", str(WORKFLOWS)], cwd=ROOT,
                            capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in readme and "make test" in ci.splitlines()[-1]
    assert "bash .ci/run" in (WORKFLOWS / "ci.yml").read_text(encoding="utf-8")
