"""Whole-or-nothing writes: an interrupted run leaves every file old or new, and two runs at once corrupt nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.tool_repos import (ECHO, TOOLS, invoke, jsonl, make_repo, page, req, rust_echo, snapshot,
                                temp_files)
from runex import fsutil


# --- write_atomic -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["fsync", "replace", "chmod"])
def test_an_interrupted_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch, where):
    target = tmp_path / "answer_key.jsonl"
    target.write_bytes(b"old\n")

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(fsutil.os, where, interrupt)
    with pytest.raises(KeyboardInterrupt):
        fsutil.write_atomic(target, b"new\n" * 1000)
    monkeypatch.undo()
    assert target.read_bytes() == b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["answer_key.jsonl"]


def test_an_interrupted_first_write_leaves_no_file(tmp_path, monkeypatch):
    target = tmp_path / "new.md"
    monkeypatch.setattr(fsutil.os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError):
        fsutil.write_atomic(target, b"x")
    assert list(tmp_path.iterdir()) == []


def test_a_write_that_fails_half_way_leaves_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "page.md"
    target.write_bytes(b"old page\n")
    real_fdopen = os.fdopen

    class HalfWriter:
        def __init__(self, handle):
            self.handle = handle

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.handle.close()

        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise KeyboardInterrupt

    monkeypatch.setattr(fsutil.os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
    with pytest.raises(KeyboardInterrupt):
        fsutil.write_atomic(target, b"new page\n" * 500)
    assert target.read_bytes() == b"old page\n"
    assert [p.name for p in tmp_path.iterdir()] == ["page.md"]


def test_write_atomic_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "x"
    target.write_bytes(b"a")
    target.chmod(0o600)
    fsutil.write_atomic(target, b"b")
    assert target.read_bytes() == b"b" and target.stat().st_mode & 0o777 == 0o600
    fresh = tmp_path / "y"
    fsutil.write_atomic(fresh, b"c")
    assert fresh.stat().st_mode & 0o777 == 0o644


# --- a whole run, interrupted at each write -------------------------------------------------------------------------

def pristine(tmp_path, name):
    examples = {f"ex{i}": {"server.py": ECHO, "transcript.jsonl": jsonl(req(i + 1), req(i + 10))} for i in range(3)}
    pages = {f"p{i}.md": page(f"ex{i}/transcript.jsonl", f"ex{i}/answer_key.jsonl") for i in range(3)}
    return make_repo(tmp_path, examples, pages, name=name)


def contents(root):
    return {rel: data for rel, (data, _) in snapshot(root).items()}


def test_a_run_interrupted_at_any_write_leaves_every_file_old_or_new(tmp_path, monkeypatch):
    old = contents(pristine(tmp_path, "old"))
    reference = pristine(tmp_path, "new")
    assert invoke(reference).returncode == 0
    new = contents(reference)
    changed = sorted(set(new) - set(old) | {k for k in old if old[k] != new.get(k)})
    assert len(changed) == 6  # three answer keys, three pages

    real_replace = os.replace
    for allowed in range(len(changed)):
        root = pristine(tmp_path, f"cut-{allowed}")
        calls = []

        def replace(src, dst, calls=calls, allowed=allowed):
            if ".cache" in Path(dst).parts:  # the tool's own caches are not the files a reader sees
                return real_replace(src, dst)
            if len(calls) == allowed:
                raise KeyboardInterrupt  # Ctrl-C just before this file is renamed into place
            calls.append(dst)
            real_replace(src, dst)

        monkeypatch.setattr(fsutil.os, "replace", replace)
        proc = invoke(root)
        monkeypatch.setattr(fsutil.os, "replace", real_replace)
        assert proc.returncode == 130, proc.out
        assert "every file is either old or new" in proc.out
        now = contents(root)
        assert temp_files(root) == []
        for rel in set(old) | set(new):
            assert now.get(rel) in (old.get(rel), new.get(rel)), f"{rel} is neither old nor new"
        assert sum(now.get(rel) == new.get(rel) for rel in changed) == allowed
        # The next run finishes the job.
        assert invoke(root).returncode == 0
        assert contents(root) == new


# --- two runs at once -------------------------------------------------------------------------------------------------

def start(root, *args):
    return subprocess.Popen([sys.executable, str(TOOLS / "run_examples.py"), *args, "--root", str(root)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=dict(os.environ, NO_COLOR="1", GITHUB_ACTIONS=""))


def test_two_runs_at_once_corrupt_nothing(tmp_path, rustc):
    def repo(name):
        examples = {f"py{i}": {"server.py": ECHO} for i in range(3)}
        examples["rs"] = {"main.rs": rust_echo("race")}
        pages = {"all.md": page(*(f"{n}/{f}" for n in examples for f in ("transcript.jsonl", "answer_key.jsonl")))}
        return make_repo(tmp_path, examples, pages, name=name)

    reference = repo("reference")
    assert invoke(reference).returncode == 0
    expected = contents(reference)

    root = repo("shared")
    runs = [start(root, "-j", "2"), start(root, "-j", "2")]
    outputs = [p.communicate(timeout=120)[0] for p in runs]
    assert [p.returncode for p in runs] == [0, 0], outputs
    assert contents(root) == expected
    assert temp_files(root) == []
    builds = root / ".cache/run_examples/builds"
    assert len([p for p in builds.iterdir() if not p.name.startswith(".")]) == 1
    assert [p for p in builds.iterdir() if p.name.startswith(".")] == [], "no staging folder left"

    # A writer and a checker at once: the checker sees old or new files, never a torn one; when the writer's
    # rename lands during the check, the check says its input changed under it (the gate trusts nothing).
    (root / "examples/py0/answer_key.jsonl").write_text("stale\n")
    writer, checker = start(root), start(root, "--check")
    out_w, out_c = writer.communicate(timeout=120)[0], checker.communicate(timeout=120)[0]
    assert writer.returncode == 0, out_w
    assert checker.returncode in (0, 5) or (checker.returncode == 3 and "changed during the run" in out_c), out_c
    assert contents(root) == expected
    assert invoke(root, "--check").returncode == 0
