#!/usr/bin/env python3
"""What verification costs as the site grows: the tool against a naive baseline, side by side in one run.

    .venv/bin/python benchmarks/bench.py                 # sizes 10, 50, 200; 3 runs each; writes benchmarks/results/
    .venv/bin/python benchmarks/bench.py --sizes 10,50 --runs 5

For each size N it generates N synthetic examples (half Rust, half Python, each a small real server made from the
tool's own `new` templates, with a transcript and a page pasting it) in a temporary directory and measures:
cold (empty cache) with -j 1 and -j <cores>; warm --check (nothing changed: every verdict cached, nothing runs);
warm --check with the build cache only (cached verdicts removed first: every server runs, nothing compiles); one
example edited, then a regenerating run (it must build and run exactly one); a naive baseline that compiles and
reruns every example in sequence with no cache, as peers do; `mkdocs build` as the pages grow; and what the sandbox
costs (the build-cache-only --check -j 1 with and without --unsandboxed, as a ratio and in milliseconds per server
run). It prints medians and ratios, writes the same as JSON, and profiles the tool's own overhead (everything but
compiling and running servers, every server running) per example.

The tool runs as a contributor runs it: with Python's bytecode cache (tools/runex/__pycache__), whatever
PYTHONDONTWRITEBYTECODE says in this shell. The warm --check is also timed without one (a copy of tools/ that has no
__pycache__, run with PYTHONDONTWRITEBYTECODE=1, so every run compiles the tool's modules from source).

It also times the real site's warm --check in this repository (`--real-runs`, after one run that fills the caches),
with the bytecode cache and without it (the copy, as above).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from runex import cli
from runex.builds import native
from runex.new import scaffold
from runex.examples.model import Implementation

TOOL = ROOT / "tools" / "run_examples.py"
CORES = os.cpu_count() or 1


def contributor_env(**extra: str) -> dict[str, str]:
    """This environment, with Python's bytecode cache on as it is by default: a shell that sets
    PYTHONDONTWRITEBYTECODE (this machine's agents do) would otherwise time the compiling of the tool's source on
    every run whenever tools/runex/__pycache__ does not exist yet."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def tool_without_bytecode(dest: Path) -> Path:
    """A copy of tools/ without any __pycache__, and of the pin files the keys read: run with
    PYTHONDONTWRITEBYTECODE=1 (and --root), every run compiles the tool from source, and its keys are the original's
    (the same files), so the cached verdicts count. Returns the copy's run_examples.py."""
    shutil.copytree(ROOT / "tools", dest / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    for pins in ("requirements.txt", "constraints.txt"):
        shutil.copy(ROOT / pins, dest / pins)
    return dest / "tools" / "run_examples.py"


def generate(root: Path, n: int) -> list[str]:
    """N examples from the `new` templates, and pages that paste every one of them (ten examples a page)."""
    (root / "examples").mkdir(parents=True)
    (root / "docs").mkdir()
    names = []
    for i in range(n):
        lang = "rust" if i % 2 == 0 else "python"
        name = f"ex-{i:03d}-{lang}"
        scaffold.create(root, name, lang)
        names.append(name)
    for page_number, start in enumerate(range(0, n, 10)):
        lines = [f"# Page {page_number}\n\n"]
        for name in names[start:start + 10]:
            entry = "main.rs" if name.endswith("rust") else "server.py"
            for file in (entry, "transcript.jsonl", "answer_key.jsonl"):
                lines.append(f"<!-- example-begin: {name}/{file} -->\n<!-- example-end -->\n\n")
        (root / "docs" / f"page-{page_number:02d}.md").write_text("".join(lines))
    nav = "\n".join(f"  - docs/page-{i:02d}.md".replace("docs/", "") for i in range((n + 9) // 10))
    (root / "mkdocs.yml").write_text(f"site_name: bench\nnav:\n{nav}\n")
    return names


def tool(root: Path, *args: str, entry: Path = TOOL, env: dict[str, str] | None = None) -> float:
    started = time.perf_counter()
    if env is None:
        env = contributor_env(CI="") if "--unsandboxed" in args else contributor_env()  # refused when CI=true
    proc = subprocess.run([sys.executable, str(entry), *args, "--root", str(root)], capture_output=True, text=True,
                          env=env)
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"run_examples {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return seconds


def clear_cache(root: Path) -> None:
    shutil.rmtree(root / ".cache", ignore_errors=True)


def forget_verdicts(root: Path) -> None:
    """Keep the build cache, drop the cached verdicts: the next run runs every server (the warm run before them)."""
    shutil.rmtree(root / ".cache" / "run_examples" / "verdicts", ignore_errors=True)


def builds_only(root: Path, *args: str) -> float:
    forget_verdicts(root)
    return tool(root, *args)


def naive(root: Path, names: list[str]) -> float:
    """What peers do: for every example, compile it (no cache), pipe the whole transcript in, compare stdout."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        for name in names:
            folder = root / "examples" / name
            if (folder / "main.rs").exists():
                binary = Path(scratch) / name
                recipe = native.rustc_recipe(Implementation("rust", folder, folder / "main.rs"))  # the tool's flags
                subprocess.run(recipe + ["-o", str(binary), str(folder / "main.rs")], check=True, capture_output=True)
                command = [str(binary)]
            else:
                command = [sys.executable, str(folder / "server.py")]
            out = subprocess.run(command, input=(folder / "transcript.jsonl").read_bytes(), capture_output=True,
                                 check=True).stdout
            if out != (folder / "answer_key.jsonl").read_bytes():
                raise SystemExit(f"naive baseline: {name} differs from its answer key")
    return time.perf_counter() - started


def mkdocs_build(root: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(root / "site")], cwd=root, check=True,
                   capture_output=True, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    return time.perf_counter() - started


def edited_check(root: Path, name: str, round_number: int) -> tuple[float, int, int]:
    """Edit one Rust example's source (a comment), regenerate, and count how many binaries were compiled and how
    many examples ran (did not take a cached verdict)."""
    source = root / "examples" / name / "main.rs"
    source.write_text(source.read_text() + f"// edit {round_number}\n")
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, str(TOOL), "--root", str(root)], capture_output=True, text=True,
                          env=contributor_env())
    seconds = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(proc.stdout + proc.stderr)
    ran = sum(1 for line in proc.stdout.splitlines()
              if line.startswith(("verified ", "written ")) and "(verified, cached" not in line)
    return seconds, proc.stdout.count("(built "), ran


def overhead_profile(root: Path, n: int) -> dict:
    """Run a warm --check in this process under cProfile; everything outside converse() is the tool's own cost."""
    profiler = cProfile.Profile()
    forget_verdicts(root)  # every server runs: the tool's overhead around them, as before verdicts were cached
    sink = io.StringIO()
    real_stdout = sys.stdout
    sys.stdout = sink
    started = time.perf_counter()
    try:
        profiler.enable()
        code = cli.main(["--check", "-j", "1", "--root", str(root)])
        profiler.disable()
    finally:
        sys.stdout = real_stdout
    total = time.perf_counter() - started
    if code != 0:
        raise SystemExit(sink.getvalue())
    stats = pstats.Stats(profiler)

    def cumulative(module: str, function: str) -> float:
        return sum(v[3] for k, v in stats.stats.items() if k[2] == function and k[0].endswith(module))

    # The stdio driver's Lockstep.converse calls the module's converse: take the outer one only.
    servers = max((v[3] for k, v in stats.stats.items() if k[2] == "converse" and k[0].endswith("stdio.py")),
                  default=0.0)
    parts = {
        "discover examples (model.discover)": cumulative("model.py", "discover"),
        "toolchain probe (rustc -vV, once per run)": cumulative("toolchain.py", "version"),
        "cache lookup and hashing (native.prepare)": cumulative("compile.py", "prepare")
        - cumulative("toolchain.py", "version"),
        "transcript parse and checks (transcript.read)": cumulative("transcript.py", "read"),
        "wire checks (wire.check_stdout)": cumulative("check.py", "check_stdout"),
        "pasting pages (pages.paste_page)": cumulative("pages.py", "paste_page"),
        "hashing every input before and after (integrity)": cumulative("integrity.py", "__init__")
        + cumulative("integrity.py", "verify_unchanged"),
        "proving a sandbox can be made (sandbox.check, once per run)": cumulative("sandboxing.py", "check"),
    }
    own = total - servers
    parts["everything else (reporting, answer-key reads, start of threads)"] = own - sum(parts.values())
    return {"total_s": total, "servers_s": servers, "overhead_s": own, "overhead_ms_per_example": own / n * 1000,
            "breakdown_ms_per_example": {k: v / n * 1000 for k, v in parts.items()},
            "interpreter_start_and_imports_s": startup_seconds()}


def startup_seconds() -> float:
    """Interpreter start plus the tool's imports, paid once per invocation (measured with --help)."""
    times = []
    for _ in range(5):
        started = time.perf_counter()
        subprocess.run([sys.executable, str(TOOL), "--help"], capture_output=True, check=True, env=contributor_env())
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def median(values: list[float]) -> float:
    return statistics.median(values)


def bench_size(n: int, runs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"bench-{n}-") as tmp, \
            tempfile.TemporaryDirectory(prefix="bench-tool-") as copy:
        root = Path(tmp)
        names = generate(root, n)
        uncompiled = tool_without_bytecode(Path(copy))
        no_bytecode = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        tool(root)  # write every answer key once, so the checks below have something to compare with
        cold1, coldn, warm, warm_builds, edit, naive_times, builds, rebuilt, ran = [], [], [], [], [], [], [], [], []
        warm_uncompiled = []
        cold_runs = max(1, runs if n <= 50 else 1)
        for _ in range(cold_runs):
            clear_cache(root)
            cold1.append(tool(root, "--check", "-j", "1"))
            clear_cache(root)
            coldn.append(tool(root, "--check", "-j", str(CORES)))
        tool(root, "--check")  # the cold runs above were --check: this one records the verdicts
        for _ in range(runs):
            warm.append(tool(root, "--check"))
            warm_uncompiled.append(tool(root, "--check", entry=uncompiled, env=no_bytecode))
            warm_builds.append(builds_only(root, "--check"))
        # The sandbox's cost per server run: the same warm check, -j 1, with and without it, in the same run.
        sandboxed, unsandboxed = [], []
        for _ in range(runs):
            sandboxed.append(builds_only(root, "--check", "-j", "1"))
            unsandboxed.append(builds_only(root, "--check", "-j", "1", "--unsandboxed"))
        tool(root, "--check")  # the sandbox's runs above left --unsandboxed verdicts: record the sandboxed ones
        for i in range(runs):
            seconds, compiled, examples_ran = edited_check(root, names[0], i)
            edit.append(seconds)
            rebuilt.append(compiled)
            ran.append(examples_ran)
        for _ in range(cold_runs):
            naive_times.append(naive(root, names))
        for _ in range(runs):
            builds.append(mkdocs_build(root))
        profile = overhead_profile(root, n)
    result = {
        "examples": n, "runs": runs, "cold_runs": cold_runs,
        "cold_j1_s": median(cold1), f"cold_j{CORES}_s": median(coldn), "warm_check_s": median(warm),
        "warm_check_without_bytecode_cache_s": median(warm_uncompiled),
        "warm_check_builds_only_s": median(warm_builds),
        "one_edited_s": median(edit), "one_edited_rebuilt": max(rebuilt), "one_edited_ran": max(ran),
        "naive_s": median(naive_times),
        "mkdocs_build_s": median(builds),
        "warm_vs_naive": median(naive_times) / median(warm),
        "warm_without_bytecode_cache_vs_naive": median(naive_times) / median(warm_uncompiled),
        "warm_builds_only_vs_naive": median(naive_times) / median(warm_builds),
        "cold_parallel_speedup": median(cold1) / median(coldn),
        "warm_check_j1_sandboxed_s": median(sandboxed), "warm_check_j1_unsandboxed_s": median(unsandboxed),
        "sandbox_ratio": median(sandboxed) / median(unsandboxed),
        "sandbox_ms_per_run": (median(sandboxed) - median(unsandboxed)) / n * 1000,
        "overhead": profile,
    }
    return result


def real_site(runs: int) -> dict:
    """This repository's warm --check, nothing changed (the first run fills the caches and is not counted), with the
    bytecode cache and without it (a copy of tools/ that has none), alternating."""
    tool(ROOT, "--check")
    result: dict = {"runs": runs}
    with tempfile.TemporaryDirectory(prefix="bench-tool-") as copy:
        timed = {"check_s": (TOOL, contributor_env()),
                 "check_without_bytecode_cache_s": (tool_without_bytecode(Path(copy)),
                                                    dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))}
        times: dict[str, list[float]] = {label: [] for label in timed}
        for _ in range(runs):
            for label, (entry, env) in timed.items():
                started = time.perf_counter()
                proc = subprocess.run([sys.executable, str(entry), "--check", "--root", str(ROOT)],
                                      capture_output=True, text=True, env=env, cwd=ROOT)
                times[label].append(time.perf_counter() - started)
                if proc.returncode != 0:
                    raise SystemExit(f"the real site's --check failed:\n{proc.stdout}{proc.stderr}")
                result["summary"] = proc.stdout.strip().splitlines()[-1]
    result.update({label: median(values) for label, values in times.items()})
    return result


def machine() -> str:
    return f"{platform.machine()}, {CORES} cores, Python {platform.python_version()}, " \
           f"{subprocess.run(['rustc', '-V'], capture_output=True, text=True).stdout.strip()}"


def table(results: list[dict]) -> str:
    head = (f"| examples | cold -j1 | cold -j{CORES} | speed-up | warm --check | warm, builds only | "
            f"one edited (built, ran) | naive | warm vs naive (builds only) | mkdocs build | overhead / example | "
            f"sandbox (warm -j1, with / without) |")
    rows = [head, "|" + "---|" * 12]
    for r in results:
        rows.append(f"| {r['examples']} | {r['cold_j1_s']:.2f} s | {r[f'cold_j{CORES}_s']:.2f} s | "
                    f"{r['cold_parallel_speedup']:.2f}x | {r['warm_check_s']:.2f} s | "
                    f"{r['warm_check_builds_only_s']:.2f} s | {r['one_edited_s']:.2f} s "
                    f"({r['one_edited_rebuilt']}, {r['one_edited_ran']}) | {r['naive_s']:.2f} s | "
                    f"{r['warm_vs_naive']:.1f}x ({r['warm_builds_only_vs_naive']:.1f}x) | "
                    f"{r['mkdocs_build_s']:.2f} s | {r['overhead']['overhead_ms_per_example']:.1f} ms | "
                    f"{r['sandbox_ratio']:.2f}x, +{r['sandbox_ms_per_run']:.1f} ms a run |")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10,50,200", help="comma-separated example counts")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (medians are reported)")
    parser.add_argument("--real-runs", type=int, default=5, help="timed warm --check runs of this repository's site "
                        "(0: skip)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results" / "latest.json")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = []
    for n in sizes:
        print(f"measuring {n} examples ...", file=sys.stderr, flush=True)
        results.append(bench_size(n, args.runs))
    real = real_site(args.real_runs) if args.real_runs else None
    print(f"Machine: {machine()}")
    print(table(results))
    for r in results:
        print(f"\nWarm --check of {r['examples']} examples without a bytecode cache (the tool compiled from source "
              f"every run): {r['warm_check_without_bytecode_cache_s']:.2f} s, "
              f"{r['warm_without_bytecode_cache_vs_naive']:.1f}x naive")
    if real:
        print(f"\nThe real site, warm --check, nothing changed (median of {real['runs']}): {real['check_s']:.2f} s "
              f"({real['check_without_bytecode_cache_s']:.2f} s without a bytecode cache); "
              f"it said: {real['summary']}")
    for r in results:
        print(f"\nTool overhead at {r['examples']} examples (warm --check -j 1 under cProfile): "
              f"{r['overhead']['overhead_s']:.3f} s of {r['overhead']['total_s']:.3f} s "
              f"({r['overhead']['overhead_ms_per_example']:.1f} ms per example), where it goes:")
        for part, ms in r["overhead"]["breakdown_ms_per_example"].items():
            print(f"    {ms:6.2f} ms  {part}")
        print(f"    interpreter start and imports, once per run: "
              f"{r['overhead']['interpreter_start_and_imports_s'] * 1000:.0f} ms")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": machine(), "results": results, "real_site": real}, indent=2))
    print(f"\nwritten: {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
