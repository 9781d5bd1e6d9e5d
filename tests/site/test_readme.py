"""README.md is for a user: what the project is, what it needs, the two commands, the design in one screen, the
commands and exit codes, and a paragraph per measured headline. The dated measurements live in benchmarks/LOG.md,
newest first, and the rest of the design in DESIGN.md."""

from __future__ import annotations

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
