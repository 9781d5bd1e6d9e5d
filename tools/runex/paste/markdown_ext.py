"""NAME/conversation rendered when the site is built: a Python-Markdown extension (mkdocs.yml `markdown_extensions`).

A page holds only the marker pair of a conversation; the view (conversation_view.py) would be thousands of lines of
HTML in the page's source, rewritten in review by every change to an answer key. This preprocessor puts the view
between the two markers before any other extension reads the page, so md_in_html, superfences and the theme see
the very text the tool used to paste, and a reader sees the same page. It reads the example's files as checked in
(transcript, answer key, stderr lane, example.toml), which `tools/run_examples.py --check` has verified.

A Markdown extension and not part of the MkDocs plugin: Zensical reads the same `markdown_extensions` (and leaves
out plugins it does not know). Both import it from the package runex, installed in each venv (`make setup`,
tools/zensical_env.py). The MkDocs plugin sets `root` to the checkout being built; Zensical builds with the default.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from ..errors import PageError
from ..examples.files import ExampleFiles
from . import markers, pages

ROOT = Path(__file__).resolve().parents[3]  # the checkout whose examples/ the views are read from
# After pymdownx.snippets (32), before superfences' raw fences (31.05), Markdown's whitespace clean-up (30), the
# fenced blocks (25) and md_in_html (20): the view is then page text like any other.
PRIORITY = 31.5
FIX = "python tools/run_examples.py"


def expand_markers(lines: list[str], marker: re.Pattern, render: Callable[[re.Match], list[str]]) -> list[str]:
    """Each line that is `marker` alone replaced by the lines `render` makes of it, at that line's indent (inside a
    note or a tab, the block stays inside): the report card's and the features table's markers."""
    out: list[str] = []
    for line in lines:
        match = marker.fullmatch(line.strip())
        if not match:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        out.extend(indent + made for made in render(match))
    return out


def expand(text: str, root: Path, page: str) -> str:
    """`text` with every NAME/conversation marker pair holding its view; PageError (at `page`'s line) on a marker
    that names no example, a bad range, a missing answer key, or text between the markers of a conversation."""
    if "/conversation" not in text:  # most pages: no marker parsed
        return text
    segments = markers.parse(text, page)
    bodies: dict[int, list[str]] = {}
    files = ExampleFiles(root)  # a page's views of one example read its files once
    for block in segments:
        if not isinstance(block, markers.Block) or not pages.is_conversation(block.target):
            continue
        if any(line.strip() for line in block.body):
            raise PageError(f"text between the markers of {block.target}: a conversation is rendered when the site "
                            f"is built, and its markers stay empty; run: {FIX}", file=page, line=block.line)
        bodies[block.line] = pages.conversation_body(root, block, page, files)
    return markers.render(segments, bodies) if bodies else text


def locate(text: str, root: Path) -> tuple[str, int]:
    """Which page under docs/ `text` is, and how many lines above it the builder left out (its front matter): the
    builder hands a Markdown extension the text alone. ("the page being built", 0) when no file holds it."""
    body = text.rstrip("\n")
    for path in sorted((root / "docs").rglob("*.md")):
        try:
            whole = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        where = whole.find(body) if body else -1
        if where >= 0:
            return str(path.relative_to(root)), whole.count("\n", 0, where)
    return "the page being built", 0


class ConversationPreprocessor(Preprocessor):
    def __init__(self, md: Markdown, root: Path):
        super().__init__(md)
        self.root = root

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        try:
            return expand(text, self.root, "page").split("\n")
        except PageError as error:
            page, above = locate(text, self.root)
            fix = "" if "run_examples.py" in error.message or "run the tool" in error.message else \
                f"; fix the marker, then check it with: {FIX} --check"
            raise PageError(error.message + fix, file=page, line=(error.line or 1) + above) from None


class ConversationExtension(Extension):
    def __init__(self, **kwargs):
        self.config = {"root": [str(ROOT), "the checkout whose examples/ the conversations are read from"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(ConversationPreprocessor(md, Path(self.getConfig("root"))), "conversation",
                                  PRIORITY)


def makeExtension(**kwargs) -> ConversationExtension:  # noqa: N802 (Python-Markdown looks for this name)
    return ConversationExtension(**kwargs)
