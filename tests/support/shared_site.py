"""The run's one site build, shared by every pytest-xdist worker: the first worker to ask builds it, the others wait
on a lock and read the same folder. (One build per worker would run tools/site_assets.py, which swaps this
checkout's docs/assets/run, once per worker, and spend a minute of two cores on identical sites.)"""

from __future__ import annotations

import fcntl
from pathlib import Path

from support.repo import ROOT

BUILT = "built-site"


def build_once(shared: Path) -> Path:
    """The site built under `shared` (a folder every worker of this run sees); built here unless another worker
    built it, or failed to, first. A failed build is reported to every worker that asks, with the build's output."""
    from browser.sitekit import BuildError, build_site

    shared.mkdir(parents=True, exist_ok=True)
    site_dir, done, failed = shared / BUILT / "site", shared / f"{BUILT}.done", shared / f"{BUILT}.failed"
    with open(shared / f"{BUILT}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also when this worker dies
        if failed.exists():
            raise BuildError(failed.read_text(encoding="utf-8"))
        if not done.exists():
            try:
                build_site(ROOT, site_dir)
            except BuildError as error:
                failed.write_text(str(error), encoding="utf-8")
                raise
            done.touch()
    return site_dir
