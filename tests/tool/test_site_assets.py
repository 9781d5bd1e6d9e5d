"""tools/site_assets.py: what "Run it here" copies into the site, and what it says when Pyodide is missing."""

from __future__ import annotations

import json
import shutil

import site_assets
from support.repo import ROOT


def _repo(tmp_path, with_pyodide: bool):
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "examples", root / "examples", ignore=shutil.ignore_patterns("target"))
    shutil.copytree(ROOT / "tools" / "runex", root / "tools" / "runex", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "docs").mkdir()
    if with_pyodide:
        package = root / "node_modules" / "pyodide"
        package.mkdir(parents=True)
        for name in site_assets.PYODIDE_FILES:
            (package / name).write_text('{"version": "314.0.7"}' if name == "package.json" else name)
        shim = root / site_assets.WASI_PACKAGE
        (shim / "dist").mkdir(parents=True)
        (shim / "package.json").write_text('{"version": "0.4.2"}')
        (shim / "LICENSE-MIT").write_text("MIT")
        for name in site_assets.WASI_FILES:
            (shim / "dist" / name).write_text(name)
    return root


def test_it_copies_pyodide_and_exactly_the_verified_files_of_each_runnable_example(tmp_path):
    root = _repo(tmp_path, with_pyodide=True)
    stale = root / "docs" / "assets" / "run" / "examples" / "gone"
    stale.mkdir(parents=True)  # an example removed since the last build leaves nothing behind
    target, have = site_assets.copy_assets(root)
    assert have and not stale.exists()
    manifest = json.loads((target / "manifest.json").read_text())
    assert manifest["pyodide"] == "314.0.7" and manifest["wasi"] == "0.4.2"
    assert "python-sdk" not in manifest["examples"] and "first-server" in manifest["examples"]
    for name, files in manifest["examples"].items():
        assert "rust" not in files  # this copy has no browser runner for Rust (docs/javascripts/): no module
        for key, rel in files.items():
            copied = target / "examples" / name / rel.rsplit("/", 1)[1]
            assert copied.read_bytes() == (root / rel).read_bytes(), (name, key)
    assert sorted(p.name for p in (target / "pyodide").iterdir()) == sorted(site_assets.PYODIDE_FILES)
    assert sorted(p.name for p in (target / "wasi").iterdir()) == sorted(site_assets.WASI_FILES + ("LICENSE-MIT",))
    assert sorted(str(p.relative_to(target / "runex")) for p in (target / "runex").rglob("*") if p.is_file()) \
        == sorted(manifest["runex"])


def test_without_pyodide_it_says_the_fix_and_fails_only_in_ci(tmp_path, monkeypatch, capsys):
    root = _repo(tmp_path, with_pyodide=False)
    monkeypatch.delenv("CI", raising=False)
    assert site_assets.main(["--root", str(root)]) == 0
    assert "npm ci" in capsys.readouterr().err
    assert (root / "docs" / "assets" / "run" / "examples" / "first-server" / "server.py").is_file()
    monkeypatch.setenv("CI", "true")
    assert site_assets.main(["--root", str(root)]) == 1
    assert "npm ci" in capsys.readouterr().err


def test_with_the_rust_runner_it_copies_each_rust_examples_wasm_module_and_the_lines_owed_a_reply(tmp_path, rustc):
    from runex.builds import wasm
    from runex.wire import transcript

    if not wasm._target_installed():
        from support.repo import skip_or_fail

        skip_or_fail(f"the Rust target {wasm.TARGET} is not installed; run: {wasm.TARGET_FIX}")
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "first-server", root / "examples" / "first-server")
    shutil.copytree(ROOT / "tools" / "runex", root / "tools" / "runex", ignore=shutil.ignore_patterns("__pycache__"))
    (root / wasm.RUNNER).parent.mkdir(parents=True)
    (root / wasm.RUNNER).write_text("// the browser's Rust runner\n")
    target, _ = site_assets.copy_assets(root)
    entry = json.loads((target / "manifest.json").read_text())["examples"]["first-server"]
    assert entry["rust"]["source"] == "examples/first-server/main.rs"
    module = (target / "examples" / "first-server" / "server.wasm").read_bytes()
    assert module[:4] == b"\0asm"  # built in the sandbox into the repository's own build cache, then copied
    [cached] = [p for p in (root / ".cache" / "run_examples" / "builds").glob("*/server")]
    assert cached.read_bytes() == module
    lines, _ = transcript.read(root / "examples/first-server/transcript.jsonl", "examples/first-server/transcript.jsonl")
    assert entry["rust"]["owed"] == [[l.number, l.expects_reply, l.reply_id, l.null_reply_allowed] for l in lines]
    assert entry["server"] == "examples/first-server/server.py"  # the Python twin beside it


def test_a_rust_example_that_does_not_build_for_wasm_stops_site_assets_with_the_tools_message(tmp_path, capsys,
                                                                                              rustc):
    from runex.builds import wasm

    if not wasm._target_installed():
        from support.repo import skip_or_fail

        skip_or_fail(f"the Rust target {wasm.TARGET} is not installed; run: {wasm.TARGET_FIX}")
    root = tmp_path / "repo"
    shutil.copytree(ROOT / "examples" / "first-server", root / "examples" / "first-server")
    shutil.copytree(ROOT / "tools" / "runex", root / "tools" / "runex", ignore=shutil.ignore_patterns("__pycache__"))
    main = root / "examples" / "first-server" / "main.rs"
    main.write_text('#[cfg(target_os = "wasi")]\ncompile_error!("no sockets on wasi");\n' + main.read_text())
    (root / wasm.RUNNER).parent.mkdir(parents=True)
    (root / wasm.RUNNER).write_text("// the browser's Rust runner\n")
    assert site_assets.main(["--root", str(root)]) == 1
    said = capsys.readouterr().err
    assert "examples/first-server/main.rs does not build for wasm32-wasip1" in said and "[not_in_browser]" in said


def test_a_run_with_nothing_changed_leaves_the_folder_in_place_and_a_change_replaces_it(tmp_path):
    """A build reading docs/assets/run while another run of the script finishes never finds it gone (tests share
    one checkout): an unchanged run keeps the very folder, a changed one swaps in a new one; no temporary is left."""
    root = _repo(tmp_path, with_pyodide=True)
    target, _ = site_assets.copy_assets(root)
    first = target.stat().st_ino
    site_assets.copy_assets(root)
    assert target.stat().st_ino == first
    (root / "examples" / "first-server" / "transcript.jsonl").write_bytes(b'{"changed": true}\n')
    site_assets.copy_assets(root)
    assert target.stat().st_ino != first
    assert (target / "examples" / "first-server" / "transcript.jsonl").read_bytes() == b'{"changed": true}\n'
    assert sorted(p.name for p in target.parent.iterdir() if p.is_dir()) == ["run"]
