"""Keep .cache/run_examples/ from growing without end: what no run has used for MAX_AGE_DAYS is removed.

Every edit of a Rust example leaves a binary of a few megabytes in builds/, and every verified state a verdict and
page entries; `make serve` makes many a day. A hit marks its entry used (its mtime is set to now), so an entry's
age is the time since a run last needed it, and an entry in use by a run at the same time is never that old. A run
prunes at most once every PRUNE_EVERY_HOURS (a stamp file says when), after its verdict, and a failure to prune never
fails the run. cargo's own target folder (.cache/cargo-target/) is cargo's to manage: `cargo clean`, or `make clean`
for all of .cache/.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

MAX_AGE_DAYS = 30
PRUNE_EVERY_HOURS = 24
FOLDERS = ("builds", "verdicts", "pages")  # the entries of builds/native.py, cache/results.py and cache/pages.py
STAMP = "last-prune"


def mark_used(path: Path) -> None:
    """A cache hit: the entry (a file, or a build's folder) counts as used now."""
    try:
        os.utime(path)
    except OSError:
        pass  # read-only cache or a race with a removal: the entry is just older than it should be


def prune(cache_dir: Path, now: float | None = None) -> int:
    """Remove the entries unused for MAX_AGE_DAYS under cache_dir (.cache/run_examples), unless that was done less
    than PRUNE_EVERY_HOURS ago. Returns how many were removed."""
    now = time.time() if now is None else now
    stamp = cache_dir / STAMP
    try:
        if now - stamp.stat().st_mtime < PRUNE_EVERY_HOURS * 3600:
            return 0
    except OSError:
        pass  # never pruned here
    if not cache_dir.is_dir():
        return 0
    oldest = now - MAX_AGE_DAYS * 86400
    removed = 0
    for folder in FOLDERS:
        try:
            entries = list(os.scandir(cache_dir / folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_mtime >= oldest:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
                removed += 1
            except OSError:
                continue  # gone already (another run pruned it), or not ours to remove: leave it
    try:
        stamp.touch()
        os.utime(stamp, (now, now))
    except OSError:
        pass
    return removed
