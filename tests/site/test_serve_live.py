"""`make serve` for real: tools/serve_site.py serving mkdocs.serve.yml, the hook running the real tool in mkdocs'
process. A pasted block edited by hand is drift; the rebuild the edit starts re-pastes the page, and that write is
read by the same build, so it starts no second rebuild (tools/mkdocs_hook.py, OwnWrites)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from support.repo import ROOT, free_port, site_env

PAGE = ROOT / "docs/mcp/every-request-stands-alone.md"
TIMEOUT = 300  # CI=true runs every example again in the hook: generous on a loaded machine


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


@pytest.mark.slow  # starts the real `make serve`
def test_a_hand_edited_block_is_pasted_back_in_one_rebuild():
    original = PAGE.read_bytes()
    marker = b"<!-- example-begin: stands-alone/conversation -->\n"
    assert marker + b"<!-- example-end -->" in original, "a conversation's markers stay empty"
    drifted = original.replace(marker, marker + b'<p class="exchange">typed by hand</p>\n', 1)
    assert drifted != original
    port = free_port()
    server = subprocess.Popen([sys.executable, "tools/serve_site.py", "-a", f"127.0.0.1:{port}",
                               "-f", "mkdocs.serve.yml", "--dirty"], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, process_group=0,
                              env=site_env())
    log = Log(server.stderr)
    try:
        log.wait_for("Serving on")
        log.wait_quiet()
        start = len(log.lines)
        PAGE.write_bytes(drifted)
        log.wait_for("run_examples", start)
        log.wait_quiet()
        after = log.lines[start:]
        tool = next(line for line in after if "run_examples" in line)
        assert "run_examples: " in tool and "1 pasted" in tool, "\n".join(after)
        assert PAGE.read_bytes() == original, "the hook's tool run pasted the block back"
        builds = [line for line in after if "Building documentation" in line]
        assert len(builds) == 1, "the page the tool pasted started another rebuild:\n" + "\n".join(after)
    finally:
        PAGE.write_bytes(original)
        os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
