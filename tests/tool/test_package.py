"""One installable package: pyproject.toml installs the tool (runex, editable) with its command and its MkDocs plugin,
and nothing in the repository puts a folder on the import path by hand."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import runex
from runex import cli
from runex.mkdocs_plugin import RunexPlugin
from support.repo import ROOT

# Every way a file could put a folder on Python's import path itself, instead of the installed package.
PATH_EDITS = re.compile(r"""sys\.path\s*(\.\s*(insert|append|extend)\s*\(|\[[^\]]*\]\s*=|\+=|=(?!=))"""
                        r"""|site\.addsitedir\s*\("""
                        r"""|PYTHONPATH\s*=|["']PYTHONPATH["']\s*:|\[\s*["']PYTHONPATH["']\s*\]\s*="""
                        r"""|(setenv|putenv|setdefault)\(\s*["']PYTHONPATH["']"""
                        r"""|^\s*pythonpath\s*="""
                        r"""|["'][^"'\s]*\.pth["']""", re.M)  # a .pth file named, to be written into a venv
SCANNED = ("tools", "tests", "benchmarks")
# Lines that set PYTHONPATH for a reason other than importing: what the tool is handed, to show it never passes on.
ALLOWED = {("tests/tool/test_run.py", 'monkeypatch.setenv("PYTHONPATH", "/somewhere/else")')}
THIS_FILE = Path(__file__).resolve()  # its path edits are strings, the finder's own test cases


def path_edits(root: Path) -> list[str]:
    """file:line: text for every path edit under SCANNED (Python, shell and make files), pytest.ini and Makefile."""
    files = [path for path in (root / "pytest.ini", root / "Makefile") if path.is_file()]
    for folder in SCANNED:
        files += [p for p in (root / folder).rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and (p.suffix in (".py", ".sh", ".ini", ".cfg", ".toml", ".mk") or p.name == "Makefile")
                  and p.resolve() != THIS_FILE]
    found = []
    for path in sorted(files):
        rel = str(path.relative_to(root))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if PATH_EDITS.search(line) and (rel, line.strip()) not in ALLOWED:
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_no_file_puts_a_folder_on_the_import_path():
    found = path_edits(ROOT)
    assert not found, ("import runex as installed (`make setup`: pip install -e .), and tests' helpers from "
                       "tests/support/ as `support`; these edit the import path instead:\n" + "\n".join(found))


def test_the_path_edit_finder_finds_each_kind(tmp_path):
    (tmp_path / "tools").mkdir()
    (tmp_path / "pytest.ini").write_text("[pytest]\npythonpath = tools\n")
    (tmp_path / "tools" / "a.py").write_text(
        "import sys\nsys.path.insert(0, 'x')\nsys.path[:0] = ['x']\nsys.path = ['x']\nsys.path += ['x']\n"
        "env = {'PYTHONPATH': 'x'}\nrun(env=dict(PYTHONPATH='x'))\nos.environ['PYTHONPATH'] = 'x'\n"
        "PTH = 'tools.pth'\nif sys.path == []: pass\nprint(sys.path[0])\n")
    found = path_edits(tmp_path)
    assert [line.split(":")[1] for line in found] == ["2", "2", "3", "4", "5", "6", "7", "8", "9"]


def test_the_venv_has_the_package_installed_from_this_checkout():
    """`make setup` installs this checkout's tools/ editable: an edit there is what runs, with no reinstall."""
    distribution = metadata.distribution("runex")
    origin = json.loads(distribution.read_text("direct_url.json") or "{}")
    assert origin.get("url") == ROOT.as_uri() and origin.get("dir_info", {}).get("editable") is True, origin
    assert Path(runex.__file__).resolve() == ROOT / "tools" / "runex" / "__init__.py"


def test_the_package_registers_the_mkdocs_plugin_and_the_command():
    [plugin] = [e for e in metadata.entry_points(group="mkdocs.plugins") if e.name == "runex"]
    assert plugin.load() is RunexPlugin
    [script] = [e for e in metadata.entry_points(group="console_scripts") if e.name == "run-examples"]
    assert script.load() is cli.main
    assert (Path(sys.executable).parent / "run-examples").is_file(), "pip writes the command beside the venv's python"


def test_the_script_the_module_and_the_command_are_one_tool():
    ways = ([sys.executable, "tools/run_examples.py"], [sys.executable, "-m", "runex"],
            [str(Path(sys.executable).parent / "run-examples")])
    helps = [subprocess.run([*way, "--help"], cwd=ROOT, capture_output=True, text=True) for way in ways]
    assert all(done.returncode == 0 for done in helps), [done.stderr for done in helps]
    assert helps[0].stdout == helps[1].stdout == helps[2].stdout and "--check" in helps[0].stdout
