"""A convenience for `mkdocs serve` only: when a watched file changes, re-run the examples and re-paste the pages.

Every check lives in tools/run_examples.py and the tests, never here: Zensical (Material's successor) reads the
same mkdocs.yml and ignores hooks, and `mkdocs build` skips this hook, so nothing published depends on it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import logging
import sys
import time
import traceback
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
log = logging.getLogger("mkdocs.hooks.run_examples")
_state = {"serving": False, "builds": 0, "loaded": None}


def on_startup(command: str, dirty: bool) -> None:
    _state["serving"] = command == "serve"


def on_pre_build(config) -> None:
    _state["builds"] += 1
    if not _state["serving"] or _state["builds"] == 1:
        return  # `make serve` has just run the tool; re-run it only for rebuilds that a file change started
    # In this process, not a subprocess: a new interpreter and the tool's imports were a seventh of the time from
    # saving an example to seeing it (benchmarks/serve_latency.py). Only the examples whose inputs changed run (the
    # others' verdicts are cached) and only the pages that show them are pasted again.
    started = time.monotonic()
    code, output = run_tool([])
    summary = (output.strip().splitlines() or ["(no output)"])[-1]
    summary += f" (the hook waited {time.monotonic() - started:.1f} s)"
    if code == 0:
        log.info("run_examples: %s", summary)
    else:  # keep serving the last good pages; the author reads why here, and --check will fail the same way
        log.info("run_examples failed (exit %s); the pages still show the last verified output:\n%s",
                 code, output.strip())


class _TemplatesInMemory:
    """A Jinja bytecode cache that lives as long as `mkdocs serve`: each rebuild makes a new Jinja environment and
    compiled Material's templates again, a fifth of a rebuild here. Jinja compares each template's source checksum
    with the cached one, so an edited template (an override) is compiled again."""

    def __init__(self):
        import jinja2

        class Cache(jinja2.BytecodeCache):
            def __init__(self):
                self.compiled: dict[str, bytes] = {}

            def load_bytecode(self, bucket) -> None:
                if bucket.key in self.compiled:
                    bucket.bytecode_from_string(self.compiled[bucket.key])

            def dump_bytecode(self, bucket) -> None:
                self.compiled[bucket.key] = bucket.bytecode_to_string()

        self.cache = Cache()


def on_env(env, config, files):
    if _state["serving"]:
        if "templates" not in _state:
            _state["templates"] = _TemplatesInMemory().cache
        env.bytecode_cache = _state["templates"]
    return env


def run_tool(argv: list[str]) -> tuple[int, str]:
    """tools/run_examples.py's main(argv) in this process: (exit code, everything it printed)."""
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            code = _tool().main(argv)
        except Exception:  # a bug in the tool (or an edit to it that does not import) must not stop the server
            traceback.print_exc()
            code = 70
    return code, output.getvalue()


def tool_source_digest() -> str:
    files = sorted(p for p in (TOOLS / "runex").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    files.append(TOOLS / "run_examples.py")
    return hashlib.sha256(b"".join(str(p).encode() + b"\0" + p.read_bytes() + b"\0" for p in files)).hexdigest()


def _tool():
    """runex.cli, imported again whenever the tool's source changed since it was imported: an edit to
    tools/runex/ while serving takes effect on the next rebuild, as it did when the hook ran a subprocess."""
    source = tool_source_digest()
    if str(TOOLS) not in sys.path:
        sys.path.insert(0, str(TOOLS))
    imported = [name for name in sys.modules if name == "runex" or name.startswith("runex.")]
    if _state["loaded"] is None and imported:
        # Some of it was imported by someone else in this process (a test): never replace modules others hold.
        _state["loaded"] = source
    elif _state["loaded"] != source:
        for name in imported:
            del sys.modules[name]
        importlib.invalidate_caches()
        _state["loaded"] = source
    return importlib.import_module("runex.cli")
