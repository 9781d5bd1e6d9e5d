#!/usr/bin/env python3
"""The warm `--check` of this checkout against another one (an earlier commit), side by side, alternating runs.

    git archive COMMIT | tar -x -C /tmp/before        # a copy of the earlier commit (no stash, no second worktree)
    python benchmarks/side_by_side.py /tmp/before --runs 40

Both run on this interpreter, each in its own folder with its own caches, warmed first (one run each), then in
turns (before, after, after, before, ...) so that the machine's load falls on both alike. Every timed run must be a
warm one: exit 0 and every example "verified, cached". It prints the median and the minimum of the wall time and of
the CPU time (user + system of the tool and what it starts), and the ratios after / before. On a shared machine the
CPU time is the steadier of the two.
"""

from __future__ import annotations

import argparse
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def timed_check(root: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "tools/run_examples.py", "--check"], cwd=root, capture_output=True,
                          text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""
    found = re.search(r"(\d+) examples?: (\d+) verified \((\d+) cached\)", summary)
    if done.returncode != 0 or not found or found.group(1) != found.group(3):
        raise SystemExit(f"{root}: not a warm --check (exit {done.returncode}): {summary or done.stderr[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path, help="a checkout of the earlier commit")
    parser.add_argument("--runs", type=int, default=30, help="timed runs of each (default 30)")
    args = parser.parse_args()
    roots = {"before": args.before.resolve(), "after": HERE}
    for root in roots.values():  # fill the caches, then one warm run each
        subprocess.run([sys.executable, "tools/run_examples.py", "--check"], cwd=root, capture_output=True)
        timed_check(root)
    wall: dict[str, list[float]] = {name: [] for name in roots}
    cpu: dict[str, list[float]] = {name: [] for name in roots}
    for turn in range(args.runs):
        for name in (roots if turn % 2 == 0 else reversed(list(roots))):
            w, c = timed_check(roots[name])
            wall[name].append(w)
            cpu[name].append(c)
    for name in roots:
        print(f"{name:6} {roots[name]}: wall median {statistics.median(wall[name]) * 1000:.0f} ms "
              f"(min {min(wall[name]) * 1000:.0f}), CPU median {statistics.median(cpu[name]) * 1000:.0f} ms "
              f"(min {min(cpu[name]) * 1000:.0f}), {args.runs} runs")
    print(f"after / before: wall {statistics.median(wall['after']) / statistics.median(wall['before']):.3f}, "
          f"CPU {statistics.median(cpu['after']) / statistics.median(cpu['before']):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
