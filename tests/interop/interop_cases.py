"""The cases of the interop tests: every implementation of every example, in both connect modes.

They come from `run_examples.py --list --json`, which knows every example folder and the command `serve` uses for
each implementation; an example added later is covered without editing the tests. The listing builds every
implementation from the cache (compiling what changed), so it runs once per session and root.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "run_examples.py"
MODES = ("auto", "2026-07-28")


def run_tool(*args: str, root: Path | None = None, timeout: float = 1800) -> subprocess.CompletedProcess:
    tool = (root / "tools" / "run_examples.py") if root is not None else TOOL
    command = [sys.executable, str(tool), *args] + (["--root", str(root)] if root is not None else [])
    env = dict(os.environ, NO_COLOR="1")
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env, cwd=root or ROOT)


@functools.cache
def listing(root: Path = ROOT) -> dict:
    done = run_tool("--list", "--json", root=None if root == ROOT else root)
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise RuntimeError(f"run_examples.py --list --json printed no JSON (exit {done.returncode}):\n"
                           f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}") from None


def cases(root: Path = ROOT) -> list[tuple[dict, dict, str]]:
    return [(example, impl, mode) for example in listing(root)["examples"]
            for impl in example["implementations"] for mode in MODES]


def case_id(case: tuple[dict, dict, str]) -> str:
    example, impl, mode = case
    return f"{example['name']}/{impl['name']}/{mode}"
