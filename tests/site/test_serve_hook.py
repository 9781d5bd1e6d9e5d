"""The mkdocs serve hook is a convenience: it re-runs the real tool on rebuilds under `serve`, and never under build."""

from __future__ import annotations

import importlib
import logging

import mkdocs_hook
from support.repo import ROOT


def load_hook():
    """The hook as mkdocs loads it for a new serve: a fresh module, no state from an earlier test."""
    return importlib.reload(mkdocs_hook)


def test_build_never_runs_the_tool(caplog):
    hook = load_hook()
    hook.on_startup("build", dirty=False)
    with caplog.at_level(logging.INFO, logger="mkdocs.hooks.run_examples"):
        hook.on_pre_build(None)
        hook.on_pre_build(None)
    assert not caplog.records, "mkdocs build must not depend on the hook"


def test_serve_reruns_the_tool_on_every_rebuild_but_the_first(caplog):
    hook = load_hook()
    hook.on_startup("serve", dirty=False)
    with caplog.at_level(logging.INFO, logger="mkdocs.hooks.run_examples"):
        hook.on_pre_build(None)  # the first build: `make serve` ran the tool just before
        assert not caplog.records
        hook.on_pre_build(None)  # a file changed: the real tool runs on this repository
    [record] = caplog.records
    assert record.getMessage().startswith("run_examples: ") and "examples:" in record.getMessage()
    assert "up to date" in record.getMessage()


def test_an_edit_to_the_tool_takes_effect_on_the_next_rebuild(tmp_path):
    """The hook runs the tool in mkdocs' process; an edit to tools/runex/ while serving is imported again, as a
    fresh subprocess would have. In a child process, on a copy of tools/, so this test's own runex is untouched."""
    import shutil
    import subprocess
    import sys

    tools = tmp_path / "tools"
    shutil.copytree(ROOT / "tools", tools, ignore=shutil.ignore_patterns("__pycache__"))
    script = f"""
import importlib.util, sys
spec = importlib.util.spec_from_file_location("hook", {str(tools / "mkdocs_hook.py")!r})
hook = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hook)
first = hook._tool()
assert not hasattr(first, "EDITED")
assert hook._tool() is first, "nothing changed: the same module"
cli = {str(tools / "runex" / "cli.py")!r}
open(cli, "a").write("\\nEDITED = 'yes'\\n")
second = hook._tool()
assert second is not first and second.EDITED == "yes"
assert sys.modules["runex.report"].__file__.startswith({str(tools)!r})
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_a_tool_that_does_not_import_is_reported_and_serving_goes_on(tmp_path):
    """An edit that breaks tools/runex/ while serving: the rebuild logs the traceback, and mkdocs keeps serving
    the last pages (an exception out of a hook would stop every rebuild until the author restarts serve)."""
    import shutil
    import subprocess
    import sys

    tools = tmp_path / "tools"
    shutil.copytree(ROOT / "tools", tools, ignore=shutil.ignore_patterns("__pycache__"))
    (tools / "runex" / "cli.py").write_text("def half_typed(:\n")
    script = f"""
import importlib.util
spec = importlib.util.spec_from_file_location("hook", {str(tools / "mkdocs_hook.py")!r})
hook = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hook)
code, summary, output = hook.run_tool()
assert code == 70 and "SyntaxError" in output, (code, output)
print("ok")
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_the_hook_keeps_the_tool_modules_this_process_already_holds():
    """In a process that imported part of the tool already (pytest's collection imports runex.cache.results and
    more), the hook must not import them again: the holders' module objects, which tests monkeypatch, would no
    longer be the ones the tool runs with."""
    import sys

    from runex import sandbox
    from runex.cache import results as results_cache

    held = {name: module for name, module in sys.modules.items() if name.startswith("runex")}
    assert "runex.cli" not in held or held.pop("runex.cli")  # the hook may import cli itself, nothing else
    hook = load_hook()
    cli = hook._tool()
    assert sys.modules["runex.cache.results"] is results_cache and sys.modules["runex.sandbox"] is sandbox
    assert cli.pipeline.results_cache is results_cache
    assert all(sys.modules[name] is module for name, module in held.items())


class _Event:
    def __init__(self, src_path, is_directory=False, dest_path=""):
        self.src_path, self.is_directory, self.dest_path = str(src_path), is_directory, str(dest_path or "")


def test_own_writes_drops_what_the_build_read_and_passes_on_everything_else(tmp_path, monkeypatch):
    """make serve's watcher (tools/serve_site.py) asks the hook which events a rebuild already covers: the pages
    the hook's tool run wrote are read by that same build, so their events would only rebuild it again."""
    hook = load_hook()
    monkeypatch.setattr(hook, "ROOT", tmp_path)
    page = tmp_path / "docs/page.md"
    page.parent.mkdir()
    page.write_text("as the user left it\n")
    source = tmp_path / "examples/ex/server.py"
    source.parent.mkdir(parents=True)
    source.write_text("print()\n")
    passed = []
    own = hook.OwnWrites()

    own.tool_started()
    page.write_text("as the tool pasted it\n")
    own.filter(passed.append, _Event(page))
    assert passed == [], "an event that arrives while the tool runs waits for it"
    own.tool_done()
    assert passed == [], "the page the tool wrote is read by this build: no second rebuild"

    temporary = tmp_path / "docs/.page.md.abcd1234.tmp"
    for event in (_Event(temporary), _Event(temporary, dest_path=page),
                  _Event(tmp_path / "tools/runex/__pycache__/cli.cpython-311.pyc")):
        own.filter(passed.append, event)
    assert passed == [], "the tool's temporary files, a move onto the page as written, and bytecode"

    edited, directory, other = _Event(page), _Event(tmp_path / "docs", is_directory=True), _Event(source)
    own.filter(passed.append, directory)
    own.filter(passed.append, other)
    page.write_text("edited by the user after the build read it\n")
    own.filter(passed.append, edited)
    assert passed == [directory, other, edited]
    page.unlink()
    gone = _Event(page)
    own.filter(passed.append, gone)
    assert passed[-1] is gone, "a deleted page is a change"


def test_a_changed_answer_key_marks_the_pages_that_show_its_conversation(tmp_path):
    """`serve --dirty` builds only pages whose file changed, and a conversation is rendered when its page is built
    (runex/paste/markdown_ext.py): the hook moves the mtime of each page whose views read a file that changed,
    its own examples' or one they borrow (transcript_from), and of no other page."""
    hook = load_hook()
    for name, toml in (("ex", ""), ("borrower", 'transcript_from = "lender"\n'), ("lender", ""), ("other", "")):
        folder = tmp_path / "examples" / name
        folder.mkdir(parents=True)
        (folder / "example.toml").write_text(toml)
        (folder / "answer_key.jsonl").write_text('{"id":1}\n')
    docs = tmp_path / "docs"
    docs.mkdir()
    shows = {"ex.md": "ex/conversation -->", "borrower.md": "borrower/conversation#2-3 -->",
             "source.md": "other/server.py -->"}
    for page, target in shows.items():
        (docs / page).write_text(f"# P\n\n<!-- example-begin: {target}\n<!-- example-end -->\n")
    views = hook.Views()
    assert views.pages_to_touch(tmp_path) == [], "the first build renders every page"
    assert views.pages_to_touch(tmp_path) == [], "nothing changed"
    (tmp_path / "examples/ex/answer_key.jsonl").write_text('{"id":1,"result":{}}\n')
    assert views.pages_to_touch(tmp_path) == [docs / "ex.md"]
    (tmp_path / "examples/lender/transcript.jsonl").write_text('{"id":1}\n')
    (tmp_path / "examples/other/answer_key.jsonl").write_text("{}\n")
    assert views.pages_to_touch(tmp_path) == [docs / "borrower.md"]
