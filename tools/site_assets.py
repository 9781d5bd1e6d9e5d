"""Copy what "Run it here" needs into docs/assets/run/ (git-ignored), before `mkdocs build` or `mkdocs serve`.

- pyodide/: the few files of the npm package `pyodide` (pinned in package.json, installed by `npm ci`) that a
  browser needs to start Python with its standard library: the loader, the runtime, the wasm, the stdlib zip and
  the lock file. No package wheels: the twins use the standard library only.
- wasi/: the ES modules of the npm package `@bjorn3/browser_wasi_shim` (pinned the same way), which give a Rust
  server built for wasm32-wasip1 its stdin, stdout and stderr in the browser.
- examples/NAME/: for each example the browser runs (tools/runex/paste/run_here.py), transcript.jsonl and
  answer_key.jsonl, byte for byte the files `run_examples.py --check` verifies, with its stdlib-only Python twin
  (server.py) and its Rust implementation built for wasm32-wasip1 (server.wasm, from the tool's build cache:
  tools/runex/builds/wasm.py, which builds it in the sandbox if the cache has none).
- runex/: the tool's own wire package (tools/runex/wire/), so the browser reports a wire problem in the tool's own
  words.
- manifest.json: what was copied, which the workers read; for a Rust run also which transcript lines are owed a
  reply (the tool's own transcript reader decides, here, so the browser needs no Python to feed a Rust server).

The folder is rebuilt whole each time (written next to it, then renamed into place unless nothing changed), so a
removed example leaves nothing behind. Without node_modules/pyodide (or the shim) the examples are still copied and the script says what to
run; the site builds and works, only the button cannot start that language. With CI=true that is an error (exit 1).
A Rust example that does not build for wasm32-wasip1 is an error everywhere (exit 1), with the tool's message.

Usage: python tools/site_assets.py [--root DIR]
"""

from __future__ import annotations

import argparse
import fcntl
import json
import shutil
import sys
import tempfile
from pathlib import Path

from runex.environment import in_ci
from runex.errors import BuildError
from runex.paste import run_here

ROOT = Path(__file__).resolve().parent.parent

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json")
TARGET = Path("docs") / "assets" / "run"
WASI_PACKAGE = Path("node_modules") / "@bjorn3" / "browser_wasi_shim"
WASI_FILES = ("index.js", "wasi.js", "wasi_defs.js", "fd.js", "fs_mem.js", "fs_opfs.js", "debug.js", "strace.js")
FIX = "npm ci   (installs node_modules/pyodide and node_modules/@bjorn3/browser_wasi_shim from package-lock.json)"


def copy_assets(root: Path) -> tuple[Path, bool]:
    """Rebuild root/docs/assets/run; returns (the folder, whether Pyodide and the WASI shim were there to copy)."""
    target = root / TARGET
    target.parent.mkdir(parents=True, exist_ok=True)
    # A dot folder of its own: MkDocs skips it, and two runs at once (a test's build beside `make site`) never
    # write into each other's.
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new.", dir=target.parent))
    staging.chmod(0o755)  # mkdtemp's 0700 would become the published folder's
    try:
        have_runtimes = _stage(root, staging)
        _swap(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target, have_runtimes


def _stage(root: Path, staging: Path) -> bool:
    """Everything docs/assets/run holds, written into `staging`; whether Pyodide and the WASI shim were there."""
    have_pyodide = _copy_package(root / "node_modules" / "pyodide", PYODIDE_FILES, staging / "pyodide")
    shim = root / WASI_PACKAGE
    have_shim = _copy_package(shim / "dist", WASI_FILES, staging / "wasi")
    if have_shim:
        shutil.copyfile(shim / "LICENSE-MIT", staging / "wasi" / "LICENSE-MIT")
    runs = run_here.browser_runs(root)
    examples = {}
    for run in runs:
        examples[run.name] = _copy_example(root, run, staging / "examples" / run.name)
    tool_files = run_here.tool_files(root / "tools" / "runex")
    for name in tool_files:
        (staging / "runex" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / "tools" / "runex" / name, staging / "runex" / name)
    manifest = {
        "pyodide": _version(root / "node_modules" / "pyodide") if have_pyodide else None,
        "wasi": _version(shim) if have_shim else None,
        "examples": examples,
        "runex": tool_files,
    }
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return have_pyodide and have_shim


def _swap(staging: Path, target: Path) -> None:
    """`staging` renamed into place, unless the folder there already holds the same files: an unchanged checkout's
    run leaves docs/assets/run alone, so a build or test reading it meanwhile never finds it gone."""
    with open(target.with_name(f".{target.name}.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.is_dir() and _same_files(staging, target):
            return
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old.", dir=target.parent)) / target.name
        if target.exists():
            target.rename(old)
        staging.rename(target)
        shutil.rmtree(old.parent, ignore_errors=True)


def _same_files(one: Path, other: Path) -> bool:
    def files(folder: Path) -> dict[str, bytes]:
        return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    return files(one) == files(other)


def _copy_package(source: Path, names: tuple[str, ...], folder: Path) -> bool:
    if not all((source / name).is_file() for name in names):
        return False
    folder.mkdir(parents=True)
    for name in names:
        shutil.copyfile(source / name, folder / name)
    return True


def _version(package: Path) -> str:
    return json.loads((package / "package.json").read_text())["version"]


def _copy_example(root: Path, run: run_here.BrowserRun, folder: Path) -> dict:
    """The example's files the browser needs, and its manifest entry (paths relative to the repository)."""
    folder.mkdir(parents=True)
    entry = {}
    for key, source in (("server", run.python), ("transcript", run.transcript), ("answer_key", run.answer_key)):
        if source is not None:
            shutil.copyfile(source, folder / source.name)
            entry[key] = str(source.relative_to(root))
    if run.rust is not None:
        shutil.copyfile(_wasm_module(root, run), folder / "server.wasm")
        entry["rust"] = {"source": run.rust_source(root), "owed": _owed(root, run.transcript)}
    return entry


def _wasm_module(root: Path, run: run_here.BrowserRun) -> Path:
    """The module from the tool's build cache (built there in the sandbox when the cache has none)."""
    from runex.builds import native, wasm
    from runex.examples import model

    example = next(e for e in model.discover(root)[0] if e.name == run.name)
    return wasm.prepare(root, example, run.rust, native.Cache(root), locked=True)


def _owed(root: Path, transcript: Path) -> list[list]:
    """Per transcript line, as the tool reads it: [number, owed a reply, the reply's id, a null id allowed]."""
    from runex.wire import transcript as reader

    lines, _ = reader.read(transcript, str(transcript.relative_to(root)))
    return [[l.number, l.expects_reply, l.reply_id, l.null_reply_allowed] for l in lines]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    try:
        target, have_runtimes = copy_assets(args.root.resolve())
    except BuildError as error:
        print(f"site_assets: {error}", file=sys.stderr)
        return 1
    if not have_runtimes:
        print(f"site_assets: node_modules/pyodide or node_modules/@bjorn3/browser_wasi_shim is missing, so the "
              f"'Run it here' buttons cannot start Python or Rust; fix: {FIX}", file=sys.stderr)
        if in_ci():  # never publish or test a site whose buttons cannot work
            return 1
    else:
        print(f"site_assets: {target.relative_to(args.root.resolve())} ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
