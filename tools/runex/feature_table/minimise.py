"""A row's minimal feature set, found by building: start from what the example gets (the features its Cargo.toml
declares, and rmcp's defaults, which no example turns off), build with rmcp's defaults off, drop each feature
whose removal still builds and runs, then record what each remaining feature's removal breaks: the compiler's
first error."""

from __future__ import annotations

import sys

from .. import sandboxing

from . import build, manifest, rows
from .rows import Row


class MeasureError(RuntimeError):
    pass


def start(row: Row) -> list[str]:
    """What the build gets today: rmcp's defaults the manifest does not name (it never turns them off), then the
    declared features the build uses (dev-dependencies only for `cargo test`), none the row excludes."""
    declared = manifest.declared(build.EXAMPLES / row.crate / "Cargo.toml")
    used = [f for f in declared if (row.step == "test" or not f.startswith("dev:")) and f not in row.excluded]
    defaults = manifest.rmcp_defaults(build.EXAMPLES / "Cargo.lock")
    return [f for f in defaults if f not in used and f not in row.excluded] + used


def measure(row: Row, copy, sandbox: sandboxing.Sandbox) -> dict:
    tried: dict[tuple[str, ...], build.Outcome] = {}

    def attempt(features: list[str]) -> build.Outcome:
        key = tuple(features)
        if key not in tried:
            print(f"rmcp features: {row.key} with [{', '.join(features)}]", file=sys.stderr)
            tried[key] = build.attempt(row, features, copy, sandbox)
        return tried[key]

    gets = start(row)
    first = attempt(gets)
    if not first.ok:
        raise MeasureError(f"examples/{row.crate}/Cargo.toml: {rows.command(row)} fails with the features it "
                           f"gets ({', '.join(gets)}): {first.said}\nMake it build "
                           f"with them (.venv/bin/python tools/run_examples.py --check {row.crate}), or change its row "
                           f"in tools/runex/feature_table/rows.py")
    minimal = list(gets)
    for feature in gets:
        fewer = [f for f in minimal if f != feature]
        if attempt(fewer).ok:
            minimal = fewer
    return {"row": row.key, "label": row.label, "command": rows.command(row), "then": rows.then(row),
            "gets": gets, "defaults": [f for f in manifest.rmcp_defaults(build.EXAMPLES / "Cargo.lock")
                                            if f in gets],
            "minimal": minimal, "not_needed": [f for f in gets if f not in minimal],
            "without": {f: attempt([g for g in minimal if g != f]).word() for f in minimal},
            "with": {f: attempt(minimal + [f]).word() for f in row.excluded}}
