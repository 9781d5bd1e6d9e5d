#!/usr/bin/env python3
"""`make serve`'s MkDocs: `mkdocs serve`, with its file watcher polling every 0.1 s instead of every 0.5 s.

mkdocs serve has no option for the interval, and half a second of it was a third of the time from saving an example
to seeing it on the page (benchmarks/serve_latency.py). The interval is LiveReloadServer's keyword default; MkDocs is
pinned in constraints.txt, and tests/site/test_serve_config.py checks that the default is still where this expects.
Arguments are mkdocs serve's own.
"""

from __future__ import annotations

import sys

from mkdocs import livereload
from mkdocs.__main__ import cli

POLL_SECONDS = 0.1


def poll_faster() -> None:
    init = livereload.LiveReloadServer.__init__
    names = init.__code__.co_varnames[init.__code__.co_argcount - len(init.__defaults__):init.__code__.co_argcount]
    defaults = dict(zip(names, init.__defaults__))
    if "polling_interval" not in defaults:
        raise SystemExit("tools/serve_site.py: mkdocs' LiveReloadServer has no polling_interval default any more; "
                         "run `python -m mkdocs serve` instead and update this script")
    defaults["polling_interval"] = POLL_SECONDS
    init.__defaults__ = tuple(defaults[name] for name in names)


if __name__ == "__main__":
    poll_faster()
    sys.exit(cli(["serve", *sys.argv[1:]]))
