"""The contributor page states every rule the suite holds for an example and a page, each with a command that checks
it in seconds, and every command it gives names tests that exist."""

from __future__ import annotations

import re
import shlex

from support.repo import ROOT

PAGE = ROOT / "docs" / "contributing" / "adding-an-example.md"
HEADING = "## Rules the suite holds, and the command that checks each in seconds"
PLACEHOLDERS = {"NAME", "PAGE", "and", "or", "not"}


def rules_section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    assert HEADING in text, f"{PAGE.relative_to(ROOT)} needs the section {HEADING!r}"
    rest = text.split(HEADING, 1)[1]
    return rest.split("\n## ", 1)[0]


def rows() -> list[tuple[str, str]]:
    found = []
    for line in rules_section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        if len(cells) == 2 and cells[0] != "Rule" and not set(cells[0]) <= {"-"}:
            command = re.search(r"`([^`]+)`(?![^`]*`)", cells[1])
            found.append((cells[0], command.group(1) if command else ""))
    return found


def test_every_rule_the_suite_holds_is_stated():
    section = rules_section()
    for rule in ("rustfmt", "closes its stdout", "lone surrogate", "level tag", '"In short"', "## Sources",
                 "## Po polsku", 'lang="pl"', "3 to 5 paragraphs", "Szukaj po polsku", "collapsed `???` block",
                 "`mkdocs.yml`", "`docs/levels.md`", "`docs/index.md`"):
        assert rule in section, f"{PAGE.relative_to(ROOT)}: the rules section does not state {rule!r}"


def test_every_rule_has_a_command_naming_tests_that_exist():
    assert len(rows()) >= 7, rows()
    for rule, command in rows():
        words = shlex.split(command)
        assert words[:3] == [".venv/bin/python", "-m", "pytest"] or words[:2] == [".venv/bin/python",
                                                                                   "tools/run_examples.py"], command
        if words[2] != "pytest":
            continue
        path = ROOT / words[3]
        assert path.is_file(), f"{rule[:40]}...: {words[3]} does not exist"
        names = re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
        if "-k" in words:
            wanted = [w for w in re.split(r"[\s()]+", words[words.index("-k") + 1]) if w and w not in PLACEHOLDERS]
            for word in wanted:
                assert any(word in name for name in names), f"{command}: no test in {words[3]} matches {word!r}"


def test_contributing_md_points_at_the_rules():
    """A contributor reads CONTRIBUTING.md first: it names the section, so the rules are heard before the suite runs."""
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert '"Rules the suite holds"' in text and "(docs/contributing/adding-an-example.md)" in text
    assert HEADING.removeprefix("## ").startswith("Rules the suite holds")
