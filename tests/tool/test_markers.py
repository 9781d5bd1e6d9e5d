"""The marker parser (runex.paste.markers): errors with their line, fences, regions, and properties of pasting."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runex.paste import markers
from runex.errors import PageError

PAGE = "docs/page.md"


def blocks(text: str) -> list[markers.Block]:
    return [s for s in markers.parse(text, PAGE) if isinstance(s, markers.Block)]


def parse_error(text: str) -> PageError:
    with pytest.raises(PageError) as caught:
        markers.parse(text, PAGE)
    assert caught.value.file == PAGE
    return caught.value


# --- parse ---------------------------------------------------------------------------------------------------

def test_parse_finds_blocks_with_line_indent_target_and_region():
    text = ("# T\n\n<!-- example-begin: a/main.rs -->\nold body\n<!-- example-end -->\n"
            "    <!-- example-begin: b/server.py#dispatch -->\n    <!-- example-end -->\n")
    found = blocks(text)
    assert [(b.line, b.indent, b.path, b.region) for b in found] == [
        (3, "", "a/main.rs", None), (6, "    ", "b/server.py", "dispatch")]
    assert found[0].body == ["old body\n"]
    assert markers.render(markers.parse(text, PAGE), {}) == text


def test_spacing_inside_markers_is_free():
    assert [b.target for b in blocks("<!--example-begin:a/x.py-->\n<!--example-end-->\n")] == ["a/x.py"]
    assert [b.target for b in blocks("\t<!--   example-begin:   a/x.py   -->  \n<!-- example-end -->\n")] == ["a/x.py"]


@pytest.mark.parametrize("text, line, words", [
    ("intro\n<!-- example-end -->\n", 2, "example-end without an example-begin"),
    ("a\n\n<!-- example-begin: x/main.rs -->\nbody\n", 3, "has no example-end below it"),
    ("<!-- example-begin: x/main.rs -->\n<!-- example-begin: y/main.rs -->\n<!-- example-end -->\n", 2,
     "markers do not nest"),
    ("ok\n<!-- example-begin x/main.rs -->\n<!-- example-end -->\n", 2, "malformed marker"),
    ("<!-- example-begin: x/main.rs --> and more\n<!-- example-end -->\n", 1, "malformed marker"),
    ("<!-- example-begin: x/main.rs y/server.py -->\n<!-- example-end -->\n", 1, "malformed marker"),
    ("<!-- example-begin: -->\n<!-- example-end -->\n", 1, "malformed marker"),
    ("<!-- example-begin: x/main.rs -->\n<!-- example-end --> trailing\n", 1, "no example-end below it"),
    ("Use `<!-- example-begin: x/main.rs -->` in prose\n", 1, "malformed marker"),
    ("<!-- example-begin: x/main.rs\n<!-- example-end -->\n", 1, "malformed marker"),
    ("<!-- example-end: x -->\n", 1, "malformed marker"),
])
def test_marker_errors_name_the_page_and_line(text, line, words):
    error = parse_error(text)
    assert error.line == line
    assert words in error.message
    assert str(error).startswith(f"{PAGE}:{line}: ")


def test_a_stray_end_after_a_closed_block():
    error = parse_error("<!-- example-begin: x/a.py -->\n<!-- example-end -->\n\n<!-- example-end -->\n")
    assert error.line == 4



def pasted(target: str) -> str:
    """A block as the tool pastes it, without its example-end."""
    body = markers.fenced("fn main() {}\n", "rust", target, f"Source: `examples/{target}`.", "")
    return f"<!-- example-begin: {target} -->\n" + "".join(body)


@pytest.mark.parametrize("after", ["\nMore prose.\n\n<!-- example-begin: y/main.rs -->\n<!-- example-end -->\n",
                                   "\nMore prose.\n"], ids=["next-block", "end-of-page"])
def test_a_deleted_end_names_the_open_block_and_where_its_pasted_text_ends(after):
    """Not "markers do not nest" at the next begin marker: the block that lost its end, and the line to put it after."""
    head = "# T\n\nProse.\n\n"  # the block opens on line 5
    text = head + pasted("x/main.rs") + after
    last = 4 + len(pasted("x/main.rs").splitlines())  # the blank line after the caption
    assert text.splitlines()[last - 2] == "{: .example-caption }" and text.splitlines()[last - 1] == ""
    error = parse_error(text)
    assert error.line == 5
    assert (f"the block opened on line 5 (x/main.rs) has no example-end; its pasted text ends at line {last}: "
            f"put the example-end marker on the line after it") in error.message, error.message
    assert "do not nest" not in error.message

@pytest.mark.parametrize("fence", ["```", "~~~", "````", "```markdown", "~~~~ text"])
def test_markers_inside_a_fence_are_text(fence):
    close = fence.split()[0].rstrip("markdown")
    text = (f"{fence}\n<!-- example-begin: nowhere/x.rs -->\n<!-- example-end -->\n<!-- example-end -->\n"
            f"<!-- example-begin malformed -->\n{close}\n\n<!-- example-begin: a/x.py -->\n<!-- example-end -->\n")
    found = blocks(text)
    assert [(b.line, b.target) for b in found] == [(8, "a/x.py")]
    assert markers.render(markers.parse(text, PAGE), {8: ["new\n"]}) == text.replace(
        "<!-- example-begin: a/x.py -->\n", "<!-- example-begin: a/x.py -->\nnew\n")


def test_a_fence_closes_only_with_its_own_kind_and_length():
    text = ("````\n```\n<!-- example-begin: in/fence.py -->\n```\n~~~~\n````\n"
            "<!-- example-begin: a/x.py -->\n<!-- example-end -->\n")
    assert [b.line for b in blocks(text)] == [7]


def test_an_indented_fence_in_a_content_tab_hides_markers():
    text = ('=== "Markdown"\n\n    ```markdown\n    <!-- example-begin: a/x.py -->\n    <!-- example-end -->\n'
            "    ```\n")
    assert blocks(text) == []


def test_an_info_string_does_not_close_a_fence():
    text = "```\n```python\n<!-- example-begin: a/x.py -->\n```\n"
    assert blocks(text) == []


# --- regions -------------------------------------------------------------------------------------------------

SOURCE = """# ANCHOR: imports
import sys
# ANCHOR_END: imports

# ANCHOR: main
def main():
    # ANCHOR: inner
    print("hi")
    # ANCHOR_END: inner
    return 0
# ANCHOR_END: main
"""


def test_a_whole_file_is_shown_without_anchor_lines():
    text = markers.extract_region(SOURCE, None, "examples/a/server.py")
    assert "ANCHOR" not in text
    assert text == 'import sys\n\ndef main():\n    print("hi")\n    return 0\n'


def test_a_region_is_shown_without_nested_anchor_lines():
    assert markers.extract_region(SOURCE, "main", "x") == 'def main():\n    print("hi")\n    return 0\n'
    assert markers.extract_region(SOURCE, "inner", "x") == '    print("hi")\n'


def test_rust_anchors_and_regions_list():
    rust = "// ANCHOR: a\nfn a() {}\n// ANCHOR_END: a\n//ANCHOR: b\nfn b() {}\n//ANCHOR_END: b\n"
    assert markers.extract_region(rust, "b", "x") == "fn b() {}\n"
    assert markers.regions_of(rust) == ["a", "b"]


def test_an_unknown_region_is_a_lookup_error():
    with pytest.raises(LookupError):
        markers.extract_region(SOURCE, "nope", "x")


@pytest.mark.parametrize("source, line, words", [
    ("# ANCHOR_END: a\n", 1, "without ANCHOR: a above it"),
    ("x\n# ANCHOR: a\n", 2, "never closed"),
    ("# ANCHOR: a\n# ANCHOR: a\n", 2, "opened twice"),
    ("# ANCHOR: a\n# ANCHOR_END: a\n# ANCHOR: a\n# ANCHOR_END: a\n", 3, "defined twice"),
])
def test_anchor_errors_name_the_source_file_and_line(source, line, words):
    with pytest.raises(PageError) as caught:
        markers.extract_region(source, "a", "examples/a/server.py")
    assert (caught.value.file, caught.value.line) == ("examples/a/server.py", line)
    assert words in caught.value.message


# --- fenced --------------------------------------------------------------------------------------------------

def test_fenced_block_shape():
    lines = markers.fenced("print(1)\n\nprint(2)\n", "python", "examples/a/server.py", "Source: a.", "    ")
    assert "".join(lines) == ('\n    ```python title="examples/a/server.py"\n    print(1)\n\n    print(2)\n'
                              '    ```\n\n    Source: a.\n    {: .example-caption }\n\n')


def test_fenced_uses_a_longer_fence_than_the_content():
    lines = markers.fenced('"""\n```json\n{}\n```\n"""\n', "python", "t", "c", "")
    assert lines[1].startswith('````python title="t"')
    assert "````\n" in lines


# --- properties ----------------------------------------------------------------------------------------------

# splitlines() also breaks at these; a "line" of a page never contains them.
SEPARATORS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
chars = st.characters(blacklist_categories=("Cs",), blacklist_characters=SEPARATORS)
marker_bits = st.sampled_from(["<!--", "-->", "example-begin:", "example-end", "```", "~~~", " ", "#", "`", "a/b.py"])
raw_line = st.lists(st.one_of(st.text(chars, max_size=8), marker_bits), max_size=6).map("".join)


def _is_markerish(line: str) -> bool:
    return bool(markers.LOOSE.search(line) or markers.FENCE.match(line) or markers.BEGIN.match(line)
                or markers.END.match(line))


text_line = raw_line.filter(lambda l: not _is_markerish(l))
body_line = raw_line.filter(lambda l: not (markers.BEGIN.match(l) or markers.END.match(l)))
indent = st.sampled_from(["", "    ", "        ", "\t", "  "])
target = st.builds(lambda ex, f, r: f"{ex}/{f}" + (f"#{r}" if r else ""),
                   st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True),
                   st.sampled_from(["main.rs", "server.py", "transcript.jsonl", "answer_key.jsonl", "src/main.rs"]),
                   st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True)))
block = st.tuples(indent, target, st.lists(body_line, max_size=4))
document = st.lists(st.one_of(text_line.map(lambda l: ("text", l)), block.map(lambda b: ("block", b))),
                    max_size=10)
content = st.lists(st.one_of(body_line, st.sampled_from(["```", "````rust", "    ```", "~~~", ""])), max_size=8)


def build(items) -> tuple[str, list[str], list[tuple[str, str]]]:
    """The page text, its text lines outside markers, and (indent, target) of each block."""
    out, outside, found = [], [], []
    for kind, item in items:
        if kind == "text":
            out.append(item + "\n")
            outside.append(item + "\n")
        else:
            ind, tgt, body = item
            out.append(f"{ind}<!-- example-begin: {tgt} -->\n")
            out += [l + "\n" for l in body]
            out.append(f"{ind}<!-- example-end -->\n")
            found.append((ind, tgt))
    return "".join(out), outside, found


def paste(text: str, contents: list[list[str]]) -> str:
    segments = markers.parse(text, PAGE)
    found = [s for s in segments if isinstance(s, markers.Block)]
    bodies = {}
    for b, lines in zip(found, contents * (len(found) // max(1, len(contents)) + 1)):
        body = "".join(l + "\n" for l in lines)
        bodies[b.line] = markers.fenced(body, "python", b.target, f"Caption for {b.target}.", b.indent)
    return markers.render(segments, bodies)


def text_outside(text: str) -> list[str]:
    return [s for s in markers.parse(text, PAGE) if isinstance(s, str)]


PROPERTY = settings(max_examples=120, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@PROPERTY
@given(document)
def test_parse_then_render_is_the_identity(items):
    text, outside, found = build(items)
    assert markers.render(markers.parse(text, PAGE), {}) == text
    assert text_outside(text) == outside
    assert [(b.indent, b.target) for b in blocks(text)] == found


@PROPERTY
@given(document, st.lists(content, min_size=1, max_size=3))
def test_pasting_is_idempotent_and_never_changes_text_outside_markers(items, contents):
    text, outside, found = build(items)
    once = paste(text, contents)
    twice = paste(once, contents)
    assert twice == once
    assert text_outside(once) == outside
    pasted = blocks(once)
    assert [(b.indent, b.target) for b in pasted] == found
    for b in pasted:
        assert b.begin == f"{b.indent}<!-- example-begin: {b.target} -->\n"
        assert b.end == f"{b.indent}<!-- example-end -->\n"
        # The pasted block keeps the marker's indentation on every non-blank line.
        assert all(l == "\n" or l.startswith(b.indent) for l in b.body)


@PROPERTY
@given(content, indent)
def test_the_fence_is_never_closed_by_the_content(lines, ind):
    body = "".join(l + "\n" for l in lines)
    shown = markers.fenced(body, "rust", "t", "c", ind)
    fence = shown[1][len(ind):].split("rust", 1)[0]
    assert set(fence) == {"`"} and len(fence) >= 3
    closing = [i for i, l in enumerate(shown) if l.strip() == fence]
    assert closing == [1 + len(body.splitlines()) + 1], "only the tool's own closing fence closes the block"
    inner = [l[len(ind):] if l != "\n" else l for l in shown[2:closing[0]]]
    assert [l.rstrip("\n") for l in inner] == [l if l.strip() else "" for l in lines]


@PROPERTY
@given(document, st.lists(raw_line, max_size=6), st.sampled_from(["```", "~~~", "````markdown"]))
def test_anything_inside_a_hand_written_fence_is_left_alone(items, fenced_lines, opener):
    closer = opener.rstrip("markdown")
    inside = [l for l in fenced_lines if not (markers.FENCE.match(l) and set(l.strip()) <= set(closer[0]))]
    text, outside, found = build(items)
    fence = opener + "\n" + "".join(l + "\n" for l in inside) + closer + "\n"
    doc = fence + text
    once = paste(doc, [["x = 1"]])
    assert once.startswith(fence)
    assert [(b.indent, b.target) for b in blocks(once)] == found
