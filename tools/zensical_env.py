#!/usr/bin/env python3
"""The pinned Zensical, in a venv of its own under .cache/zensical/ (git-ignored), for tests/site/test_zensical.py.

Its own venv, never the shared .venv: that one holds exactly the MkDocs stack requirements.txt pins, and Zensical
is a second program to build the same mkdocs.yml, not a dependency of anything there. The packages both use come
from constraints.txt (`-c`), so Zensical renders with the same Markdown, pymdown-extensions and Pygments as MkDocs;
requirements-zensical.txt pins Zensical and its two other dependencies. The tool's package runex is installed
from this checkout, editable (pyproject.toml): mkdocs.yml's markdown extension runex.paste.markdown_ext lives there.

A stamp in the venv records what it was made from (both files, byte for byte); when either file changes, the venv
is made again from nothing, so it never holds a mix of old and new pins. CI runs this in .ci/run before `make test`.

Usage: python3 tools/zensical_env.py    (also `make zensical`)
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = ROOT / "requirements-zensical.txt"
CONSTRAINTS = ROOT / "constraints.txt"
VENV = ROOT / ".cache" / "zensical" / "venv"
STAMP = VENV / ".installed"
PROGRAM = VENV / "bin" / "zensical"
FIX = "python3 tools/zensical_env.py   (or: make zensical)"


def wanted() -> str:
    """What the venv must have been made from: a digest of the two files that pin it."""
    digest = hashlib.sha256()
    for path in (REQUIREMENTS, CONSTRAINTS):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def pinned_version() -> str:
    """The exact Zensical version requirements-zensical.txt pins."""
    for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("zensical=="):
            return line.removeprefix("zensical==").strip()
    raise SystemExit(f"{REQUIREMENTS.name}: no `zensical==VERSION` line; pin the exact version there")


def installed_program() -> tuple[Path | None, str]:
    """(the zensical program, "") when the venv is current, else (None, why not and what to run)."""
    if not PROGRAM.is_file():
        return None, f"Zensical is not installed ({PROGRAM.relative_to(ROOT)} is missing); run: {FIX}"
    if not STAMP.is_file() or STAMP.read_text(encoding="utf-8").strip() != wanted():
        return None, (f"{VENV.relative_to(ROOT)} did not finish or was made from other pins than "
                      f"{REQUIREMENTS.name} and {CONSTRAINTS.name} hold now; run: {FIX}")
    if not tool_installed():  # mkdocs.yml's markdown extension is the tool's
        return None, f"{VENV.relative_to(ROOT)} does not have this checkout's runex installed; run: {FIX}"
    return PROGRAM, ""


def tool_installed() -> bool:
    """Whether the venv has the package runex installed editable from this checkout (pip records where an
    install came from in the distribution's direct_url.json)."""
    found = metadata.distributions(name="runex", path=[str(p) for p in VENV.glob("lib/python3*/site-packages")])
    for distribution in found:
        try:
            origin = json.loads(distribution.read_text("direct_url.json") or "{}")
        except ValueError:
            return False
        return origin.get("url") == ROOT.as_uri() and origin.get("dir_info", {}).get("editable") is True
    return False


def install_tool() -> None:
    python = str(VENV / "bin" / "python")
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "-e",
                    str(ROOT)], check=True)


def make_venv() -> None:
    shutil.rmtree(VENV, ignore_errors=True)
    VENV.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    pip = [str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "-r", str(REQUIREMENTS), "-c", str(CONSTRAINTS)], check=True)
    install_tool()
    temporary = STAMP.with_name(STAMP.name + ".tmp")
    temporary.write_text(wanted() + "\n", encoding="utf-8")
    os.replace(temporary, STAMP)  # written last: a venv without a stamp is one that did not finish


def main() -> int:
    program, _ = installed_program()
    try:
        if program is None and STAMP.is_file() and STAMP.read_text(encoding="utf-8").strip() == wanted():
            install_tool()  # the pins are installed; only runex is missing (or came from another checkout)
            program, _ = installed_program()
        if program is None:
            print(f"zensical_env: making {VENV.relative_to(ROOT)} with zensical=={pinned_version()}", file=sys.stderr)
            make_venv()
    except subprocess.CalledProcessError as error:
        print(f"zensical_env: `{' '.join(map(str, error.cmd))}` failed (exit {error.returncode}); "
              f"the pins are in {REQUIREMENTS.name} and pyproject.toml", file=sys.stderr)
        return 1
    version = subprocess.run([str(PROGRAM), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    print(f"zensical_env: {PROGRAM.relative_to(ROOT)} ready ({version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
