"""Copy what "Run it here" needs into docs/assets/run/ (git-ignored), before `mkdocs build` or `mkdocs serve`.

- pyodide/: the few files of the npm package `pyodide` (pinned in package.json, installed by `npm ci`) that a
  browser needs to start Python with its standard library: the loader, the runtime, the wasm, the stdlib zip and
  the lock file. No package wheels: the twins use the standard library only.
- examples/NAME/: for each example with a stdlib-only Python twin (tools/runex/paste/run_here.py), its server.py,
  transcript.jsonl and answer_key.jsonl, byte for byte the files `run_examples.py --check` verifies.
- runex/: the tool's own wire package (tools/runex/wire/), so the browser reports a wire problem in the tool's own
  words.
- manifest.json: what was copied, which the page's script reads.

The folder is rebuilt whole each time (written next to it, then renamed into place), so a removed example leaves
nothing behind. Without node_modules/pyodide the examples are still copied and the script says what to run; the
site builds and works, only the button cannot start Python. With CI=true that is an error (exit 1).

Usage: python tools/site_assets.py [--root DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from runex.environment import in_ci  # noqa: E402
from runex.paste import run_here  # noqa: E402

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "package.json")
TARGET = Path("docs") / "assets" / "run"
FIX = "npm ci   (installs node_modules/pyodide from package-lock.json)"


def copy_assets(root: Path) -> tuple[Path, bool]:
    """Rebuild root/docs/assets/run; returns (the folder, whether Pyodide was there to copy)."""
    target = root / TARGET
    staging = target.with_name(target.name + ".new")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    package = root / "node_modules" / "pyodide"
    have_pyodide = all((package / name).is_file() for name in PYODIDE_FILES)
    if have_pyodide:
        (staging / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            shutil.copyfile(package / name, staging / "pyodide" / name)
    runs = run_here.browser_runs(root)
    for run in runs:
        folder = staging / "examples" / run.name
        folder.mkdir(parents=True)
        for source in (run.server, run.transcript, run.answer_key):
            shutil.copyfile(source, folder / source.name)
    tool_files = run_here.tool_files(root / "tools" / "runex")
    for name in tool_files:
        (staging / "runex" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / "tools" / "runex" / name, staging / "runex" / name)
    version = json.loads((package / "package.json").read_text())["version"] if have_pyodide else None
    manifest = {
        "pyodide": version,
        "examples": {run.name: {"server": str(run.server.relative_to(root)),
                                "transcript": str(run.transcript.relative_to(root)),
                                "answer_key": str(run.answer_key.relative_to(root))} for run in runs},
        "runex": tool_files,
    }
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    old = target.with_name(target.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        target.rename(old)
    staging.rename(target)
    shutil.rmtree(old, ignore_errors=True)
    return target, have_pyodide


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)
    target, have_pyodide = copy_assets(args.root.resolve())
    if not have_pyodide:
        print(f"site_assets: node_modules/pyodide is missing, so the 'Run it here' buttons cannot start Python; "
              f"fix: {FIX}", file=sys.stderr)
        if in_ci():  # never publish or test a site whose buttons cannot work
            return 1
    else:
        print(f"site_assets: {target.relative_to(args.root.resolve())} ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
