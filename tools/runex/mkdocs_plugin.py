"""The MkDocs plugin `runex` (pyproject.toml's mkdocs.plugins entry point, named in mkdocs.yml's plugins).

On every build it tells the conversation views (paste/markdown_ext.py) which checkout to read: the folder of the
mkdocs.yml being built, not the one this package was installed from. Everything else is a convenience of
`mkdocs serve`: when a watched file changes, the tool runs again in this process and pastes the pages; the pages
whose conversation views read a changed file are marked, so that `--dirty` renders them again; make serve's watcher
(tools/serve_site.py) learns which events the tool's own writes caused; Jinja's compiled templates are kept.

Every check lives in tools/run_examples.py and the tests, never here: `mkdocs build` runs none of the serve part,
and Zensical, which reads the same mkdocs.yml, leaves out plugins it does not know, so nothing published depends
on it. The rules it applies (which files the tool writes, its temporary files, conversation markers, borrowed
folders, the hash of its source) are the tool's own, imported when they are used: after an edit to the tool,
the version just imported.
"""

from __future__ import annotations

import importlib
import logging
import os
import pkgutil
import sys
import threading
import time
import traceback
from pathlib import Path

import jinja2
from mkdocs.plugins import BasePlugin

log = logging.getLogger("mkdocs.plugins.runex")
EXTENSION = "runex.paste.markdown_ext"  # mkdocs.yml's markdown extension that renders the conversation views
# Where tools/serve_site.py's watcher finds the filter for its events: this attribute of the server's observer.
OWN_WRITES = "runex_own_writes"
TOOL_FAILED = 70  # the exit code the command line gives when the tool itself raised


class RunexPlugin(BasePlugin):
    """One instance for a whole `mkdocs serve` (MkDocs keeps a plugin that has on_startup across rebuilds)."""

    def __init__(self):
        super().__init__()
        self.serving = False
        self.builds = 0
        self.loaded_source: str | None = None  # the hash of the tool's source the imported modules were made from
        self.own_writes = OwnWrites()
        self.views = Views()
        self.templates = CompiledTemplates()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"

    def on_config(self, config):
        if EXTENSION in config.markdown_extensions:
            config.mdx_configs.setdefault(EXTENSION, {})["root"] = str(root_of(config))
        return config

    def on_serve(self, server, *, config, builder):
        setattr(server.observer, OWN_WRITES, self.own_writes)
        return server

    def on_pre_build(self, *, config) -> None:
        self.builds += 1
        if not self.serving:
            return
        root = root_of(config)
        if self.builds == 1:
            # `make serve` has just run the tool; run it again only for rebuilds that a file change started. Import
            # all of it now, so that the first edit does not wait for the modules only a real run imports.
            self._import_the_whole_tool()
            self.views.pages_to_touch(root, self.loaded_source or "")  # what the first build renders
            return
        # In this process, not a subprocess: a new interpreter and the tool's imports were a seventh of the time
        # from saving an example to seeing it (benchmarks/serve_latency.py). Only the examples whose inputs changed
        # run (the others' verdicts are cached) and only the pages that show them are pasted again.
        started = time.monotonic()
        self.own_writes.tool_started()
        try:
            code, summary, output = self.run_tool(root)
            self._touch_changed_views(root)  # before tool_done: a touched page's bytes are the build's
        finally:
            self.own_writes.tool_done(root)
        if code == 0:
            log.info("run_examples: %s (the plugin waited %.1f s)", summary, time.monotonic() - started)
        else:  # keep serving the last good pages; the author reads why here, and --check will fail the same way
            log.info("run_examples failed (exit %s); the pages still show the last verified output:\n%s",
                     code, output.strip())

    def on_env(self, env, *, config, files):
        if self.serving:
            env.bytecode_cache = self.templates
        return env

    def run_tool(self, root: Path) -> tuple[int, str, str]:
        """The pipeline (runex.pipeline.run) on `root`, in this process, as `run_examples.py` with no arguments runs
        it: (the exit code the command line would give, the summary line, the whole report as text)."""
        try:
            cli = self._tool()
            report = cli.pipeline.run(root, cli.pipeline.Options())
        except Exception as exc:  # a bug in the tool (or an edit to it that does not import) must not stop serving
            errors = sys.modules.get("runex.errors")
            if errors is not None and isinstance(exc, errors.ToolError):  # no sandbox, no schema package: the
                return exc.exit_code, str(exc), f"run_examples: {exc}"  # author's to fix, in the tool's words
            return TOOL_FAILED, "the tool raised an exception", traceback.format_exc()
        text = importlib.import_module("runex.report.text")
        return cli.exit_code(report), text.summary(report), text.render(report)

    def _tool(self):
        """runex.cli (runex.pipeline is cli.pipeline), imported again whenever the tool's source changed since it
        was imported: an edit to tools/runex/ while serving takes effect on the next rebuild. The modules this
        process holds when first asked (a test's, which it may monkeypatch) are kept."""
        source = importlib.import_module("runex.cache.results").tool_source_digest()
        if self.loaded_source is None:
            self.loaded_source = source
        elif self.loaded_source != source:
            for name in [name for name in sys.modules if name == "runex" or name.startswith("runex.")]:
                del sys.modules[name]
            importlib.invalidate_caches()
            self.loaded_source = source
        return importlib.import_module("runex.cli")

    def _import_the_whole_tool(self) -> None:
        try:
            package = self._tool().__name__.rpartition(".")[0]
            left_out = {f"{package}.__main__", __name__}  # the command line's entry, and this module
            for module in pkgutil.walk_packages(sys.modules[package].__path__, prefix=f"{package}."):
                if module.name not in left_out:
                    importlib.import_module(module.name)
        except Exception:  # the first edit imports what is missing, and reports it if it fails
            pass

    def _touch_changed_views(self, root: Path) -> None:
        now = time.time()
        for page in self.views.pages_to_touch(root, self.loaded_source or ""):
            try:
                os.utime(page, (now, now))
            except OSError:
                pass


def root_of(config) -> Path:
    """The checkout being built: the folder of its mkdocs.yml (mkdocs.serve.yml sits beside it); the one this package
    was installed from when the configuration came from no file."""
    if not config.config_file_path:
        from .environment import default_root

        return default_root()
    return Path(config.config_file_path).resolve().parent


def _sha256(path: str) -> str | None:
    from .fsutil import sha256_file

    try:
        return sha256_file(path)
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

    def tool_done(self, root: Path) -> None:
        from .pipeline import files_a_run_may_write

        read = {os.path.realpath(p): _sha256(str(p)) for p in files_a_run_may_write(root)}
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
        from .fsutil import LEFTOVER

        if event.is_directory:
            return False  # mkdocs ignores these itself
        paths = [event.src_path] + ([event.dest_path] if getattr(event, "dest_path", "") else [])
        for path in map(os.fsdecode, paths):
            real = os.path.realpath(path)
            if LEFTOVER.match(os.path.basename(path)) or "__pycache__" in Path(real).parts:
                continue
            if real not in read or read[real] is None or _sha256(real) != read[real]:
                return False
        return True


class Views:
    """Which pages show a conversation whose inputs changed since the last build: the view is rendered when the
    page is built (paste/markdown_ext.py), and `serve --dirty` builds only pages whose file changed, so an answer
    key the tool rewrote would not reach its page. Such a page's mtime is moved to now (its bytes stay)."""

    def __init__(self):
        self.stamps: dict[Path, tuple] = {}

    def pages_to_touch(self, root: Path, tool_source: str) -> list[Path]:
        """The pages whose views read a file that changed since the last call (or the tool's source: an edit to
        the view's code renders every view again)."""
        stamps = {page: (tool_source, _stamp(root, names)) for page, names in _conversations(root).items()}
        changed = [page for page, stamp in stamps.items() if page in self.stamps and self.stamps[page] != stamp]
        self.stamps = stamps
        return changed


def _conversations(root: Path) -> dict[Path, set[str]]:
    """Each page that shows a conversation, and the examples whose conversations it shows (the tool's parser:
    a marker inside a fenced code block is text)."""
    from .errors import PageError
    from .paste import markers, pages

    found = {}
    for page in (root / "docs").rglob("*.md"):
        try:
            text = page.read_text(encoding="utf-8")
            if "/conversation" in text:
                blocks = [s for s in markers.parse(text, str(page)) if isinstance(s, markers.Block)]
                names = {b.path.split("/")[0] for b in blocks if pages.is_conversation(b.target)}
                if names:
                    found[page] = names
        except (OSError, UnicodeDecodeError, PageError):
            continue  # the tool's run says what is wrong with it
    return found


def _stamp(root: Path, names: set[str]) -> tuple:
    """Every file of the named examples and of the ones they borrow from: its size and mtime."""
    from .errors import ConfigError
    from .examples import model

    folders = set(names)
    for name in names:
        config = root / "examples" / name / model.CONFIG
        try:
            folders.update(model.load_config(config, str(config.relative_to(root))).borrowed)
        except (OSError, ConfigError):
            pass
    seen = []
    for name in sorted(folders):
        for path in sorted((root / "examples" / name).glob("**/*")):
            if path.is_file() and "target" not in path.parts:
                info = path.stat()
                seen.append((str(path), info.st_size, info.st_mtime_ns))
    return tuple(seen)


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
