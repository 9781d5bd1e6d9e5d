"""The one toolchain probe: commands whose answers go into keys, started early and side by side, answered once.

`rustc -vV` and `cargo -V` name the Rust toolchain in build keys and result keys; `bwrap --version` names the sandbox
in result keys (cache/results.py asks it through `start` and `take`). Each is mostly process start-up, so a run
starts them as soon as it knows it will need them and takes the answers when a key first does; meanwhile discovery
and the integrity snapshot go on. A new run asks again (`forget`): one process may hold many runs (`make serve`'s
plugin runs the tool in mkdocs' process for hours, and `rustup update` may come in between).
"""

from __future__ import annotations

import functools
import os
import subprocess
import threading
from pathlib import Path

from .errors import BuildError

Asked = dict[object, "subprocess.Popen | OSError"]

_versions: dict[str, str] = {}
_asked: Asked = {}  # started by ask(), not yet answered, by tool name
_lock = threading.Lock()


def start(asked: Asked, key: object, command: list[str]) -> None:
    """Start `command` now, unless `key` is asked already; take() gives its answer."""
    if key in asked:
        return
    try:
        asked[key] = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as exc:
        asked[key] = exc


def take(asked: Asked, key: object, command: list[str]) -> subprocess.CompletedProcess:
    """The answer to `command`: the one started under `key` (taken, so the next take asks anew), or asked now.
    Raises OSError when it cannot run."""
    found = asked.pop(key, None)
    if isinstance(found, OSError):
        raise found
    if found is None:
        return subprocess.run(command, capture_output=True, text=True)
    out, err = found.communicate()
    return subprocess.CompletedProcess(command, found.returncode, out, err)


def _version_command(tool: str) -> list[str]:
    return [tool, "-vV" if tool == "rustc" else "-V"]


def forget() -> None:
    """A new run asks the toolchain again."""
    with _lock:
        _versions.clear()
        stale = [p for p in _asked.values() if isinstance(p, subprocess.Popen)]
        _asked.clear()
    for proc in stale:  # asked by an earlier run that never needed the answer
        proc.kill()
        proc.communicate()
    sysroot.cache_clear()


def ask() -> None:
    """Start `rustc -vV` and `cargo -V` now and return at once: version() takes their answers."""
    with _lock:
        for tool in ("rustc", "cargo"):
            if tool not in _versions:
                start(_asked, tool, _version_command(tool))


def ask_if_rust_ahead(root: Path, names: tuple[str, ...] | list[str]) -> None:
    """Before discovery: when a folder about to run holds a Rust implementation (main.rs or Cargo.toml), ask()
    now, so that discovery and the integrity snapshot overlap the answers. A guess from file names only: the
    result keys' probes ask from what discovery found, and version() asks whatever was not asked."""
    try:
        with os.scandir(root / "examples") as folders:
            for folder in folders:
                if (not names or folder.name in names) and not folder.name.startswith((".", "_")) \
                        and any(os.path.isfile(os.path.join(folder.path, entry))
                                for entry in ("main.rs", "Cargo.toml")):
                    ask()
                    return
    except OSError:
        return  # discovery reports it


def version(tool: str) -> str:
    """`rustc -vV` / `cargo -V`, asked once per run (ask() may have asked already)."""
    with _lock:
        if tool not in _versions:
            command = _version_command(tool)
            try:
                done = take(_asked, tool, command)
                if done.returncode != 0:
                    raise subprocess.CalledProcessError(done.returncode, command, done.stdout, done.stderr)
            except (OSError, subprocess.CalledProcessError) as exc:
                raise BuildError(f"{tool} is needed to build Rust examples and did not run: {exc}") from None
            _versions[tool] = done.stdout
        return _versions[tool]


@functools.lru_cache(maxsize=1)
def sysroot() -> Path:
    """The real toolchain folder (rustup's proxies in ~/.cargo/bin would need all of ~/.rustup and $HOME)."""
    out = subprocess.run(["rustc", "--print", "sysroot"], capture_output=True, text=True)
    if out.returncode != 0:
        raise BuildError(f"rustc is needed to build Rust examples and did not run: {out.stderr.strip()}")
    return Path(out.stdout.strip())
