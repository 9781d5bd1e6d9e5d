"""Which examples run in the reader's browser ("Run it here"), and which files that run needs.

An example gets the button when the tool runs its Python twin (server.py, its own or implementations_from's, not
excluded by `implementations`) and that file imports only the standard library: the browser runs it in Pyodide
with no package downloads, so a twin that imports `mcp` (python-sdk) cannot run there. The browser writes in
lockstep, so an example whose example.toml paces lines with [[send]] gets no button either.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

from ..examples import model

RUNEX = Path(__file__).resolve().parent.parent  # tools/runex/


def tool_files(runex: Path = RUNEX) -> list[str]:
    """The tool's files the browser runs to report wire problems in the tool's words, relative to tools/runex/: the
    package's __init__.py and the whole wire package, which imports nothing outside itself (the schema needs the
    mcp_types package and stays out; the wire check takes a validator as an optional argument)."""
    wire = sorted(p.name for p in (runex / "wire").glob("*.py"))
    return ["__init__.py", *(f"wire/{name}" for name in wire)]


@dataclass(frozen=True)
class BrowserRun:
    name: str
    server: Path  # the Python twin the browser runs, unmodified
    transcript: Path
    answer_key: Path


def top_level_imports(source: str) -> set[str]:
    """The top-level module names a Python file imports (`import a.b` -> "a"; relative imports -> "")."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("" if node.level else (node.module or "").split(".")[0])
    return names


def stdlib_only(server: Path) -> bool:
    try:
        imported = top_level_imports(server.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return False
    return all(name in sys.stdlib_module_names or name == "__future__" for name in imported)


def browser_run(root: Path, name: str, config: model.Config) -> BrowserRun | None:
    """The run "Run it here" makes for example NAME, or None when it has no stdlib-only Python twin."""
    if config.implementations is not None and "python" not in config.implementations:
        return None
    if config.sends:  # run/paced.py's pacing and recorded order are the runner's alone
        return None
    folder = root / "examples" / name
    server = root / "examples" / (config.implementations_from or name) / model.IMPLEMENTATION_FILES["python"]
    if not server.is_file() or not stdlib_only(server):
        return None
    transcript = root / "examples" / (config.transcript_from or name) / model.TRANSCRIPT
    return BrowserRun(name, server, transcript, folder / model.ANSWER_KEY)


def browser_runs(root: Path) -> list[BrowserRun]:
    examples, _errors = model.discover(root)
    runs = (browser_run(root, e.name, e.config) for e in examples)
    return [r for r in runs if r is not None]
