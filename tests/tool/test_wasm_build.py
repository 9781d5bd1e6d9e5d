"""The Rust examples built for wasm32-wasip1 ("Run it here" in Rust): in the sandbox, through the build cache, and
an example that cannot build there is the example's error unless example.toml's [not_in_browser] says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.tool_repos import invoke, make_repo, page, rust_echo
from runex.builds import wasm
from runex.errors import ConfigError
from runex.examples import model

# Builds natively, refuses wasm32-wasip1: what a server on threads or sockets looks like to the wasm build.
NOT_ON_WASI = '#[cfg(target_os = "wasi")]\ncompile_error!("this server needs sockets");\n'


@pytest.fixture
def wasm_target(rustc):
    if not wasm._target_installed():
        from support.repo import skip_or_fail

        skip_or_fail(f"the Rust target {wasm.TARGET} is not installed; run: {wasm.TARGET_FIX}")


def modules(root: Path) -> list[bytes]:
    builds = root / ".cache" / "run_examples" / "builds"
    found = [p / "server" for p in builds.iterdir()] if builds.is_dir() else []
    return [p.read_bytes()[:4] for p in found if p.read_bytes()[:4] == b"\0asm"]


def repo(tmp_path: Path, source: str, toml: str | None = None, runner: bool = True) -> Path:
    files = {"main.rs": source}
    if toml is not None:
        files["example.toml"] = toml
    root = make_repo(tmp_path, {"rs": files}, {"p.md": page("rs/main.rs", "rs/transcript.jsonl")})
    if runner:
        (root / wasm.RUNNER).parent.mkdir(parents=True)
        (root / wasm.RUNNER).write_text("// the browser's Rust runner\n")
    return root


def test_the_tool_builds_each_rust_example_for_wasm_beside_its_native_build(tmp_path, wasm_target):
    root = repo(tmp_path, rust_echo("rust"))
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert modules(root) == [b"\0asm"]


def test_a_repository_without_the_browser_runner_builds_no_module(tmp_path, rustc):
    root = repo(tmp_path, rust_echo("rust"), runner=False)
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert modules(root) == []


def test_a_rust_example_that_does_not_build_for_wasm_names_example_toml_and_the_fix(tmp_path, wasm_target):
    root = repo(tmp_path, NOT_ON_WASI + rust_echo("rust"))
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/rs/main.rs does not build for wasm32-wasip1" in proc.out
    assert "this server needs sockets" in proc.out  # rustc's own words
    assert "say why in examples/rs/example.toml:" in proc.out and "[not_in_browser]" in proc.out
    assert "python tools/run_examples.py rs" in proc.out


def test_a_declared_example_builds_no_module_and_verifies(tmp_path, wasm_target):
    root = repo(tmp_path, NOT_ON_WASI + rust_echo("rust"), '[not_in_browser]\nrust = "it needs sockets"\n')
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert modules(root) == []
    [example], _ = model.discover(root)
    assert example.config.not_in_browser == (("rust", "it needs sockets"),)
    assert wasm.runs_in_browser(example) == []


@pytest.mark.parametrize("toml, said, line", [
    ('[not_in_browser]\npython = "why"\n', "not_in_browser names python, which the example does not run", None),
    ('[not_in_browser]\nrust = ""\n', "must say, in words, why", 2),
    ('[not_in_browser]\ngo = "why"\n', "not_in_browser names 'go'", 2),
    ('not_in_browser = "rust"\n', "not_in_browser must be a table", 1),
])
def test_a_bad_not_in_browser_table_is_named_at_its_line(tmp_path, toml, said, line):
    root = repo(tmp_path, rust_echo("rust"), toml, runner=False)
    _, errors = model.discover(root)
    [error] = errors
    assert isinstance(error, ConfigError) and said in error.message, error.message
    assert error.file == "examples/rs/example.toml" and error.line == line
