"""The official conformance suite (@modelcontextprotocol/conformance) against both twins of streamable-http.

Each twin is started in HTTP mode (MCP_HTTP_ADDR=127.0.0.1:PORT; outside the sandbox, which has no network the
suite could reach) with the command `run_examples.py --list --json` gives, and the suite's `server` command runs
one scenario at a time against http://localhost:PORT/mcp at --spec-version 2026-07-28. The test asserts the suite's
exit status (0: every failure is in conformance-baseline.yaml, and no listed check passed) and reads its
checks.json: no FAILURE outside the baseline.

Scenarios run: every one that applies to any 2026-07-28 server with tools, without the suite's fixture names.
Not run, and why:
* caching: it needs prompts/list, resources/list and resources/templates/list to succeed; this server has tools only.
* json-schema-2020-12, tools-call-*, completion-complete, input-required-result-*: they call the suite's fixture
  tools (test_simple_text, json_schema_2020_12_tool, ...) by name.
* resources-*, prompts-*, sep-2164-resource-not-found: this server has neither resources nor prompts.
* server-initialize, ping, server-sse-polling and the other legacy scenarios: removed in 2026-07-28.

The suite needs Node 22 or later (fs.globSync); package.json pins the npm package `node` at 22, whose binary runs it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
import yaml

from support.interop_cases import ROOT, entry
from support.repo import free_port, listening

pytestmark = [pytest.mark.interop, pytest.mark.slow]

EXAMPLE = "streamable-http"
SCENARIOS = ["server-stateless", "tools-list", "dns-rebinding-protection", "server-sse-multiple-streams",
             "http-header-validation", "http-custom-header-server-validation"]
BASELINE = Path(__file__).with_name("conformance-baseline.yaml")
NODE = ROOT / "node_modules" / ".bin" / "node"
SUITE = ROOT / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
START = 60.0  # a guard against a server that never listens; the Python twin imports for seconds on a busy machine
RUN = 180.0  # a guard against a scenario that never ends


def wait_until_listening(server: subprocess.Popen, port: int, what: str) -> None:
    if listening(port, server, START):
        return
    if server.poll() is not None:
        pytest.fail(f"{what} exited {server.returncode} before listening on 127.0.0.1:{port}:\n"
                    f"{server.stderr.read().decode('utf-8', 'replace')[-2000:]}")
    pytest.fail(f"{what} did not listen on 127.0.0.1:{port} within {START:.0f} s")


@pytest.fixture(scope="module", params=["cargo", "python"])
def server_url(request):
    """One twin serving Streamable HTTP for every scenario; stopped with SIGTERM, which it must survive with 0."""
    if not NODE.is_file() or not SUITE.is_file():
        pytest.fail(f"{NODE.relative_to(ROOT)} or the conformance suite is missing: run `make setup` "
                    f"(npm ci installs both from package-lock.json)")
    example, impl = entry(EXAMPLE, request.param)
    if impl.get("error"):
        pytest.fail(f"{impl['entry']} does not build:\n{impl['error']}")
    port = free_port()
    env = dict(os.environ, MCP_HTTP_ADDR=f"127.0.0.1:{port}")
    server = subprocess.Popen(impl["command"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                              cwd=ROOT / example["dir"])
    try:
        wait_until_listening(server, port, impl["entry"])
        yield f"http://localhost:{port}/mcp"
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            stdout, stderr = server.communicate(timeout=START)
        except subprocess.TimeoutExpired:
            server.kill()
            server.communicate()
            pytest.fail(f"{impl['entry']} was still running {START:.0f} s after SIGTERM")
    assert server.returncode == 0, f"{impl['entry']} exited {server.returncode} on SIGTERM:\n{stderr.decode()}"
    assert stdout == b"", f"{impl['entry']} wrote to stdout in HTTP mode: {stdout[:500]!r}"


def excused(scenario: str) -> set[str]:
    """The check ids conformance-baseline.yaml lets this scenario fail (`scenario:check-id` entries)."""
    entries = yaml.safe_load(BASELINE.read_text(encoding="utf-8"))["server"]
    return {e.split(":", 1)[1] for e in entries if e.startswith(f"{scenario}:")}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_conformance_suite_passes(server_url, scenario, tmp_path):
    command = [str(NODE), str(SUITE), "server", "--url", server_url, "--spec-version", "2026-07-28",
               "--scenario", scenario, "--expected-failures", str(BASELINE), "-o", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN, cwd=tmp_path,
                          env=dict(os.environ, NO_COLOR="1"))
    found = list(tmp_path.glob(f"server-{scenario}-*/checks.json"))
    assert len(found) == 1, f"no checks.json for {scenario} in {tmp_path}:\n{done.stdout[-3000:]}{done.stderr}"
    checks = json.loads(found[0].read_text(encoding="utf-8"))
    failures = {c["id"]: c.get("errorMessage") for c in checks if c["status"] == "FAILURE"}
    unexpected = {i: m for i, m in failures.items() if i not in excused(scenario)}
    assert not unexpected, f"{scenario} against {server_url}: unexpected failures:\n" + \
        "\n".join(f"  {i}: {m}" for i, m in unexpected.items())
    assert any(c["status"] == "SUCCESS" for c in checks), f"{scenario}: not one check passed:\n{done.stdout}"
    assert done.returncode == 0, (f"the suite exited {done.returncode} on {scenario} (a baseline entry that now "
                                  f"passes is stale: remove it from {BASELINE.name}):\n{done.stdout[-3000:]}"
                                  f"{done.stderr[-2000:]}")
