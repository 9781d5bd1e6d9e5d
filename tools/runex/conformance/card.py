"""The report card rendered when the site is built: a Python-Markdown extension (mkdocs.yml `markdown_extensions`)
that replaces each line `<!-- conformance-card: PART -->` (summary, scenarios, reasons) with a table made from the checked-in record
(tests/interop/conformance/record.jsonl), the reasons in tests/interop/conformance/<example>.yaml and the
scenario-to-page map in tests/interop/conformance/pages.yaml. Nothing in the tables is typed into the page.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

import yaml
from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from ..paste.markdown_ext import expand_markers
from . import record

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "interop" / "conformance"
MARKER = re.compile(r"<!-- conformance-card: (?P<part>[a-z]+) -->")
PAGE = "mcp/conformance.md"  # the page that holds the marker: links are written relative to it
LANGUAGES = {"cargo": "Rust", "rust": "Rust", "python": "Python"}
ROW_ID = "scenario-{scenario}"  # each scenario row's anchor: the teaching pages link to it, so it never changes


class CardError(RuntimeError):
    pass


def label(impl: str) -> str:
    example, name = impl.split("/")
    return f"{example} ({LANGUAGES.get(name, name)})"


def link(target: str) -> str:
    path, _, fragment = target.partition("#")
    if path == PAGE and fragment:  # a section of the card's own page: the fragment alone, as both builders write it
        return f"#{fragment}"
    relative = posixpath.relpath(path, posixpath.dirname(PAGE))
    return relative + (f"#{fragment}" if fragment else "")


def title(target: str) -> str:
    """The linked page's title from its front matter; "this page" for the card's own page."""
    path = target.partition("#")[0]
    if path == PAGE:
        return "this page"
    text = (ROOT / "docs" / path).read_text(encoding="utf-8")
    match = re.search(r"^title: *\"?(?P<title>.*?)\"?$", text.split("\n---", 1)[0], re.M)
    return match["title"] if match else path


def row_id(scenario: str) -> str:
    """The anchor of a scenario's row on the card: `mcp/conformance.md#scenario-tools-list` from another page."""
    return ROW_ID.format(scenario=scenario)


def by_scenario(rows: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = {}
    for row in rows:
        grouped.setdefault(row["scenario"], []).append(row)
    return grouped


def cell(checks: list[dict], impl: str) -> str:
    results = [row["results"][impl] for row in checks if impl in row["results"]]  # the checks it ran
    failed = results.count("fail")
    return "pass" if failed == 0 else f"**fail** ({failed} of {len(results)})"


def example_cell(checks: list[dict], impls: list[str]) -> str:
    """One example's twins in one cell: their common result, or each one's when they differ."""
    cells = {impl: cell(checks, impl) for impl in impls}
    if len(set(cells.values())) == 1:
        return next(iter(cells.values()))
    return "; ".join(f"{LANGUAGES.get(impl.split('/')[1], impl)}: {result}" for impl, result in cells.items())


def summary(grouped: dict[str, list[dict]], impls: list[str]) -> list[str]:
    lines = ["| Implementation | Required scenarios passed | Checks failed |", "|---|---|---|"]
    for impl in impls:
        passed = sum(all(row["results"].get(impl) != "fail" for row in checks) for checks in grouped.values())
        results = [row["results"][impl] for checks in grouped.values() for row in checks if impl in row["results"]]
        lines.append(f"| {label(impl)} | {passed} of {len(grouped)} | {results.count('fail')} of {len(results)} |")
    return lines


def scenarios(grouped: dict[str, list[dict]], impls: list[str], pages: dict[str, str]) -> list[str]:
    examples: dict[str, list[str]] = {}
    for impl in impls:
        examples.setdefault(impl.split("/")[0], []).append(impl)
    head = "| Scenario | What it checks | Taught on | " + " | ".join(examples) + " |"
    lines = [head, "|" + "---|" * (3 + len(examples))]
    for scenario, checks in grouped.items():
        taught = f"[{title(pages[scenario])}]({link(pages[scenario])})" if scenario in pages else ""
        cells = " | ".join(example_cell(checks, members) for members in examples.values())
        anchor = f'<a id="{row_id(scenario)}"></a>'
        lines.append(f"| {anchor}`{scenario}` | {checks[0]['about'].replace('|', '/')} | {taught} | {cells} |")
    return lines


def reasons(rows: list[dict]) -> list[str]:
    lines = ["| Example | Scenario | Check | Implementations | Why it fails |", "|---|---|---|---|---|"]
    failing = {impl.split("/")[0] for row in rows for impl, result in row["results"].items() if result == "fail"}
    for example in sorted(failing):
        path = DATA / f"{example}.yaml"
        entries = yaml.safe_load(path.read_text(encoding="utf-8"))["expected_failures"] if path.is_file() else []
        for item in entries or []:
            who = ", ".join(LANGUAGES.get(i, i) for i in item.get("implementations", ["cargo", "python"]))
            scenario = "every scenario" if item["scenario"] == "*" else f"`{item['scenario']}`"
            check = f"`{item['check']}`" if "check" in item else "every check"
            lines.append(f"| {example} | {scenario} | {check} | {who} | {item['reason'].replace('|', '/')} |")
    return lines


def render(part: str) -> list[str]:
    """One table: `summary`, `scenarios` or `reasons`."""
    rows = record.load()
    if not rows:
        raise CardError(f"{record.RECORD.relative_to(ROOT)} is missing or empty; run: {record.WRITE}")
    impls = sorted({impl for row in rows for impl in row["results"]},
                   key=lambda impl: (not impl.startswith("conformance-reference/"), impl))
    if part == "summary":
        return summary(by_scenario(rows), impls)
    if part == "scenarios":
        pages = yaml.safe_load((DATA / "pages.yaml").read_text(encoding="utf-8"))
        return scenarios(by_scenario(rows), impls, pages)
    if part == "reasons":
        return reasons(rows)
    raise CardError(f"<!-- conformance-card: {part} -->: the card has the parts summary, scenarios and reasons")


class CardPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return expand_markers(lines, MARKER, lambda match: render(match["part"]))


class CardExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(CardPreprocessor(md), "conformance_card", 31.4)


def makeExtension(**kwargs) -> CardExtension:  # noqa: N802 (Python-Markdown's entry point)
    return CardExtension(**kwargs)
