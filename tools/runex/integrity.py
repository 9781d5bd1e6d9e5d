"""The gate trusts nothing it ran: every input is hashed before anything runs and checked again before the verdict.

The sandbox keeps examples away from the repository; this is the second line, and the only one with --unsandboxed.
An input that changed while the run was going on (a source, a transcript, an answer key, an example.toml, Cargo.lock
or a page) is a failure of its own, named as such, and nothing is written.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .errors import ExampleError

# Folders that are outputs, not inputs: a cargo project's own target/, and temporary files of atomic writes.
SKIP_PARTS = {"target", "__pycache__"}


def inputs(root: Path) -> list[Path]:
    """Every file the verdict depends on: everything under examples/, every page under docs/, and mkdocs.yml."""
    found = [root / "mkdocs.yml"] if (root / "mkdocs.yml").is_file() else []
    for top in ("examples", "docs"):
        base = root / top
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            rel = path.relative_to(base)
            if SKIP_PARTS & set(rel.parts) or (path.name.startswith(".") and path.name.endswith(".tmp")):
                continue
            if path.is_file() or path.is_symlink():
                found.append(path)
    return sorted(found)


def _digest(path: Path) -> str:
    try:
        if path.is_symlink():
            return "link:" + str(path.readlink())
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


class Snapshot:
    """What the inputs were when the run began."""

    def __init__(self, root: Path):
        self.root = root
        self.hashes = {str(p.relative_to(root)): _digest(p) for p in inputs(root)}
        # Some inputs kept whole (small): the pages, since what this run would make of them is computed from
        # these and never from a page as it is after the run; and the Cargo.lock files, which `cargo fetch` may
        # rewrite, so that a failing example gets its own back.
        self.kept = {}
        for rel in self.hashes:
            if (rel.startswith("docs/") and rel.endswith(".md")) or rel.endswith("/Cargo.lock"):
                try:
                    self.kept[rel] = (root / rel).read_bytes()
                except OSError:
                    pass

    def changes(self, own: dict[str, bytes | None] | None = None) -> list[str]:
        """Inputs that differ now (changed, appeared or vanished). `own` names files this run writes itself (without
        --check only): one that now holds exactly what this run is about to write is not a change (another run
        wrote the same bytes first); None accepts any content (Cargo.lock, which `cargo fetch` may rewrite)."""
        own = own or {}
        now = {str(p.relative_to(self.root)): p for p in inputs(self.root)}

        def accepted(rel: str) -> bool:
            if rel not in own:
                return False
            if own[rel] is None:
                return True
            try:
                return now[rel].read_bytes() == own[rel] if rel in now else False
            except OSError:
                return False

        changed = [rel for rel, digest in self.hashes.items()
                   if (rel not in now or _digest(now[rel]) != digest) and not accepted(rel)]
        changed += [rel for rel in now if rel not in self.hashes and not accepted(rel)]
        return sorted(changed)

    def verify_unchanged(self, own: dict[str, bytes | None] | None = None) -> None:
        changed = self.changes(own)
        if changed:
            raise TamperedError(changed)


class TamperedError(ExampleError):
    def __init__(self, changed: list[str]):
        shown = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
        super().__init__(f"changed during the run: {shown}. Something the run started (an example, a build "
                         f"script) or another process wrote it; the verdict cannot be trusted and nothing was "
                         f"written. Restore the file(s) (git checkout -- FILE, or git status to see them) and run "
                         f"again.", file=changed[0])
        self.changed = changed
