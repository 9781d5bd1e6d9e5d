"""The caches under .cache/run_examples/ keep what runs use and lose what no run has needed for a month
(tools/runex/cache_gc.py): every `make serve` edit leaves a build, a verdict and page entries behind."""

from __future__ import annotations

import os
import time
from pathlib import Path

from support.tool_repos import invoke, make_repo, page, py_twin, rust_echo
from runex import cache_gc

LOCAL = {"CI": ""}
MONTH_AND_A_DAY = (cache_gc.MAX_AGE_DAYS + 1) * 86400


def age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def entries(cache: Path) -> dict[str, list[str]]:
    return {folder: sorted(p.name for p in (cache / folder).iterdir()) for folder in cache_gc.FOLDERS
            if (cache / folder).is_dir()}


def test_a_run_removes_what_no_run_used_for_a_month_and_keeps_what_it_used(tmp_path, rustc):
    root = make_repo(tmp_path, {"ex": {"main.rs": rust_echo(), "server.py": py_twin()}},
                     {"p.md": page("ex/main.rs", "ex/transcript.jsonl")})
    assert invoke(root, env=LOCAL).returncode == 0
    assert invoke(root, "--check", env=LOCAL).returncode == 0  # records the pages as up to date
    cache = root / ".cache/run_examples"
    used = entries(cache)
    assert all(used.get(folder) for folder in cache_gc.FOLDERS), used
    # Every entry a month old, and one stale entry of each kind that nothing will look up.
    stale = {"builds": cache / "builds" / ("0" * 64), "verdicts": cache / "verdicts" / ("0" * 64 + ".json"),
             "pages": cache / "pages" / ("0" * 64 + ".json")}
    (stale["builds"]).mkdir()
    (stale["builds"] / "server").write_bytes(b"an old binary")
    stale["verdicts"].write_text("{}")
    stale["pages"].write_text("{}")
    for folder in cache_gc.FOLDERS:
        for path in (cache / folder).iterdir():
            age(path, MONTH_AND_A_DAY)
    (cache / cache_gc.STAMP).unlink(missing_ok=True)

    proc = invoke(root, "--check", env=LOCAL)
    assert proc.returncode == 0 and "cached" in proc.out, proc.out
    assert not any(path.exists() for path in stale.values()), "what no run used for a month is gone"
    assert entries(cache) == used, "what this run used (its build, verdict and pages) was marked used and kept"
    assert invoke(root, "--check", env=LOCAL).returncode == 0


def test_pruning_happens_at_most_once_a_day(tmp_path):
    cache = tmp_path / "run_examples"
    (cache / "verdicts").mkdir(parents=True)
    old = cache / "verdicts" / "old.json"
    now = time.time()
    for _ in range(2):
        old.write_text("{}")
        age(old, MONTH_AND_A_DAY)
        removed = cache_gc.prune(cache, now=now)
        now += 3600
    assert removed == 0 and old.exists(), "an hour after a prune, nothing is pruned"
    assert cache_gc.prune(cache, now=now + 86400) == 1 and not old.exists()


def test_a_young_entry_and_a_build_in_progress_stay(tmp_path):
    cache = tmp_path / "run_examples"
    staging = cache / "builds" / ".abc-123"  # a build's staging folder, being written by a run right now
    staging.mkdir(parents=True)
    young = cache / "pages" / "young.json"
    young.parent.mkdir()
    young.write_text("{}")
    age(young, (cache_gc.MAX_AGE_DAYS - 1) * 86400)
    assert cache_gc.prune(cache) == 0
    assert staging.exists() and young.exists()


def test_a_cache_that_cannot_be_pruned_does_not_fail_anything(tmp_path):
    assert cache_gc.prune(tmp_path / "absent") == 0
    cache_gc.mark_used(tmp_path / "absent" / "entry.json")  # no error: a hit that raced a removal
