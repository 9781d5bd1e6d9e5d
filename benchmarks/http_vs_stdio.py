#!/usr/bin/env python3
"""One conversation over stdio against the same conversation over Streamable HTTP, side by side, alternating.

    .venv/bin/python benchmarks/http_vs_stdio.py [EXAMPLE] --runs 10

For each implementation of EXAMPLE (default streamable-http) that example.toml says serves HTTP, it builds it
(from the cache), then holds the transcript's conversation in the sandbox in turns: stdio (run/stdio.py, the
lockstep driver) and HTTP (run/http.py: the server started in its sandbox, the tool POSTing each line on a socket
made in the sandbox's network namespace, the GET probe, SIGTERM). Both include starting the server and its exit.
It prints the median and minimum wall time of each and the ratio HTTP / stdio; the machine's load falls on both
alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from runex import sandboxing
from runex.builds import native
from runex.examples import model
from runex.run import example as run_example
from runex.run import http, http_stage
from runex.wire import transcript


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("example", nargs="?", default="streamable-http")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--impl", help="only this implementation (cargo, python, rust)")
    args = parser.parse_args()
    example = model.load_one(ROOT, args.example)
    box = sandboxing.Sandbox()
    lines, _ = transcript.read(example.transcript, "transcript.jsonl")
    for impl in (i for i in example.implementations if example.serves_http(i.name)
                 and args.impl in (None, i.name.value)):
        built = native.prepare(ROOT, impl, native.Cache(ROOT), locked=True, sandbox=box)
        spec_for = lambda home: built.spec(box.enabled, home)  # noqa: E731
        limits = dict(timeout=example.config.timeout, max_output=example.config.max_output_bytes, sandbox=box)
        driver = run_example.driver_for(example, impl)  # lockstep, or paced by [[send]]: as a real run
        sends = example.config.sends
        first = driver.converse(spec_for, lines, **limits)
        requests = http.plan(lines, example.config.http_overrides,
                             http_stage.tools_list_of(first.stdout, lines, sends), example.config.http_headers,
                             example.config.http_get, sends)
        times: dict[str, list[float]] = {"stdio": [], "http": []}
        for run in range(args.runs):
            order = ("stdio", "http") if run % 2 == 0 else ("http", "stdio")
            for transport in order:
                started = time.perf_counter()
                if transport == "stdio":
                    result = driver.converse(spec_for, lines, **limits)
                else:
                    result = http.StreamableHttp(requests).converse(spec_for, lines, **limits)
                assert result.failure is None, f"{impl.name} over {transport}: {result.failure}"
                times[transport].append(time.perf_counter() - started)
        s, h = statistics.median(times["stdio"]), statistics.median(times["http"])
        print(f"{example.name} ({impl.name}), {args.runs} pairs: stdio median {s * 1000:.0f} ms "
              f"(min {min(times['stdio']) * 1000:.0f}), HTTP median {h * 1000:.0f} ms "
              f"(min {min(times['http']) * 1000:.0f}), HTTP / stdio {h / s:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
