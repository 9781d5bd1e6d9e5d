#!/usr/bin/env python3
"""How long `mkdocs serve` takes to show an edited example on its page: save, then poll the served page.

    .venv/bin/python benchmarks/serve_latency.py                  # 5 edits of examples/stands-alone/server.py, median
    .venv/bin/python benchmarks/serve_latency.py --file main.rs   # the Rust twin: a comment, so one rustc run per edit

It does what `make serve` does (run_examples.py, site_assets.py, `mkdocs serve --strict`, here on a free port),
waits for the first build, then appends a comment line to the example's server.py or main.rs (neutral for the answer
key; the page pastes the whole file, so the comment shows on it) and times from the write to the first GET of the page that
holds it, polling every 20 ms. mkdocs' own log gives each rebuild's parts: when the change was seen, the plugin's
tool run, the build. Between edits it waits until the last rebuild has finished and nothing changed for 1.5 s (the
pasted page the plugin writes starts one more rebuild). The source file is restored at the end, whatever happens. JSON in
benchmarks/results/serve_latency.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from runex.paste import markers, pages

POLL = 0.02


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mount_path() -> str:
    """mkdocs serve serves the site under site_url's path (a project site's /REPO/), as GitHub Pages would."""
    match = re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    return urllib.parse.urlsplit(match.group(1)).path.rstrip("/") if match else ""


def page_url(name: str, file: str) -> str:
    """The served path of the first page that pastes examples/NAME/FILE whole."""
    for path in pages.page_files(ROOT):
        rel = path.relative_to(ROOT / "docs")
        for block in markers.parse(path.read_text(encoding="utf-8"), str(rel)):
            if isinstance(block, markers.Block) and block.target == f"{name}/{file}":
                parts = list(rel.with_suffix("").parts)  # use_directory_urls: a/b.md is /a/b/, a/index.md /a/
                if parts[-1] == "index":
                    parts.pop()
                return "/" + "".join(part + "/" for part in parts)
    raise SystemExit(f"no page pastes {name}/{file} whole")


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8", "replace")
    except OSError:
        return ""


class Log:
    """mkdocs serve's stderr, each line with the time it arrived."""

    def __init__(self, stream):
        self.lines: list[tuple[float, str]] = []
        self.thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self.thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.append((time.perf_counter(), line.rstrip("\n")))

    def since(self, started: float) -> list[tuple[float, str]]:
        return [(t - started, l) for t, l in self.lines if t >= started]

    def idle_for(self, seconds: float) -> bool:
        """The last rebuild has finished ("Reloading browsers", or the first build's "Serving on") and no change
        was detected for `seconds` (longer than the watcher's 0.5 s polling)."""
        told = [(t, l) for t, l in self.lines if "GET " not in l]
        if not told:
            return False
        at, last = told[-1]
        return ("Reloading browsers" in last or "Serving on" in last) and time.perf_counter() - at >= seconds


def wait_idle(log: Log, seconds: float = 1.5, limit: float = 120) -> None:
    deadline = time.perf_counter() + limit
    while not log.idle_for(seconds) and time.perf_counter() < deadline:
        time.sleep(0.05)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--example", default="stands-alone")
    parser.add_argument("--file", default="server.py", choices=["server.py", "src/main.rs"],
                        help="the Python twin, or the Rust twin of a cargo example (a comment: one cargo build)")
    parser.add_argument("--config-file", default=None, help="serve this MkDocs config (make serve's, say)")
    parser.add_argument("--make-serve", action="store_true", help="serve as `make serve` does (tools/serve_site.py, "
                        "mkdocs.serve.yml, --dirty)")
    parser.add_argument("--dirty", action="store_true", help="serve with `mkdocs serve --dirty` (rebuild only the "
                        "pages that changed), without --strict: strict mode aborts on the warning every dirty build "
                        "prints")
    args = parser.parse_args()
    source = ROOT / "examples" / args.example / args.file
    comment = "#" if args.file == "server.py" else "//"
    original = source.read_bytes()
    python = sys.executable
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run([python, "tools/run_examples.py"], cwd=ROOT, check=True, capture_output=True)
    subprocess.run([python, "tools/site_assets.py"], cwd=ROOT, check=True, capture_output=True)
    port = free_port()
    url = f"http://127.0.0.1:{port}{mount_path()}{page_url(args.example, args.file)}"
    command = [python, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"] + (["--dirty"] if args.dirty
                                                                                  else ["--strict"])
    if args.config_file:
        command += ["-f", args.config_file]
    if args.make_serve:  # exactly what `make serve` runs
        command = [python, "tools/serve_site.py", "-a", f"127.0.0.1:{port}", "-f", "mkdocs.serve.yml", "--dirty"]
    server = subprocess.Popen(command, cwd=ROOT,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              process_group=0)
    log = Log(server.stderr)
    results = []
    try:
        deadline = time.perf_counter() + 300
        while "</html>" not in fetch(url):
            if server.poll() is not None or time.perf_counter() > deadline:
                raise SystemExit("mkdocs serve did not come up:\n" + "\n".join(l for _, l in log.lines))
            time.sleep(0.2)
        wait_idle(log)
        for number in range(1, args.edits + 1):
            marker = f"serve-latency edit {number} {time.time_ns()}"
            source.write_bytes(original + f"{comment} {marker}\n".encode())
            started = time.perf_counter()
            while marker not in fetch(url):
                if time.perf_counter() - started > 120:
                    raise SystemExit(f"edit {number} did not show within 120 s:\n"
                                     + "\n".join(l for _, l in log.since(started)))
                time.sleep(POLL)
            seconds = time.perf_counter() - started
            wait_idle(log)
            steps = log.since(started)
            built = [float(m.group(1)) for _, l in steps if (m := re.search(r"Documentation built in ([\d.]+)", l))]
            seen = next((t for t, l in steps if "Building documentation" in l), None)
            tool = next((t for t, l in steps if "run_examples" in l), None)
            # The page the plugin pastes is a change too: mkdocs rebuilds once more, and a page requested meanwhile
            # waits for that rebuild. Settled: the last rebuild after the edit has finished.
            settled = max((t for t, l in steps if "Reloading browsers" in l), default=None)
            results.append({"seconds": seconds, "change_seen_s": seen, "tool_done_s": tool, "settled_s": settled,
                            "builds": built, "log": [f"{t:6.2f} s  {l}" for t, l in steps]})
            print(f"edit {number}: on the page after {seconds:.2f} s (rebuild started at {seen or 0:.2f} s, tool "
                  f"done at {tool or 0:.2f} s, builds {', '.join(f'{b:.2f} s' for b in built)}, settled at "
                  f"{settled or 0:.2f} s)", flush=True)
    finally:
        source.write_bytes(original)
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
        # The last edit's comment is still pasted into the page: paste the restored file back.
        subprocess.run([python, "tools/run_examples.py"], cwd=ROOT, capture_output=True)
    median = statistics.median(r["seconds"] for r in results)
    settled = statistics.median(r["settled_s"] or r["seconds"] for r in results)
    print(f"median from save to page: {median:.2f} s over {len(results)} edits of {source.relative_to(ROOT)}; "
          f"settled (every rebuild done): {settled:.2f} s")
    out = ROOT / "benchmarks" / "results" / "serve_latency.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"example": args.example, "file": args.file, "dirty": args.dirty,
                               "config_file": args.config_file, "make_serve": args.make_serve, "url": url, "median_s": median,
                               "median_settled_s": settled, "edits": results},
                              indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
