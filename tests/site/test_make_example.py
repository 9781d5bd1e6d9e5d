"""`make example NAME= PAGE=`: the contributor's fast loop (docs/contributing/adding-an-example.md names it above the
rules table) runs the tool's check and every per-example and per-page rule on the one example and page named."""

from __future__ import annotations

import os
import subprocess

import pytest

from support.repo import ROOT


def make(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MAKEFLAGS": ""}
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


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
    assert out.count(" passed") == 4, out
    assert 'RUNEX_TEST_EXAMPLES=first-server .venv/bin/python -m pytest -q -k "first-server" tests/interop/' in out
    assert '-k "what-is-mcp" tests/site/test_pages.py' in out
