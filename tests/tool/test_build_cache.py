"""Building Rust examples: rustc diagnostics, the content-hash build cache, and the cargo runner."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from support.tool_repos import ECHO, forget_verdicts, invoke, jsonl, make_repo, page, req, rust_echo
from runex.builds import native
from runex.fsutil import sha256_file

BAD_RUST = '''fn main() {
    let answer: i32 = "forty-two";
    println!("{answer}");
}
'''


def entries(root: Path) -> list[Path]:
    builds = root / ".cache" / "run_examples" / "builds"
    return sorted(p for p in builds.iterdir()) if builds.is_dir() else []


def rust_repo(tmp_path, source: str | None = None):
    return make_repo(tmp_path, {"rs": {"main.rs": source or rust_echo("rust")}},
                     {"p.md": page("rs/main.rs", "rs/transcript.jsonl", "rs/answer_key.jsonl")})


def note_of(out: str, name: str = "rs") -> str:
    line = next(l for l in out.splitlines() if re.match(rf"^\w+ +{name} ", l))
    return line[line.index("(") + 1:line.rindex(")")]


def test_a_compile_error_shows_rustc_diagnostics_naming_the_file(tmp_path, rustc):
    root = rust_repo(tmp_path, BAD_RUST)
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "rustc failed" in proc.out
    assert "error[E0308]" in proc.out and "mismatched types" in proc.out
    assert re.search(r"--> examples/rs/main\.rs:2:\d+", proc.out), proc.out
    assert not (root / "examples/rs/answer_key.jsonl").exists()
    assert note_of(proc.out) == "built rust"
    assert entries(root) == [], "a failed build leaves no cache entry and no staging folder"


def test_a_rust_server_is_built_once_then_taken_from_the_cache(tmp_path, rustc):
    root = rust_repo(tmp_path)
    first = invoke(root)
    assert first.returncode == 0, first.out
    assert note_of(first.out) == "built rust"
    key = [json.loads(l) for l in (root / "examples/rs/answer_key.jsonl").read_text().splitlines()]
    assert [m["id"] for m in key] == [1, 2] and key[0]["result"]["who"] == "rust"
    text = (root / "docs/p.md").read_text()
    assert '```rust title="examples/rs/main.rs"' in text
    assert "Source: `examples/rs/main.rs`, the file CI compiles and runs" in text

    [entry] = entries(root)
    binary = entry / "server"
    stamp = (binary.stat().st_mtime_ns, binary.stat().st_ino)
    used = entry.stat().st_mtime_ns
    forget_verdicts(root)  # this test is about the build cache: make the second run run the server again
    second = invoke(root, "--check")
    assert second.returncode == 0, second.out
    assert note_of(second.out) == "cached build"
    assert entries(root) == [entry]
    assert (binary.stat().st_mtime_ns, binary.stat().st_ino) == stamp, "the same binary, not built again"
    assert entry.stat().st_mtime_ns >= used, "the entry is marked used (cache_gc.py keeps what runs use)"


def test_editing_the_source_recompiles(tmp_path, rustc):
    root = rust_repo(tmp_path)
    assert invoke(root).returncode == 0
    [old] = entries(root)
    main = root / "examples/rs/main.rs"
    main.write_text(main.read_text() + "// a comment changes the bytes, so the key\n")
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert note_of(proc.out) == "built rust"
    assert len(entries(root)) == 2 and old in entries(root)


def test_a_corrupted_cached_binary_is_rebuilt_not_trusted(tmp_path, rustc):
    root = rust_repo(tmp_path)
    assert invoke(root).returncode == 0
    [entry] = entries(root)
    binary = entry / "server"
    good = binary.read_bytes()
    with open(binary, "r+b") as handle:  # same size, different bytes: a truncated or tampered file
        handle.seek(len(good) // 2)
        handle.write(b"\0" * 64)
    proc = invoke(root, "--check")
    assert proc.returncode == 0, proc.out
    assert note_of(proc.out) == "built rust"
    meta = json.loads((entry / "entry.json").read_text())
    assert sha256_file(binary) == meta["sha256"]


def test_a_cache_entry_without_its_record_is_rebuilt(tmp_path, rustc):
    root = rust_repo(tmp_path)
    assert invoke(root).returncode == 0
    [entry] = entries(root)
    (entry / "entry.json").unlink()
    proc = invoke(root, "--check")
    assert proc.returncode == 0, proc.out
    assert note_of(proc.out) == "built rust"
    assert (entry / "entry.json").is_file()


def test_fresh_rebuilds_even_when_cached(tmp_path, rustc):
    root = rust_repo(tmp_path)
    assert invoke(root).returncode == 0
    proc = invoke(root, "--check", "--fresh")
    assert proc.returncode == 0, proc.out
    assert note_of(proc.out) == "built rust"
    forget_verdicts(root)
    assert note_of(invoke(root, "--check").out) == "cached build"


def test_a_second_store_of_the_same_key_keeps_the_valid_entry(tmp_path):
    """Two runs that build the same key at once: the later one must not pull the binary from under the first."""
    cache = native.Cache(tmp_path)

    def produce(folder: Path) -> None:
        (folder / "server").write_bytes(b"#!/bin/sh\nexit 0\n")

    first = cache.store("k" * 64, produce)
    inode = first.stat().st_ino
    second = cache.store("k" * 64, produce)
    assert second == first
    assert first.stat().st_ino == inode, "the valid entry was replaced while another run may be running it"
    assert [p.name for p in cache.dir.iterdir()] == ["k" * 64], "no staging folder is left behind"


def test_a_failing_build_leaves_no_staging_folder(tmp_path):
    cache = native.Cache(tmp_path)

    def produce(folder: Path) -> None:
        raise native.BuildError("boom")

    with pytest.raises(native.BuildError):
        cache.store("f" * 64, produce)
    assert list(cache.dir.iterdir()) == []


# --- cargo -----------------------------------------------------------------------------------------------------

CARGO_TOML = '''[package]
name = "tiny-cargo"
version = "0.1.0"
edition = "2021"

[dependencies]
'''


def test_the_cargo_runner(tmp_path, cargo):
    root = make_repo(tmp_path, {"crate": {"Cargo.toml": CARGO_TOML, "src/main.rs": rust_echo("cargo"),
                                          "transcript.jsonl": jsonl(req(1), req(2))}},
                     {"p.md": page("crate/src/main.rs", "crate/Cargo.toml", "crate/transcript.jsonl",
                                   "crate/answer_key.jsonl")})
    folder = root / "examples/crate"

    # Without --check the tool may create Cargo.lock; with --check it must be committed and current.
    first = invoke(root)
    assert first.returncode == 0, first.out
    assert re.search(r"^written +crate +cargo .*built cargo", first.out, re.M), first.out
    assert (folder / "Cargo.lock").is_file()
    assert '"who":"cargo"' in (folder / "answer_key.jsonl").read_text()
    text = (root / "docs/p.md").read_text()
    assert '```rust title="examples/crate/src/main.rs"' in text
    assert "Source: `examples/crate/src/main.rs`, the file CI compiles and runs" in text
    assert '```toml title="examples/crate/Cargo.toml"' in text
    assert (root / ".cache/cargo-target").is_dir()
    assert not (folder / "target").exists(), "the target dir is shared, outside the example"

    forget_verdicts(root)
    check = invoke(root, "--check")
    assert check.returncode == 0, check.out
    assert note_of(check.out, "crate") == "cached build"

    lock = (folder / "Cargo.lock").read_bytes()
    (folder / "Cargo.lock").unlink()
    missing = invoke(root, "--check")
    assert missing.returncode == 3, missing.out
    assert "Cargo.lock is missing or out of date" in missing.out
    assert "cargo fetch failed" in missing.out  # `cargo fetch --locked`, before anything is built
    assert note_of(missing.out, "crate") == "built cargo", "a failed build is not reported as a cached one"
    (folder / "Cargo.lock").write_bytes(lock)
    assert invoke(root, "--check").returncode == 0

    # A Cargo.toml edit that needs a new Cargo.lock, run without --check first and the old lock put back.
    (folder / "Cargo.toml").write_text(CARGO_TOML.replace('version = "0.1.0"', 'version = "0.2.0"'))
    assert invoke(root).returncode == 0
    assert (folder / "Cargo.lock").read_bytes() != lock
    (folder / "Cargo.lock").write_bytes(lock)
    stale = invoke(root, "--check")
    assert stale.returncode == 3, stale.out
    assert "Cargo.lock is missing or out of date" in stale.out
    (folder / "Cargo.toml").write_text(CARGO_TOML)

    (folder / "src/main.rs").write_text(BAD_RUST)
    broken = invoke(root, "--check")
    assert broken.returncode == 3, broken.out
    assert "cargo build failed" in broken.out and "error[E0308]" in broken.out
    assert "src/main.rs:2" in broken.out


def test_list_json_gives_a_command_that_starts_the_built_server(tmp_path, rustc):
    root = rust_repo(tmp_path)
    assert invoke(root).returncode == 0
    listing = invoke(root, "--list", "--json")
    assert listing.returncode == 0, listing.out
    [example] = json.loads(listing.out)["examples"]
    [impl] = example["implementations"]
    assert impl["name"] == "rust" and impl["entry"] == "examples/rs/main.rs"
    assert impl["files"] == ["examples/rs/main.rs"]
    command = impl["command"]
    assert Path(command[0]).is_relative_to(root / ".cache")
    reply = subprocess.run(command, input=(req(1) + "\n").encode(), capture_output=True, timeout=10)
    assert reply.returncode == 0
    assert json.loads(reply.stdout)["id"] == 1


WORKSPACE_TOML = '[workspace]\nresolver = "2"\nmembers = ["one", "two"]\n'


def member_toml(name: str) -> str:
    return f'[package]\nname = "{name}"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'


def test_workspace_members_share_one_lock_and_one_target_and_rebuild_alone(tmp_path, cargo):
    """Examples in examples/Cargo.toml's workspace: one Cargo.lock beside it, one shared target folder, and a cache
    key per member, so an edit to one member rebuilds that member and no other."""
    root = make_repo(tmp_path, {name: {"Cargo.toml": member_toml(name), "src/main.rs": rust_echo(name),
                                       "transcript.jsonl": jsonl(req(1))} for name in ("one", "two")})
    (root / "examples/Cargo.toml").write_text(WORKSPACE_TOML)

    first = invoke(root)
    assert first.returncode == 0, first.out
    assert note_of(first.out, "one") == note_of(first.out, "two") == "built cargo"
    assert (root / "examples/Cargo.lock").is_file(), "the workspace's one lock file"
    assert not (root / "examples/one/Cargo.lock").exists() and not (root / "examples/two/Cargo.lock").exists()
    assert [p.name for p in (root / ".cache/cargo-target").iterdir()] == ["workspace"]
    assert '"who":"two"' in (root / "examples/two/answer_key.jsonl").read_text()
    assert native.source_files(build_impl(root, "one"))[:2] == [root / "examples/Cargo.toml",
                                                                root / "examples/Cargo.lock"]

    (root / "examples/one/src/main.rs").write_text(rust_echo("one, edited"))
    forget_verdicts(root)  # so that "two" runs, and shows whether its binary came from the build cache
    edited = invoke(root)
    assert edited.returncode == 0, edited.out
    assert note_of(edited.out, "one") == "built cargo"
    assert note_of(edited.out, "two") == "cached build", "an edit to one member rebuilt another"

    # The workspace's manifest is every member's input: touching it rebuilds both.
    (root / "examples/Cargo.toml").write_text(WORKSPACE_TOML + "\n[profile.dev]\ndebug = false\n")
    both = invoke(root, "--check")
    assert both.returncode == 0, both.out
    assert note_of(both.out, "one") == note_of(both.out, "two") == "built cargo"


def test_a_cargo_example_missing_from_the_workspace_says_where_to_add_it(tmp_path, cargo):
    root = make_repo(tmp_path, {name: {"Cargo.toml": member_toml(name), "src/main.rs": rust_echo(name),
                                       "transcript.jsonl": jsonl(req(1))} for name in ("one", "two", "three")})
    (root / "examples/Cargo.toml").write_text(WORKSPACE_TOML)
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/three has a Cargo.toml but is not a member of the examples' workspace" in proc.out
    assert 'add "three" to `members` in examples/Cargo.toml' in proc.out and "python tools/run_examples.py three" in proc.out


def build_impl(root: Path, name: str):
    from runex.examples import model

    examples, errors = model.discover(root)
    assert not errors
    return next(e for e in examples if e.name == name).implementations[0]


def test_a_cargo_builds_key_leaves_out_its_python_twin_and_the_tools_files(tmp_path, cargo):
    """server.py beside Cargo.toml is the twin, not part of the crate: editing it must not rebuild the Rust
    server (make serve waits for that build); an edit to the crate's own files must."""
    root = make_repo(tmp_path, {"tw": {"Cargo.toml": member_toml("tw"), "src/main.rs": rust_echo("tw"),
                                       "server.py": ECHO, "transcript.jsonl": jsonl(req(1))}})
    from runex.examples import model

    [example], _errors = model.discover(root)
    impl = next(i for i in example.implementations if i.name == "cargo")
    recipe = native.cargo_recipe(False)
    before = native.cache_key(root, impl, recipe)
    assert root / "examples/tw/server.py" not in native.source_files(impl)
    for name, text in (("server.py", "# edited\n"), ("answer_key.jsonl", "{}\n"), ("example.toml", "# note\n")):
        path = root / "examples/tw" / name
        path.write_text((path.read_text() if path.exists() else "") + text)
        assert native.cache_key(root, impl, recipe) == before, name
    (root / "examples/tw/src/main.rs").write_text(rust_echo("tw, edited"))
    assert native.cache_key(root, impl, recipe) != before
