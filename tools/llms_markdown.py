"""What a page's HTML becomes before mkdocs-llmstxt turns it into the page's Markdown (index.md beside index.html,
and llms-full.txt): mkdocs.yml names this file as the plugin's `preprocess`.

The plugin converts the rendered article to Markdown and, by itself, drops what a reader of Markdown cannot use
(permalinks, icons, line numbers) but also the names of content tabs and the inline diagram. Here, before that:

- each conversation view (tools/runex/paste/conversation_view.py) becomes its exchanges in plain Markdown: the
  heading, then per message its label (which file and line it is) and the message as a ```json block, the whole
  message from the raw line the page holds (runex.paste.pretty, numbers and keys as on the wire), not the
  page's shortened form with `_meta` as `{…}`; the page's cut, "show all" and "raw line" controls go;
- each content tab's name ("Rust", "Python") is kept as a bold line above its content, and so is the title of
  each admonition ("In short") and collapsed block;
- the inline diagram becomes its title and description, which its SVG carries for screen readers;
- each highlighted block becomes a plain block with its language (```rust, ```json), its file name above it.
"""

from __future__ import annotations

import re

from bs4 import BeautifulSoup, Tag
from mkdocs_llmstxt import autoclean
from mkdocs_llmstxt._internal import plugin as llmstxt_plugin

from runex.paste.pretty import pretty


class _Converter(type(llmstxt_plugin._converter)):
    """The plugin's HTML-to-Markdown converter (markdownify), with one fix: a block whose text holds a ``` line (the
    contributor page shows what a pasted block looks like in a page's source) gets a fence longer than any inside
    it, as CommonMark requires; markdownify always writes ```, and the block would end at its first inner fence.
    The plugin reads its module's `_converter` on every page, so replacing it here (mkdocs-llmstxt is pinned, and
    tests/site/test_reader_outputs.py fails if this stops working) covers every page."""

    def convert_pre(self, el, text, parent_tags):
        converted = super().convert_pre(el, text, parent_tags)
        longest = max((len(run) for run in re.findall(r"^[ \t]*(`{3,})", text, re.M)), default=0)
        if longest < 3:
            return converted
        fence = "`" * (longest + 1)
        head, _, rest = converted.partition("```")
        body, _, tail = rest.rpartition("```")
        return f"{head}{fence}{body}{fence}{tail}"


if not isinstance(llmstxt_plugin._converter, _Converter):
    llmstxt_plugin._converter = _Converter(**llmstxt_plugin._converter.options)


def preprocess(soup: BeautifulSoup, output: str) -> None:  # the plugin's name and signature
    _conversations(soup)
    for tabs in soup.find_all("div", class_="tabbed-set"):
        _name_the_tabs(soup, tabs)
    for block in soup.find_all("div", class_="highlight"):
        _plain_code(soup, block)
    for svg in soup.find_all("svg"):
        _describe(soup, svg)
    for title in [*soup.find_all("p", class_="admonition-title"), *soup.find_all("summary")]:  # "In short", a collapsed block's title
        title.replace_with(_bold(soup, _text(title)))
    autoclean(soup)


def _conversations(soup: BeautifulSoup) -> None:
    """Element by element, not view by view: inside an indented block (a list item, a collapsed "??? example")
    md_in_html leaves a view's HTML unbalanced, and a parser closes the view early."""
    for heading in soup.find_all("p", class_="exchange-heading"):
        heading.replace_with(_element(soup, "h4", _text(heading)))
    for label in soup.find_all("p", class_="exchange-label"):
        label.replace_with(_label(soup, label))
    for shortened in soup.find_all("div", class_="no-copy"):  # the page's shortened form; the raw line follows
        shortened.decompose()
    for raw in soup.find_all("details", class_="raw-line"):
        block = raw.find_next("div", class_="highlight")
        message = _message(soup, block)
        if block is not None:
            block.extract()
        raw.replace_with(message)
    for control in soup.find_all("details", class_="show-all"):
        control.decompose()


def _element(soup: BeautifulSoup, name: str, text: str = "", **attrs) -> Tag:
    tag = soup.new_tag(name, attrs=attrs)
    if text:
        tag.string = text
    return tag


def _text(tag: Tag | None) -> str:
    return " ".join(tag.get_text().split()) if tag is not None else ""


def _fence(soup: BeautifulSoup, code: str, language: str) -> Tag:
    """A <pre> the plugin turns into a ```language block (it reads the language from the <pre>'s classes)."""
    pre = _element(soup, "pre", **({"class": f"language-{language}"} if language else {}))
    pre.append(_element(soup, "code", code))
    return pre


def _code_of(block: Tag) -> str:
    """The text of a highlighted block, without its line numbers (a table's last cell holds the code)."""
    cell = block.find("td", class_="code")
    code = (cell or block).find("code")
    return code.get_text().rstrip("\n") if code is not None else ""


def _plain_code(soup: BeautifulSoup, block: Tag) -> None:
    """A Pygments block (line numbers, spans) -> a plain <pre> with its language, the file name line kept above."""
    language = next((c[len("language-"):] for c in block.get("class", []) if c.startswith("language-")), "")
    title = block.find(class_="filename")
    if title is not None:
        block.insert_before(_bold(soup, _text(title)))
    block.replace_with(_fence(soup, _code_of(block), language))


def _message(soup: BeautifulSoup, block: Tag | None) -> Tag:
    """The exact line of a raw-line block, as a fenced block: JSON pretty-printed in full, else as text. The block
    is the first one after the details' start: inside it, or right after it where md_in_html left it open."""
    line = _code_of(block) if block is not None else ""
    shown = pretty(line)
    return _fence(soup, shown, "json") if shown is not None else _fence(soup, line, "text")


def _label(soup: BeautifulSoup, label: Tag | None) -> Tag:
    """"Request transcript line 2" -> **Request** (transcript line 2)."""
    if label is None:
        return _element(soup, "p")
    where = label.find(class_="exchange-where")
    where_text = _text(where)
    if where is not None:
        where.extract()
    paragraph = _bold(soup, _text(label))
    if where_text:
        paragraph.append(f" ({where_text})")
    return paragraph


def _bold(soup: BeautifulSoup, text: str) -> Tag:
    paragraph = _element(soup, "p")
    paragraph.append(_element(soup, "strong", text))
    return paragraph


def _name_the_tabs(soup: BeautifulSoup, tabs: Tag) -> None:
    labels_box = tabs.find("div", class_="tabbed-labels", recursive=False)
    content = tabs.find("div", class_="tabbed-content", recursive=False)
    labels = [_text(label) for label in labels_box.find_all("label", recursive=False)] if labels_box else []
    blocks = content.find_all("div", class_="tabbed-block", recursive=False) if content else []
    for label, block in zip(labels, blocks):
        block.insert(0, _bold(soup, label))


def _describe(soup: BeautifulSoup, svg: Tag) -> None:
    """An SVG with a <title> (a diagram, not an icon) -> "Diagram: title. description" as a paragraph."""
    title = svg.find("title")
    if title is None or not _text(title):
        return
    words = f"Diagram: {_text(title)}. {_text(svg.find('desc'))}".strip()
    svg.replace_with(_element(soup, "p", words))
