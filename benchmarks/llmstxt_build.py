"""What the Markdown renditions (the llmstxt plugin: index.md per page, llms.txt, llms-full.txt) cost a build.

Times `mkdocs build --strict` of this checkout with mkdocs.yml as it is and with a configuration that inherits it
without the plugin, alternating, RUNS times each; prints each time, the medians and their ratio.

    .venv/bin/python benchmarks/llmstxt_build.py [RUNS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def without_plugin() -> Path:
    """A config beside mkdocs.yml (INHERIT resolves relative to it), mkdocs.yml's plugins less llmstxt."""
    plugins = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["plugins"]
    kept = [p for p in plugins if (p if isinstance(p, str) else next(iter(p))) != "llmstxt"]
    config = ROOT / f".bench-no-llmstxt-{os.getpid()}.yml"
    config.write_text(yaml.safe_dump({"INHERIT": "mkdocs.yml", "plugins": kept}), encoding="utf-8")
    return config


def build(config: Path, site: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config), "-d", str(site)],
                   cwd=ROOT, check=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    return time.perf_counter() - started


def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        plain = without_plugin()
        try:
            times: dict[str, list[float]] = {"with": [], "without": []}
            for _ in range(runs):
                times["with"].append(build(ROOT / "mkdocs.yml", Path(scratch) / "with"))
                times["without"].append(build(plain, Path(scratch) / "without"))
        finally:
            plain.unlink()
    for label, values in times.items():
        print(f"{label:8} plugin: {', '.join(f'{v:.1f}' for v in values)} s; median {statistics.median(values):.1f} s")
    print(f"ratio (with / without): {statistics.median(times['with']) / statistics.median(times['without']):.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
