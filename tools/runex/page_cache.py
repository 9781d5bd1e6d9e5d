"""Pages known to be up to date: a page that pasted to itself is not pasted again while nothing it reads changed.

Pasting reads the page and files under examples/ and nothing else, through the tool's own code on this interpreter
(`sys.stdlib_module_names` decides which examples get "Run it here"). So a page's key is a sha256 over: FORMAT, the
tool's source, sys.version, the page's path and bytes, and every file under examples/ as the run's integrity
snapshot hashed it, with the answer keys and stderr lanes this run verified in place of the files. A page edited by
hand has other bytes, so another key: it is pasted and its drift reported, as without this cache.

Only an up-to-date page is recorded (its paste changed nothing). It is read and written only in a run whose inputs
cannot move under it: a --check (the integrity check fails the run if anything changed) or a run in which no example
ran (every verdict cached). Like the verdicts, CI, --fresh, --repeat and -v never read it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import markers, pages
from .errors import PageError
from .fsutil import write_atomic
from .results_cache import digest

FORMAT = 1


class PageCache:
    def __init__(self, root: Path, tool_source: str, hashes: dict[str, str], overrides: dict[Path, bytes], *,
                 use: bool):
        self.root = root
        self.use = use
        self.dir = root / ".cache" / "run_examples" / "pages"
        self.hashes = hashes
        self.hits: set[str] = set()
        if not use:
            return
        examples = {rel: value for rel, value in hashes.items() if rel.startswith("examples/")}
        for path, data in overrides.items():
            try:
                examples[str(path.relative_to(root.resolve()))] = digest(data)
            except ValueError:
                continue
        self._shared = digest(json.dumps([FORMAT, tool_source, sys.version, sorted(examples.items())]).encode())

    def _key(self, rel: str) -> str | None:
        page = self.hashes.get(rel)
        return None if page is None else digest(json.dumps([self._shared, rel, page]).encode())

    def lookup(self, path: Path) -> pages.PageResult | None:
        """The page as an up-to-date result (nothing to paste), or None: paste it."""
        if not self.use:
            return None
        rel = str(path.relative_to(self.root))
        key = self._key(rel)
        if key is None:
            return None
        try:
            entry = json.loads((self.dir / f"{key}.json").read_text(encoding="utf-8"))
            data = path.read_bytes()
            if entry["format"] != FORMAT or entry["key"] != key or entry["page"] != rel \
                    or entry["sha256"] != digest(data) or digest(data) != self.hashes[rel]:
                return None
            text = data.decode("utf-8")
            blocks = [s for s in markers.parse(text, rel) if isinstance(s, markers.Block)]
        except (OSError, ValueError, TypeError, KeyError, AttributeError, PageError):
            return None  # absent, damaged, or a page the parser refuses: paste it, and let that say why
        self.hits.add(rel)
        return pages.PageResult(path, rel, text, text, blocks, [])

    def store(self, results: list[pages.PageResult]) -> None:
        """Record the pages that pasted to themselves (the results as pasted, before any were kept back)."""
        if not self.use:
            return
        for result in results:
            if result.rel in self.hits or result.new != result.old:
                continue
            key = self._key(result.rel)
            if key is None or digest(result.old.encode("utf-8")) != self.hashes[result.rel]:
                continue
            entry = {"format": FORMAT, "key": key, "page": result.rel, "sha256": self.hashes[result.rel]}
            try:
                self.dir.mkdir(parents=True, exist_ok=True)
                write_atomic(self.dir / f"{key}.json", json.dumps(entry).encode("utf-8"))
            except OSError:
                return  # not recorded: the next run pastes it, nothing else
