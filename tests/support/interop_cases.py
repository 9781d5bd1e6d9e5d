"""The cases of the interop tests: every implementation of every example, in both connect modes.

Collecting them builds nothing: the cases are the examples and implementations the tool's own discovery finds
(runex.examples.model.discover, which reads files only). A test then takes its example's entry from
`run_examples.py --list --json`, which gives the command `serve` uses for each implementation and builds every
implementation from the cache (compiling what changed), once per session and root, when the first test needs it.
An example added later is covered without editing the tests. RUNEX_TEST_EXAMPLES (names, comma-separated) limits
the cases, and what `--list --json` builds, to those examples: tests/test_new_example.py runs these tests on a copy
of the repository whose other examples it does not build.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from .repo import ROOT

TOOL = ROOT / "tools" / "run_examples.py"
MODES = ("auto", "2026-07-28")
ONLY = tuple(n for n in os.environ.get("RUNEX_TEST_EXAMPLES", "").split(",") if n)


def run_tool(*args: str, root: Path | None = None, timeout: float = 1800) -> subprocess.CompletedProcess:
    tool = (root / "tools" / "run_examples.py") if root is not None else TOOL
    command = [sys.executable, str(tool), *args] + (["--root", str(root)] if root is not None else [])
    env = dict(os.environ, NO_COLOR="1")
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, cwd=root or ROOT)


@functools.cache
def listing(root: Path = ROOT) -> dict:
    done = run_tool("--list", "--json", *ONLY, root=None if root == ROOT else root)
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise RuntimeError(f"run_examples.py --list --json printed no JSON (exit {done.returncode}):\n"
                           f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}") from None


def declared(root: Path = ROOT) -> list[dict]:
    """Each example as discovery finds it, without building: name, transcript and implementation names, in the
    shape of a `--list --json` entry (what the tests are parametrized over)."""
    from runex.examples import model

    examples, _ = model.discover(root)
    return [{"name": e.name, "transcript": str(e.transcript.relative_to(root)),
             "implementations": [{"name": i.name.value} for i in e.implementations]} for e in examples
            if not ONLY or e.name in ONLY]


def entry(name: str, impl: str | None = None, root: Path = ROOT) -> tuple[dict, dict | None]:
    """Example NAME's `--list --json` entry and its implementation IMPL's (built from the cache on first use)."""
    example = next(e for e in listing(root)["examples"] if e["name"] == name)
    chosen = next((i for i in example["implementations"] if i["name"] == impl), None) if impl else None
    return example, chosen


def cases(root: Path = ROOT) -> list[tuple[str, str, str]]:
    """(example, implementation, mode) names: every implementation of every example, in both modes."""
    return [(example["name"], impl["name"], mode) for example in declared(root)
            for impl in example["implementations"] for mode in MODES]


def case_id(case: tuple[str, str, str]) -> str:
    return "/".join(case)
