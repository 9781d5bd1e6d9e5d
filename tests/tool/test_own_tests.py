"""example.toml's `test`: an example's own tests (cargo test, pytest) run in the sandbox, their output recorded.

The slow tests copy the real examples of "Testing your server" (testing-rust, testing-python) into a throwaway
repository, check that the copy is green (testing-python's once, for the two tests that change a copy of it), change
what the server replies or add a test, and expect the check to fail with the test that caught it, named at its file
and line. The cargo copy shares the checkout's cargo target folder (as tests/site/test_serve_live.py does): the
sandbox builds at the same paths, so rmcp is not compiled again.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from support.tool_repos import ECHO, invoke, make_repo, page
from support.repo import ROOT
from runex.run import own_tests

HELLO = "Hello, {name}!"
CHANGED = "Hi, {name}!"


def copy_example(tmp_path: Path, name: str, as_name: str | None = None) -> Path:
    """A repository holding examples/NAME as checked in (under `as_name`, if given), a page that pastes it, and
    tools/ (the tool under test)."""
    as_name = as_name or name
    root = make_repo(tmp_path, pages={"p.md": page(f"{as_name}/transcript.jsonl")})
    shutil.copytree(ROOT / "examples" / name, root / "examples" / as_name,
                    ignore=shutil.ignore_patterns("target", "__pycache__"))
    return root


def share_cargo_target(root: Path, member: str) -> None:
    """The examples' workspace with this one member, and the checkout's target folder. The member has a folder name
    of its own, so cargo keeps its artifacts apart from the checkout's crate: a copy changed here must never be
    what the checkout's next build finds fresh (cargo compares mtimes, and the sandbox's paths are the same)."""
    manifest = (ROOT / "examples/Cargo.toml").read_text(encoding="utf-8")
    members = re.sub(r"members = \[[^\]]*\]", f'members = ["{member}"]', manifest)
    (root / "examples/Cargo.toml").write_text(members, encoding="utf-8")
    shutil.copy(ROOT / "examples/Cargo.lock", root / "examples/Cargo.lock")
    # copytree kept the checkout's (old) mtimes, and an earlier run of this test left the changed copy's artifacts
    # in the shared folder: touch every source, so cargo builds this copy again rather than find that one fresh.
    for source in (root / "examples" / member).rglob("*"):
        if source.is_file():
            source.touch()
    shared = ROOT / ".cache/cargo-target"
    shared.mkdir(parents=True, exist_ok=True)
    (root / ".cache").mkdir(exist_ok=True)
    (root / ".cache/cargo-target").symlink_to(shared, target_is_directory=True)


def change_reply(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(HELLO) == 1, f"{path.name} no longer greets with {HELLO!r}: update this test's change"
    path.write_text(text.replace(HELLO, CHANGED), encoding="utf-8")


def green(root: Path, name: str) -> None:
    written = invoke(root, name)
    assert written.returncode == 0, written.out
    checked = invoke(root, "--check", name)
    assert checked.returncode == 0, checked.out


@pytest.mark.slow
def test_cargo_tests_fail_by_name_when_the_reply_changes(tmp_path, cargo):
    name = "testing-rust-copy"
    root = copy_example(tmp_path, "testing-rust", name)
    share_cargo_target(root, name)
    green(root, name)
    record = (root / f"examples/{name}/tests.cargo.txt").read_text(encoding="utf-8")
    assert "test greets_by_name ... ok" in record and "<time>" in record
    change_reply(root / f"examples/{name}/src/lib.rs")
    proc = invoke(root, "--check", name)
    assert proc.returncode == 3, proc.out
    assert re.search(rf"examples/{name}/tests/in_process\.rs:\d+: cargo test failed \(exit 101\): "
                     rf"test greets_in_process failed at examples/{name}/tests/in_process\.rs:\d+; "
                     rf"test greets_by_name failed at examples/{name}/tests/stdio\.rs:\d+", proc.out), proc.out
    assert "Hi, Ada!" in proc.out, "the assertion's own message is shown"


@pytest.fixture(scope="module")
def green_python(tmp_path_factory) -> Path:
    """testing-python copied and shown green (written, then checked) once, for the tests that change it: each
    changes a copy of this one (its .cache holds content-keyed records only, so a copy checks as this one does)."""
    root = copy_example(tmp_path_factory.mktemp("green"), "testing-python")
    green(root, "testing-python")
    return root


def green_copy(green_root: Path, tmp_path: Path) -> Path:
    return shutil.copytree(green_root, tmp_path / "repo", symlinks=True)


@pytest.mark.slow
def test_pytest_fails_by_name_when_the_reply_changes(green_python, tmp_path):
    root = green_copy(green_python, tmp_path)
    change_reply(root / "examples/testing-python/server.py")
    proc = invoke(root, "--check", "testing-python")
    assert proc.returncode == 3, proc.out
    assert re.search(r"examples/testing-python/test_server\.py:\d+: pytest failed \(exit 1\): "
                     r"test test_greets_by_name\[in-process\] failed at "
                     r"examples/testing-python/test_server\.py:\d+", proc.out), proc.out
    assert "test test_greets_by_name[stdio] failed" in proc.out
    assert not (root / "examples/testing-python/answer_key.jsonl").read_text().count("Hi, Ada!")


@pytest.mark.slow
def test_a_test_added_is_drift_until_written(green_python, tmp_path):
    root = green_copy(green_python, tmp_path)
    with (root / "examples/testing-python/test_server.py").open("a", encoding="utf-8") as tests:
        tests.write("\n\ndef test_one_more():\n    assert server.name == \"testing-python\"\n")
    proc = invoke(root, "--check", "testing-python")
    assert proc.returncode == 5, proc.out
    assert "tests.pytest.txt (checked in)" in proc.out and "+test_server.py::test_one_more PASSED" in proc.out
    green(root, "testing-python")


def test_an_unknown_runner_is_named_at_its_line(tmp_path):
    root = make_repo(tmp_path, {"t": {"server.py": ECHO, "example.toml": "timeout = 5\ntest = \"nose\"\n"}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/t/example.toml:2: test names the runner" in proc.out, proc.out


def test_a_runner_without_its_implementation_is_refused(tmp_path):
    root = make_repo(tmp_path, {"t": {"server.py": ECHO, "example.toml": "test = \"cargo\"\n"}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/t/example.toml:1: test = 'cargo' runs the tests of a cargo implementation" in proc.out


def test_durations_and_hashes_are_normalized_and_progress_dropped():
    raw = ("   Compiling testing-rust v0.1.0 (/src/examples/testing-rust)\n"
           "    Finished `test` profile [unoptimized] target(s) in 12.34s\n"
           "     Running tests/stdio.rs (/target/debug/deps/stdio-0123456789abcdef)\n"
           "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.07s\n"
           "========================= 9 passed in 3.21s (0:00:03) =========================\n")
    assert own_tests.normalize(raw).splitlines() == [
        "     Running tests/stdio.rs (target/debug/deps/stdio-<hash>)",
        "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in <time>",
        " 9 passed in <time> ".center(80, "="),
    ]


def test_a_record_without_its_runner_is_left_over(tmp_path):
    root = make_repo(tmp_path, {"t": {"server.py": ECHO, "tests.pytest.txt": "1 passed\n"}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/t/tests.pytest.txt: tests.pytest.txt is left over" in proc.out, proc.out
    assert 'set test = "pytest" in example.toml' in proc.out


def test_each_failing_test_is_named_at_its_file_and_line():
    cargo = ["thread 'greets_in_process' (10) panicked at testing-rust/tests/in_process.rs:36:5:",
             "thread 'greets_by_name' panicked at testing-rust/tests/stdio.rs:47:5:"]
    assert own_tests._failures("cargo", cargo) == [("greets_in_process", "testing-rust/tests/in_process.rs", 36),
                                                   ("greets_by_name", "testing-rust/tests/stdio.rs", 47)]
    pytest_out = ["_______________ test_greets_by_name[stdio] _______________", "test_server.py:58: in test_greets_by_name",
                  "    assert result.content[0].text == 'Hello, Ada!'"]
    assert own_tests._failures("pytest", pytest_out) == [("test_greets_by_name[stdio]", "test_server.py", 58)]
