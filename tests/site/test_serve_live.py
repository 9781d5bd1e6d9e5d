"""`make serve` for real: tools/serve_site.py serving mkdocs.serve.yml, the plugin running the real tool in mkdocs'
process. A pasted block edited by hand is drift; the rebuild the edit starts re-pastes the page, and that write is
read by the same build, so it starts no second rebuild (tools/runex/mkdocs_plugin.py, OwnWrites). A conversation
whose example changed is rendered again though its page's file did not change (mkdocs_plugin.py, Views).

Both edit files, so they serve a copy of this checkout (`checkout`), not the checkout other tests read meanwhile.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from support.repo import ROOT, free_port, site_env

PAGE = "docs/mcp/every-request-stands-alone.md"
NOT_COPIED = (".git", ".venv", "node_modules", "site", "screenshots", ".cache", ".pytest_cache", ".hypothesis",
              "target", "__pycache__", "*.egg-info")
# The build caches are shared, not copied (a gigabyte): the sandbox builds every example at the same paths inside
# it, so cargo finds the copy's sources as fresh as the checkout's; cargo's lock and the tool's atomic writes keep
# two tool runs on one cache apart.
SHARED_CACHES = (".cache/cargo-target", ".cache/run_examples/builds")
TIMEOUT = 300  # CI=true runs every example again in the plugin: generous on a loaded machine


class Log:
    def __init__(self, stream):
        self.lines: list[str] = []
        threading.Thread(target=lambda: [self.lines.append(l.rstrip("\n")) for l in stream], daemon=True).start()

    def wait_for(self, text: str, start: int = 0) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not any(text in line for line in self.lines[start:]):
            assert time.monotonic() < deadline, f"no {text!r} in:\n" + "\n".join(self.lines)
            time.sleep(0.1)

    def wait_quiet(self, seconds: float = 3.0) -> None:
        """Until the last rebuild has finished and nothing more was logged for `seconds` (a second rebuild starts
        within a few tenths of a second of the first one's end)."""
        count, since = len(self.lines), time.monotonic()
        deadline = since + TIMEOUT
        while time.monotonic() - since < seconds or not any(done in self.lines[-1] for done in
                                                             ("Reloading browsers", "Serving on")):
            assert time.monotonic() < deadline, "\n".join(self.lines)
            if len(self.lines) != count:
                count, since = len(self.lines), time.monotonic()
            time.sleep(0.1)


@pytest.fixture
def checkout(tmp_path):
    """A copy of this checkout's sources (with docs/assets/run and the tool's small caches) to serve and edit."""
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT, copy, symlinks=True, ignore=shutil.ignore_patterns(*NOT_COPIED))
    small_caches = ROOT / ".cache/run_examples"
    if small_caches.is_dir():
        shutil.copytree(small_caches, copy / small_caches.relative_to(ROOT), ignore=shutil.ignore_patterns("builds"))
    for cache in SHARED_CACHES:
        (ROOT / cache).mkdir(parents=True, exist_ok=True)
        (copy / cache).parent.mkdir(parents=True, exist_ok=True)
        (copy / cache).symlink_to(ROOT / cache, target_is_directory=True)
    return copy


@contextlib.contextmanager
def make_serve(root, port: int):
    """tools/serve_site.py of `root` as `make serve` starts it, on `port`; its log; stopped whatever happens."""
    server = subprocess.Popen([sys.executable, "tools/serve_site.py", "-a", f"127.0.0.1:{port}",
                               "-f", "mkdocs.serve.yml", "--dirty"], cwd=root, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, process_group=0, env=site_env())
    try:
        log = Log(server.stderr)
        log.wait_for("Serving on")
        log.wait_quiet()
        yield log
    finally:
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


@pytest.mark.slow  # starts the real `make serve`
def test_a_hand_edited_block_is_pasted_back_in_one_rebuild(checkout):
    page = checkout / PAGE
    original = page.read_bytes()
    marker = b"    <!-- example-begin: stands-alone/conversation -->\n"  # in the "whole conversation" block
    assert marker + b"    <!-- example-end -->" in original, "a conversation's markers stay empty"
    drifted = original.replace(marker, marker + b'    <p class="exchange">typed by hand</p>\n', 1)
    with make_serve(checkout, free_port()) as log:
        start = len(log.lines)
        page.write_bytes(drifted)
        log.wait_for("run_examples", start)
        log.wait_quiet()
        after = log.lines[start:]
        tool = next(line for line in after if "run_examples" in line)
        assert "run_examples: " in tool and "1 pasted" in tool, "\n".join(after)
        assert page.read_bytes() == original, "the plugin's tool run pasted the block back"
        builds = [line for line in after if "Building documentation" in line]
        assert len(builds) == 1, "the page the tool pasted started another rebuild:\n" + "\n".join(after)


@pytest.mark.slow  # starts the real `make serve`
def test_a_conversation_whose_example_changed_is_rendered_again_though_its_page_did_not_change(checkout):
    """The view is rendered when its page is built, and `--dirty` builds only pages whose file changed: an edit that
    changes what a view shows and no byte of its page (a declared violation's reason in example.toml) must still
    reach the served page (tools/runex/mkdocs_plugin.py, Views)."""
    config = checkout / "examples/stdio-logging/example.toml"
    original = config.read_bytes()
    assert b"a late cancel on purpose" in original
    page = checkout / "docs/mcp/stdio-transport.md"
    page_bytes = page.read_bytes()
    port = free_port()
    mount = re.search(r"^site_url:\s*https?://[^/]+(/\S*)$", (checkout / "mkdocs.yml").read_text(), re.M).group(1)
    url = f"http://127.0.0.1:{port}{mount.rstrip('/')}/mcp/stdio-transport/"
    with make_serve(checkout, port) as log:
        assert "a late cancel on purpose" in served(url)
        start = len(log.lines)
        config.write_bytes(original.replace(b"a late cancel on purpose", b"a cancel sent late on purpose"))
        log.wait_for("run_examples", start)
        log.wait_quiet()
        assert page.read_bytes() == page_bytes, "the page's source holds no view: the tool left it as it was"
        assert "a cancel sent late on purpose" in served(url), "\n".join(log.lines[start:])


def served(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read().decode("utf-8")
