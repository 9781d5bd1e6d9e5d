"""What a page's HTML becomes before mkdocs-llmstxt turns it into the page's Markdown (index.md beside index.html,
and llms-full.txt): mkdocs.yml names this file as the plugin's `preprocess`.

The plugin converts the rendered article to Markdown and, by itself, drops what a reader of Markdown cannot use
(permalinks, icons, line numbers) but also the names of content tabs and the inline diagram. Here, before that:

- each conversation view (tools/runex/paste/conversation_view.py) becomes its exchanges in plain Markdown: the
  heading, then per message its label (which file and line it is) and the message as a ```json block, the whole
  message from the raw line the page holds (runex.paste.pretty, numbers and keys as on the wire), not the
  page's shortened form with `_meta` as `{…}`; the page's cut, "show all" and "raw line" controls go;
- each content tab's name ("Rust", "Python") is kept as a bold line above its content;
- the inline diagram becomes its title and description, which its SVG carries for screen readers;
- each highlighted block becomes a plain block with its language (```rust, ```json), its file name above it.
"""

from __future__ import annotations

from bs4 import BeautifulSoup, Tag
from mkdocs_llmstxt import autoclean

from runex.paste.pretty import pretty


def preprocess(soup: BeautifulSoup, output: str) -> None:  # the plugin's name and signature
    for view in soup.select("div.conversation"):
        view.replace_with(_conversation(soup, view))
    for tabs in soup.select("div.tabbed-set"):
        _name_the_tabs(soup, tabs)
    for block in soup.select("div.highlight"):
        _plain_code(soup, block)
    for svg in soup.find_all("svg"):
        _describe(soup, svg)
    autoclean(soup)


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
    cells = block.select("td.code code")
    code = cells[-1] if cells else block.find("code")
    return code.get_text().rstrip("\n") if code is not None else ""


def _plain_code(soup: BeautifulSoup, block: Tag) -> None:
    """A Pygments block (line numbers, spans) -> a plain <pre> with its language, the file name line kept above."""
    language = next((c[len("language-"):] for c in block.get("class", []) if c.startswith("language-")), "")
    title = block.find(class_="filename")
    if title is not None:
        block.insert_before(_bold(soup, _text(title)))
    block.replace_with(_fence(soup, _code_of(block), language))


def _message(soup: BeautifulSoup, raw: Tag) -> Tag:
    """The exact line a `details.raw-line` holds, as a fenced block: JSON pretty-printed in full, else as text.
    find_next, not find: inside an indented block (a collapsed "??? example") md_in_html leaves the details open
    in a paragraph, and its code block follows it."""
    block = raw.find_next("div", class_="highlight")
    line = _code_of(block) if block is not None else ""
    shown = pretty(line)
    return _fence(soup, shown, "json") if shown is not None else _fence(soup, line, "text")


def _side(soup: BeautifulSoup, side: Tag) -> list[Tag]:
    """One message: its label ("Request transcript line 2") in bold, its notes, the message itself."""
    out = [_label(soup, side.find(class_="exchange-label"))]
    out += [_element(soup, "p", _text(note)) for note in side.find_all("p", class_="exchange-note")]
    raw = side.find("details", class_="raw-line")
    if raw is not None:
        out.append(_message(soup, raw))
    return out


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


def _conversation(soup: BeautifulSoup, view: Tag) -> Tag:
    """The view as headings, labels, notes and fenced messages, in the order the page shows them."""
    out = _element(soup, "div")
    for part in view.find_all(["p", "div"], class_=["exchange-heading", "exchange-side", "exchange-note"]):
        classes = part["class"]
        if "exchange-heading" in classes:
            out.append(_element(soup, "h4", _text(part)))
            lane = part.find_parent("div", class_="stderr-lane")
            if lane is not None:  # the server's log: one text block
                out.append(_fence(soup, _code_of(lane.find("div", class_="highlight")), "text"))
        elif "exchange-side" in classes:
            out.extend(_side(soup, part))
        elif part.find_parent(class_="exchange-side") is None:  # a row's own note ("No reply on stdout.")
            out.append(_element(soup, "p", _text(part)))
    return out


def _name_the_tabs(soup: BeautifulSoup, tabs: Tag) -> None:
    labels = [_text(label) for label in tabs.select(":scope > .tabbed-labels > label")]
    blocks = tabs.select(":scope > .tabbed-content > .tabbed-block")
    for label, block in zip(labels, blocks):
        block.insert(0, _bold(soup, label))


def _describe(soup: BeautifulSoup, svg: Tag) -> None:
    """An SVG with a <title> (a diagram, not an icon) -> "Diagram: title. description" as a paragraph."""
    title = svg.find("title")
    if title is None or not _text(title):
        return
    words = f"Diagram: {_text(title)}. {_text(svg.find('desc'))}".strip()
    svg.replace_with(_element(soup, "p", words))
