"""Cached verdicts (tools/runex/cache/results.py): each input in the key turns a cached verdict into a real run,
the runs that must run everything do, and a damaged cache is a miss, never a crash or a false pass.

Every call sets CI to "" (a local run) unless it tests CI=true itself: CI ignores the cache by design.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
from pathlib import Path

import pytest

from support.tool_repos import (ECHO, HTTP_ECHO, forget_verdicts, invoke, jsonl, make_repo, page, py_twin, req, require,
                                rust_echo, server)
from runex.examples.files import ExampleFiles
from runex.builds import native
from runex.cache import results as results_cache
from runex.examples import model
from runex import sandboxing
from runex import toolchain

LOCAL = {"CI": ""}
CACHED = "verified, cached"


def run(root: Path, *args: str, **env: str):
    return invoke(root, *args, env={**LOCAL, **env})


def notes(out: str) -> dict[str, str]:
    """{example: the note in brackets} from each example's report line."""
    found = {}
    for line in out.splitlines():
        match = re.match(r"^(verified|written|drifted|failed) +(\S+) .*\((.*)\)$", line)
        if match:
            found[match.group(2)] = match.group(3)
    return found


def cached(out: str, name: str = "ex") -> bool:
    return notes(out)[name].startswith(CACHED)


def entries(root: Path) -> list[Path]:
    folder = root / ".cache" / "run_examples" / "verdicts"
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def python_repo(tmp_path: Path, files: dict | None = None) -> Path:
    return make_repo(tmp_path, {"ex": {"server.py": ECHO, **(files or {})}},
                     {"p.md": page("ex/server.py", "ex/transcript.jsonl", "ex/answer_key.jsonl")})


def twin_repo(tmp_path: Path) -> Path:
    return make_repo(tmp_path, {"ex": {"main.rs": rust_echo(), "server.py": py_twin()}},
                     {"p.md": page("ex/main.rs", "ex/transcript.jsonl", "ex/answer_key.jsonl")})


def warm(root: Path) -> None:
    """Write the answer key, then prove the next --check takes the cached verdict."""
    first = run(root)
    assert first.returncode == 0, first.out
    again = run(root, "--check")
    assert again.returncode == 0, again.out
    assert cached(again.out), again.out


# ------------------------------------------------------------------ each input in the key, changed: a real run

def _format(root, monkeypatch, tmp_path):
    monkeypatch.setattr(results_cache, "FORMAT", results_cache.FORMAT + 1)


def _tool_source(root, monkeypatch, tmp_path):
    """A template changes (they are part of the tool): the copy the key reads is edited."""
    copy = tmp_path / "tool-copy"
    template = copy / "new" / "templates" / "server.py"
    template.write_text(template.read_text() + "# edited\n")


def _example(root, monkeypatch, tmp_path):
    """A second example with the same files does not take the first one's verdict."""
    shutil.copytree(root / "examples/ex", root / "examples/ex2")
    (root / "docs/p2.md").write_text(page("ex2/transcript.jsonl"))
    return "ex2"


def _config(root, monkeypatch, tmp_path):
    (root / "examples/ex/example.toml").write_text("timeout = 7\n")


def _transcript(root, monkeypatch, tmp_path):
    (root / "examples/ex/transcript.jsonl").write_text(jsonl(req(1), req(2), req(3)))


def _answer_key(root, monkeypatch, tmp_path):
    key = root / "examples/ex/answer_key.jsonl"
    key.write_text(key.read_text().replace('"tools":[]', '"tools":[ ]', 1))


def _stderr_lane(root, monkeypatch, tmp_path):
    lane = root / "examples/ex/stderr.txt"
    lane.write_text(lane.read_text() + "a line typed by hand\n")


def _http_records(root, monkeypatch, tmp_path):
    record = root / "examples/ex/http.python.jsonl"
    record.write_text(record.read_text().replace('"status": 202', '"status": 200'))


def _own_tests(root, monkeypatch, tmp_path):
    """A test file the key reads only through example.toml's `test` (no build key names it)."""
    tests = root / "examples/ex/test_ex.py"
    tests.write_text(tests.read_text() + "# a comment: another test? the key cannot know\n")


def _artefacts(root, monkeypatch, tmp_path):
    """The Python twin's bytes (a Rust binary's own change: test_a_damaged_binary_is_a_miss_and_is_rebuilt)."""
    source = root / "examples/ex/server.py"
    source.write_text(source.read_text() + "# a comment: other output? the key cannot know\n")


def _lock_files(root, monkeypatch, tmp_path):
    lock = root / "examples/ex/Cargo.lock"
    lock.write_text(lock.read_text() + "\n")


def _toolchain(root, monkeypatch, tmp_path):
    """Another rustc on PATH, as after `rustup update`: the same compiler, answering `rustc -vV` differently. Each run
    asks anew (toolchain.forget), so an earlier answer held by this process does not hide it."""
    real = shutil.which("rustc")
    fake_tool(tmp_path / "updated", "rustc",
              f'if [ "$1" = "-vV" ]; then "{real}" -vV; echo "commit-hash: another"; else exec "{real}" "$@"; fi')
    monkeypatch.setenv("PATH", f"{tmp_path / 'updated'}:{os.environ['PATH']}")


def _interpreter(root, monkeypatch, tmp_path):
    pins = tmp_path / "pins" / "constraints.txt"
    pins.write_text(pins.read_text() + "mcp==9.9.9\n")


def _sandbox(root, monkeypatch, tmp_path):
    monkeypatch.setattr(sandboxing, "SERVER_LIMITS", sandboxing.Limits(cpu_seconds=59))


def python_example(tmp_path, need):
    return python_repo(tmp_path)


def example_with_tests(tmp_path, need):
    return python_repo(tmp_path, {"example.toml": 'test = "pytest"\n', "test_ex.py": "def test_ok():\n    pass\n"})


def twin_example(tmp_path, need):
    need("rustc")
    return twin_repo(tmp_path)


def http_example(tmp_path, need):
    return python_repo(tmp_path, {"server.py": HTTP_ECHO, "example.toml": "http = true\n"})


def lane_example(tmp_path, need):
    logging = server('''
        for line in sys.stdin:
            msg = json.loads(line)
            print("log: " + msg["method"], file=sys.stderr, flush=True)
            if "id" in msg:
                answer(msg)
        ''')
    return python_repo(tmp_path, {"server.py": logging, "example.toml": 'stderr_lane = "python"\n'})


CARGO_TOML = '[package]\nname = "ex"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'


def cargo_example(tmp_path, need):
    need("rustc")
    need("cargo")
    return make_repo(tmp_path, {"ex": {"Cargo.toml": CARGO_TOML, "src/main.rs": rust_echo()}},
                     {"p.md": page("ex/transcript.jsonl")})


# part name -> (the repository it needs, how to change that part). KEY_PARTS and this table must name the same parts.
CHANGES = {
    "format": (python_example, _format),
    "tool source": (python_example, _tool_source),
    "example": (python_example, _example),
    "example.toml": (python_example, _config),
    "transcript": (python_example, _transcript),
    "answer key": (python_example, _answer_key),
    "stderr lane": (lane_example, _stderr_lane),
    "http records": (http_example, _http_records),
    "own tests": (example_with_tests, _own_tests),
    "artefacts": (twin_example, _artefacts),
    "lock files": (cargo_example, _lock_files),
    "toolchain": (twin_example, _toolchain),
    "interpreter": (python_example, _interpreter),
    "sandbox": (python_example, _sandbox),
}


def test_every_part_of_the_key_has_a_change_below():
    assert list(CHANGES) == [name for name, _, _ in results_cache.KEY_PARTS]


@pytest.fixture
def tool_copy(tmp_path, monkeypatch):
    """The key reads a copy of the tool's source and of the pin files, so that tests can change them."""
    copy = tmp_path / "tool-copy"
    shutil.copytree(results_cache.TOOL_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(results_cache.TOOL_ENTRY, tmp_path / "run_examples.py")
    monkeypatch.setattr(results_cache, "TOOL_DIR", copy)
    monkeypatch.setattr(results_cache, "TOOL_ENTRY", tmp_path / "run_examples.py")
    (tmp_path / "pins").mkdir()
    pins = []
    for original in results_cache.PIN_FILES:
        pins.append(tmp_path / "pins" / original.name)
        shutil.copy(original, pins[-1])
    monkeypatch.setattr(results_cache, "PIN_FILES", tuple(pins))


@pytest.mark.parametrize("part", list(CHANGES))
def test_changing_a_part_of_the_key_runs_the_example_again(part, tmp_path, monkeypatch, tool_copy):
    make, change = CHANGES[part]
    root = make(tmp_path, require)
    warm(root)
    name = change(root, monkeypatch, tmp_path) or "ex"
    proc = run(root, "--check")
    assert name in notes(proc.out), proc.out
    assert not cached(proc.out, name), f"{part} changed, yet the verdict was taken from the cache:\n{proc.out}"


def test_an_answer_key_edited_by_hand_runs_and_fails_as_drift(tmp_path, monkeypatch, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    _answer_key(root, monkeypatch, tmp_path)
    proc = run(root, "--check")
    assert proc.returncode == 5, proc.out
    assert notes(proc.out)["ex"] == "no build" and proc.out.startswith("drifted"), proc.out


def test_a_damaged_binary_is_a_miss_and_is_rebuilt(tmp_path, monkeypatch, tool_copy):
    require("rustc")
    root = twin_repo(tmp_path)
    warm(root)
    [binary] = (root / ".cache/run_examples/builds").glob("*/server")
    binary.chmod(binary.stat().st_mode | stat.S_IWUSR)
    with open(binary, "r+b") as handle:
        handle.seek(100)
        handle.write(b"\0" * 32)
    proc = run(root, "--check")
    assert proc.returncode == 0, proc.out
    assert notes(proc.out)["ex"] == "built rust", proc.out


def test_a_different_bwrap_version_is_a_miss(tmp_path, monkeypatch, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    shim = tmp_path / "bwrap-shim"
    shim.write_text(f'#!/bin/sh\n[ "$1" = --version ] && {{ echo bubblewrap 0.0.1; exit 0; }}\n'
                    f'exec {shutil.which("bwrap")} "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setattr(sandboxing, "BWRAP", str(shim))
    proc = run(root, "--check")
    assert proc.returncode == 0, proc.out
    assert not cached(proc.out), proc.out


def test_unsandboxed_does_not_take_a_sandboxed_verdict(tmp_path, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    proc = run(root, "--check", "--unsandboxed")
    assert proc.returncode == 0, proc.out
    assert not cached(proc.out), proc.out


def test_a_new_installed_distribution_is_a_miss(tmp_path, monkeypatch, tool_copy):
    packages = tmp_path / "site-packages"
    packages.mkdir()
    monkeypatch.syspath_prepend(str(packages))
    root = python_repo(tmp_path)
    warm(root)
    (packages / "newly_installed-1.0.dist-info").mkdir()
    assert not cached(run(root, "--check").out)


# ------------------------------------------------------------------ who reads the cache, and what is kept

def test_nothing_changed_runs_nothing_but_a_hand_edited_page_still_fails(tmp_path, tool_copy):
    root = make_repo(tmp_path, {name: {"server.py": ECHO} for name in ("a", "b", "c")})
    assert run(root).returncode == 0
    proc = run(root, "--check")
    assert proc.returncode == 0, proc.out
    assert notes(proc.out) == {"a": CACHED, "b": CACHED, "c": CACHED}
    assert "3 verified (3 cached)" in proc.out
    doc = root / "docs/examples.md"
    doc.write_text(doc.read_text().replace("<!-- example-end -->", "a line typed into the block\n<!-- example-end -->", 1))
    proc = run(root, "--check")
    assert proc.returncode == 5, proc.out
    assert "docs/examples.md" in proc.out and "drifted" in proc.out


def test_an_edited_example_runs_alone(tmp_path, tool_copy):
    root = make_repo(tmp_path, {name: {"server.py": ECHO} for name in ("a", "b", "c")})
    assert run(root).returncode == 0
    source = root / "examples/b/server.py"
    source.write_text(source.read_text() + "# edited\n")
    proc = run(root, "--check")
    assert proc.returncode == 0, proc.out
    assert notes(proc.out) == {"a": CACHED, "b": "no build", "c": CACHED}


@pytest.mark.parametrize("args,env", [(("--fresh",), LOCAL), (("--repeat", "2"), LOCAL), (("-v",), LOCAL),
                                      ((), {"CI": "true"})], ids=["fresh", "repeat", "verbose", "CI=true"])
def test_these_runs_ignore_a_full_cache(args, env, tmp_path, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    before = entries(root)
    proc = invoke(root, "--check", *args, env=env)
    assert proc.returncode == 0, proc.out
    assert not cached(proc.out), proc.out
    assert entries(root) == before, "they may write the cache; this one held the same verdict already"


def test_ci_writes_what_it_verified(tmp_path, tool_copy):
    root = python_repo(tmp_path)
    assert run(root).returncode == 0
    forget_verdicts(root)
    assert invoke(root, "--check", env={"CI": "true"}).returncode == 0
    assert len(entries(root)) == 1
    assert cached(run(root, "--check").out)


def test_regenerating_takes_a_cached_verdict_once_the_key_holds_its_output(tmp_path, tool_copy):
    root = python_repo(tmp_path)
    first = run(root)
    assert first.returncode == 0 and notes(first.out)["ex"] == "no build", first.out  # written, then stored
    second = run(root)
    assert second.returncode == 0, second.out
    assert cached(second.out), second.out


def test_a_failure_is_never_cached(tmp_path, tool_copy):
    root = python_repo(tmp_path, {"server.py": server("sys.exit(3)\n")})
    for _ in range(2):
        proc = run(root, "--check")
        assert proc.returncode == 3, proc.out
        assert not cached(proc.out)
    assert entries(root) == []


def test_a_drift_is_never_cached(tmp_path, tool_copy):
    root = python_repo(tmp_path)
    assert run(root).returncode == 0
    forget_verdicts(root)
    _answer_key(root, None, tmp_path)
    for _ in range(2):
        assert run(root, "--check").returncode == 5
    assert entries(root) == []


@pytest.mark.parametrize("damage", ["truncated", "not json", "a list", "another key", "another example",
                                    "another answer key", "missing field", "bad expected"])
def test_a_damaged_entry_is_a_miss_never_a_crash_or_a_pass(damage, tmp_path, monkeypatch, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    [path] = entries(root)
    entry = json.loads(path.read_text())
    text = {
        "truncated": path.read_text()[:20],
        "not json": "\0\1garbage",
        "a list": "[1, 2]",
        "another key": json.dumps({**entry, "key": "0" * 64}),
        "another example": json.dumps({**entry, "example": "other"}),
        "another answer key": json.dumps({**entry, "answer_key": "0" * 64}),
        "missing field": json.dumps({k: v for k, v in entry.items() if k != "expected"}),
        "bad expected": json.dumps({**entry, "expected": [{"rule": "x"}]}),
    }[damage]
    path.write_text(text)
    proc = run(root, "--check")
    assert proc.returncode == 0, proc.out
    assert not cached(proc.out), proc.out
    assert cached(run(root, "--check").out), "the run replaced the damaged entry with a good one"


def test_a_damaged_entry_cannot_hide_a_drift(tmp_path, monkeypatch, tool_copy):
    """An entry filed under the current key (as a stale or forged file would be) that does not match the answer key
    on disk is not trusted: the example runs and its drift is reported."""
    root = python_repo(tmp_path)
    warm(root)
    [path] = entries(root)
    entry = json.loads(path.read_text())
    (root / "examples/ex/server.py").write_text(server("""
        for line in sys.stdin:
            msg = json.loads(line)
            if "id" in msg:
                answer(msg, changed=True)
        """))
    store = results_cache.ResultStore(results_cache.Context(root, native.Cache(root), sandboxing.Sandbox()), read=True)
    [example] = model.discover(root)[0]
    key = results_cache.key_of(store.ctx, example)
    (path.parent / f"{key}.json").write_text(json.dumps({**entry, "key": key, "answer_key": "f" * 64}))
    proc = run(root, "--check")
    assert proc.returncode == 5, proc.out
    assert not cached(proc.out), proc.out


# ------------------------------------------------------------------ pages that pasted to themselves (cache/pages.py)

def pages_cached(out: str) -> int:
    match = re.search(r"pages?: .*up to date \((\d+) cached\)", out)
    return int(match.group(1)) if match else 0


def test_an_up_to_date_page_is_not_pasted_again_until_a_file_it_shows_changes(tmp_path, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    assert pages_cached(run(root, "--check").out) == 1
    source = root / "examples/ex/server.py"
    source.write_text(source.read_text() + "# a comment the page shows\n")
    proc = run(root, "--check")
    assert proc.returncode == 5, proc.out  # the example verifies; the page's copy of server.py is stale
    assert notes(proc.out)["ex"] == "no build" and pages_cached(proc.out) == 0
    assert "docs/p.md" in proc.out and "+# a comment the page shows" in proc.out


def test_a_page_edited_outside_its_blocks_is_pasted_again_and_stays_up_to_date(tmp_path, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    doc = root / "docs/p.md"
    doc.write_text(doc.read_text() + "\nA new paragraph.\n")
    proc = run(root, "--check")
    assert proc.returncode == 0, proc.out
    assert pages_cached(proc.out) == 0 and cached(proc.out)
    assert pages_cached(run(root, "--check").out) == 1


@pytest.mark.parametrize("damage", ["not json", "another page", "another digest"])
def test_a_damaged_page_entry_is_pasted(damage, tmp_path, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    [path] = sorted((root / ".cache/run_examples/pages").glob("*.json"))
    entry = json.loads(path.read_text())
    path.write_text({"not json": "{", "another page": json.dumps({**entry, "page": "docs/other.md"}),
                     "another digest": json.dumps({**entry, "sha256": "0" * 64})}[damage])
    proc = run(root, "--check")
    assert proc.returncode == 0, proc.out
    assert pages_cached(proc.out) == 0


def test_ci_pastes_every_page(tmp_path, tool_copy):
    root = python_repo(tmp_path)
    warm(root)
    proc = invoke(root, "--check", env={"CI": "true"})
    assert proc.returncode == 0 and pages_cached(proc.out) == 0, proc.out


def test_a_run_that_runs_one_example_pastes_only_the_pages_that_show_it(tmp_path, tool_copy):
    """A page is keyed on the examples its markers name, not on everything under examples/: `make serve`
    re-pastes one page for one edited example."""
    root = make_repo(tmp_path, {name: {"server.py": ECHO} for name in ("a", "b")},
                     {"a.md": page("a/transcript.jsonl"), "b.md": page("b/transcript.jsonl")})
    assert run(root).returncode == 0
    assert pages_cached(run(root).out) == 2, "the pages the first run wrote were recorded as written"
    source = root / "examples/b/server.py"
    source.write_text(source.read_text() + "# edited, and not shown on b.md: still an input of b.md\n")
    proc = run(root)
    assert proc.returncode == 0 and not cached(proc.out, "b") and cached(proc.out, "a"), proc.out
    assert pages_cached(proc.out) == 1, "a.md reads nothing of b: still up to date"
    assert pages_cached(run(root, "--check").out) == 2


def test_a_page_is_pasted_again_when_an_example_it_borrows_from_changes(tmp_path, tool_copy):
    """c borrows a's transcript (transcript_from): c's conversation reads examples/a/, so an edit there re-pastes
    c.md as well as a.md, and an edit to d re-pastes neither."""
    root = make_repo(tmp_path, {"a": {"server.py": ECHO}, "d": {"server.py": ECHO},
                                "c": {"server.py": ECHO, "example.toml": 'transcript_from = "a"\n'}},
                     {"a.md": page("a/transcript.jsonl"), "c.md": page("c/conversation"),
                      "d.md": page("d/transcript.jsonl")})
    assert run(root).returncode == 0
    assert pages_cached(run(root, "--check").out) == 3
    for name, still_cached in (("a", 1), ("d", 2)):
        source = root / f"examples/{name}/server.py"
        source.write_text(source.read_text() + "# edited\n")
        proc = run(root)
        assert proc.returncode == 0, proc.out
        assert pages_cached(proc.out) == still_cached, (name, proc.out)


def test_a_page_that_read_a_lock_cargo_moved_is_not_recorded(tmp_path):
    """Without --check cargo may rewrite a Cargo.lock during the run; a page reading it is not recorded then."""
    from runex.cache import pages as page_cache
    from runex.paste import pages

    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}, "other": {"server.py": ECHO}},
                     {"p.md": page("ex/transcript.jsonl")})
    path = root / "docs/p.md"
    path.write_text(pages.paste_page(root, path, ExampleFiles(root)).new)
    hashes = {"docs/p.md": results_cache.digest(path.read_bytes())}
    result = pages.paste_page(root, path, ExampleFiles(root))
    assert result.new == result.old
    for moved, recorded in (({"examples/ex/Cargo.lock"}, False), ({"examples/other/Cargo.lock"}, True)):
        store = page_cache.PageCache(root, "tool", hashes, {}, use=True)
        shutil.rmtree(store.dir, ignore_errors=True)
        store.store([pages.PageResult(path, "docs/p.md", result.new, result.new, result.blocks)], [], moved=moved)
        assert (store.lookup(path) is not None) == recorded, moved


def test_what_pasting_reads_is_inside_what_a_page_entry_records(monkeypatch):
    """Every file pasting the real site's pages reads under examples/ lies under the names PageCache.names_read
    records for that page: a read the cache did not key on would let a stale page pass as up to date."""
    from runex.cache import pages as page_cache
    from runex.paste import pages

    root = Path(__file__).resolve().parents[2]
    read: list[Path] = []
    real_read_bytes, real_read_text, real_open = Path.read_bytes, Path.read_text, Path.open

    def recorded(real):
        def reader(self, *args, **kwargs):
            read.append(self)
            return real(self, *args, **kwargs)
        return reader

    monkeypatch.setattr(Path, "read_bytes", recorded(real_read_bytes))
    monkeypatch.setattr(Path, "read_text", recorded(real_read_text))
    monkeypatch.setattr(Path, "open", recorded(real_open))
    cache = page_cache.PageCache(root, "tool", {}, {}, use=False)
    examples = (root / "examples").resolve()
    checked = 0
    for path in pages.page_files(root):
        read.clear()
        result = pages.paste_page(root, path, ExampleFiles(root))
        names = cache.names_read(result.blocks)
        assert names is not None
        for file in read:
            resolved = file.resolve()
            if resolved.is_relative_to(examples):
                rel = resolved.relative_to(examples)
                assert rel.parts[0] in names, f"{path.name} read examples/{rel}, outside {names}"
                checked += 1
    assert checked > 50, "the pages read the example files they paste"


# ------------------------------------------------------------------ answers asked early (start_probes)

def fake_tool(folder: Path, name: str, script: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(f"#!/bin/sh\n{script}\n")
    (folder / name).chmod(0o755)


@pytest.mark.parametrize("answer", ["echo 'rustc 9.9.9'; echo 'host: test'", "echo broken >&2; exit 3"],
                         ids=["answers", "fails"])
def test_a_toolchain_answer_asked_early_is_the_answer_asked_late(answer, tmp_path, monkeypatch):
    """toolchain.ask() starts `rustc -vV` and `cargo -V` without waiting; what toolchain_version() then gives
    (or raises) is what asking it then would have."""
    from runex.errors import BuildError

    fake_tool(tmp_path / "bin", "rustc", answer)
    fake_tool(tmp_path / "bin", "cargo", "echo 'cargo 9.9.9'")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    def answer_or_error(tool: str) -> str:
        try:
            return toolchain.version(tool)
        except BuildError as exc:
            return f"BuildError: {exc}"

    seen = []
    for early in (False, True):
        monkeypatch.setattr(toolchain, "_versions", {})
        monkeypatch.setattr(toolchain, "_asked", {})
        if early:
            toolchain.ask()
            assert set(toolchain._asked) == {"rustc", "cargo"}
        seen.append((answer_or_error("rustc"), answer_or_error("cargo")))
        assert toolchain._asked == {}, "every early answer is taken"
    assert seen[0] == seen[1], seen
    if "exit" in answer:
        assert seen[0][0] == ("BuildError: rustc is needed to build Rust examples and did not run: Command "
                              "'['rustc', '-vV']' returned non-zero exit status 3."), seen
    else:
        assert seen[0] == ("rustc 9.9.9\nhost: test\n", "cargo 9.9.9\n")


def test_a_failed_early_answer_is_asked_again(tmp_path, monkeypatch):
    from runex.errors import BuildError

    fake_tool(tmp_path / "bin", "rustc", "exit 1")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:{os.environ['PATH']}")
    monkeypatch.setattr(toolchain, "_versions", {})
    monkeypatch.setattr(toolchain, "_asked", {})
    toolchain.ask()
    with pytest.raises(BuildError):
        toolchain.version("rustc")
    fake_tool(tmp_path / "bin", "rustc", "echo 'rustc fixed'")
    assert toolchain.version("rustc") == "rustc fixed\n"


@pytest.mark.parametrize("command", [["sh", "-c", "echo out; echo err >&2; exit 4"], ["no-such-program-here"]],
                         ids=["runs", "missing"])
def test_a_command_asked_early_gives_the_text_asked_late(command, tmp_path):
    """The sandbox part's `bwrap --version` is asked by start_probes; Context.output gives the same text either way,
    and each answer once (the next call asks again)."""
    root = python_repo(tmp_path)
    ctx = results_cache.Context(root, native.Cache(root), sandboxing.Sandbox())
    late = ctx.output(command)
    ctx.ask(command)
    assert ctx.output(command) == late
    assert ctx._asked == {}
    assert late.startswith("exit 4\nout\nerr\n") if command[0] == "sh" else late.startswith("did not run: ")


def test_start_probes_asks_only_what_the_keys_need(tmp_path, monkeypatch):
    root = python_repo(tmp_path)
    examples = model.discover(root)[0]
    monkeypatch.setattr(toolchain, "_versions", {})
    monkeypatch.setattr(toolchain, "_asked", {})
    for enabled, asked in ((False, set()), (True, {(sandboxing.BWRAP, "--version")})):
        ctx = results_cache.Context(root, native.Cache(root), sandboxing.Sandbox(enabled=enabled))
        results_cache.start_probes(ctx, examples)
        assert set(ctx._asked) == asked and toolchain._asked == {}, "a Python example needs no toolchain"
        for command in list(ctx._asked):
            ctx.output(list(command))
