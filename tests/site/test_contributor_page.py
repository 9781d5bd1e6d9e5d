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


def rows() -> list[tuple[str, str, str]]:
    """(rule, why, command) of each row of the rules table."""
    found = []
    for line in rules_section().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("| ") else []
        if len(cells) == 3 and cells[0] != "Rule" and not set(cells[0]) <= {"-"}:
            command = re.search(r"`([^`]+)`(?![^`]*`)", cells[2])
            found.append((cells[0], cells[1], command.group(1) if command else ""))
    return found


def test_every_rule_the_suite_holds_is_stated():
    section = rules_section()
    for rule in ("rustfmt", "closes its stdout", "lone surrogate", "`isError: true`", "`enum`", "level tag", '"In short"',
                 "## Sources",
                 "## Po polsku", 'lang="pl"', "3 to 5 paragraphs", "Szukaj po polsku", "collapsed `???` block",
                 "`mkdocs.yml`", "`docs/levels.md`", "`docs/index.md`"):
        assert rule in section, f"{PAGE.relative_to(ROOT)}: the rules section does not state {rule!r}"


def test_every_rule_has_a_reason_and_a_command_naming_tests_that_exist():
    assert len(rows()) >= 7, rows()
    for rule, why, command in rows():
        assert len(why) > 20, f"{rule[:40]}...: say why the rule holds"
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


# Test files that hold no rule for an example or a page, each with what it holds instead. Every other file under
# tests/interop, tests/site and tests/browser holds one, and the rules table names it: a contributor reads the rule
# there before a test finds it.
NOT_A_RULE = {
    "tests/interop/test_broken_copies.py": "the checks themselves, against broken copies of an example",
    "tests/site/test_conformance_card.py": "the conformance report card's page and its rendering",
    "tests/site/test_rmcp_features_table.py": "the rmcp features table's rendering on the rmcp page",
    "tests/site/test_reader_outputs.py": "what the built site gives readers' tools: llms.txt, each page as Markdown, "
                                         "Open Graph tags, the report link",
    "tests/browser/test_page_controls.py": "the copy page and report a problem controls, in Chromium",
    "tests/browser/test_accessibility.py": "the axe check itself, against planted faults, and the keyboard walk "
                                           "through Run it here",
    "tests/interop/test_schema_validator.py": "the tool's schema validator on single messages",
    "tests/site/test_contributor_page.py": "this page",
    "tests/site/test_make_example.py": "the fast loop itself",
    "tests/site/test_readme.py": "README.md",
    "tests/site/test_serve_config.py": "make serve's configuration",
    "tests/site/test_serve_plugin.py": "make serve's MkDocs plugin",
    "tests/site/test_serve_live.py": "make serve, run for real",
    "tests/site/test_site_config.py": "the site's address, sitemap and edit links (mkdocs.yml)",
    "tests/site/test_zensical.py": "the site under Zensical",
    "tests/browser/test_broken_pages.py": "the browser checks themselves, against broken pages",
    "tests/browser/test_http_view.py": "the HTTP view's layout, for every HTTP example at once",
    "tests/browser/test_polish_search.py": "the search box's Polish folding",
    "tests/browser/test_site_pages.py": "every built page at once, one load per viewport: loads cleanly, tabs, "
                                        "palette, search, phone (and the rules it holds on each page)",
    "tests/browser/test_subpath_404.py": "the 404 page under a sub-path",
}


def test_every_test_file_of_a_rule_is_named_in_the_rules_table():
    section = rules_section()
    files = sorted(str(p.relative_to(ROOT)) for folder in ("interop", "site", "browser")
                   for p in (ROOT / "tests" / folder).glob("test_*.py"))
    unnamed = [f for f in files if f not in NOT_A_RULE and f not in section]
    assert unnamed == [], (f"state the rule each of these holds in the rules table of {PAGE.relative_to(ROOT)}, with "
                           f"its reason and the command that checks it (or list the file in NOT_A_RULE, saying what "
                           f"it holds instead): {unnamed}")
    assert [f for f in NOT_A_RULE if f not in files] == [], "NOT_A_RULE names a file that is gone"


def test_the_python_half_of_the_floats_section_is_what_python_does():
    """"Floats, byte for byte" quotes json.dumps and Python's rounding; this interpreter must still agree (the serde_json
    half was measured against the examples' Cargo.lock, whose serde_json the page names)."""
    import json

    text = PAGE.read_text(encoding="utf-8")
    written = ", ".join(f"`{json.dumps(v)}`" for v in (1.5e-5, 9.9e-5, 1e-6, 1e-7))
    assert f"| {written} |" in text, written
    assert json.dumps(100 * 9 / 5 + 32) == "212.0" and json.dumps(100 * 9 // 5 + 32) == "212"
    assert (round(0.125, 2), round(2.675, 2), round(2.5)) == (0.12, 2.67, 2)
    assert (f"{0.125:.2f}", f"{2.675:.2f}", f"{2.5:.2f}") == ("0.12", "2.67", "2.50")
    assert "`0.12` in Python and `0.13` in Rust, `2.675` gives `2.67` and `2.68`" in text
