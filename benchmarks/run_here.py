#!/usr/bin/env python3
"""What "Run it here" costs, Rust and Python side by side: the bytes each adds to the site, and the reader's wait.

    .venv/bin/python benchmarks/run_here.py   # every example with the button, each language, 3 cold runs each
    .venv/bin/python benchmarks/run_here.py --runs 5

It builds the site as `make site` does (tools/site_assets.py, then `mkdocs build --strict`), serves it on
127.0.0.1 and, for every example with the button and each language it runs in (Rust: the wasm32-wasip1 module under
the WASI shim; Python: the twin in Pyodide), opens its page in a fresh browser context (empty HTTP cache), chooses
the language, presses the button and reads how long the page waited from the press to the first reply on stdout
(the cold start: downloading and compiling the module or Pyodide included), then presses it again in the same page
(already loaded: what each "Send" of an edited line costs). Weight, raw and gzip-compressed (level 6, as a static
host compresses them): what only Rust needs (the shim, the modules, its worker), what only Python needs (Pyodide,
the twins, the tool's wire package, its worker), and what both share. Medians; JSON in
benchmarks/results/run_here.json.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from runex.paste import markers, pages
from runex.paste import run_here as browser

ROOT = Path(__file__).resolve().parent.parent

SHARED_FILES = ("docs/javascripts/run-here.js", "docs/stylesheets/run-here.css")  # on every page
RUST_FILES = ("docs/javascripts/run-here-wasm-worker.js", "docs/javascripts/run-here-lines.js")
PYTHON_FILES = ("docs/javascripts/run-here-worker.js",)


def language_of(path: Path) -> str:
    rel = path.relative_to(ROOT / "docs" / "assets" / "run").as_posix()
    if rel.startswith(("wasi/",)) or rel.endswith(".wasm") and rel.startswith("examples/"):
        return "rust"
    if rel.startswith(("pyodide/", "runex/")) or rel.endswith("/server.py"):
        return "python"
    return "shared"


def sizes(files: list[Path]) -> dict:
    return {"files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "gzip_bytes": sum(len(gzip.compress(p.read_bytes(), 6)) for p in files)}


def weight() -> dict:
    assets = sorted(p for p in (ROOT / "docs" / "assets" / "run").rglob("*") if p.is_file())
    parts = {"rust": [ROOT / f for f in RUST_FILES], "python": [ROOT / f for f in PYTHON_FILES],
             "shared": [ROOT / f for f in SHARED_FILES]}
    for path in assets:
        parts[language_of(path)].append(path)
    report = {part: sizes(files) for part, files in parts.items()}
    report["pyodide"] = sizes([p for p in assets if "/assets/run/pyodide/" in p.as_posix()])
    report["rust_modules"] = sizes([p for p in assets if p.suffix == ".wasm" and "/examples/" in p.as_posix()])
    report["on_every_page_bytes"] = sum((ROOT / f).stat().st_size for f in SHARED_FILES)
    return report


def site_path(source: Path) -> str:
    """The path MkDocs gives the page docs/`source` (directory URLs): "mcp/what-is-mcp/", "" for the home page."""
    parts = list(source.relative_to(ROOT / "docs").with_suffix("").parts)
    parts = parts[:-1] if parts[-1] == "index" else parts
    return "/".join(parts) + "/" if parts else ""


def pages_with_button() -> dict[str, tuple[str, list[str]]]:
    """Example -> (its page's path, the languages its button runs)."""
    runs = {r.name: [k for k in ("rust", "python") if getattr(r, k) is not None] for r in browser.browser_runs(ROOT)}
    found = {}
    for source in sorted((ROOT / "docs").rglob("*.md")):
        rel = str(source.relative_to(ROOT))
        for segment in markers.parse(source.read_text(encoding="utf-8"), rel):
            if isinstance(segment, markers.Block) and pages.is_conversation(segment.target) \
                    and "#" not in segment.target:
                name = segment.path.split("/")[0]
                if name in runs:
                    found.setdefault(name, (site_path(source), runs[name]))
    return found


def build_site(site_dir: Path) -> None:
    """The site as `make site` builds it (without its --check), into `site_dir`."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    subprocess.run([sys.executable, "tools/site_assets.py"], cwd=ROOT, env=env, check=True)
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "--site-dir", str(site_dir)], cwd=ROOT,
                   env=env, check=True)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 (signature of the base class)
        pass


def serve(site_dir: Path) -> ThreadingHTTPServer:
    """`site_dir` served on 127.0.0.1 (a port the OS picks) from a thread; shutdown() stops it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site_dir)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def press(page, name: str, kind: str) -> float:
    """Choose the language, press the button, wait for the run to finish; ms from the press to the first reply."""
    box = f".run-here[data-example='{name}']"
    page.evaluate(f"() => {{ document.querySelector(\"{box} .run-choice input[value={kind}]\").checked = true; "
                  f"document.querySelector(\"{box} .run-here-button\").click(); }}")
    page.wait_for_function(f"() => ['done', 'error', 'stopped'].includes(document.querySelector(\"{box}\").dataset.state)",
                           timeout=300_000)
    state = page.evaluate(f"() => document.querySelector(\"{box}\").dataset.state")
    if state != "done":
        raise SystemExit(f"{name} ({kind}): the run ended {state}; run tests/browser/test_run_here*.py")
    return float(page.evaluate(f"() => document.querySelector(\"{box}\").dataset.firstReplyMs"))


def measure(chromium, base_url: str, runs: int) -> dict:
    results = {}
    for name, (path, kinds) in pages_with_button().items():
        for kind in kinds:
            cold, warm = [], []
            for _ in range(runs):
                context = chromium.new_context()  # a fresh HTTP cache: the reader's first visit
                page = context.new_page()
                page.goto(base_url + path, wait_until="load")
                cold.append(press(page, name, kind))
                warm.append(press(page, name, kind))
                context.close()
            results.setdefault(name, {})[kind] = {"cold_first_reply_ms": statistics.median(cold),
                                                  "warm_first_reply_ms": statistics.median(warm), "runs": runs}
            print(f"{name:20} {kind:6} cold {statistics.median(cold):7.0f} ms   warm {statistics.median(warm):6.0f} ms")
    return results


def summary(results: dict, kind: str) -> str:
    cold = sorted(r[kind]["cold_first_reply_ms"] for r in results.values() if kind in r)
    warm = sorted(r[kind]["warm_first_reply_ms"] for r in results.values() if kind in r)
    if not cold:
        return f"{kind}: no example"
    return (f"{kind}: {len(cold)} examples, cold {cold[0]:.0f} to {cold[-1]:.0f} ms (median {statistics.median(cold):.0f}), "
            f"again {warm[0]:.0f} to {warm[-1]:.0f} ms (median {statistics.median(warm):.0f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        build_site(Path(tmp) / "site")
        server = serve(Path(tmp) / "site")
        try:
            with sync_playwright() as driver:
                chromium = driver.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                                  args=["--no-sandbox", "--disable-gpu"])
                results = measure(chromium, f"http://127.0.0.1:{server.server_address[1]}/", args.runs)
                chromium.close()
        finally:
            server.shutdown()
            server.server_close()
    report = {"machine": f"{platform.machine()}, {platform.python_version()}", "weight": weight(),
              "examples": results}
    for kind in ("rust", "python"):
        print(summary(results, kind))
    w = report["weight"]
    for part in ("rust", "python", "shared", "pyodide", "rust_modules"):
        print(f"weight {part:12}: {w[part]['files']:3} files, {w[part]['bytes'] / 1e6:6.2f} MB raw, "
              f"{w[part]['gzip_bytes'] / 1e6:5.2f} MB gzip")
    print(f"on every page: {w['on_every_page_bytes']} bytes")
    out = ROOT / "benchmarks" / "results" / "run_here.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
