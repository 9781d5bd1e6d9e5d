"""The repository under test and the tool as a contributor runs it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runex.environment import in_ci

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "run_examples.py"
IN_CI = in_ci()  # the tool's own test of CI=true (tools/runex/environment.py)


def skip_or_fail(reason: str) -> None:
    """Outside CI a missing prerequisite skips with its reason; in CI it fails, so CI never passes by skipping."""
    if IN_CI:
        pytest.fail(f"required in CI: {reason}")
    pytest.skip(reason)


def run_tool(*args: str, root: Path | None = None, env: dict | None = None, timeout: float = 600,
             input: bytes | None = None) -> subprocess.CompletedProcess:
    """Run tools/run_examples.py in a subprocess, exactly as a contributor would."""
    command = [sys.executable, str(TOOL), *args]
    if root is not None:
        command += ["--root", str(root)]
    full_env = dict(os.environ, NO_COLOR="1")
    full_env.pop("GITHUB_ACTIONS", None)
    if env:
        full_env.update(env)
    return subprocess.run(command, capture_output=True, text=input is None, timeout=timeout, env=full_env,
                          input=input, cwd=ROOT)


def site_env(**extra: str) -> dict[str, str]:
    """The environment a site build runs in. mkdocs.yml's plugin and markdown extension come from the venv's runex
    (`make setup` installs this checkout's); the plugin points the conversation views at the built checkout."""
    return dict(os.environ, NO_MKDOCS_2_WARNING="1", **extra)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int, proc: subprocess.Popen, seconds: float) -> bool:
    """True once something accepts connections on 127.0.0.1:`port`; False when `proc` exits or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False
