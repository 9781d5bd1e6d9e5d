"""Which examples run in the reader's browser ("Run it here"), in which languages, and which files that run needs.

Python: the tool runs its twin (server.py, its own or implementations_from's, not excluded by `implementations`)
and that file imports only the standard library: the browser runs it in Pyodide with no package downloads, so a twin
that imports `mcp` (python-sdk) cannot run there. Rust: the example's Rust implementation (main.rs or a cargo
project), which build/wasm.py builds for wasm32-wasip1, where the site has the browser's Rust runner. An
implementation example.toml declares under [not_in_browser] has no button: its page shows the reason instead. An example whose
example.toml paces lines with [[send]] runs in neither: the browser writes in lockstep; its page says so. A page
gives a reader one reason per language, in the reader's words (no configuration key).
"""

from __future__ import annotations

import ast
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from ..examples import model
from ..examples.files import ExampleFiles

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
    transcript: Path
    answer_key: Path
    python: Path | None = None  # the Python twin the browser runs in Pyodide, unmodified
    rust: model.Implementation | None = None  # run as build/wasm.py's wasm32-wasip1 module
    why_not: tuple[tuple[str, str], ...] = ()  # (language, reason), one per language: shown where its button would be

    @property
    def runnable(self) -> bool:
        return self.python is not None or self.rust is not None

    def rust_source(self, root: Path) -> str | None:
        """The file a reader knows the Rust server by: main.rs, or a cargo project's src/main.rs."""
        if self.rust is None:
            return None
        entry = self.rust.entry if self.rust.name == model.ImplementationKind.RUST \
            else self.rust.source_dir / "src" / "main.rs"
        return entry.relative_to(root).as_posix()

    def attributes(self, root: Path) -> dict[str, str]:
        """The view's data-* attributes, which docs/javascripts/run-here.js reads (without JavaScript, nothing)."""
        attrs = {"example": self.name}
        if self.python is not None:
            attrs["python"] = self.python.relative_to(root).as_posix()
        if self.rust is not None:
            attrs["rust"] = self.rust_source(root)
        if self.why_not:  # a JSON list of [language, reason]: run-here.js shows one line per language
            attrs["not-here"] = json.dumps([list(pair) for pair in self.why_not], ensure_ascii=False)
        return attrs


def top_level_imports(source: str) -> set[str]:
    """The top-level module names a Python file imports (`import a.b` -> "a"; relative imports -> "")."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("" if node.level else (node.module or "").split(".")[0])
    return names


def stdlib_only(server: Path, files: ExampleFiles | None = None) -> bool:
    try:
        source = files.read(server) if files is not None else server.read_bytes()
        imported = top_level_imports((source or b"").decode("utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return False
    return all(name in sys.stdlib_module_names or name == "__future__" for name in imported)


LANGUAGES = {model.ImplementationKind.RUST: "Rust", model.ImplementationKind.CARGO: "Rust",
             model.ImplementationKind.PYTHON: "Python"}


# Why no language runs a paced example here (example.toml's [[send]], a key a reader never sees).
PACED = ("this conversation sends some lines before the replies to earlier lines have come back, and the browser "
         "sends one line at a time, each after the replies it waits for")


def one_per_language(declared: list[tuple[str, str]], others: list[str], reason: str) -> tuple[tuple[str, str], ...]:
    """The declared reasons first, then `reason` for each language in `others` that has none yet."""
    out = dict(declared)
    for language in others:
        out.setdefault(language, reason)
    return tuple(out.items())


def browser_run(root: Path, name: str, config: model.Config, files: ExampleFiles | None = None) -> BrowserRun | None:
    """What "Run it here" offers for example NAME, or None when it has neither a button nor a reason to show."""
    from ..builds import wasm

    impl_dir = root / "examples" / (config.implementations_from or name)
    impls = [i for i in model.implementations_in(impl_dir)
             if config.implementations is None or i.name in config.implementations]
    if config.sends:  # run/paced.py's pacing and recorded order are the runner's alone
        transcript = config.transcript_of(root, name)
        declared = [(LANGUAGES[model.ImplementationKind(k)], reason) for k, reason in config.not_in_browser]
        languages = [LANGUAGES[i.name] for i in impls] or ["Rust", "Python"]
        return BrowserRun(name, transcript, root / "examples" / name / model.ANSWER_KEY,
                          why_not=one_per_language(declared, languages, PACED))

    declared = dict(config.not_in_browser)
    why_not = [(LANGUAGES[model.ImplementationKind(k)], reason) for k, reason in config.not_in_browser]
    python = next((i.entry for i in impls if i.name == model.ImplementationKind.PYTHON), None)
    if python is not None and "python" in declared:
        python = None
    elif python is not None and not stdlib_only(python, files):
        why_not.append(("Python", f"{python.name} imports packages from outside the standard library, and the "
                                  f"browser runs it with the standard library only"))
        python = None
    rust = next(iter(wasm.rust_for_browser(impls, config.not_in_browser)), None)
    if not wasm.site_runs_rust(root):
        rust = None
    transcript = config.transcript_of(root, name)
    run = BrowserRun(name, transcript, root / "examples" / name / model.ANSWER_KEY, python, rust, tuple(why_not))
    return run if run.runnable or run.why_not else None


def browser_runs(root: Path) -> list[BrowserRun]:
    """Every example with a button (a language the browser runs); those with only reasons are left out."""
    examples, _errors = model.discover(root)
    runs = (browser_run(root, e.name, e.config) for e in examples)
    return [r for r in runs if r is not None and r.runnable]
