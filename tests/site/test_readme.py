"""README.md is for a user: what the project is, what it needs, the two commands, the design in one screen, the
commands and exit codes, and a paragraph per measured headline. The dated measurements live in benchmarks/LOG.md,
newest first, and the rest of the design in DESIGN.md."""

from __future__ import annotations

import json
import re

from support.repo import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
LOG = (ROOT / "benchmarks" / "LOG.md").read_text(encoding="utf-8")
SCREEN = 60  # lines of a terminal or an editor window


def test_the_readme_fits_on_two_screens():
    assert len(README.splitlines()) <= 2 * SCREEN, f"README.md has {len(README.splitlines())} lines"


def test_the_readme_has_what_a_user_needs_first():
    headings = re.findall(r"^## (.+)$", README, re.M)
    assert headings[:3] == ["Requirements", "Two commands on a fresh clone", "The design in one screen"], headings
    for needed in ("make serve", "make test", "| `python tools/run_examples.py --check` |", "Exit codes: 0 ok",
                   "6 no sandbox", "(benchmarks/LOG.md)", "(DESIGN.md)", "(CONTRIBUTING.md)"):
        assert needed in README, f"README.md lost {needed!r}"


def test_the_readme_keeps_no_measurement_log():
    """No benchmark tables and no times of day: those are the log's; the README says what they mean."""
    tables = [line for line in README.splitlines() if re.match(r"^\| *(examples|run|what|language|part) *\|", line)]
    assert not tables, f"README.md holds a measurement table: {tables[0]}"
    timed = re.findall(r"\b\d{1,2}:\d\d(?: to \d{1,2}:\d\d)? UTC", README)
    assert not timed, f"README.md holds a timed measurement ({timed[0]}): move it to benchmarks/LOG.md"


def test_the_log_is_dated_newest_first():
    dates = re.findall(r"^## (\d{4}-\d{2}-\d{2})", LOG, re.M)
    assert len(dates) >= 5, dates
    assert dates == sorted(dates, reverse=True), f"benchmarks/LOG.md is not newest first: {dates}"


def test_every_relative_link_of_the_readme_and_the_design_resolves():
    for name in ("README.md", "DESIGN.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (ROOT / target).exists(), f"{name} links to {target}, which does not exist"


def node_minimum(range_text: str) -> int | None:
    """The least Node major a plain `>=N` (or `>= N.x.y`) engines range allows; None for any other form."""
    match = re.fullmatch(r">=\s*(\d+)(\.\d+)*", range_text.strip())
    return int(match.group(1)) if match else None


def engine_gaps(lock: dict, readme: str) -> list[str]:
    """Packages in the lock that ask for a newer Node than package.json's engines allow, and the README does not name
    with their version: each is an EBADENGINE warning a reader meets on `npm ci` without a word of why."""
    root = lock["packages"][""]
    allowed = node_minimum(root.get("engines", {}).get("node", ""))
    if allowed is None:
        return ["package.json: give engines.node as >=N, the Node this project needs"]
    gaps = []
    for path, package in lock["packages"].items():
        wanted = node_minimum(package.get("engines", {}).get("node", ""))
        name = path.rsplit("node_modules/", 1)[-1]
        if path and wanted is not None and wanted > allowed and f"`{name}`\n  {package['version']}" not in readme \
                and f"`{name}` {package['version']}" not in readme:
            gaps.append(f"{name} {package['version']} asks for Node {wanted}, above engines' {allowed}: say in "
                        f"README.md why npm ci warns for it, or raise engines.node")
    return gaps


def test_readme_and_package_json_agree_on_node():
    package = json.loads((ROOT / "package.json").read_text())
    lock = json.loads((ROOT / "package-lock.json").read_text())
    allowed = node_minimum(package["engines"]["node"])
    assert lock["packages"][""].get("engines") == package["engines"], "run npm install --package-lock-only"
    assert f"Node.js with npm, {allowed} or newer (`engines` in `package.json`)" in README
    assert engine_gaps(lock, README) == []


def test_a_dependency_that_needs_a_newer_node_must_be_explained():
    lock = json.loads((ROOT / "package-lock.json").read_text())
    lock["packages"]["node_modules/pyodide"]["engines"] = {"node": ">=24"}
    assert engine_gaps(lock, README) == [
        f"pyodide {lock['packages']['node_modules/pyodide']['version']} asks for Node 24, above engines' 20: say in "
        f"README.md why npm ci warns for it, or raise engines.node"]
