"""A convenience for `mkdocs serve` only: when a watched file changes, re-run the examples and re-paste the pages.

Every check lives in tools/run_examples.py and the tests, never here: Zensical (Material's successor) reads the
same mkdocs.yml and ignores hooks, and `mkdocs build` skips this hook, so nothing published depends on it.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
from pathlib import Path

TOOL = Path(__file__).resolve().parent / "run_examples.py"
log = logging.getLogger("mkdocs.hooks.run_examples")
_state = {"serving": False, "builds": 0}


def on_startup(command: str, dirty: bool) -> None:
    _state["serving"] = command == "serve"


def on_pre_build(config) -> None:
    _state["builds"] += 1
    if not _state["serving"] or _state["builds"] == 1:
        return  # `make serve` has just run the tool; re-run it only for rebuilds that a file change started
    # A subprocess, not an import: an edit to tools/runex/ while serving takes effect at once. Only the examples
    # whose inputs changed run (the others' verdicts are cached), so this is the edited example's run plus pasting.
    started = time.monotonic()
    proc = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True)
    summary = (proc.stdout.strip().splitlines() or ["(no output)"])[-1]
    summary += f" (the hook waited {time.monotonic() - started:.1f} s)"
    if proc.returncode == 0:
        log.info("run_examples: %s", summary)
    else:  # keep serving the last good pages; the author reads why here, and --check will fail the same way
        log.info("run_examples failed (exit %s); the pages still show the last verified output:\n%s",
                 proc.returncode, proc.stdout.strip())
