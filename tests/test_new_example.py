"""What `new` writes passes the suite as it is: in a copy of the repository, `new` in each language mode (both twins,
Rust only, Python only), each with a page stub at one level, then `--check` and the very tests the full suite runs
on every example and every page, run by pytest inside the copy on the new examples alone.

The copy holds tools/, tests/, docs/ and examples/ (sources only, no build cache), so nothing here writes to the
repository, and its tests read the copy as their root (tests/support/repo.py finds it from its own path).
RUNEX_TEST_EXAMPLES limits the interop tests, and what they build, to the new examples
(tests/support/interop_cases.py): the copy's other examples are pasted on its pages but never built.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from support.repo import ROOT, run_tool

pytestmark = [pytest.mark.slow, pytest.mark.interop]  # a cargo build, and the example servers under real clients

# name -> the `new` arguments of its mode, each with a page at a level of its own (a page of each level)
MODES = {"new-both": ("--page", "201"), "new-rust": ("--lang", "cargo", "--page", "301"),
         "new-python": ("--lang", "python", "--page", "101")}
# The per-example and per-page tests of the full suite, each selected by the new examples' names.
PER_EXAMPLE = ["tests/interop/test_closed_stdout.py", "tests/interop/test_edge_inputs.py",
               "tests/interop/test_real_client.py", "tests/site/test_pages.py"]
WHOLE = ["tests/site/test_reading_path.py", "tests/test_rust_examples.py"]  # the nav, the workspace, rustfmt


def skip(folder: str, names: list[str]) -> set[str]:
    """Build output left out of the copy: caches, cargo targets, and docs/assets/run (what a site build copies)."""
    left_out = {"__pycache__", "target", "node_modules"} | ({"run"} if Path(folder).parts[-2:] == ("docs", "assets")
                                                           else set())
    return left_out & set(names)


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("new-example") / "repo"
    for folder in ("tools", "tests", "docs", "examples"):
        shutil.copytree(ROOT / folder, root / folder, ignore=skip)
    for file in ("pytest.ini", "mkdocs.yml"):
        shutil.copy(ROOT / file, root / file)
    for name, args in MODES.items():
        made = run_tool("new", name, *args, root=root)
        assert made.returncode == 0, f"new {name} {' '.join(args)} failed:\n{made.stdout}{made.stderr}"
    return root


def pytest_in(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, RUNEX_TEST_EXAMPLES=",".join(MODES))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", *args], cwd=root,
                          env=env, capture_output=True, text=True, timeout=1800)


def test_new_examples_and_their_pages_pass_check(copy):
    checked = run_tool("--check", *MODES, root=copy)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for name in MODES:
        assert f"verified {name}" in checked.stdout


def test_new_examples_pass_the_per_example_and_page_tests(copy):
    proc = pytest_in(copy, *PER_EXAMPLE, "-k", " or ".join(MODES))
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    passed = [line for line in proc.stdout.splitlines() if " PASSED" in line]
    for name in MODES:
        for test in PER_EXAMPLE:
            assert any(test in line and name in line for line in passed), f"{test} ran nothing for {name}"
    assert " SKIPPED" not in proc.stdout, "a skip would hide what CI fails on:\n" + proc.stdout[-4000:]
    # The lone-surrogate comparison needs both twins: new-both has them.
    assert any("surrogate" in line and "new-both" in line for line in passed)


def test_the_placeholders_left_to_write_are_named_on_each_stub(copy):
    proc = pytest_in(copy, "tests/site/test_placeholders.py")
    assert proc.returncode == 1, "the stubs' placeholders went unnoticed:\n" + proc.stdout[-4000:]
    for name in MODES:
        assert f"docs/mcp/{name}.md:" in proc.stdout, proc.stdout[-4000:]
    assert "docs/index.md:" in proc.stdout, "the stub's line in docs/index.md is a placeholder too"


def test_the_copy_keeps_the_nav_the_workspace_and_rustfmt(copy):
    proc = pytest_in(copy, *WHOLE)
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    members = (copy / "examples/Cargo.toml").read_text()
    assert '"new-both",' in members and '"new-rust",' in members and '"new-python"' not in members
