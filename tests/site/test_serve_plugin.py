"""The MkDocs plugin `runex` (tools/runex/mkdocs_plugin.py) is a convenience: it re-runs the real tool on rebuilds
under `serve`, and never under build; it applies the tool's own rules to what the tool wrote."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from types import SimpleNamespace

import pytest
from mkdocs.config import load_config

from runex.mkdocs_plugin import EXTENSION, OWN_WRITES, RunexPlugin
from support.repo import ROOT

LOGGER = "mkdocs.plugins.runex"


@pytest.fixture(scope="module")
def site_config():
    """This checkout's mkdocs.yml as `mkdocs build` and `mkdocs serve` load it."""
    return load_config(str(ROOT / "mkdocs.yml"))


def new_plugin(command: str) -> RunexPlugin:
    """The plugin as mkdocs makes it for a new `mkdocs COMMAND`: a fresh instance, no state from an earlier test."""
    plugin = RunexPlugin()
    plugin.load_config({})
    plugin.on_startup(command=command, dirty=False)
    return plugin


def test_mkdocs_yml_names_the_plugin_it_installs(site_config):
    assert isinstance(site_config.plugins["runex"], RunexPlugin)


def test_build_never_runs_the_tool(caplog, site_config):
    plugin = new_plugin("build")
    with caplog.at_level(logging.INFO, logger=LOGGER):
        plugin.on_pre_build(config=site_config)
        plugin.on_pre_build(config=site_config)
    assert not caplog.records, "mkdocs build must not depend on the plugin"
    env = SimpleNamespace(bytecode_cache=None)
    assert plugin.on_env(env, config=site_config, files=None).bytecode_cache is None


def test_serve_reruns_the_tool_on_every_rebuild_but_the_first(caplog, site_config):
    plugin = new_plugin("serve")
    with caplog.at_level(logging.INFO, logger=LOGGER):
        plugin.on_pre_build(config=site_config)  # the first build: `make serve` ran the tool just before
        assert not caplog.records
        plugin.on_pre_build(config=site_config)  # a file changed: the real tool runs on this repository
    [record] = caplog.records
    assert record.getMessage().startswith("run_examples: ") and "examples:" in record.getMessage()
    assert "up to date" in record.getMessage()


def test_the_views_read_the_checkout_whose_mkdocs_yml_is_built(tmp_path):
    """The conversation views read examples/ beside the mkdocs.yml being built, not beside the installed tool (a
    copy of the checkout, or another checkout built with this venv)."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(f"site_name: copy\nmarkdown_extensions:\n  - {EXTENSION}\n"
                                         "plugins:\n  - runex\n")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    config = new_plugin("build").on_config(config)
    assert config.mdx_configs[EXTENSION]["root"] == str(tmp_path.resolve())


def _in_a_copy_of_tools(tmp_path, edit, script: str) -> subprocess.CompletedProcess:
    """`script` in a child process that imports runex from a copy of tools/ (its working folder, first on the
    path of `python -c`), after `edit` changed the copy: this process's own runex is untouched."""
    tools = tmp_path / "tools"
    shutil.copytree(ROOT / "tools", tools, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    edit(tools)
    return subprocess.run([sys.executable, "-c", script, str(ROOT)], cwd=tools, capture_output=True, text=True)


def test_an_edit_to_the_tool_takes_effect_on_the_next_rebuild(tmp_path):
    """The plugin runs the tool in mkdocs' process; an edit to tools/runex/ while serving is imported again, as a
    fresh subprocess would have."""
    script = """
import os, sys
from runex.mkdocs_plugin import RunexPlugin
plugin = RunexPlugin()
first = plugin._tool()
assert first.__file__.startswith(os.getcwd()), first.__file__
assert not hasattr(first, "EDITED")
assert plugin._tool() is first, "nothing changed: the same module"
with open("runex/cli.py", "a") as cli:
    cli.write("\\nEDITED = 'yes'\\n")
second = plugin._tool()
assert second is not first and second.EDITED == "yes"
assert sys.modules["runex.report"].__file__.startswith(os.getcwd())
print("ok")
"""
    proc = _in_a_copy_of_tools(tmp_path, lambda tools: None, script)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_a_tool_that_does_not_import_is_reported_and_serving_goes_on(tmp_path):
    """An edit that breaks tools/runex/ while serving: the rebuild logs the traceback, and mkdocs keeps serving
    the last pages (an exception out of a plugin would stop every rebuild until the author restarts serve)."""
    script = """
import sys
from pathlib import Path
from runex.mkdocs_plugin import RunexPlugin
code, summary, output = RunexPlugin().run_tool(Path(sys.argv[1]))
assert code == 70 and "SyntaxError" in output, (code, output)
print("ok")
"""
    proc = _in_a_copy_of_tools(tmp_path, lambda tools: (tools / "runex" / "cli.py").write_text("def half_typed(:\n"),
                               script)
    assert proc.stdout.strip() == "ok", proc.stderr


def test_the_plugin_keeps_the_tool_modules_this_process_already_holds():
    """In a process that imported part of the tool already (pytest's collection imports runex.cache.results and
    more), the plugin must not import them again: the holders' module objects, which tests monkeypatch, would no
    longer be the ones the tool runs with."""
    from runex import sandboxing
    from runex.cache import results as results_cache

    held = {name: module for name, module in sys.modules.items() if name.startswith("runex")}
    assert "runex.cli" not in held or held.pop("runex.cli")  # the plugin may import cli itself, nothing else
    cli = new_plugin("serve")._tool()
    assert sys.modules["runex.cache.results"] is results_cache and sys.modules["runex.sandboxing"] is sandboxing
    assert cli.pipeline.results_cache is results_cache
    assert all(sys.modules[name] is module for name, module in held.items())


class _Event:
    def __init__(self, src_path, is_directory=False, dest_path=""):
        self.src_path, self.is_directory, self.dest_path = str(src_path), is_directory, str(dest_path or "")


def test_own_writes_drops_what_the_build_read_and_passes_on_everything_else(tmp_path):
    """make serve's watcher (tools/serve_site.py) asks the plugin which events a rebuild already covers: the pages
    and records the tool run wrote are read by that same build, so their events would only rebuild it again."""
    page = tmp_path / "docs/page.md"
    page.parent.mkdir()
    page.write_text("as the user left it\n")
    source = tmp_path / "examples/ex/server.py"
    source.parent.mkdir(parents=True)
    source.write_text("print()\n")
    record = tmp_path / "examples/ex/http.python.jsonl"
    passed = []
    own = new_plugin("serve").own_writes

    own.tool_started()
    page.write_text("as the tool pasted it\n")
    record.write_text("{}\n")
    own.filter(passed.append, _Event(page))
    own.filter(passed.append, _Event(record))
    assert passed == [], "an event that arrives while the tool runs waits for it"
    own.tool_done(tmp_path)
    assert passed == [], "the page and the HTTP record the tool wrote are read by this build: no second rebuild"

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


def test_make_serves_watcher_asks_the_plugin_once_the_server_is_up():
    """MkDocs schedules the watcher's handlers before the plugin hears of the server: tools/serve_site.py's
    handlers pass every event until on_serve put the plugin's filter on the observer, then only what it passes."""
    import serve_site

    observer, passed = SimpleNamespace(), []
    plugin = new_plugin("serve")
    serve_site._through_the_plugin(observer, passed.append, "before on_serve")
    server = SimpleNamespace(observer=observer)
    assert plugin.on_serve(server, config=None, builder=None) is server
    assert getattr(observer, OWN_WRITES) is plugin.own_writes
    plugin.own_writes.tool_started()
    serve_site._through_the_plugin(observer, passed.append, "held while the tool runs")
    assert passed == ["before on_serve"]


def test_a_changed_answer_key_marks_the_pages_that_show_its_conversation(tmp_path):
    """`serve --dirty` builds only pages whose file changed, and a conversation is rendered when its page is built
    (runex/paste/markdown_ext.py): the plugin moves the mtime of each page whose views read a file that changed,
    its own examples' or one they borrow (transcript_from), and of no other page."""
    for name, toml in (("ex", ""), ("borrower", 'transcript_from = "lender"\n'), ("lender", ""), ("other", "")):
        folder = tmp_path / "examples" / name
        folder.mkdir(parents=True)
        (folder / "example.toml").write_text(toml)
        (folder / "answer_key.jsonl").write_text('{"id":1}\n')
    docs = tmp_path / "docs"
    docs.mkdir()
    shows = {"ex.md": "ex/conversation -->", "borrower.md": "borrower/conversation#2-3 -->",
             "source.md": "other/server.py -->", "fenced.md": "other/conversation -->"}
    for page, target in shows.items():
        fence = "```\n" if page == "fenced.md" else ""  # a marker shown in a code block is text
        (docs / page).write_text(f"# P\n\n{fence}<!-- example-begin: {target}\n<!-- example-end -->\n{fence}")
    views = new_plugin("serve").views
    assert views.pages_to_touch(tmp_path, "tool") == [], "the first build renders every page"
    assert views.pages_to_touch(tmp_path, "tool") == [], "nothing changed"
    (tmp_path / "examples/ex/answer_key.jsonl").write_text('{"id":1,"result":{}}\n')
    assert views.pages_to_touch(tmp_path, "tool") == [docs / "ex.md"]
    (tmp_path / "examples/lender/transcript.jsonl").write_text('{"id":1}\n')
    (tmp_path / "examples/other/answer_key.jsonl").write_text("{}\n")
    assert views.pages_to_touch(tmp_path, "tool") == [docs / "borrower.md"]
    assert sorted(views.pages_to_touch(tmp_path, "edited tool")) == [docs / "borrower.md", docs / "ex.md"]
