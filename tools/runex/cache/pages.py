"""Pages known to be up to date: a page that pasted to itself is not pasted again while nothing it reads changed.

Pasting a page reads the page and, under examples/, only what its markers name: for a marker `NAME/...`, files in
examples/NAME/ (its example.toml, transcript, answer key, stderr.txt, sources), and the folders that example.toml
borrows from (transcript_from, implementations_from); for a marker naming a file directly under examples/ (the
workspace Cargo.toml), that file. Everything else it depends on is the tool's own code on this interpreter
(`sys.stdlib_module_names` decides which examples get "Run it here").

An entry works like a compiler's depfile. It is found by the page's exact bytes (with FORMAT, the tool's source and
sys.version), and records the page's inputs: the top-level names under examples/ it read, and one digest over every
file under them as the run's integrity snapshot hashed it, with the answer keys and stderr lanes this run verified in
place of the files. The set of names is itself decided by the page's bytes and by the example.toml files inside
those names, so a change that would make the page read something else changes a recorded digest first. A page
edited by hand has other bytes, so no entry: it is pasted and its drift reported, as without this cache. One edited
example re-pastes only the pages that show it.

Only an up-to-date page is recorded (its paste changed nothing), and only when nothing it read moved during the run:
the integrity check fails a run in which any input changed, except a Cargo.lock that cargo may rewrite in a run
without --check; a page that reads a Cargo.lock that moved is not recorded. Like the verdicts, CI, --fresh, --repeat
and -v never read or write it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path, PurePosixPath

from ..errors import ConfigError, PageError
from ..examples import model
from ..fsutil import write_atomic
from ..paste import markers, pages
from .. import cache_gc
from .results import digest

FORMAT = 3


class PageCache:
    def __init__(self, root: Path, tool_source: str, hashes: dict[str, str], overrides: dict[Path, bytes], *,
                 use: bool):
        self.root = root
        self.use = use
        self.dir = root / ".cache" / "run_examples" / "pages"
        self.hashes = hashes
        self.hits: set[str] = set()
        self._context = digest(json.dumps([FORMAT, tool_source, sys.version]).encode())
        # What pasting reads under examples/: the snapshot's digests, with the files this run is about to write.
        self._inputs = {rel: value for rel, value in hashes.items() if rel.startswith("examples/")}
        resolved = root.resolve()
        for path, data in overrides.items():
            try:
                self._inputs[str(path.relative_to(resolved))] = digest(data)
            except ValueError:
                continue

    def _entry_path(self, rel: str, page: str) -> Path:
        return self.dir / f"{digest(json.dumps([self._context, rel, page]).encode())}.json"

    def inputs_digest(self, names: list[str]) -> str:
        """One digest over every file under examples/NAME (or the file examples/NAME) for each name."""
        prefixes = tuple(f"examples/{name}/" for name in names)
        exact = {f"examples/{name}" for name in names}
        read = sorted((rel, value) for rel, value in self._inputs.items() if rel in exact or rel.startswith(prefixes))
        return digest(json.dumps([names, read]).encode())

    def lookup(self, path: Path) -> pages.PageResult | None:
        """The page as an up-to-date result (nothing to paste), or None: paste it."""
        if not self.use:
            return None
        rel = str(path.relative_to(self.root))
        if rel not in self.hashes:
            return None
        entry_path = self._entry_path(rel, self.hashes[rel])
        try:
            entry = json.loads(entry_path.read_text(encoding="utf-8"))
            names = entry["names"]
            if entry["format"] != FORMAT or entry["page"] != rel or entry["sha256"] != self.hashes[rel] \
                    or not isinstance(names, list) or entry["inputs"] != self.inputs_digest(names):
                return None
            data = path.read_bytes()
            if digest(data) != self.hashes[rel]:
                return None
            text = data.decode("utf-8")
            pasted = frozenset(entry["pasted"])
            if not all(isinstance(name, str) for name in pasted):
                return None
        except (OSError, ValueError, TypeError, KeyError, AttributeError, PageError):
            return None  # absent, damaged, or a page the parser refuses: paste it, and let that say why
        self.hits.add(rel)
        cache_gc.mark_used(entry_path)
        # Its blocks are parsed only if someone asks (a failed example's blocks are kept back): an up-to-date page
        # is read, not parsed again; what it pastes was recorded with it.
        return pages.PageResult(path, rel, text, text, None, [], known_examples=pasted)

    def store(self, as_pasted: list[pages.PageResult], written: list[pages.PageResult],
              moved: set[str] = frozenset()) -> None:
        """Record the pages that pasted to themselves (`as_pasted`: the results before any blocks were kept back),
        and the pages this run wrote (`written`, pasted whole: their new bytes paste to themselves). `moved`: inputs
        that changed during the run (a Cargo.lock cargo rewrote); a page that read one is not recorded."""
        if not self.use:
            return
        pasted = {result.rel: result for result in as_pasted}
        chosen = [(r, r.old) for r in as_pasted if r.rel not in self.hits and r.new == r.old
                  and digest(r.old.encode("utf-8")) == self.hashes.get(r.rel)]
        chosen += [(r, r.new) for r in written if r.rel in pasted and pasted[r.rel].new == r.new]
        for result, text in chosen:
            names = self.names_read(result.blocks)
            if names is None or any(rel == f"examples/{n}" or rel.startswith(f"examples/{n}/")
                                    for rel in moved for n in names):
                continue
            page = digest(text.encode("utf-8"))
            entry = {"format": FORMAT, "page": result.rel, "sha256": page, "names": names,
                     "inputs": self.inputs_digest(names), "pasted": sorted(result.examples)}
            try:
                self.dir.mkdir(parents=True, exist_ok=True)
                write_atomic(self._entry_path(result.rel, page), json.dumps(entry).encode("utf-8"))
            except OSError:
                return  # not recorded: the next run pastes it, nothing else

    def names_read(self, blocks: list[markers.Block]) -> list[str] | None:
        """The top-level names under examples/ that pasting these blocks reads (pages.paste_page), or None when an
        example.toml cannot be read (then the page is not recorded)."""
        names: set[str] = set()
        for block in blocks:
            parts = PurePosixPath(block.path).parts
            if parts:
                names.add(parts[0])
        for name in sorted(names):
            config_file = self.root / "examples" / name / model.CONFIG
            if not config_file.is_file():
                continue
            try:
                config = model.load_config(config_file, f"examples/{name}/{model.CONFIG}")
            except ConfigError:
                return None
            names.update(config.borrowed)
        return sorted(names)
