"""The gate trusts nothing it ran: every input is hashed before anything runs and checked again before the verdict.

The sandbox keeps examples away from the repository; this is the second line, and the only one with --unsandboxed.
An input that changed while the run was going on (a source, a transcript, an answer key, an example.toml, Cargo.lock
or a page) is a failure of its own, named as such, and nothing is written.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import ExampleError
from .fsutil import sha256_bytes

# Folders that are outputs, not inputs: a cargo project's own target/, and temporary files of atomic writes.
SKIP_PARTS = {"target", "__pycache__"}


def inputs(root: Path) -> list[Path]:
    """Every file the verdict depends on: everything under examples/, every page (*.md) under docs/, and mkdocs.yml.

    Only the pages of docs/: the tool reads nothing else there, and docs/assets/run/ holds megabytes that
    tools/site_assets.py copies in for a site build, whose hashing cost every run time and whose rewriting by a
    concurrent `make site` would have failed a check that had nothing to do with it."""
    return [root / rel for rel in _input_names(root)]


def _input_names(root: Path) -> list[str]:
    """inputs(), relative to root, in the same order: each file or symlink under examples/ and docs/ (symlinked
    folders are listed, not entered; a folder that cannot be read is passed over) outside SKIP_PARTS folders, but
    not a temporary file of an atomic write (.NAME.tmp); and mkdocs.yml. One os.scandir per folder, no stat of a
    plain file: this runs twice a run, and pathlib's rglob took most of the time."""
    found = ["mkdocs.yml"] if os.path.isfile(root / "mkdocs.yml") else []
    for top, suffix in (("examples", ""), ("docs", ".md")):
        if os.path.isdir(root / top):
            _walk(str(root), top, found, suffix)
    # Path order (part by part), as sorted() over Paths gave: "a/b" before "a-c/d".
    return sorted(found, key=lambda rel: rel.split("/"))


def _walk(root: str, rel: str, found: list[str], suffix: str) -> None:
    try:
        with os.scandir(os.path.join(root, rel)) as listing:
            entries = list(listing)
    except PermissionError:
        return
    for entry in entries:
        name = entry.name
        if name in SKIP_PARTS:
            continue  # nothing below it is an input either
        child = f"{rel}/{name}"
        if entry.is_dir(follow_symlinks=False):
            _walk(root, child, found, suffix)
        elif name.endswith(suffix) and not (name.startswith(".") and name.endswith(".tmp")) \
                and (entry.is_symlink() or entry.is_file()):
            found.append(child)


def _digest(path: Path | str) -> str:
    return _digest_of(path)[0]


def _digest_of(path: Path | str) -> tuple[str, bytes | None]:
    """The file's sha256 (a symlink: its target, as written), and the bytes that were hashed."""
    try:
        if os.path.islink(path):
            return "link:" + str(Path(os.readlink(path))), None
        with open(path, "rb") as handle:
            data = handle.read()
        return sha256_bytes(data), data
    except OSError:
        return "unreadable", None


def _kept(rel: str) -> bool:
    return (rel.startswith("docs/") and rel.endswith(".md")) or rel.endswith("/Cargo.lock")


class Snapshot:
    """What the inputs were when the run began."""

    def __init__(self, root: Path):
        self.root = root
        self.hashes: dict[str, str] = {}
        # Some inputs kept whole (small): the pages, since what this run would make of them is computed from
        # these and never from a page as it is after the run; and the Cargo.lock files, which `cargo fetch` may
        # rewrite, so that a failing example gets its own back. Kept as they were hashed: one read each.
        self.kept: dict[str, bytes] = {}
        for rel in _input_names(root):
            self.hashes[rel], data = _digest_of(root / rel)
            if _kept(rel):
                try:
                    self.kept[rel] = data if data is not None else (root / rel).read_bytes()  # a symlink's target
                except OSError:
                    pass

    def changes(self, own: dict[str, bytes | None] | None = None) -> list[str]:
        """Inputs that differ now (changed, appeared or vanished). `own` names files this run writes itself (without
        --check only): one that now holds exactly what this run is about to write is not a change (another run
        wrote the same bytes first); None accepts any content (Cargo.lock, which `cargo fetch` may rewrite)."""
        own = own or {}
        now = {rel: self.root / rel for rel in _input_names(self.root)}

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

    def moved_locks(self) -> set[str]:
        """The Cargo.lock files that differ from the snapshot now: the inputs a run without --check may change."""
        moved = set()
        for rel, before in self.kept.items():
            if rel.endswith("/Cargo.lock"):
                try:
                    if (self.root / rel).read_bytes() != before:
                        moved.add(rel)
                except OSError:
                    moved.add(rel)
        return moved


class TamperedError(ExampleError):
    def __init__(self, changed: list[str]):
        shown = ", ".join(changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10 else "")
        super().__init__(f"changed during the run: {shown}. Something the run started (an example, a build "
                         f"script) or another process wrote it; the verdict cannot be trusted and nothing was "
                         f"written. Restore the file(s) (git checkout -- FILE, or git status to see them) and run "
                         f"again.", file=changed[0])
        self.changed = changed
