"""Which tests share one pytest-xdist worker, in order, when pytest runs on several (`make fast`, `make test`).

A test file is one unit, so a module's fixtures are made once; the page-by-page browser file is one unit per page
(PER_PAGE: a page's tests share one tab per viewport, in order, and pages are independent). Nothing needs a worker to itself: the
run's one site build is shared by every worker (support/shared_site.py), tools/site_assets.py leaves an unchanged
docs/assets/run alone, and the tests that edit files edit their own copies (test_serve_live.py copies the checkout).

Units go out heaviest first (a free worker takes the next), so no long unit starts last: a unit weighs its number of
tests, a browser test BROWSER_WEIGHT of them (1.9 s each on average here, against 0.2-0.5 s for the other folders),
and a unit in UNIT_WEIGHT what it says there.

(xdist's own `--dist loadgroup` does not group on pytest 9, which ignores the node id xdist rewrites; this is its
scope scheduler with the units and the order given here.)
"""

from __future__ import annotations

import re
from collections import OrderedDict

from xdist.scheduler import LoadScopeScheduling

PER_PAGE = ("tests/browser/test_site_pages.py",)
PAGE_PARAMETER = re.compile(r"[\[-](docs/[^\[\]]*?\.md)(?:-|\])")
BROWSER_WEIGHT = 4
# Few tests, each long on a fresh clone: every row of the rmcp features table builds rmcp once per feature set
# (minutes a row, cold, in CI), so it goes out first rather than last, where it would be the run's tail.
UNIT_WEIGHT = {"tests/interop/test_rmcp_features.py": 10_000}


def unit_of(nodeid: str) -> str:
    """The unit a test belongs to: its file, or in a PER_PAGE file its file and page (its parameter)."""
    path, _, name = nodeid.partition("::")
    page = PAGE_PARAMETER.search(name) if path in PER_PAGE else None  # "…[docs/mcp/x.md]" -> docs/mcp/x.md
    return f"{path}[{page.group(1)}]" if page else path


def weight(unit: str, tests: dict[str, bool]) -> int:
    if unit in UNIT_WEIGHT:
        return UNIT_WEIGHT[unit]
    return len(tests) * (BROWSER_WEIGHT if unit.startswith("tests/browser/") else 1)


class WorkerGroups(LoadScopeScheduling):
    """xdist's scope scheduler with unit_of as the scope, the heaviest unit handed out first."""

    _weighed = False

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)

    def _assign_work_unit(self, node) -> None:
        if not self._weighed:
            self.workqueue = OrderedDict(sorted(self.workqueue.items(), key=lambda item: -weight(*item)))
            self._weighed = True
        super()._assign_work_unit(node)


def scheduler(config, log):
    """Ours for the load-balancing modes; None leaves `--dist each` (and any other) to xdist."""
    if config.getvalue("dist") in ("load", "loadscope", "loadfile", "loadgroup"):
        return WorkerGroups(config, log)
    return None
