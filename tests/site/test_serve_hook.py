"""The mkdocs serve hook is a convenience: it re-runs the real tool on rebuilds under `serve`, and never under build."""

from __future__ import annotations

import importlib.util
import logging

from conftest import ROOT


def load_hook():
    spec = importlib.util.spec_from_file_location("mkdocs_hook_under_test", ROOT / "tools" / "mkdocs_hook.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return hook


def test_build_never_runs_the_tool(caplog):
    hook = load_hook()
    hook.on_startup("build", dirty=False)
    with caplog.at_level(logging.INFO, logger="mkdocs.hooks.run_examples"):
        hook.on_pre_build(None)
        hook.on_pre_build(None)
    assert not caplog.records, "mkdocs build must not depend on the hook"


def test_serve_reruns_the_tool_on_every_rebuild_but_the_first(caplog):
    hook = load_hook()
    hook.on_startup("serve", dirty=False)
    with caplog.at_level(logging.INFO, logger="mkdocs.hooks.run_examples"):
        hook.on_pre_build(None)  # the first build: `make serve` ran the tool just before
        assert not caplog.records
        hook.on_pre_build(None)  # a file changed: the real tool runs on this repository
    [record] = caplog.records
    assert record.getMessage().startswith("run_examples: ") and "examples:" in record.getMessage()
    assert "up to date" in record.getMessage()
