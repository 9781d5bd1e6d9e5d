"""`new NAME`: an example that starts green in each language mode, the page stub and its listings (all or nothing),
and the next steps it prints. tests/test_new_example.py holds the result to the rest of the suite."""

from __future__ import annotations

import pytest

from support.tool_repos import ECHO, invoke, make_repo, page, require, snapshot, tool, write

WORKSPACE = '# the examples\' workspace\n[workspace]\nresolver = "2"\nmembers = []\n'
MKDOCS = """site_name: t
nav:
  - Home: index.md
  - Browse by level: levels.md
  - 201 · Working knowledge:
      - mcp/first.md
  - Contributing:
      - contributing/adding.md
"""
LEVELS_MD = "# Levels\n\n## The track in reading order\n\n### 201 · Working knowledge {#level-201}\n\n" \
            "1. [First](mcp/first.md)\n\n### 301 · Deep dive {#level-301}\n\n1. [Deep](mcp/deep.md)\n"
INDEX_MD = "# Home\n\n## The reading path\n\n### 201 · Working knowledge\n\n- [First](mcp/first.md): one line,\n" \
           "  and its second line.\n\n### For contributors\n\n- [Adding](contributing/adding.md)\n"


@pytest.mark.parametrize("lang, entries, files", [
    ("python", ["server.py"], ["server.py"]),
    ("rust", ["main.rs"], ["main.rs"]),
    pytest.param("cargo", ["src/main.rs"], ["Cargo.toml", "src"], marks=pytest.mark.slow),  # a cargo build
    pytest.param(None, ["src/main.rs", "server.py"], ["Cargo.toml", "src", "server.py"], marks=pytest.mark.slow),
])
def test_new_creates_an_example_that_passes_check_once_pasted(tmp_path, lang, entries, files):
    """Without --lang, both twins; each mode verifies at once and prints the markers to paste."""
    if lang != "python":
        require("rustc" if lang == "rust" else "cargo")
    choice = ("--lang", lang) if lang else ()
    root = make_repo(tmp_path, {})
    if lang in ("cargo", None):  # the repository's layout: one workspace, which `new` joins the example to
        write(root / "examples/Cargo.toml", WORKSPACE)
        assert tool(root, "new", "zz-later", "--lang", "python").returncode == 0
        assert not (root / "examples/zz-later/Cargo.toml").exists(), "a Python example joins no workspace"
        assert tool(root, "new", "zz-cargo", "--lang", "cargo").returncode == 0
        write(root / "docs/later.md", page("zz-later/transcript.jsonl", "zz-cargo/transcript.jsonl"))
    proc = tool(root, "new", "my-demo", *choice)
    assert proc.returncode == 0, proc.out
    folder = root / "examples/my-demo"
    assert sorted(p.name for p in folder.iterdir()) == sorted([*files, "transcript.jsonl", "answer_key.jsonl"])
    if lang in ("cargo", None):
        manifest = (root / "examples/Cargo.toml").read_text()
        assert manifest.startswith("# the examples' workspace\n"), "the rest of the manifest is kept"
        assert 'members = [\n    "my-demo",\n    "zz-cargo",\n]' in manifest
        assert "added it to the workspace's members" in proc.out
        assert (root / "examples/Cargo.lock").is_file() and not (folder / "Cargo.lock").exists()
    if lang is None:
        assert "verified" in proc.out or "written" in proc.out
        assert "cargo+python" in proc.out, "both twins ran against the one transcript"
    assert "created examples/my-demo/" in proc.out
    for marker in ["conversation", *entries]:
        assert f"<!-- example-begin: my-demo/{marker} -->" in proc.out

    unpasted = invoke(root, "--check")
    assert unpasted.returncode == 4 and "examples/my-demo: pasted by no page" in unpasted.out
    write(root / "docs/new.md", page(*[f"my-demo/{e}" for e in entries], "my-demo/transcript.jsonl",
                                     "my-demo/answer_key.jsonl"))
    assert invoke(root).returncode == 0
    check = tool(root, "--check")
    assert check.returncode == 0, check.out
    assert "verified my-demo" in check.out


def test_the_next_steps_name_the_conversation_marker_and_the_fast_checks(tmp_path):
    root = make_repo(tmp_path, {})
    proc = invoke(root, "new", "my-demo", "--lang", "python")
    assert proc.returncode == 0, proc.out
    next_steps = proc.out.split("Next:", 1)[1]
    assert "<!-- example-begin: my-demo/conversation -->" in next_steps
    for check in ("make example NAME=my-demo PAGE=", "Rules the suite holds"):
        assert check in next_steps, f"the next steps leave out {check!r}:\n{next_steps}"
    assert "rustfmt" not in next_steps, "a Python example has no Rust to format"


def stub_repo(tmp_path, mkdocs=MKDOCS):
    root = make_repo(tmp_path, {"first": {"server.py": ECHO}},
                     {"index.md": INDEX_MD + page("first/transcript.jsonl"), "levels.md": LEVELS_MD,
                      "mcp/first.md": "# First\n", "mcp/deep.md": "# Deep\n", "contributing/adding.md": "# A\n"})
    write(root / "mkdocs.yml", mkdocs)
    assert invoke(root).returncode == 0
    return root


def test_page_writes_a_stub_pasted_and_listed_at_the_end_of_its_level(tmp_path):
    root = stub_repo(tmp_path)
    proc = invoke(root, "new", "my-demo", "--lang", "python", "--page", "201")
    assert proc.returncode == 0, proc.out
    stub = (root / "docs/mcp/my-demo.md").read_text()
    assert stub.startswith("---\ntitle: My demo\n") and "  - Level 201\n" in stub
    assert "<!-- example-begin: my-demo/conversation -->" in stub
    assert 'title="examples/my-demo/server.py"' in stub, "the source is pasted"
    assert "DO ZASTĄPIENIA:" in stub and "**Szukaj po polsku:**" in stub
    assert "      - mcp/first.md\n      - mcp/my-demo.md\n  - Contributing:" in (root / "mkdocs.yml").read_text()
    assert "1. [First](mcp/first.md)\n2. [My demo](mcp/my-demo.md)\n\n### 301" in (root / "docs/levels.md").read_text()
    index = (root / "docs/index.md").read_text()
    assert "  and its second line.\n- [My demo](mcp/my-demo.md): REPLACE: one line about the page.\n\n### For" in index
    check = tool(root, "--check")
    assert check.returncode == 0, check.out


@pytest.mark.parametrize("mkdocs, words", [
    (MKDOCS.replace("201 · Working knowledge", "Working knowledge"), "mkdocs.yml: cannot find the nav section"),
    (MKDOCS.replace("      - mcp/first.md\n", ""), "mkdocs.yml:5: the nav section for 201 lists no page"),
])
def test_page_writes_nothing_when_a_listing_is_missing(tmp_path, mkdocs, words):
    root = stub_repo(tmp_path, mkdocs)
    before = snapshot(root)
    proc = invoke(root, "new", "my-demo", "--lang", "python", "--page", "201")
    assert proc.returncode == 2, proc.out
    assert words in proc.out and "nothing was written" in proc.out
    assert proc.out.rstrip().endswith(f"run_examples.py new my-demo --lang python --page 201 --root {root}"), \
        "the message ends with the command to run again"
    assert snapshot(root) == before, "neither the example nor any page was written"


def test_page_refuses_a_page_that_exists(tmp_path):
    root = stub_repo(tmp_path)
    write(root / "docs/mcp/my-demo.md", "# mine\n")
    before = snapshot(root)
    proc = invoke(root, "new", "my-demo", "--lang", "python", "--page", "301")
    assert proc.returncode == 2 and "docs/mcp/my-demo.md: already exists" in proc.out
    assert snapshot(root) == before


@pytest.mark.parametrize("name, words", [("Bad_Name", "lowercase letters"), ("serve", "lowercase letters"),
                                         ("ex", "examples/ex already exists")])
def test_new_refuses_bad_or_taken_names(tmp_path, name, words):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}})
    before = snapshot(root, skip=())
    proc = invoke(root, "new", name, "--lang", "python")
    assert proc.returncode == 2, proc.out
    assert words in proc.out
    assert snapshot(root, skip=()) == before


def test_new_refuses_an_unknown_language_or_level(tmp_path):
    root = make_repo(tmp_path, {})
    assert invoke(root, "new", "x", "--lang", "go").returncode == 2
    proc = invoke(root, "new", "x", "--page", "401")
    assert proc.returncode == 2 and "--page" in proc.out
