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
