"""Pasting into pages: what changes, what never does, and every way a page can be broken."""

from __future__ import annotations


import pytest

from support.tool_repos import ECHO, invoke, make_repo, page, server, snapshot, violation
from runex.paste import markers

REGIONS = '''# ANCHOR: setup
import json, sys
# ANCHOR_END: setup


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\\n")
    sys.stdout.flush()


# ANCHOR: loop
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        send({"jsonrpc": "2.0", "id": msg["id"],
              "result": {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"}})
# ANCHOR_END: loop
'''

PROSE = '''---
title: A page
description: Prose around the markers must survive byte for byte.
---

# A page   

Trailing spaces above, a tab\there, unicode: zażółć gęślą jaźń — “quotes”.

=== "Python"

    <!-- example-begin: ex/server.py#loop -->
    stale body that the tool replaces
    <!-- example-end -->

!!! note "Inside an admonition"

    === "Transcript"

        <!-- example-begin: ex/transcript.jsonl -->
        <!-- example-end -->

```markdown
<!-- example-begin: not/a-real-file.rs -->
<!-- example-end -->
```

<!-- example-begin: ex/answer_key.jsonl -->
<!-- example-end -->

The end, without a final newline.'''


def pasted_repo(tmp_path, text: str = PROSE, source: str = REGIONS):
    return make_repo(tmp_path, {"ex": {"server.py": source}}, {"page.md": text})


def outside(text: str) -> list[str]:
    return [s for s in markers.parse(text, "p") if isinstance(s, str)]


def body_of(text: str, target: str) -> list[str]:
    return next(b.body for b in markers.parse(text, "p") if isinstance(b, markers.Block) and b.target == target)


def test_first_run_pastes_everything_including_a_new_answer_key(tmp_path):
    root = pasted_repo(tmp_path)
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert "pasted   docs/page.md" in proc.out
    text = (root / "docs/page.md").read_text()
    assert "stale body" not in text
    assert '```json title="examples/ex/answer_key.jsonl"' in text
    assert (root / "examples/ex/answer_key.jsonl").read_text() in text


def test_a_second_run_changes_nothing(tmp_path):
    root = pasted_repo(tmp_path)
    assert invoke(root).returncode == 0
    before = snapshot(root)
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert "pasted" not in proc.out.replace("pages: ", "")
    assert "1 up to date" in proc.out
    assert snapshot(root) == before


def test_text_outside_markers_never_changes(tmp_path):
    root = pasted_repo(tmp_path)
    assert invoke(root).returncode == 0
    after = (root / "docs/page.md").read_text()
    assert outside(after) == outside(PROSE)
    assert after.endswith("The end, without a final newline.")
    assert "```markdown\n<!-- example-begin: not/a-real-file.rs -->\n<!-- example-end -->\n```\n" in after


def test_indentation_is_kept_inside_content_tabs_and_admonitions(tmp_path):
    root = pasted_repo(tmp_path)
    assert invoke(root).returncode == 0
    text = (root / "docs/page.md").read_text()
    for target, indent in (("ex/server.py#loop", "    "), ("ex/transcript.jsonl", "        ")):
        body = body_of(text, target)
        assert body[0] == "\n" and body[-1] == "\n"
        assert all(l == "\n" or l.startswith(indent) for l in body), body
        assert body[1].startswith(indent + "```")
        assert not body[1].startswith(indent + " ")


def test_a_region_is_pasted_without_anchor_lines(tmp_path):
    root = pasted_repo(tmp_path)
    assert invoke(root).returncode == 0
    text = (root / "docs/page.md").read_text()
    assert "ANCHOR" not in text
    body = "".join(body_of(text, "ex/server.py#loop"))
    assert '    ```python title="examples/ex/server.py, lines 12–16 (region loop)"\n    for line in sys.stdin:\n' in body
    assert "def send" not in body and "import json" not in body


def test_a_whole_file_is_pasted_without_anchor_lines(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": REGIONS}}, {"p.md": page("ex/server.py", "ex/transcript.jsonl")})
    assert invoke(root).returncode == 0
    text = (root / "docs/p.md").read_text()
    assert "ANCHOR" not in text
    assert "import json, sys\n\n\ndef send(obj):" in text


def test_language_title_and_caption_follow_the_file(tmp_path):
    toml = "timeout = 5.0\n"
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO, "example.toml": toml}},
                     {"p.md": page("ex/server.py", "ex/transcript.jsonl", "ex/answer_key.jsonl", "ex/example.toml")})
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    text = (root / "docs/p.md").read_text()
    assert '```python title="examples/ex/server.py"' in text
    assert "Source: `examples/ex/server.py`, the file CI runs against the example's transcript." in text
    assert '```json title="examples/ex/transcript.jsonl"' in text
    assert "Transcript: `examples/ex/transcript.jsonl`" in text
    assert '```json title="examples/ex/answer_key.jsonl"' in text
    assert "Answer key: `examples/ex/answer_key.jsonl`" in text
    assert '```toml title="examples/ex/example.toml"' in text
    assert text.count("{: .example-caption }") == 4


def test_an_answer_key_with_a_non_json_line_is_pasted_as_text(tmp_path):
    stray = server('''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            if msg["id"] == 1:
                print("debug: oops")
                sys.stdout.flush()
            answer(msg)
    ''')
    root = make_repo(tmp_path, {"ex": {"server.py": stray, "example.toml": violation("stdout-not-a-message", 1)}},
                     {"p.md": page("ex/transcript.jsonl", "ex/answer_key.jsonl")})
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    text = (root / "docs/p.md").read_text()
    assert '```text title="examples/ex/answer_key.jsonl"' in text
    assert '```json title="examples/ex/transcript.jsonl"' in text
    assert "debug: oops" in text


def test_pages_in_subfolders_are_pasted(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"mcp/deep/p.md": page("ex/transcript.jsonl")})
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert "pasted   docs/mcp/deep/p.md" in proc.out


def test_one_file_pasted_on_two_pages(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}},
                     {"a.md": page("ex/transcript.jsonl"), "b.md": page("ex/transcript.jsonl")})
    assert invoke(root).returncode == 0
    a, b = ((root / "docs" / n).read_text() for n in ("a.md", "b.md"))
    assert a == b and "Transcript:" in a


def test_crlf_page_outside_text_is_kept(tmp_path):
    text = "# T\r\n\r\nIntro.\r\n<!-- example-begin: ex/transcript.jsonl -->\r\n<!-- example-end -->\r\nEnd.\r\n"
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": ""})
    (root / "docs/p.md").write_bytes(text.encode())
    assert invoke(root).returncode == 0
    after = (root / "docs/p.md").read_bytes()
    assert after.startswith(b"# T\r\n\r\nIntro.\r\n<!-- example-begin: ex/transcript.jsonl -->\r\n")
    assert after.endswith(b"<!-- example-end -->\r\nEnd.\r\n")
    assert invoke(root, "--check").returncode == 0



@pytest.mark.parametrize("args", [(), ("--check",)], ids=["write", "check"])
def test_a_stale_copy_of_a_pasted_block_outside_markers_names_both_lines(tmp_path, args):
    """A repair that writes the pair empty (the end marker right below the begin) pastes a fresh copy and leaves the
    old body below as plain text: the copy is an error naming its caption line and the block it repeats."""
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/server.py")})
    assert invoke(root).returncode == 0
    pasted = (root / "docs/p.md").read_text()
    begin = "<!-- example-begin: ex/server.py -->\n"
    assert pasted.count("<!-- example-end -->\n") == 1
    repaired = pasted.replace("<!-- example-end -->\n", "").replace(begin, begin + "<!-- example-end -->\n")
    if args:  # as the tool leaves it after the repair: a fresh copy between the markers, the old one below
        body = pasted.split(begin)[1].split("<!-- example-end -->\n")[0]
        repaired = repaired.replace(begin + "<!-- example-end -->\n", begin + body + "<!-- example-end -->\n")
    (root / "docs/p.md").write_text(repaired)
    stale = max(n for n, line in enumerate(repaired.splitlines(), 1) if line == "{: .example-caption }")
    assert stale > repaired[:repaired.index("<!-- example-end -->")].count("\n") + 1  # below the end marker
    proc = invoke(root, *args)
    assert proc.returncode == 4, proc.out
    assert (f"docs/p.md:{stale}: text outside markers repeats the caption of the block pasted at line 5 "
            f"(ex/server.py): a stale copy of pasted text") in proc.out, proc.out
    assert (root / "docs/p.md").read_text() == repaired, "a broken page is not rewritten"

# --- broken pages: exit 4, naming the page and line --------------------------------------------------------

BROKEN = {
    "unknown-file": ("<!-- example-begin: ex/nope.rs -->\n<!-- example-end -->\n",
                     "marker names examples/ex/nope.rs, which does not exist"),
    "unknown-example": ("<!-- example-begin: nobody/server.py -->\n<!-- example-end -->\n",
                        "marker names examples/nobody/server.py, which does not exist"),
    "unknown-region": ("<!-- example-begin: ex/server.py#nope -->\n<!-- example-end -->\n",
                       "examples/ex/server.py has no region 'nope' (regions: setup, loop)"),
    "unbalanced-begin": ("<!-- example-begin: ex/server.py -->\n\nno end\n", "has no example-end below it"),
    "stray-end": ("<!-- example-end -->\n", "example-end without an example-begin above it"),
    "nested": ("<!-- example-begin: ex/server.py -->\n<!-- example-begin: ex/server.py -->\n<!-- example-end -->\n",
               "markers do not nest"),
    "malformed": ("<!-- example-begin ex/server.py -->\n<!-- example-end -->\n", "malformed marker"),
    "dot-dot": ("<!-- example-begin: ../docs/p.md -->\n<!-- example-end -->\n",
                "marker path '../docs/p.md' must be relative to examples/ and stay inside it"),
    "dot-dot-inside": ("<!-- example-begin: ex/../../secret.txt -->\n<!-- example-end -->\n",
                       "must be relative to examples/ and stay inside it"),
    "absolute": ("<!-- example-begin: /etc/passwd -->\n<!-- example-end -->\n",
                 "marker path '/etc/passwd' must be relative to examples/"),
    "backslash": ("<!-- example-begin: ex\\server.py -->\n<!-- example-end -->\n", "must be relative to examples/"),
    "directory": ("<!-- example-begin: ex -->\n<!-- example-end -->\n", "examples/ex, which does not exist"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_broken_marker_is_reported_with_page_and_line(tmp_path, case):
    markup, words = BROKEN[case]
    text = "# Page\n\nIntro.\n\n" + markup + "\n<!-- example-begin: ex/transcript.jsonl -->\n<!-- example-end -->\n"
    if case in ("nested", "unbalanced-begin"):
        text = "# Page\n\nIntro.\n\n" + markup  # the transcript block would close or nest into the broken one
    root = make_repo(tmp_path, {"ex": {"server.py": REGIONS}}, {"p.md": text})
    (tmp_path / "secret.txt").write_text("secret")
    before = (root / "docs/p.md").read_bytes()
    proc = invoke(root)
    assert proc.returncode == 4, proc.out
    line = 6 if case == "nested" else 5
    assert f"broken   docs/p.md:{line}: " in proc.out
    assert words in proc.out
    assert "Fix the page marker above, then run:" in proc.out
    assert (root / "docs/p.md").read_bytes() == before, "a broken page is not rewritten"


def test_a_symlink_out_of_examples_is_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("do not show me")
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}},
                     {"p.md": page("ex/transcript.jsonl", "ex/leak.txt")})
    (root / "examples/ex/leak.txt").symlink_to(secret)
    proc = invoke(root)
    assert proc.returncode == 4, proc.out
    assert "docs/p.md:" in proc.out and "marker path 'ex/leak.txt' leaves examples/ through a symlink" in proc.out
    assert "do not show me" not in (root / "docs/p.md").read_text()


def test_a_symlinked_example_folder_out_of_examples_is_refused(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "notes.txt").write_text("outside")
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl", "ext/notes.txt")})
    (root / "examples/ext").symlink_to(outside, target_is_directory=True)
    proc = invoke(root)
    assert proc.returncode in (3, 4), proc.out  # the folder is also a broken example (no transcript)
    assert "leaves examples/ through a symlink" in proc.out


def test_a_symlink_inside_examples_is_fine(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl", "ex/alias.py")})
    (root / "examples/ex/alias.py").symlink_to("server.py")
    assert invoke(root).returncode == 0


def test_an_example_pasted_by_no_page(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}, "orphan": {"server.py": ECHO}},
                     {"p.md": page("ex/transcript.jsonl")})
    proc = invoke(root)
    assert proc.returncode == 4, proc.out
    assert ("broken   examples/orphan: pasted by no page; add <!-- example-begin: orphan/transcript.jsonl -->"
            in proc.out)
    assert "examples/ex:" not in proc.out
    # naming one example judges that one: another folder still without a page is not its fault
    assert invoke(root, "--check", "ex").returncode == 0
    assert invoke(root, "--check", "orphan").returncode == 4


def test_a_source_holding_a_marker_line_cannot_be_pasted(tmp_path):
    source = ECHO + "# <!-- example-end -->\n"
    root = make_repo(tmp_path, {"ex": {"server.py": source.replace("# <!--", "<!--").replace(
        "<!-- example-end -->", "'''\n<!-- example-end -->\n'''")}}, {"p.md": page("ex/transcript.jsonl",
                                                                                  "ex/server.py")})
    proc = invoke(root)
    assert proc.returncode == 4, proc.out
    assert "docs/p.md:10: examples/ex/server.py contains a marker line and cannot be pasted" in proc.out


def test_a_non_utf8_file_cannot_be_pasted(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO, "blob.bin": b"\xff\xfe"}},
                     {"p.md": page("ex/transcript.jsonl", "ex/blob.bin")})
    proc = invoke(root)
    assert proc.returncode == 4, proc.out
    assert "docs/p.md:10: examples/ex/blob.bin is not UTF-8" in proc.out


def test_a_page_that_is_not_utf8_is_a_broken_page(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl"),
                                                             "latin1.md": "caf\xe9\n".encode("latin-1")})
    proc = invoke(root)
    assert proc.returncode == 4, proc.out
    assert "broken   docs/latin1.md:1: not UTF-8" in proc.out  # with the line of the bad byte


def test_an_anchor_error_names_the_source_file_and_line(tmp_path):
    source = ECHO + "# ANCHOR: open\n"
    root = make_repo(tmp_path, {"ex": {"server.py": source}}, {"p.md": page("ex/transcript.jsonl", "ex/server.py")})
    proc = invoke(root)
    assert proc.returncode == 4, proc.out
    line = source.count("\n")
    assert f"examples/ex/server.py:{line}: ANCHOR: open is never closed" in proc.out


def test_a_failing_example_outranks_a_broken_page(tmp_path):
    crash = server("raise SystemExit(1)\n")
    root = make_repo(tmp_path, {"ex": {"server.py": crash}}, {"p.md": page("ex/transcript.jsonl", "ex/nope.py")})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "docs/p.md:" in proc.out and "nope.py" in proc.out


def test_a_page_of_a_failed_example_keeps_its_old_answer_key(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl",
                                                                         "ex/answer_key.jsonl")})
    assert invoke(root).returncode == 0
    before = (root / "docs/p.md").read_bytes()
    key = (root / "examples/ex/answer_key.jsonl").read_bytes()
    (root / "examples/ex/server.py").write_text(server("raise SystemExit(1)\n"))
    assert invoke(root).returncode == 3
    assert (root / "docs/p.md").read_bytes() == before
    assert (root / "examples/ex/answer_key.jsonl").read_bytes() == key
