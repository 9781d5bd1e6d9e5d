"""The Rust examples read as one project: every cargo example is a workspace member, formatted by rustfmt.

rustfmt only reads files, so it runs here outside the sandbox; clippy would compile (build scripts, proc macros)
and so is not run here: building is the tool's job, and it builds in the sandbox.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

from support.repo import ROOT, skip_or_fail

EXAMPLES = ROOT / "examples"


def test_every_cargo_example_is_a_workspace_member_with_no_lock_of_its_own():
    members = tomllib.loads((EXAMPLES / "Cargo.toml").read_text())["workspace"]["members"]
    cargo_examples = sorted(p.parent.name for p in EXAMPLES.glob("*/Cargo.toml"))
    assert members == sorted(members), "keep examples/Cargo.toml's members sorted"
    assert cargo_examples == members
    assert [p.parent.name for p in EXAMPLES.glob("*/Cargo.lock")] == [], "members share examples/Cargo.lock"
    assert (EXAMPLES / "Cargo.lock").is_file()


def test_only_the_no_crates_lessons_are_single_rust_files():
    """A single main.rs is for a page whose lesson is doing without crates; the rest are on serde_json."""
    single = sorted(p.parent.name for p in EXAMPLES.glob("*/main.rs"))
    assert single == ["first-server", "lsp-framing"]


def test_the_workspace_is_formatted_by_rustfmt():
    if shutil.which("cargo-fmt") is None and shutil.which("rustfmt") is None:
        skip_or_fail("rustfmt is not installed: rustup component add rustfmt")
    proc = subprocess.run(["cargo", "fmt", "--all", "--check"], cwd=EXAMPLES, capture_output=True, text=True)
    assert proc.returncode == 0, f"run `cargo fmt --all` in examples/ (rustfmt.toml sets the width):\n{proc.stdout}{proc.stderr}"


def code_outside_comments(text: str, suffix: str) -> list[tuple[int, str]]:
    """Each line's code with its comments blanked out (Rust `//`, `/* */`; TOML `#`), strings kept, as (number, code).

    A comment cannot read a file, so a comment that names server.py is no reason to fail; a string can, so text in
    a string is kept even where it holds `//` or `#`."""
    found, in_block = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        code, i, in_string = [], 0, False
        while i < len(line):
            pair = line[i:i + 2]
            if in_block:
                in_block, i = (False, i + 2) if pair == "*/" else (True, i + 1)
                continue
            if in_string:
                code.append(line[i:i + 2] if pair[:1] == "\\" else line[i])
                in_string = not (line[i] == '"')
                i += 2 if pair[:1] == "\\" else 1
                continue
            if (suffix == ".rs" and pair == "//") or (suffix == ".toml" and line[i] == "#"):
                break
            if suffix == ".rs" and pair == "/*":
                in_block, i = True, i + 2
                continue
            in_string = line[i] == '"'
            code.append(line[i])
            i += 1
        found.append((number, "".join(code)))
    return found


def twin_readers(examples: Path) -> list[str]:
    """`FILE:LINE: text` for each line of Rust or TOML code (comments aside) under `examples` that names server.py."""
    found = []
    for path in sorted(examples.rglob("*")):
        if path.suffix not in (".rs", ".toml") or "target" in path.relative_to(examples).parts or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8")
        for number, code in code_outside_comments(text, path.suffix):
            if "server.py" in code:
                found.append(f"{path.relative_to(examples.parent)}:{number}: {text.splitlines()[number - 1].strip()}")
    return found


def test_no_rust_source_reads_its_python_twin():
    """The tool keys a cargo build on the crate's folder without server.py (tools/runex/builds/native.py, source_files),
    so that editing the Python twin builds nothing; a crate that read server.py (include_str!, a build script)
    would then keep a stale binary. Comments may name the twin: they read nothing."""
    readers = twin_readers(EXAMPLES)
    assert readers == [], ("a crate must not read its Python twin (the build cache leaves server.py out, so the binary "
                           "would go stale); remove the code that names server.py:\n  " + "\n  ".join(readers))


def test_a_twin_named_in_code_is_reported_at_its_line_and_one_in_a_comment_is_not(tmp_path):
    src = tmp_path / "examples" / "twin" / "src"
    src.mkdir(parents=True)
    (src / "main.rs").write_text('//! The Rust twin of server.py.\nfn main() {\n    /* like server.py */ let url = '
                                 '"http://h/x";\n    let twin = include_str!("../server.py"); // server.py\n}\n')
    (src.parent / "Cargo.toml").write_text('[package]\nname = "twin"  # server.py is its twin\nbuild = "server.py"\n')
    assert twin_readers(tmp_path / "examples") == [
        'examples/twin/Cargo.toml:3: build = "server.py"',
        'examples/twin/src/main.rs:4: let twin = include_str!("../server.py"); // server.py',
    ]


# Topic pages show the server on rmcp first and the hand-written twins as "without an SDK": one conversation, so
# the rmcp folder (which borrows the transcript) must write the hand-written twins' answer key byte for byte.
ONE_ANSWER_KEY = {
    "resources-prompts-rmcp": "resources-prompts",
    "pagination-rmcp": "pagination",
}


def test_rmcp_servers_of_topic_pages_write_their_twins_answer_key():
    for rmcp, twins in ONE_ANSWER_KEY.items():
        toml = tomllib.loads((EXAMPLES / rmcp / "example.toml").read_text())
        assert toml.get("transcript_from") == twins, f"examples/{rmcp}/example.toml: transcript_from = \"{twins}\""
        ours = (EXAMPLES / rmcp / "answer_key.jsonl").read_bytes()
        theirs = (EXAMPLES / twins / "answer_key.jsonl").read_bytes()
        assert ours == theirs, (f"examples/{rmcp}/answer_key.jsonl differs from examples/{twins}/answer_key.jsonl: "
                                f"make the servers agree, then run .venv/bin/python tools/run_examples.py {rmcp} {twins}")


# Where rmcp derives the tool schemas (schemars: sorted keys, `$schema`, `format`), the rmcp server keeps an answer
# key of its own; every other reply must still say the same thing as the twins', key order aside.
SAME_REPLIES_BUT_TOOLS_LIST = {
    "tool-design-rmcp": ("tool-design", 2),
    "state-handles-rmcp": ("state-handles", 1),
}


def _meaning(line: str):
    """A reply as data: key order aside, and a text block holding JSON read as that JSON."""
    message = json.loads(line)
    for block in message.get("result", {}).get("content", []):
        try:
            block["text"] = json.loads(block["text"])
        except ValueError:
            pass  # prose, compared as written
    return message


def test_rmcp_servers_with_derived_schemas_answer_as_their_twins_do():
    for rmcp, (twins, tools_list_line) in SAME_REPLIES_BUT_TOOLS_LIST.items():
        ours = (EXAMPLES / rmcp / "answer_key.jsonl").read_text(encoding="utf-8").splitlines()
        theirs = (EXAMPLES / twins / "answer_key.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(ours) == len(theirs), f"examples/{rmcp} and examples/{twins} answer a different number of lines"
        for number, (mine, twin) in enumerate(zip(ours, theirs), start=1):
            if number != tools_list_line:
                assert _meaning(mine) == _meaning(twin), (
                    f"examples/{rmcp}/answer_key.jsonl:{number} says something else than examples/{twins}'s")
