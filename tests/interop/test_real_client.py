"""The official Python SDK client (`mcp.Client` over stdio) drives every implementation of every example.

Each server is started with the command `run_examples.py serve` uses, in two ways: mode "auto" (the client
probes with server/discover first) and mode "2026-07-28" (no probe: the first line is a real request, so a server
that needs server/discover first fails). The client replays the transcript's requests through its own API and
every reply must equal, as a JSON value, the answer key's reply to the same line. A server the client complains
about fails, with the client's own error.

Examples that exist to break the wire (a declared stdout-* violation while the conversation is still going, such
as println-trap's debug line) must fail with the real client, and the test checks that the client's error is the
one that violation causes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from support import interop_client as ic
from support.interop_cases import ROOT, case_id, cases, entry, listing
from support.repo import skip_or_fail

pytestmark = [pytest.mark.interop, pytest.mark.slow]
CASES = cases()


def _require_built(impl: dict) -> None:
    error = impl.get("error")
    if error is None:
        return
    if "needed" in error and ("rustc" in error or "cargo" in error):
        skip_or_fail(error)
    pytest.fail(f"{impl['entry']} does not build, so no client can talk to it:\n{error}")


def run_case(example: dict, impl: dict, mode: str, root: Path = ROOT) -> tuple[ic.Session, list[str]]:
    session = ic.drive(impl["serve_command"], example, root, mode)
    return session, ic.verdict(session, example, root)


def explain(session: ic.Session, problems: list[str]) -> str:
    text = "\n".join(f"  - {p}" for p in problems)
    if session.skipped:
        text += "\n  transcript lines not replayed: " + "; ".join(f"{n}: {why}" for n, why in session.skipped)
    if session.stderr.strip():
        text += "\n  server stderr (tail):\n" + "\n".join("    " + l for l in session.stderr.strip().splitlines()[-12:])
    return text


def test_every_example_folder_is_covered():
    """A folder the tool cannot load would silently drop out of the cases below: that fails here instead."""
    data = listing()
    assert not data["broken"], "examples the tool cannot load (so no client test covers them):\n" + \
        "\n".join(data["broken"])
    assert all(example["implementations"] for example in data["examples"])


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_real_client_gets_the_answer_key(case):
    name, impl_name, mode = case
    example, impl = entry(name, impl_name)
    _require_built(impl)
    expected_failures = ic.must_fail(example, ROOT)
    session, problems = run_case(example, impl, mode)
    if expected_failures:
        assert_client_failed(session, expected_failures)
        return
    assert not problems, (f"mcp.Client (mode={mode!r}) against {example['name']} ({impl['entry']}):\n"
                          + explain(session, problems))
    replies = [s for s in session.steps if "id" in s.message]
    assert replies or mode == "auto", "the client replayed no request of the transcript"


def assert_client_failed(session: ic.Session, violations: list[dict]) -> None:
    """The example breaks the wire on purpose: the real client must notice, with the error that break causes."""
    assert session.faults, (f"the example declares {', '.join(v['rule'] for v in violations)}, which breaks the "
                            f"wire while the client talks to it, yet mcp.Client noticed nothing\n"
                            + explain(session, []))
    for violation in violations:
        signature = ic.CLIENT_SIGNATURE.get(violation["rule"])
        if signature is not None:
            assert any(signature in fault for fault in session.faults), (
                f"the example declares {violation['rule']} (line {violation['line']}); mcp.Client failed, but "
                f"not with the error that break causes ({signature!r}):\n" + explain(session, session.faults))
