"""The table on docs/mcp/rmcp.md: a Python-Markdown extension (mkdocs.yml `markdown_extensions`) that replaces the
line `<!-- rmcp-features -->` with the checked-in record (tests/interop/rmcp-features/record.jsonl) as a table,
one line per build and feature. Nothing in it is typed into the page."""

from __future__ import annotations

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from ..paste.markdown_ext import expand_markers
from . import record

MARKER = re.compile(r"<!-- rmcp-features -->")
HEAD = ["| Build (what CI runs) | rmcp feature | Without it, or with it where said: the compiler's first error |",
        "|---|---|---|"]


class TableError(RuntimeError):
    pass


def code(text: str) -> str:
    """Inline code that may hold backticks, and no pipe that would end the cell."""
    return f"`` {text.replace('|', '/')} ``"


def build_cell(row: dict) -> str:
    return f"{row['label']}: {code(row['command'])}, {row['then']}"


def lines_of(row: dict) -> list[str]:
    cells = [(f"`{feature}`", code(said)) for feature, said in row["without"].items()]
    cells += [(f"`{feature}` ({'a default' if feature in row['defaults'] else 'declared'}, not needed)",
               "builds and runs") for feature in row["not_needed"]]
    cells += [(f"with `{feature}` added", code(said)) for feature, said in row["with"].items()]
    return [f"| {build_cell(row) if number == 0 else row['label']} | {feature} | {said} |"
            for number, (feature, said) in enumerate(cells)]


def render() -> list[str]:
    rows = record.load()
    if not rows:
        raise TableError(f"{record.shown()} is missing or empty; run: {record.WRITE}")
    return HEAD + [line for row in rows for line in lines_of(row)]


class TablePreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        return expand_markers(lines, MARKER, lambda match: render())


class TableExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(TablePreprocessor(md), "rmcp_features", 31.3)


def makeExtension(**kwargs) -> TableExtension:  # noqa: N802 (Python-Markdown's entry point)
    return TableExtension(**kwargs)
