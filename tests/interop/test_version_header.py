"""Every HTTP example refuses a 2026-07-28 body sent under a legacy MCP-Protocol-Version header: 400 with -32020.

The spec: the header MUST equal the body's `_meta` protocolVersion, and a server that processes the body MUST
reject a disagreement with 400 Bad Request and a HeaderMismatch (-32020) error (streamable-http.mdx, "Protocol
Version Header" and "Server Validation"). The `mcp` package alone routes by the header, so its twins carry a guard.
Here each implementation is reached from outside, over a real socket, as any client would: `serve --http` starts it
in its sandbox, and a raw POST carries every header a conforming client derives from the body but the version.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

import pytest

from support.interop_cases import ROOT, TOOL, entry
from support.repo import free_port, listening

pytestmark = [pytest.mark.interop, pytest.mark.slow]

LEGACY = "2025-11-25"


def http_implementations() -> list[tuple[str, str]]:
    from runex.examples import model

    examples, _ = model.discover(ROOT)
    return [(e.name, i.name.value) for e in examples for i in e.implementations if e.serves_http(i.name)]


CASES = http_implementations()


def test_some_example_serves_http():
    assert CASES, "no example declares http in its example.toml: the test below would prove nothing"


def _modern_request(name: str) -> tuple[dict, list[tuple[str, str]]]:
    """The example's first transcript request that names its protocol version, and the headers for it."""
    from runex.examples import model
    from runex.wire import http_headers

    example = model.load_one(ROOT, name)
    for raw in example.transcript.read_text(encoding="utf-8").splitlines():
        message = json.loads(raw)
        version = message.get("params", {}).get("_meta", {}).get("io.modelcontextprotocol/protocolVersion")
        if "id" in message and version == "2026-07-28":
            derived = http_headers.derive(message, {}) + list(example.config.http_headers.items())
            swapped = [(k, LEGACY if k.lower() == "mcp-protocol-version" else v) for k, v in derived]
            return message, swapped
    pytest.fail(f"examples/{name}/transcript.jsonl has no request with a 2026-07-28 _meta protocolVersion")


@pytest.mark.parametrize("name, impl", CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_a_modern_body_under_a_legacy_version_header_gets_400_and_minus_32020(name, impl):
    _, listed = entry(name, impl)
    assert listed.get("error") is None, listed.get("error")
    message, headers = _modern_request(name)
    port = free_port()
    # stderr to a file, not a pipe: nobody reads a pipe until the end, and a server that logs fills it and blocks.
    log = tempfile.TemporaryFile()
    server = subprocess.Popen([sys.executable, str(TOOL), "serve", name, "--impl", impl, "--http",
                               f"127.0.0.1:{port}"], stdout=subprocess.DEVNULL, stderr=log, cwd=ROOT)
    try:
        assert listening(port, server, 60), f"serve --http did not listen: {_tail(log)}"
        request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=json.dumps(message).encode(),
                                         headers=dict(headers), method="POST")
        try:
            with urllib.request.urlopen(request, timeout=90) as response:  # a busy CI machine starts servers slowly
                status, body = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read()
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
            pytest.fail(f"serve --http did not stop within 60 s of SIGTERM: {_tail(log)}")
    assert status == 400, f"{name} ({impl}) answered {status} to a {LEGACY} header on a 2026-07-28 body: {body[:300]!r}"
    reply = json.loads(body)
    assert reply["error"]["code"] == -32020 and reply["id"] == message["id"], reply


def _tail(log) -> str:
    log.seek(0)
    return log.read().decode("utf-8", "replace")[-2000:]
