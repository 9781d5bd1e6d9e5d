"""The conversation view rendered when the site is built (runex.paste.markdown_ext): the page holds the empty marker
pair, the build puts the view between them, and a bad marker stops the build naming the page and its line."""

from __future__ import annotations

import markdown
import pytest

from support.tool_repos import ECHO, invoke, make_repo, page

from runex.examples.files import ExampleFiles
from runex.errors import PageError
from runex.paste import markdown_ext, pages

FRONT_MATTER = "---\ntitle: P\n---\n"


def convert(root, text: str) -> str:
    """The page as MkDocs hands it to Python-Markdown: front matter already taken off."""
    extensions = [markdown_ext.makeExtension(root=str(root)), "md_in_html", "attr_list", "pymdownx.superfences"]
    return markdown.Markdown(extensions=extensions).convert(text.removeprefix(FRONT_MATTER))


def test_the_build_renders_what_the_tool_checks_between_the_empty_markers(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/conversation", "ex/transcript.jsonl")})
    assert invoke(root).returncode == 0
    source = (root / "docs/p.md").read_text()
    assert "<!-- example-begin: ex/conversation -->\n<!-- example-end -->" in source
    pasted = pages.paste_page(root, root / "docs/p.md", ExampleFiles(root))
    block = next(b for b in pasted.blocks if b.target == "ex/conversation")
    view = pages.conversation_body(root, block, "docs/p.md", ExampleFiles(root))
    expanded = markdown_ext.expand(source, root, "docs/p.md")
    assert expanded == source.replace("<!-- example-begin: ex/conversation -->\n",
                                      "<!-- example-begin: ex/conversation -->\n" + "".join(view))
    built = convert(root, source)
    assert '<div class="conversation" data-example="ex"' in built and 'class="exchange-side exchange-request"' in built
    assert "exchange" not in convert(root, "# A page without a conversation\n")


@pytest.mark.parametrize("target, message", [
    ("nope/conversation", "there is no folder examples/nope"),
    ("ex/conversation#2-9", "run past its end"),
])
def test_a_bad_marker_stops_the_build_at_its_page_and_line(tmp_path, target, message):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl")})
    assert invoke(root).returncode == 0
    text = FRONT_MATTER + (root / "docs/p.md").read_text() + page(target, title="More")
    (root / "docs/p.md").write_text(text)
    line = next(i for i, l in enumerate(text.splitlines(), 1) if f"example-begin: {target}" in l)
    with pytest.raises(PageError) as raised:
        convert(root, text)
    assert str(raised.value).startswith(f"docs/p.md:{line}: "), str(raised.value)
    assert message in str(raised.value) and "tools/run_examples.py --check" in str(raised.value)


def test_text_between_a_conversations_markers_stops_the_build(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/conversation")})
    assert invoke(root).returncode == 0
    marker = "<!-- example-begin: ex/conversation -->\n"
    text = (root / "docs/p.md").read_text().replace(marker, marker + "<p>typed by hand</p>\n")
    (root / "docs/p.md").write_text(text)
    with pytest.raises(PageError, match=r"^docs/p.md:\d+: text between the markers of ex/conversation.*"
                                        r"run: python tools/run_examples.py$"):
        convert(root, text)
