"""Running @modelcontextprotocol/conformance (pinned in package.json) against one server URL.

One `server --requirements 2026-07-28` run covers every scenario the revision requires (and runs the not-scored
ones too, which are left out here); each scenario writes its checks to <out>/server-<scenario>-<timestamp>/.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path


ROOT = Path(__file__).resolve().parents[3]
NAME = "@modelcontextprotocol/conformance"
PACKAGE = ROOT / "node_modules" / NAME
NODE = ROOT / "node_modules" / ".bin" / "node"  # the npm package `node` (22): the suite needs fs.globSync
REVISION = "2026-07-28"
RUN_TIMEOUT = 600.0  # a guard against a run that never ends; a full run takes about 10 s
SCENARIO_DIR = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$")
# In the bundle a scenario class sets this.name, then this.description (a template, single- or double-quoted string).
DESCRIPTION = re.compile(r"this\.name=`(?P<name>[^`]+)`.{0,200}?this\.description=(?P<q>[`'\"])(?P<text>.*?)(?:\\n|\n|(?P=q))",
                         re.S)
# Worst first: a check id that appears more than once in a scenario takes its worst status.
SEVERITY = ("FAILURE", "WARNING", "SKIPPED", "INFO", "SUCCESS")


class SuiteMissing(RuntimeError):
    pass


def installed() -> None:
    if not NODE.is_file() or not (PACKAGE / "dist" / "index.js").is_file():
        raise SuiteMissing("node_modules/.bin/node or the conformance suite is missing: run `make setup` "
                           "(npm ci installs both from package-lock.json)")


def pinned(root: Path = ROOT) -> str | None:
    """The version package.json pins (package-lock.json's, when it names one), or None: a checkout without the
    suite keeps no record."""
    manifest, lock = root / "package.json", root / "package-lock.json"
    if not manifest.is_file():
        return None
    version = json.loads(manifest.read_text(encoding="utf-8")).get("dependencies", {}).get(NAME)
    if version is None or not lock.is_file():
        return version
    locked = json.loads(lock.read_text(encoding="utf-8")).get("packages", {}).get(f"node_modules/{NAME}", {})
    return locked.get("version", version)


def installed_version() -> str:
    """The version npm installed under node_modules: the one whose results a run records."""
    installed()
    return json.loads((PACKAGE / "package.json").read_text(encoding="utf-8"))["version"]


def required() -> list[str]:
    """The server scenarios the revision requires, in the suite's own order."""
    installed()
    import yaml  # here: run_examples.py's check of the record imports this module on every run

    data = yaml.safe_load((PACKAGE / "requirements" / f"{REVISION}.yaml").read_text(encoding="utf-8"))
    return list(data["server"])


def about() -> dict[str, str]:
    """Each scenario's own one-line summary: the first line of its description in the suite's bundle."""
    installed()
    bundle = (PACKAGE / "dist" / "index.js").read_text(encoding="utf-8")
    return {match["name"]: match["text"] for match in DESCRIPTION.finditer(bundle)}


def run(url: str, out: Path) -> subprocess.CompletedProcess:
    installed()
    command = [str(NODE), str(PACKAGE / "dist" / "index.js"), "server", "--url", url,
               "--requirements", REVISION, "-o", str(out)]
    return subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=out,
                          env=dict(os.environ, NO_COLOR="1"))


def read_checks(out: Path) -> dict[str, list[dict]]:
    """Each scenario's checks, as the suite wrote them under `out`."""
    found: dict[str, list[dict]] = {}
    for path in sorted(out.glob("server-*/checks.json")):
        match = SCENARIO_DIR.match(path.parent.name)
        if match:
            found[match["scenario"]] = json.loads(path.read_text(encoding="utf-8"))
    return found


def outcomes(checks: list[dict]) -> dict[str, dict]:
    """check id -> {status, description, message}: one entry per id, the worst status when it repeats."""
    merged: dict[str, dict] = {}
    for check in checks:
        seen = merged.get(check["id"])
        if seen is None or SEVERITY.index(check["status"]) < SEVERITY.index(seen["status"]):
            merged[check["id"]] = {"status": check["status"], "description": check.get("description", ""),
                                   "message": check.get("errorMessage") or ""}
    return merged
