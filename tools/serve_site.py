#!/usr/bin/env python3
"""`make serve`'s MkDocs: `mkdocs serve`, with its file watcher polling every 0.1 s instead of every 0.5 s, and
passing its events through the runex plugin's OwnWrites (tools/runex/mkdocs_plugin.py).

mkdocs serve has no option for the interval, and half a second of it was a third of the time from saving an example
to seeing it on the page (benchmarks/serve_latency.py). The interval is LiveReloadServer's keyword default; MkDocs is
pinned in constraints.txt, and tests/site/test_serve_config.py checks that the default is still where this expects.
The pages the plugin's tool run writes are read by the very build that ran it; without the filter, the watcher saw
those writes and mkdocs rebuilt once more for nothing (0.2 to 0.3 s, during which a reloading browser waits).
Arguments are mkdocs serve's own.
"""

from __future__ import annotations

import sys

from mkdocs import livereload
from mkdocs.__main__ import cli

from runex.mkdocs_plugin import OWN_WRITES

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


def plugin_filters_events() -> None:
    """Every handler the watcher schedules (mkdocs schedules one per watched path) sees an event only if the
    plugin's OwnWrites passes it on. MkDocs watches the pages before the plugin hears of the server (on_serve), so
    each handler asks its observer at event time; until the plugin has put its filter there, every event passes."""
    from watchdog.observers.polling import PollingObserver

    schedule = PollingObserver.schedule

    def schedule_through_the_plugin(self, event_handler, path, *args, **kwargs):
        forward = event_handler.on_any_event
        event_handler.on_any_event = lambda event: _through_the_plugin(self, forward, event)
        return schedule(self, event_handler, path, *args, **kwargs)

    PollingObserver.schedule = schedule_through_the_plugin


def _through_the_plugin(observer, forward, event) -> None:
    own_writes = getattr(observer, OWN_WRITES, None)
    if own_writes is None:
        forward(event)
    else:
        own_writes.filter(forward, event)


if __name__ == "__main__":
    poll_faster()
    plugin_filters_events()
    sys.exit(cli(["serve", *sys.argv[1:]]))
