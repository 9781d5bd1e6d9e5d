"""Turn an implementation into a command line, compiling through a content-hash cache.

A cache key covers the source files, the build command and the toolchain's version, so an unchanged example is
not recompiled. An entry records the hash of its binary; an entry that fails that check is rebuilt, never trusted.

Compilers run in the sandbox too (a build.rs or a proc macro is the example's code): rustc and `cargo build` see
the example's own folder read-only (a member of the examples' cargo workspace sees examples/, which cargo needs for
the workspace's manifests and its one Cargo.lock), the toolchain read-only, one writable output folder, no network
and a scrubbed environment, under a time limit. Downloading crates (`cargo fetch`, which runs no crate code) happens
before, outside.
No sandbox ever sees the cache: a server gets its one binary bound read-only, so no example can plant a binary or
rewrite an entry's hash for a later run.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .. import cache_gc
from .. import sandboxing
from .. import toolchain
from ..errors import BuildError
from ..fsutil import sha256_file
from ..examples.model import ANSWER_KEY, CONFIG, IMPLEMENTATION_FILES, STDERR_LANE, TRANSCRIPT, Implementation

BINARY = "server"
META = "entry.json"
BUILD_TIMEOUT = 600.0  # seconds for one rustc or cargo build, after which the whole build sandbox is killed
FETCH_TIMEOUT = 600.0
INSIDE = "/example"  # where a server's file is bound, alone: __file__ and argv[0] name nothing of the repository
SOURCE_ROOT = "/src"  # builds see examples/<name>/ here, so diagnostics still say examples/<name>/main.rs
VENV_INSIDE = "/opt/venv"


@dataclass(frozen=True)
class Built:
    command: list[str]  # how to start the server on this machine, unsandboxed (host paths)
    compiled: bool  # True when this call ran the compiler (a cache miss or --fresh)
    seconds: float
    inside: tuple[str, ...] = ()  # the same command as the sandbox sees it
    mounts: tuple[tuple[str, str], ...] = ()  # (host path, sandbox path), read-only

    def spec(self, sandboxed: bool, home: str, limits: sandboxing.Limits = sandboxing.SERVER_LIMITS
             ) -> sandboxing.Spec:
        if not sandboxed:
            return sandboxing.Spec(list(self.command), env=sandboxing.base_env(home), limits=limits)
        return sandboxing.Spec(list(self.inside), read_only=self.mounts, env=sandboxing.base_env("/tmp"),
                               limits=limits)


class Cache:
    def __init__(self, root: Path, fresh: bool = False):
        self.root = root
        self.dir = root / ".cache" / "run_examples" / "builds"
        # One per standalone cargo project; the examples' workspace shares one ("workspace"), as cargo would.
        self.cargo_targets = root / ".cache" / "cargo-target"
        self.fresh = fresh

    def lookup(self, key: str) -> Path | None:
        found = self.lookup_verified(key)
        return None if found is None else found[0]

    def lookup_verified(self, key: str) -> tuple[Path, str] | None:
        """The entry's binary and the sha256 it was just hashed to, equal to its record's; None when there is no
        good entry (a broken one is removed)."""
        entry = self.dir / key
        try:
            meta = json.loads((entry / META).read_text())
            binary = entry / BINARY
            sha256 = sha256_file(binary)
            if sha256 == meta["sha256"]:
                cache_gc.mark_used(entry)
                return binary, sha256
        except (OSError, ValueError, KeyError, TypeError):
            pass
        if entry.exists():
            shutil.rmtree(entry, ignore_errors=True)  # corrupt or half-made: rebuild
        return None

    def store(self, key: str, produce) -> Path:
        """`produce(folder)` leaves a binary at folder/server; the entry appears whole or not at all."""
        import tempfile  # here: a warm run stores nothing

        self.dir.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{key[:12]}-", dir=self.dir))
        try:
            produce(staging)
            os.chmod(staging / BINARY, 0o755)
            (staging / META).write_text(json.dumps({"sha256": sha256_file(staging / BINARY)}))
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


WORKSPACE_FILES = ("Cargo.toml", "Cargo.lock")  # what every member of the examples' workspace is built from


def _workspace_table(folder: Path) -> dict | None:
    """The [workspace] table of folder/Cargo.toml, or None when there is no such manifest or table."""
    try:
        return _workspace_in((folder / "Cargo.toml").read_text("utf-8"))
    except (OSError, ValueError):
        return None


@functools.lru_cache(maxsize=4)
def _workspace_in(manifest: str) -> dict | None:
    """Parsed once per manifest text: a cargo project's key, build and Cargo.lock each ask (the file is read each
    time, so an edited manifest is parsed anew). Callers only read the table."""
    import tomllib  # here: only a cargo project asks, and a warm run of rustc and Python examples need not pay

    table = tomllib.loads(manifest).get("workspace")
    return table if isinstance(table, dict) else None


def workspace_of(impl: Implementation) -> Path | None:
    """The examples' cargo workspace (examples/Cargo.toml with [workspace]) when this cargo project is in it.

    Only the folder right above the example is looked at: that is where the one workspace lives, and a member
    cannot sit deeper. A project outside it (a test's own repository, say) builds alone, as before.
    """
    if impl.name != "cargo" or _workspace_table(impl.source_dir.parent) is None:
        return None
    return impl.source_dir.parent


def workspace_members(workspace: Path) -> list[str]:
    members = (_workspace_table(workspace) or {}).get("members", [])
    return [m for m in members if isinstance(m, str)] if isinstance(members, list) else []


def lock_file(impl: Implementation) -> Path:
    """The Cargo.lock a cargo project's build reads (and `cargo fetch` may write): the workspace's for a member."""
    return (workspace_of(impl) or impl.source_dir) / "Cargo.lock"


def source_files(impl: Implementation) -> list[Path]:
    """The files whose bytes decide what gets built: a single file, or a cargo project's whole folder and, for a
    workspace member, the workspace's manifest and its one Cargo.lock (other members cannot change this binary).

    A cargo project's folder also holds the tool's files and may hold its Python twin: none of them is part of the
    crate, so an edit to server.py runs the twin again without a cargo build (`make serve` waits for it). No Rust
    source may read server.py (tests/test_rust_examples.py holds every example to that)."""
    if impl.name == "cargo":
        skip = {TRANSCRIPT, ANSWER_KEY, CONFIG, STDERR_LANE, IMPLEMENTATION_FILES["python"]}
        own = sorted(p for p in impl.source_dir.rglob("*")
                     if p.is_file() and p.name not in skip and "target" not in p.relative_to(impl.source_dir).parts)
        workspace = workspace_of(impl)
        shared = [workspace / name for name in WORKSPACE_FILES if (workspace / name).is_file()] if workspace else []
        return shared + own
    return [impl.entry]


def cache_key(root: Path, impl: Implementation, recipe: list[str]) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps([impl.name, recipe, toolchain.version("rustc"),
                              toolchain.version("cargo") if impl.name == "cargo" else ""]).encode())
    base = impl.source_dir.parent if workspace_of(impl) else impl.source_dir
    for path in source_files(impl):
        digest.update(str(path.relative_to(base)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def rustc_recipe(impl: Implementation) -> list[str]:
    crate = impl.source_dir.name.replace("-", "_")
    # A debug build without debug info: examples are tiny, so compile time is what counts (about a fifth of -O's),
    # and a small binary keeps hashing the cache entry cheap. Overflow checks stay on, as in any debug build.
    return ["rustc", "--edition", "2021", "-C", "strip=debuginfo", "--crate-name", crate]


def cargo_recipe(locked: bool) -> list[str]:
    return ["cargo", "build", "--message-format=json-render-diagnostics"] + (["--locked"] if locked else [])


def python_launch(impl: Implementation) -> Built:
    """The tool's own interpreter (and, in a virtual environment, its site-packages), read-only, and the one file."""
    inside = [sys.executable, f"{INSIDE}/{impl.entry.name}"]
    mounts = [(sys.base_prefix, sys.base_prefix), (str(impl.entry), inside[1])]
    if sys.prefix != sys.base_prefix:  # a venv: bound at a neutral path, so its location names no repository
        venv = os.path.realpath(sys.prefix)
        mounts.append((venv, VENV_INSIDE))
        inside[0] = f"{VENV_INSIDE}/bin/{Path(sys.executable).name}"
    return Built([sys.executable, str(impl.entry)], False, 0.0, tuple(inside), tuple(mounts))


def binary_launch(binary: Path, compiled: bool, seconds: float) -> Built:
    inside = f"{INSIDE}/{BINARY}"
    return Built([str(binary)], compiled, seconds, (inside,), ((str(binary), inside),))


def prepare(root: Path, impl: Implementation, cache: Cache, *, locked: bool,
            sandbox: sandboxing.Sandbox | None = None) -> Built:
    """Return the command that starts this implementation's server, building it if needed."""
    sandbox = sandbox or sandboxing.Sandbox()
    started = time.monotonic()
    if impl.name == "python":
        return python_launch(impl)
    recipe = rustc_recipe(impl) if impl.name == "rust" else cargo_recipe(locked)
    # --locked only decides whether Cargo.lock may change, not what is built: keep it out of the key.
    keyed_recipe = [a for a in recipe if a != "--locked"]
    key = cache_key(root, impl, keyed_recipe)
    binary = None if cache.fresh else cache.lookup(key)
    if binary is None and impl.name == "cargo":
        # A miss: download what Cargo.lock names. Without --check this may write Cargo.lock, so the key is taken
        # again and the binary filed under the sources as they are now; a later --check with the old (or no)
        # Cargo.lock then misses the cache and lets `cargo fetch --locked` object.
        fetch(root, impl, locked)
        key = cache_key(root, impl, keyed_recipe)
        binary = None if cache.fresh else cache.lookup(key)
    if binary is not None:
        return binary_launch(binary, False, time.monotonic() - started)
    if impl.name == "rust":
        produce = lambda folder: run_rustc(root, impl, recipe, folder, sandbox)  # noqa: E731
    else:
        produce = lambda folder: run_cargo(root, impl, cache, folder, sandbox)  # noqa: E731
    binary = cache.store(key, produce)
    return binary_launch(binary, True, time.monotonic() - started)


def writable_by_sandbox(path: Path, sandbox: sandboxing.Sandbox) -> None:
    """As root the sandboxed compiler runs as nobody: hand it its output folder."""
    if sandbox.enabled and sandbox.as_root:
        os.chown(path, sandboxing.NOBODY, sandboxing.NOBODY)


def source_mount(root: Path, impl: Implementation, folder: Path | None = None) -> tuple[str, str]:
    """The example's folder (or the given one, such as the workspace), at the same relative path under /src."""
    folder = folder or impl.source_dir
    rel = folder.relative_to(root)
    return str(folder), f"{SOURCE_ROOT}/{rel.as_posix()}"


def _build_failure(proc: subprocess.CompletedProcess, what: str) -> str:
    if proc.returncode is None:
        return f"{what} did not finish within {BUILD_TIMEOUT:g} s and was stopped"
    return proc.stderr.decode("utf-8", "replace").rstrip()


def run_rustc(root: Path, impl: Implementation, recipe: list[str], folder: Path, sandbox: sandboxing.Sandbox) -> None:
    # Run from the repository root (or /src inside) with a relative path, so diagnostics name examples/<name>/main.rs.
    rel = impl.entry.relative_to(root).as_posix()
    if not sandbox.enabled:
        proc = subprocess.run(recipe + ["-o", str(folder / BINARY), rel], cwd=root, capture_output=True,
                              timeout=BUILD_TIMEOUT)
    else:
        toolchain_dir = toolchain.sysroot()
        writable_by_sandbox(folder, sandbox)
        spec = sandboxing.Spec(
            [str(toolchain_dir / "bin" / "rustc"), *recipe[1:], "-o", "/out/" + BINARY, rel],
            read_only=((str(toolchain_dir), str(toolchain_dir)), source_mount(root, impl)),
            writable=((str(folder), "/out"),), env=sandboxing.base_env("/tmp"), chdir=SOURCE_ROOT,
            limits=sandboxing.BUILD_LIMITS)
        proc = sandbox.run(spec, timeout=BUILD_TIMEOUT)
    if proc.returncode != 0:
        raise BuildError(f"rustc failed:\n{_build_failure(proc, 'rustc')}", file=rel)


def fetch(root: Path, impl: Implementation, locked: bool) -> None:
    """Download the crates Cargo.lock names (with --check, Cargo.lock may not change). Outside the sandbox: it needs
    the network, and `cargo fetch` runs no code of any crate (no build script, no proc macro)."""
    manifest = impl.entry.relative_to(root)
    _check_member(root, impl)
    cmd = ["cargo", "fetch", "--manifest-path", str(manifest)] + (["--locked"] if locked else [])
    try:
        proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=FETCH_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise BuildError(f"cargo fetch did not finish within {FETCH_TIMEOUT:g} s", file=str(manifest)) from None
    except OSError as exc:
        raise BuildError(f"cargo is needed to build this example and did not run: {exc}", file=str(manifest)) from None
    if proc.returncode != 0:
        hint = ""
        if locked and "lock file" in proc.stderr:
            hint = "\nCargo.lock is missing or out of date; run the tool without --check to update it, and commit it."
        raise BuildError(f"cargo fetch failed:\n{proc.stderr.rstrip()}{hint}", file=str(manifest))


def _check_member(root: Path, impl: Implementation) -> None:
    """A cargo project in the examples' folder must be listed in the workspace (cargo's own words are obscure)."""
    workspace = workspace_of(impl)
    if workspace is None:
        return
    manifest = (workspace / "Cargo.toml").relative_to(root)
    if impl.source_dir.name not in workspace_members(workspace):
        raise BuildError(f"examples/{impl.source_dir.name} has a Cargo.toml but is not a member of the examples' "
                         f"workspace: add \"{impl.source_dir.name}\" to `members` in {manifest}, then run "
                         f"`python tools/run_examples.py {impl.source_dir.name}`", file=str(manifest))
    stray = impl.source_dir / "Cargo.lock"
    if stray.exists():
        raise BuildError(f"a workspace member has no Cargo.lock of its own (cargo ignores it; the workspace's is "
                         f"{(workspace / 'Cargo.lock').relative_to(root)}): delete it",
                         file=str(stray.relative_to(root)))


# Members share one target folder; cargo would make a second build wait on its lock anyway, and waiting here
# keeps that wait out of the build's time limit.
workspace_build = threading.Lock()


def cargo_home() -> Path:
    return Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")


def run_cargo(root: Path, impl: Implementation, cache: Cache, folder: Path, sandbox: sandboxing.Sandbox,
           extra: tuple[str, ...] = ()) -> None:
    """`extra`: more arguments for `cargo build` (build/wasm.py's `--target wasm32-wasip1`)."""
    workspace = workspace_of(impl)
    if workspace is None:
        _cargo_build(root, impl, None, cache.cargo_targets / impl.source_dir.name, folder, sandbox, extra)
        return
    with workspace_build:
        _cargo_build(root, impl, workspace, cache.cargo_targets / "workspace", folder, sandbox, extra)


def _cargo_build(root: Path, impl: Implementation, workspace: Path | None, target: Path, folder: Path,
                 sandbox: sandboxing.Sandbox, extra: tuple[str, ...] = ()) -> None:
    """`cargo build` of one package: a standalone project sees its own folder, a workspace member all of examples/
    (cargo reads every member's manifest and the one Cargo.lock), read-only either way."""
    manifest = impl.entry.relative_to(root)
    recipe = cargo_recipe(False)[:2] + ["--frozen", "--offline", *extra] + cargo_recipe(False)[2:]
    if not sandbox.enabled:
        env = dict(os.environ, CARGO_TARGET_DIR=str(target))
        proc = subprocess.run(recipe + ["--manifest-path", str(manifest)], cwd=root, env=env, capture_output=True,
                              timeout=BUILD_TIMEOUT)
        inside_manifest, inside_target = str(impl.entry), str(target)
    else:
        toolchain_dir = toolchain.sysroot()
        if target.exists() and sandbox.as_root and target.stat().st_uid != sandboxing.NOBODY:
            shutil.rmtree(target)  # made by an unsandboxed run: the sandbox user could not write it
        target.mkdir(parents=True, exist_ok=True)
        writable_by_sandbox(target, sandbox)
        host_src, inside_src = source_mount(root, impl, workspace)
        inside_manifest = f"{SOURCE_ROOT}/{manifest.as_posix()}"
        inside_target = "/target"
        inside_home = "/opt/cargo-home"
        downloads = [cargo_home() / "registry", cargo_home() / "git"]  # what `cargo fetch` filled, read-only
        for download in downloads:
            download.mkdir(parents=True, exist_ok=True)  # a crate without dependencies on a fresh machine
        env = {**sandboxing.base_env("/tmp"), "CARGO_HOME": inside_home, "CARGO_TARGET_DIR": inside_target,
               "RUSTC": str(toolchain_dir / "bin" / "rustc"), "CARGO_TERM_COLOR": "never"}
        spec = sandboxing.Spec(
            [str(toolchain_dir / "bin" / "cargo"), *recipe[1:], "--manifest-path", inside_manifest],
            read_only=((str(toolchain_dir), str(toolchain_dir)), (host_src, inside_src),
                       *((str(d), f"{inside_home}/{d.name}") for d in downloads)),
            writable=((str(target), inside_target),), env=env, chdir=SOURCE_ROOT, limits=sandboxing.BUILD_LIMITS)
        proc = sandbox.run(spec, timeout=BUILD_TIMEOUT)
    if proc.returncode != 0:
        raise BuildError(f"cargo build failed (paths are relative to {manifest.parent}/):\n"
                         f"{_build_failure(proc, 'cargo build')}", file=str(manifest))
    executables = []
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if isinstance(message, dict) and message.get("reason") == "compiler-artifact" and message.get("executable") \
                and message.get("manifest_path") == inside_manifest:
            executables.append(message["executable"])
    if len(executables) != 1:
        raise BuildError(f"expected exactly one binary from cargo, found {len(executables)}", file=str(manifest))
    built = Path(executables[0])
    if sandbox.enabled:  # a path inside the sandbox: the same file under the host's target folder
        try:
            built = target / built.relative_to(inside_target)
        except ValueError:
            raise BuildError(f"cargo reported a binary outside its target folder: {built}",
                             file=str(manifest)) from None
    shutil.copyfile(built, folder / BINARY)
