#!/usr/bin/env python3
"""What "Run it here" costs: the bytes it adds to the built site, and the reader's wait in Chromium.

    python benchmarks/run_here.py            # every example with the button, 3 cold runs each
    python benchmarks/run_here.py --runs 5

It builds the site as the browser tests do (tools/site_assets.py, then `mkdocs build --strict`), serves it on
127.0.0.1 and, for every example with the button, opens its page in a fresh browser context (empty HTTP cache),
presses the button and reads how long the page waited from the press to the first reply on stdout (the cold start:
downloading and compiling Pyodide included), then presses it again in the same page (Python already loaded: what
each "Send" of an edited line costs). Weight: the bytes of docs/assets/run and the two scripts and the stylesheet,
raw and gzip-compressed (level 6, as a static host compresses them). Medians; JSON in
benchmarks/results/run_here.json.
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.browser.sitekit import SiteServer, build_site, discover_docs, markers, pages  # noqa: E402

sys.path.insert(0, str(ROOT / "tools"))
from runex.paste import run_here as browser  # noqa: E402

OWN_FILES = ("docs/javascripts/run-here.js", "docs/javascripts/run-here-worker.js", "docs/stylesheets/run-here.css")


def weight() -> dict:
    files = sorted(p for p in (ROOT / "docs" / "assets" / "run").rglob("*") if p.is_file())
    files += [ROOT / f for f in OWN_FILES]
    raw = sum(p.stat().st_size for p in files)
    packed = sum(len(gzip.compress(p.read_bytes(), 6)) for p in files)
    pyodide = [p for p in files if p.relative_to(ROOT).as_posix().startswith("docs/assets/run/pyodide/")]
    return {"files": len(files), "bytes": raw, "gzip_bytes": packed,
            "pyodide_bytes": sum(p.stat().st_size for p in pyodide),
            "pyodide_gzip_bytes": sum(len(gzip.compress(p.read_bytes(), 6)) for p in pyodide),
            "on_every_page_bytes": sum((ROOT / f).stat().st_size for f in OWN_FILES if "worker" not in f)}


def pages_with_button() -> dict[str, str]:
    runs = {r.name for r in browser.browser_runs(ROOT)}
    found = {}
    for doc in discover_docs(ROOT):
        for segment in markers.parse((ROOT / doc.src).read_text(encoding="utf-8"), doc.src):
            if isinstance(segment, markers.Block) and pages.is_conversation(segment.target) \
                    and "#" not in segment.target:
                name = segment.path.split("/")[0]
                if name in runs:
                    found.setdefault(name, doc.path)
    return found


def press(page, name: str) -> float:
    """Press the button and wait for the run to finish; returns ms from the press to the first reply."""
    box = f".run-here[data-example='{name}']"
    page.evaluate(f"() => document.querySelector(\"{box} .run-here-button\").click()")
    page.wait_for_function(f"() => document.querySelector(\"{box}\").dataset.state === 'done'", timeout=300_000)
    return float(page.evaluate(f"() => document.querySelector(\"{box}\").dataset.firstReplyMs"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        build_site(ROOT, Path(tmp) / "site")
        server = SiteServer(Path(tmp) / "site")
        results = {}
        try:
            with sync_playwright() as driver:
                chromium = driver.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                                  args=["--no-sandbox", "--disable-gpu"])
                for name, path in pages_with_button().items():
                    cold, warm = [], []
                    for _ in range(args.runs):
                        context = chromium.new_context()  # a fresh HTTP cache: the reader's first visit
                        page = context.new_page()
                        page.goto(server.base_url + path, wait_until="load")
                        cold.append(press(page, name))
                        warm.append(press(page, name))
                        context.close()
                    results[name] = {"cold_first_reply_ms": statistics.median(cold),
                                     "warm_first_reply_ms": statistics.median(warm), "runs": args.runs}
                    print(f"{name:20} cold {results[name]['cold_first_reply_ms']:7.0f} ms   "
                          f"warm {results[name]['warm_first_reply_ms']:6.0f} ms")
                chromium.close()
        finally:
            server.stop()
    report = {"machine": f"{platform.machine()}, {platform.python_version()}", "weight": weight(),
              "examples": results}
    w = report["weight"]
    print(f"weight: {w['files']} files, {w['bytes'] / 1e6:.1f} MB raw, {w['gzip_bytes'] / 1e6:.1f} MB gzip "
          f"(Pyodide {w['pyodide_bytes'] / 1e6:.1f} MB, {w['pyodide_gzip_bytes'] / 1e6:.1f} MB gzip); "
          f"on every page: {w['on_every_page_bytes']} bytes")
    out = ROOT / "benchmarks" / "results" / "run_here.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
