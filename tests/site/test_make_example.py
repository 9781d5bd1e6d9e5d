"""`make example NAME= PAGE=`: the contributor's fast loop (docs/contributing/adding-an-example.md names it above the
rules table) runs the tool's check and every per-example and per-page rule on the one example and page named, every
step even after one failed, and ends with the steps that failed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from support.repo import ROOT
from test_new_example import skip


def make(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "MAKEFLAGS": ""}
    return subprocess.run(["make", "--no-print-directory", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900)


def test_without_a_name_it_says_how_to_call_it():
    proc = make("example")
    assert proc.returncode != 0
    assert "usage: make example NAME=" in proc.stdout + proc.stderr


@pytest.mark.slow
def test_it_runs_the_rules_on_the_named_example_and_page():
    proc = make("example", "NAME=first-server", "PAGE=what-is-mcp")
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    assert "run_examples.py --check first-server" in out
    assert "1 example: 1 verified" in out
    # four pytest runs (interop on first-server's servers, the workspace, the page, the reading path), none empty
    assert len(re.findall(r"^\d+ passed", out, re.M)) == 4, out
    assert "make example: all 5 steps passed" in out
    assert 'RUNEX_TEST_EXAMPLES=first-server .venv/bin/python -m pytest -q -k "first-server" tests/interop/' in out
    assert '-k "what-is-mcp or first-server" tests/site/test_pages.py' in out


def repo_copy(tmp_path: Path) -> Path:
    """The repository's sources and its Makefile, without build output: make runs there on this checkout's venv."""
    root = tmp_path / "repo"
    for folder in ("tools", "tests", "docs", "examples"):
        shutil.copytree(ROOT / folder, root / folder, ignore=skip)
    for file in ("pytest.ini", "pyproject.toml", "mkdocs.yml", "Makefile", "requirements.txt", "constraints.txt",
                 "package-lock.json"):
        shutil.copy2(ROOT / file, root / file)  # with their times: the venv they made is up to date
    return root


@pytest.mark.slow
def test_one_failure_does_not_hide_the_next(tmp_path):
    """Two mistakes at once, a hand edit inside a block pasted on a page and a Rust file rustfmt would change: one
    loop reports both, runs the step between them, and ends with the two commands that failed."""
    root = repo_copy(tmp_path)
    page = root / "docs/mcp/what-is-mcp.md"
    page.write_text(page.read_text(encoding="utf-8").replace('"cannot read stdin"', '"stdin is gone"', 1),
                    encoding="utf-8")
    rust = root / "examples/pagination/src/main.rs"
    rust.write_text(rust.read_text(encoding="utf-8").replace("fn main() {", "fn   main()   {", 1), encoding="utf-8")
    proc = make("example", "NAME=first-server", f"VENV={ROOT / '.venv'}", cwd=root)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0, out
    assert "docs/mcp/what-is-mcp.md:47: the block pasted" in out and "cargo fmt --all" in out, out
    assert re.search(r"test_http_client\.py\n\.+ +\[100%\]\n\d+ passed", out), "the step between them ran:\n" + out
    summary = out[out.index("make example: 2 of 3 steps failed"):]
    assert f"{ROOT / '.venv'}/bin/python tools/run_examples.py --check first-server" in summary, summary
    assert "-m pytest -q tests/test_rust_examples.py" in summary, summary
    assert "tests/interop/" not in summary, summary
    assert "\n    make example NAME=first-server\n" in summary, summary
