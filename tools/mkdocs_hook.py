"""A convenience for `mkdocs serve` only: when a watched file changes, re-run the examples and re-paste the pages, and
mark the pages whose conversation views read a changed file, so that `--dirty` renders them again.

Every check lives in tools/run_examples.py and the tests, never here: Zensical (Material's successor) reads the
same mkdocs.yml and ignores hooks, and `mkdocs build` skips this hook, so nothing published depends on it.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
import re
import sys
import threading
import time
import traceback
from pathlib import Path

import jinja2

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
log = logging.getLogger("mkdocs.hooks.run_examples")
_state = {"serving": False, "builds": 0, "loaded": None}
# write_atomic's temporary files (tools/runex/fsutil.py): ".NAME." + 8 random characters + ".tmp".
ATOMIC_TEMPORARY = re.compile(r"^\..+\.[A-Za-z0-9_]{8}\.tmp$")


def _sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


class OwnWrites:
    """Which file events a rebuild already covers, for the watcher of `make serve` (tools/serve_site.py).

    The tool runs in on_pre_build and writes pages (and answer keys); mkdocs reads every page after that. The
    watcher then reports those writes, and mkdocs would rebuild once more for nothing, while a browser that reloads
    meanwhile waits for it. So at the end of on_pre_build the files the tool may write are hashed; an event for a
    file whose bytes are still those (or for a temporary file of the tool's atomic writes, or bytecode) changes
    nothing this build did not read, and is dropped. Any other event, a page edited after that moment included, is
    passed on. Events that arrive while the tool runs wait until it is done."""

    def __init__(self):
        self._lock = threading.Lock()
        self._running = False
        self._held: list = []
        self._read: dict[str, str | None] = {}

    def tool_started(self) -> None:
        with self._lock:
            self._running = True

    def tool_done(self) -> None:
        examples = ROOT / "examples"  # not rglob there: a contributor's cargo build leaves examples/target/
        candidates = [*(ROOT / "docs").rglob("*.md"), *examples.glob("*/answer_key.jsonl"),
                      *examples.glob("*/stderr.txt"), *examples.glob("Cargo.lock"), *examples.glob("*/Cargo.lock")]
        read = {os.path.realpath(p): _sha256(str(p)) for p in candidates}
        with self._lock:
            self._read, self._running = read, False
            held, self._held = self._held, []
        for forward, event in held:
            self.filter(forward, event)

    def filter(self, forward, event) -> None:
        """Pass `event` on to mkdocs' watcher callback `forward`, unless the build already covers it."""
        with self._lock:
            if self._running:
                self._held.append((forward, event))
                return
            read = self._read
        if not self._covered(event, read):
            forward(event)

    @staticmethod
    def _covered(event, read: dict[str, str | None]) -> bool:
        if event.is_directory:
            return False  # mkdocs ignores these itself
        paths = [event.src_path] + ([event.dest_path] if getattr(event, "dest_path", "") else [])
        for path in map(os.fsdecode, paths):
            real = os.path.realpath(path)
            if ATOMIC_TEMPORARY.match(os.path.basename(path)) or "__pycache__" in Path(real).parts:
                continue
            if real not in read or read[real] is None or _sha256(real) != read[real]:
                return False
        return True


own_writes = OwnWrites()

CONVERSATION_MARKER = re.compile(r"<!--\s*example-begin:\s*([A-Za-z0-9_.-]+)/conversation[#\s]")
BORROWED = re.compile(r'^\s*(?:transcript_from|implementations_from)\s*=\s*"([A-Za-z0-9_.-]+)"', re.M)


class Views:
    """Which pages show a conversation whose inputs changed since the last build: the view is rendered when the
    page is built (tools/runex/paste/markdown_ext.py), and `serve --dirty` builds only pages whose file changed, so
    an answer key the tool rewrote would not reach its page. Such a page's mtime is moved to now (its bytes stay)."""

    def __init__(self):
        self.stamps: dict[Path, tuple] = {}

    def pages_to_touch(self, root: Path) -> list[Path]:
        tool = tool_source_digest()  # an edit to the view's code renders every view again
        stamps = {page: (tool, self._stamp(root, names)) for page, names in self._pages(root).items()}
        changed = [page for page, stamp in stamps.items() if page in self.stamps and self.stamps[page] != stamp]
        self.stamps = stamps
        return changed

    @staticmethod
    def _pages(root: Path) -> dict[Path, set[str]]:
        found = {}
        for page in (root / "docs").rglob("*.md"):
            try:
                names = set(CONVERSATION_MARKER.findall(page.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError):
                continue
            if names:
                found[page] = names
        return found

    @staticmethod
    def _stamp(root: Path, names: set[str]) -> tuple:
        """Every file of the named examples and of the ones they borrow from: its size and mtime."""
        folders = set(names)
        for name in names:
            try:
                folders.update(BORROWED.findall((root / "examples" / name / "example.toml").read_text("utf-8")))
            except (OSError, UnicodeDecodeError):
                pass
        seen = []
        for name in sorted(folders):
            for path in sorted((root / "examples" / name).glob("**/*")):
                if path.is_file() and "target" not in path.parts:
                    info = path.stat()
                    seen.append((str(path), info.st_size, info.st_mtime_ns))
        return tuple(seen)


views = Views()


def touch_changed_views() -> None:
    now = time.time()
    for page in views.pages_to_touch(ROOT):
        try:
            os.utime(page, (now, now))
        except OSError:
            pass


def on_startup(command: str, dirty: bool) -> None:
    _state["serving"] = command == "serve"


def on_pre_build(config) -> None:
    _state["builds"] += 1
    if not _state["serving"]:
        return
    if _state["builds"] == 1:
        # `make serve` has just run the tool; re-run it only for rebuilds that a file change started. Import all of
        # it now, so that the first edit does not wait for the modules only a real run imports.
        _import_the_whole_tool()
        views.pages_to_touch(ROOT)  # what the first build renders
        return
    # In this process, not a subprocess: a new interpreter and the tool's imports were a seventh of the time from
    # saving an example to seeing it (benchmarks/serve_latency.py). Only the examples whose inputs changed run (the
    # others' verdicts are cached) and only the pages that show them are pasted again.
    started = time.monotonic()
    own_writes.tool_started()
    try:
        code, summary, output = run_tool()
        touch_changed_views()  # before tool_done: a touched page's bytes are the build's, so its event is dropped
    finally:
        own_writes.tool_done()
    if code == 0:
        log.info("run_examples: %s (the hook waited %.1f s)", summary, time.monotonic() - started)
    else:  # keep serving the last good pages; the author reads why here, and --check will fail the same way
        log.info("run_examples failed (exit %s); the pages still show the last verified output:\n%s",
                 code, output.strip())


class CompiledTemplates(jinja2.BytecodeCache):
    """Jinja's compiled templates for as long as `mkdocs serve` runs: each rebuild makes a new Jinja environment and
    compiled Material's templates again, a fifth of a rebuild here. Jinja compares each template's source checksum
    with the cached one, so an edited template (an override) is compiled again."""

    def __init__(self):
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def on_env(env, config, files):
    if _state["serving"]:
        env.bytecode_cache = _state.setdefault("templates", CompiledTemplates())
    return env


def _import_the_whole_tool() -> None:
    try:
        import pkgutil

        package = _tool().__name__.rpartition(".")[0]
        for module in pkgutil.walk_packages([str(TOOLS / package)], prefix=f"{package}."):  # and its stages' packages
            importlib.import_module(module.name)
    except Exception:  # the first edit imports what is missing, and reports it if it fails
        pass


def run_tool() -> tuple[int, str, str]:
    """The pipeline (runex.pipeline.run) on this repository, in this process, as `run_examples.py` with no
    arguments runs it: (the exit code the command line would give, the summary line, the whole report as text)."""
    try:
        cli = _tool()
        report = cli.pipeline.run(ROOT, cli.pipeline.Options())
    except Exception as exc:  # a bug in the tool (or an edit to it that does not import) must not stop the server
        errors = sys.modules.get("runex.errors")
        if errors is not None and isinstance(exc, errors.ToolError):  # no sandbox, no schema package: the author's
            return exc.exit_code, str(exc), f"run_examples: {exc}"
        return 70, "the tool raised an exception", traceback.format_exc()
    text = importlib.import_module("runex.report.text")
    return cli.exit_code(report), text.summary(report), text.render(report)


def tool_source_digest() -> str:
    files = sorted(p for p in (TOOLS / "runex").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    files.append(TOOLS / "run_examples.py")
    return hashlib.sha256(b"".join(str(p).encode() + b"\0" + p.read_bytes() + b"\0" for p in files)).hexdigest()


def _tool():
    """runex.cli (runex.pipeline is cli.pipeline), imported again whenever the tool's source changed since it was
    imported: an edit to tools/runex/ while serving takes effect on the next rebuild, as it did when the hook ran a
    subprocess."""
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
