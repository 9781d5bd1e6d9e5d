"""The integrity snapshot (tools/runex/integrity.py) lists and hashes exactly what it always did, and the verdict keys
that take their files' hashes from it (results_cache.Context.file_digest) are the keys they were.

The walk was pathlib's rglob and is now os.scandir; `reference_inputs` below is the rglob version, kept here as the
definition the new walk is held to, on a tree with every kind of entry the rules mention.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from support.tool_repos import ECHO, make_repo, page, py_twin
from runex import integrity
from runex.builds import native
from runex.cache import results as results_cache
from runex.examples import model
from runex import sandboxing


def reference_inputs(root: Path) -> list[Path]:
    """integrity.inputs() as it was written with pathlib (before os.scandir), with docs/ narrowed to its pages."""
    found = [root / "mkdocs.yml"] if (root / "mkdocs.yml").is_file() else []
    for top in ("examples", "docs"):
        base = root / top
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            rel = path.relative_to(base)
            if integrity.SKIP_PARTS & set(rel.parts) or (path.name.startswith(".") and path.name.endswith(".tmp")):
                continue
            if top == "docs" and not path.name.endswith(".md"):
                continue
            if path.is_file() or path.is_symlink():
                found.append(path)
    return sorted(found)


def reference_digest(path: Path) -> str:
    try:
        if path.is_symlink():
            return "link:" + str(path.readlink())
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


def tricky_tree(root: Path) -> None:
    files = [
        "mkdocs.yml", "docs/index.md", "docs/a-b/page.md", "docs/a/page.md", "docs/.hidden.md",
        "examples/Cargo.toml", "examples/Cargo.lock", "examples/ex/server.py", "examples/ex/transcript.jsonl",
        "examples/ex/.env", "examples/ex/sub/deep/file.txt", "examples/ex-2/main.rs", "examples/ex_3/x",
        "examples/ex/target/debug/server", "examples/target/release/x", "examples/ex/__pycache__/m.pyc",
        "examples/ex/sub/target", "examples/ex/.answer_key.jsonl.abcd1234.tmp", "examples/ex/.tmp",
        "examples/ex/x.tmp", "examples/ex/.dir.tmp/inside.txt", "examples/ex/sub/__pycache__",
        "docs/assets/run/pyodide.asm.wasm", "docs/assets/style.css", "docs/img/logo.md.png",
    ]
    for rel in files:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{rel}\n")
    (root / "examples/ex/empty").mkdir()
    outside = root / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "dir/f.txt").write_text("outside\n")
    (outside / "file.txt").write_text("outside\n")
    os.symlink(outside / "file.txt", root / "examples/ex/linked.txt")
    os.symlink(outside / "dir", root / "examples/ex/linked-dir")  # listed, never entered
    os.symlink("../ex/server.py", root / "examples/ex-2/server.py")
    os.symlink("nowhere/../at//all/", root / "examples/ex/dangling")
    os.symlink("x", root / "examples/ex/.link.tmp")
    os.symlink(outside / "file.txt", root / "docs/linked.md")
    os.mkfifo(root / "examples/ex/fifo")  # neither a file nor a symlink: not an input


def test_the_walk_lists_what_rglob_listed_in_the_same_order(tmp_path):
    tricky_tree(tmp_path)
    expected = reference_inputs(tmp_path)
    assert integrity.inputs(tmp_path) == expected
    rels = [str(p.relative_to(tmp_path)) for p in expected]
    assert "examples/ex/linked-dir" in rels and "examples/ex/dangling" in rels and "docs/linked.md" in rels
    assert rels.index("docs/a/page.md") < rels.index("docs/a-b/page.md")  # Path order, not string order
    assert not any("target" in r or "__pycache__" in r or r.endswith("fifo") for r in rels)
    assert not any(r.startswith("docs/") and not r.endswith(".md") for r in rels), "of docs/, only the pages"


def test_the_snapshot_hashes_and_keeps_what_it_did(tmp_path):
    tricky_tree(tmp_path)
    snapshot = integrity.Snapshot(tmp_path)
    assert snapshot.hashes == {str(p.relative_to(tmp_path)): reference_digest(p) for p in reference_inputs(tmp_path)}
    assert snapshot.hashes["examples/ex/dangling"] == "link:nowhere/../at/all"
    kept = {rel for rel in snapshot.hashes if (rel.startswith("docs/") and rel.endswith(".md"))
            or rel.endswith("/Cargo.lock")}
    assert snapshot.kept == {rel: (tmp_path / rel).read_bytes() for rel in kept}
    assert snapshot.kept["docs/linked.md"] == b"outside\n", "a symlinked page is kept as what it reads"
    assert snapshot.changes() == []


def test_the_snapshot_sees_a_change_in_each_kind_of_input(tmp_path):
    tricky_tree(tmp_path)
    snapshot = integrity.Snapshot(tmp_path)
    (tmp_path / "examples/ex/sub/deep/file.txt").write_text("changed\n")
    (tmp_path / "examples/ex/dangling").unlink()
    os.symlink("elsewhere", tmp_path / "examples/ex/dangling")
    (tmp_path / "examples/ex/new.txt").write_text("new\n")
    (tmp_path / "docs/index.md").unlink()
    (tmp_path / "examples/ex/target/debug/server").write_text("outputs are not inputs\n")
    assert snapshot.changes() == ["docs/index.md", "examples/ex/dangling", "examples/ex/new.txt",
                                  "examples/ex/sub/deep/file.txt"]


def repo_with_links(tmp_path: Path) -> Path:
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO, "example.toml": "timeout = 7\n"},
                                "twin": {"server.py": py_twin()}},
                     {"p.md": page("ex/transcript.jsonl", "twin/transcript.jsonl")})
    (root / "examples/ex/answer_key.jsonl").write_text("{}\n")
    (root / "examples/twin/answer_key.jsonl").write_text("{}\n")
    # A symlinked transcript: the snapshot records where it points, the key must read what it points at (inside
    # examples/, as discovery insists; a folder named _... is no example).
    shared = root / "examples/_shared/transcript.jsonl"
    shared.parent.mkdir()
    shared.write_bytes((root / "examples/twin/transcript.jsonl").read_bytes())
    (root / "examples/twin/transcript.jsonl").unlink()
    os.symlink(shared, root / "examples/twin/transcript.jsonl")
    return root


def keys(root: Path, hashes: dict[str, str] | None) -> dict[str, str]:
    ctx = results_cache.Context(root, native.Cache(root), sandboxing.Sandbox(enabled=False), hashes)
    return {e.name: results_cache.key_of(ctx, e) for e in model.discover(root)[0]}


def test_keys_from_the_snapshot_are_the_keys_read_from_disk(tmp_path):
    root = repo_with_links(tmp_path)
    from_disk = keys(root, None)
    assert all(from_disk.values())
    assert keys(root, integrity.Snapshot(root).hashes) == from_disk


def test_a_key_from_the_snapshot_follows_a_symlink_to_what_it_reads(tmp_path):
    root = repo_with_links(tmp_path)
    before = keys(root, integrity.Snapshot(root).hashes)
    (root / "examples/_shared/transcript.jsonl").write_text("{}\n")  # the link is unchanged, what it reads is not
    after = keys(root, integrity.Snapshot(root).hashes)
    assert after["ex"] == before["ex"] and after["twin"] != before["twin"]


@pytest.mark.parametrize("rel", ["examples/ex/example.toml", "examples/ex/transcript.jsonl",
                                 "examples/ex/answer_key.jsonl", "examples/ex/server.py"])
def test_a_key_names_the_bytes_the_snapshot_hashed(rel, tmp_path):
    """A key part read from the snapshot is the snapshot's: a file changed after it gives the key of the bytes the
    gate checks (and the gate then fails the run), never a mix."""
    root = repo_with_links(tmp_path)
    snapshot = integrity.Snapshot(root)
    before = keys(root, snapshot.hashes)["ex"]
    (root / rel).write_text((root / rel).read_text() + "\n")
    assert keys(root, snapshot.hashes)["ex"] == before
    assert keys(root, integrity.Snapshot(root).hashes)["ex"] != before
    assert snapshot.changes() == [rel]
