"""The official Python SDK client over Streamable HTTP drives every implementation that example.toml says serves it.

Each server is started with `run_examples.py serve NAME --impl IMPL --http 127.0.0.1:PORT` (in its sandbox,
reached through the relay), and `mcp.Client` on `streamable_http_client` replays the transcript exactly as the stdio
test does (tests/interop/test_real_client.py): every reply must equal the answer key's reply to the same line, and
anything the client complains about fails the case. The answer key is the stdio one: the same messages over both
transports is the claim the pages make.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from support import interop_client as ic
from support.interop_cases import MODES, ROOT, TOOL, case_id, entry
from support.repo import free_port, listening

pytestmark = [pytest.mark.interop, pytest.mark.slow]


def http_cases() -> list[tuple[str, str, str]]:
    from runex.examples import model

    examples, _ = model.discover(ROOT)
    return [(e.name, i.name.value, mode) for e in examples for i in e.implementations if e.serves_http(i.name)
            for mode in MODES]


CASES = http_cases()


def test_some_example_serves_http():
    """Without one, the cases below are empty and would prove nothing."""
    assert CASES, "no example declares http in its example.toml"


def _config(name: str):
    from runex.examples import model

    return model.load_one(ROOT, name).config


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_real_http_client_gets_the_answer_key(case):
    name, impl_name, mode = case
    example, impl = entry(name, impl_name)  # builds from the cache once per session
    assert impl.get("error") is None, impl.get("error")
    port = free_port()
    command = [sys.executable, str(TOOL), "serve", name, "--impl", impl_name, "--http", f"127.0.0.1:{port}"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        assert listening(port, server, 60), f"serve --http did not listen: {server.stderr.read().decode()[-2000:]}"
        session = ic.drive([], example, ROOT, mode, http_url=f"http://127.0.0.1:{port}/mcp",
                           http_headers=_config(name).http_headers)
        problems = ic.verdict(session, example, ROOT)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert not problems, f"mcp.Client over HTTP (mode={mode!r}) against {name} ({impl_name}):\n" + \
        "\n".join(f"  - {p}" for p in problems)
    assert [s for s in session.steps if "id" in s.message] or mode == "auto", "no request was replayed"
