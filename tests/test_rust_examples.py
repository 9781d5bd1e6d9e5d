"""The Rust examples read as one project: every cargo example is a workspace member, formatted by rustfmt.

rustfmt only reads files, so it runs here outside the sandbox; clippy would compile (build scripts, proc macros)
and so is not run here: building is the tool's job, and it builds in the sandbox.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib

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


def test_no_rust_source_reads_its_python_twin():
    """The tool keys a cargo build on the crate's folder without server.py (tools/runex/build/compile.py, source_files),
    so that editing the Python twin builds nothing; a crate that read server.py (include_str!, a build script)
    would then keep a stale binary."""
    readers = [str(p.relative_to(ROOT)) for p in EXAMPLES.rglob("*")
               if p.suffix in (".rs", ".toml") and "target" not in p.relative_to(EXAMPLES).parts
               and p.is_file() and "server.py" in p.read_text(encoding="utf-8")]
    assert readers == [], "these name server.py; a crate must not read its twin"


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
