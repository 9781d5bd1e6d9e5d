"""Which tests share one pytest-xdist worker, in order, when pytest runs on two (`make fast`, `make test WORKERS=2`).

A test file is one unit, so a module's fixtures are made once. Every test of tests/site and tests/browser is one
unit: they read or write this checkout's docs/ (tools/site_assets.py rewrites docs/assets/run; test_serve_live.py
edits a page and waits for the tool to paste it back), and they share the run's one built site and one browser.
Everything else works in its own tmp_path or only reads the checkout, so two units run side by side.

(xdist's own `--dist loadgroup` does not group on pytest 9, which ignores the node id xdist rewrites; this is the
same scheduler with the grouping given here.)
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

CHECKOUT_UNIT = "tests/site + tests/browser"
CHECKOUT_FOLDERS = ("tests/site/", "tests/browser/")


def unit_of(nodeid: str) -> str:
    """The unit a test belongs to: CHECKOUT_UNIT, or the path of its file."""
    path = nodeid.split("::", 1)[0]
    return CHECKOUT_UNIT if path.startswith(CHECKOUT_FOLDERS) else path


class WorkerGroups(LoadScopeScheduling):
    """xdist's scope scheduler (largest unit first, a free worker takes the next) with unit_of as the scope."""

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)


def scheduler(config, log):
    """Ours for the load-balancing modes; None leaves `--dist each` (and any other) to xdist."""
    if config.getvalue("dist") in ("load", "loadscope", "loadfile", "loadgroup"):
        return WorkerGroups(config, log)
    return None
