"""Turn an implementation into a command line, compiling through a content-hash cache.

A cache key covers the source files, the build command and the toolchain's version, so an unchanged example is
not recompiled. An entry records the hash of its binary; an entry that fails that check is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .errors import BuildError
from .model import ANSWER_KEY, CONFIG, TRANSCRIPT, Implementation

BINARY = "server"
META = "entry.json"


@dataclass(frozen=True)
class Built:
    command: list[str]
    compiled: bool  # True when this call ran the compiler (a cache miss or --fresh)
    seconds: float


_versions: dict[str, str] = {}
_versions_lock = threading.Lock()


def toolchain_version(tool: str) -> str:
    """`rustc -vV` / `cargo -V`, asked once per run."""
    with _versions_lock:
        if tool not in _versions:
            flag = "-vV" if tool == "rustc" else "-V"
            try:
                out = subprocess.run([tool, flag], capture_output=True, text=True, check=True)
            except (OSError, subprocess.CalledProcessError) as exc:
                raise BuildError(f"{tool} is needed to build Rust examples and did not run: {exc}") from None
            _versions[tool] = out.stdout
        return _versions[tool]


class Cache:
    def __init__(self, root: Path, fresh: bool = False):
        self.root = root
        self.dir = root / ".cache" / "run_examples" / "builds"
        self.cargo_target = root / ".cache" / "cargo-target"
        self.fresh = fresh

    def lookup(self, key: str) -> Path | None:
        entry = self.dir / key
        try:
            meta = json.loads((entry / META).read_text())
            binary = entry / BINARY
            if _sha256(binary) == meta["sha256"]:
                return binary
        except (OSError, ValueError, KeyError, TypeError):
            pass
        if entry.exists():
            shutil.rmtree(entry, ignore_errors=True)  # corrupt or half-made: rebuild
        return None

    def store(self, key: str, produce) -> Path:
        """`produce(folder)` leaves a binary at folder/server; the entry appears whole or not at all."""
        self.dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{key[:12]}-", dir=self.dir))
        try:
            produce(staging)
            (staging / META).write_text(json.dumps({"sha256": _sha256(staging / BINARY)}))
            final = self.dir / key
            # A good entry may be in use by another run (same key, built at the same time): keep it. --fresh
            # replaces it; lookup() removes a broken one.
            if self.fresh and final.exists():
                shutil.rmtree(final, ignore_errors=True)
            if self.lookup(key) is None:
                try:
                    os.rename(staging, final)
                except OSError:
                    if self.lookup(key) is None:  # another run won the race with a good entry, or it is broken
                        raise
            return final / BINARY
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_files(impl: Implementation) -> list[Path]:
    """The files whose bytes decide what gets built: a single file, or a cargo project's whole folder."""
    if impl.name == "cargo":
        skip = {TRANSCRIPT, ANSWER_KEY, CONFIG}
        return sorted(p for p in impl.source_dir.rglob("*")
                      if p.is_file() and p.name not in skip and "target" not in p.relative_to(impl.source_dir).parts)
    return [impl.entry]


def cache_key(root: Path, impl: Implementation, recipe: list[str]) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([impl.name, recipe, toolchain_version("rustc"),
                              toolchain_version("cargo") if impl.name == "cargo" else ""]).encode())
    for path in source_files(impl):
        digest.update(str(path.relative_to(impl.source_dir)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def rustc_recipe(impl: Implementation) -> list[str]:
    crate = impl.source_dir.name.replace("-", "_")
    # A debug build without debug info: examples are tiny, so compile time is what counts (about a fifth of -O's),
    # and a small binary keeps hashing the cache entry cheap. Overflow checks stay on, as in any debug build.
    return ["rustc", "--edition", "2021", "-C", "strip=debuginfo", "--crate-name", crate]


def cargo_recipe(locked: bool) -> list[str]:
    return ["cargo", "build", "--message-format=json-render-diagnostics"] + (["--locked"] if locked else [])


def prepare(root: Path, impl: Implementation, cache: Cache, *, locked: bool) -> Built:
    """Return the command that starts this implementation's server, building it if needed."""
    started = time.monotonic()
    if impl.name == "python":
        return Built([sys.executable, str(impl.entry)], False, 0.0)
    recipe = rustc_recipe(impl) if impl.name == "rust" else cargo_recipe(locked)
    # --locked only decides whether Cargo.lock may change, not what is built: keep it out of the key.
    keyed_recipe = [a for a in recipe if a != "--locked"]
    key = cache_key(root, impl, keyed_recipe)
    binary = None if cache.fresh else cache.lookup(key)
    if binary is not None:
        return Built([str(binary)], False, time.monotonic() - started)
    if impl.name == "rust":
        produce = lambda folder: _rustc(root, impl, recipe, folder / BINARY)  # noqa: E731
    else:
        produce = lambda folder: _cargo(root, impl, recipe, cache, folder / BINARY)  # noqa: E731
    binary = cache.store(key, produce)
    if impl.name == "cargo":
        after = cache_key(root, impl, keyed_recipe)
        if after != key:  # the build wrote Cargo.lock: file the binary under the sources as they are now, so a
            # later --check with the old (or no) Cargo.lock misses the cache and lets `cargo --locked` object
            binary = cache.store(after, lambda folder: shutil.copy2(binary, folder / BINARY))
            shutil.rmtree(cache.dir / key, ignore_errors=True)
    return Built([str(binary)], True, time.monotonic() - started)


def _rustc(root: Path, impl: Implementation, recipe: list[str], out: Path) -> None:
    # Run from the repository root with a relative path, so diagnostics name examples/<name>/main.rs.
    rel = impl.entry.relative_to(root)
    proc = subprocess.run(recipe + ["-o", str(out), str(rel)], cwd=root, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BuildError(f"rustc failed:\n{proc.stderr.rstrip()}", file=str(rel))


def _cargo(root: Path, impl: Implementation, recipe: list[str], cache: Cache, out: Path) -> None:
    manifest = impl.entry.relative_to(root)
    env = dict(os.environ, CARGO_TARGET_DIR=str(cache.cargo_target))
    proc = subprocess.run(recipe + ["--manifest-path", str(manifest)], cwd=root, env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        hint = ""
        if "--locked" in recipe and "lock file" in proc.stderr:
            hint = "\nCargo.lock is missing or out of date; run the tool without --check to update it, and commit it."
        raise BuildError(f"cargo build failed (paths are relative to {manifest.parent}/):\n"
                         f"{proc.stderr.rstrip()}{hint}", file=str(manifest))
    executables = []
    for line in proc.stdout.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("reason") == "compiler-artifact" and message.get("executable") \
                and Path(message.get("manifest_path", "")).resolve() == impl.entry.resolve():
            executables.append(message["executable"])
    if len(executables) != 1:
        raise BuildError(f"expected exactly one binary from cargo, found {len(executables)}", file=str(manifest))
    shutil.copy2(executables[0], out)
