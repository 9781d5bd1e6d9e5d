#!/usr/bin/env python3
"""Put this checkout's tools/ on a venv's import path, with a .pth file in its site-packages.

mkdocs.yml's markdown extension `runex.paste.markdown_ext` (the conversation view, rendered when the site is built)
lives in tools/runex/; MkDocs and Zensical import it by that name. The Makefile runs this for .venv (`make setup`)
and tools/zensical_env.py for Zensical's own venv; the tests that build the site set PYTHONPATH themselves.

Usage: python3 tools/venv_path.py VENV
"""

from __future__ import annotations

import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
PTH = "verified-mcp-tools.pth"


def pth_files(venv: Path) -> list[Path]:
    return [folder / PTH for folder in sorted(venv.glob("lib/python3*/site-packages"))]


def current(venv: Path) -> bool:
    """Whether every site-packages of `venv` has the .pth naming this checkout's tools/."""
    files = pth_files(venv)
    return bool(files) and all(p.is_file() and p.read_text(encoding="utf-8").strip() == str(TOOLS) for p in files)


def write(venv: Path) -> None:
    files = pth_files(venv)
    if not files:
        raise SystemExit(f"venv_path: {venv} has no lib/python3*/site-packages; make the venv first (make setup)")
    for path in files:
        path.write_text(f"{TOOLS}\n", encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    write(Path(sys.argv[1]))
