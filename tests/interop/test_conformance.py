"""The official conformance suite (@modelcontextprotocol/conformance, pinned in package.json) against every
implementation of every example that serves Streamable HTTP: the scenarios 2026-07-28 requires of a server.

Each implementation is started in HTTP mode (MCP_HTTP_ADDR=127.0.0.1:PORT, outside the sandbox, which has no
network the suite could reach) with the command `run_examples.py --list --json` gives, and one
`server --requirements 2026-07-28` run covers the required set (the suite's own requirements file lists it; its
not-scored scenarios run too and are left out). Two tests read that one run:

* what the suite found is exactly tests/interop/conformance/record.jsonl's column for this implementation (the
  report card's record, rendered on docs/mcp/conformance.md; `tools/conformance_record.py` rewrites it);
* every failing check is listed, with its reason, in tests/interop/conformance/<example>.yaml, and every entry
  there still fails. examples/conformance-reference lists nothing: both its twins pass every scenario.

The suite needs Node 22 or later (fs.globSync); package.json pins the npm package `node` at 22, whose binary runs it.
"""

from __future__ import annotations

import pytest

from runex.conformance import collect, gate, record, suite
from support.interop_cases import ROOT, entry

pytestmark = [pytest.mark.interop, pytest.mark.slow]

CASES = collect.http_implementations(ROOT)
BASELINES = ROOT / "tests" / "interop" / "conformance"


@pytest.fixture(scope="module", params=CASES, ids=["/".join(case) for case in CASES])
def found(request):
    """(implementation key, the record rows the suite's run gives for it)."""
    name, impl = request.param
    try:
        order = suite.required()
    except suite.SuiteMissing as missing:
        pytest.fail(str(missing))
    example, chosen = entry(name, impl)
    if chosen.get("error"):
        pytest.fail(f"{chosen['entry']} does not build:\n{chosen['error']}")
    measured = collect.measure(chosen["command"], ROOT / example["dir"], chosen["entry"])
    missing = [scenario for scenario in order if scenario not in measured]
    assert not missing, f"the suite ran no checks for {', '.join(missing)} against {chosen['entry']}"
    key = collect.key(name, impl)
    return key, record.column(record.rows(order, {key: measured}), key)


def test_the_record_holds_what_the_suite_finds(found):
    key, now = found
    then = record.column(record.load(), key)
    changed = [f"  {scenario} {check}: recorded {then.get((scenario, check), 'nothing')}, now {result}"
               for (scenario, check), result in sorted(now.items()) if then.get((scenario, check)) != result]
    gone = [f"  {scenario} {check}: recorded {result}, not run now"
            for (scenario, check), result in sorted(then.items()) if (scenario, check) not in now]
    assert not changed and not gone, (f"{record.RECORD.relative_to(ROOT)} is out of date for {key}:\n"
                                      + "\n".join(changed + gone) + f"\nrun: {record.WRITE}")


def expected(example: str, impl: str) -> list[gate.Reason]:
    """The reasons the example's yaml gives for this implementation, read as the tool's gate reads them."""
    rel = f"tests/interop/conformance/{example}.yaml"
    reasons, _, malformed = gate.read_reasons(BASELINES / f"{example}.yaml", rel)
    assert not malformed, "\n".join(str(m) for m in malformed)
    return [reason for reason in reasons if reason.implementations is None or impl in reason.implementations]


def test_every_failure_has_its_reason(found):
    key, now = found
    example, impl = key.split("/")
    entries = expected(example, impl)
    failures = [(scenario, check) for (scenario, check), result in sorted(now.items()) if result == "fail"]
    unexplained = [f"  {s} {c}" for s, c in failures if not any(r.covers(impl, s, c) for r in entries)]
    stale = [f"  {r.what()}" for r in entries if not any(r.covers(impl, s, c) for s, c in failures)]
    where = f"tests/interop/conformance/{example}.yaml"
    assert not unexplained, f"{key} fails checks {where} gives no reason for:\n" + "\n".join(unexplained)
    assert not stale, f"{key} now passes what {where} expects to fail (remove the entries):\n" + "\n".join(stale)
