"""The conformance record held to the examples it is about (tools/runex/conformance/gate.py), on every run of the tool:
in throwaway repositories that pin the suite, keep a record and reason files, and serve HTTP or stop serving it.
No suite runs here; the gate reads files only."""

from __future__ import annotations

import json

from support.tool_repos import ECHO, invoke, make_repo, page, snapshot, write

from runex.conformance import gate, record, suite
from runex.examples import model

PIN = "0.2.0-alpha.12"
WEB = {"server.py": ECHO, "example.toml": "timeout = 5\nhttp = true\n"}
PASS = ("server-stateless", "reply-ok", {"web/python": "pass"})
FAIL = ("tools-list", "lists-fixtures", {"web/python": "fail"})
REASONS = ('# why web fails\nexpected_failures:\n  - scenario: tools-list\n'
           '    reason: "lists the suite\'s fixture tools, which web has not"\n')
WRITE = ".venv/bin/python tools/conformance_record.py"
RECHECK = ".venv/bin/python tools/run_examples.py --check"


def pin(root, pinned: str = PIN, locked: str = PIN) -> None:
    write(root / "package.json", json.dumps({"dependencies": {suite.NAME: pinned}}))
    write(root / "package-lock.json", json.dumps({"packages": {f"node_modules/{suite.NAME}": {"version": locked}}}))


def keep_record(root, rows, made_with: str = PIN, reasons: str | None = REASONS, sources=None) -> None:
    """The record as tools/conformance_record.py writes it, made from the examples as they are now."""
    if sources is None:
        examples = {e.name: e for e in model.discover(root)[0]}
        sources = {key: gate.source_digest(examples[key.split("/")[0]].implementation(key.split("/")[1]))
                   for key in {key for _, _, results in rows for key in results} if key.split("/")[0] in examples}
    lines = [{"scenario": s, "about": "", "check": c, "description": "", "results": r} for s, c, r in rows]
    write(root / gate.DATA / "record.jsonl", record.dump(lines, made_with, sources))
    if reasons is not None:
        write(root / gate.DATA / "web.yaml", reasons)


def web_repo(tmp_path, examples=None, rows=(PASS, FAIL), **kept):
    root = make_repo(tmp_path, examples or {"web": WEB})
    pin(root)
    keep_record(root, list(rows), **kept)
    return root


def found(root, scope=None, remembered: bool = True) -> list[str]:
    return [str(error) for error in gate.check(root, model.discover(root)[0], scope, remembered=remembered)]


def test_a_record_that_matches_its_examples_passes(tmp_path):
    assert found(web_repo(tmp_path)) == []


def test_a_checkout_that_does_not_pin_the_suite_keeps_no_record(tmp_path):
    root = make_repo(tmp_path, {"web": WEB})
    write(root / gate.DATA / "record.jsonl", "not json\n")
    assert found(root) == []


def test_an_http_implementation_without_rows_is_named_at_its_http_key(tmp_path):
    root = web_repo(tmp_path, rows=[("tools-list", "lists", {"other/python": "pass"})], reasons=None,
                    examples={"web": WEB, "other": {"server.py": ECHO, "example.toml": "http = true\n"}})
    assert found(root) == [f"examples/web/example.toml:2: web/python serves Streamable HTTP (`http` here), but "
                           f"tests/interop/conformance/record.jsonl has no rows for it; run: {WRITE}"]


def test_rows_of_an_implementation_that_no_longer_serves_http_are_named_at_their_first_line(tmp_path):
    root = web_repo(tmp_path)
    write(root / "examples/web/example.toml", "timeout = 5\n")
    problem, reasons = found(root)
    assert reasons.startswith("tests/interop/conformance/web.yaml:1: reasons for web, which has no implementation")
    assert problem.startswith("tests/interop/conformance/record.jsonl:2: rows for web/python, which no longer")
    assert problem.endswith(f"; run: {WRITE}")


def test_rows_of_an_example_that_is_gone_count_only_when_the_whole_record_is_checked(tmp_path):
    root = web_repo(tmp_path, rows=[PASS, ("tools-list", "lists", {"gone/cargo": "pass"})], reasons=None)
    assert [p.split(": ")[0] for p in found(root)] == ["tests/interop/conformance/record.jsonl:3"]
    assert found(root, scope={"web"}) == [], "a run of some examples judges only their rows"


def test_a_failing_check_without_a_reason_is_named_in_the_reason_file(tmp_path):
    root = web_repo(tmp_path, reasons="expected_failures: []\n")
    assert found(root) == [f"tests/interop/conformance/web.yaml:1: web/python fails tools-list lists-fixtures "
                           f"(record.jsonl:3) with no reason here; add an entry under expected_failures with its "
                           f"reason, then run: {RECHECK}"]


def test_a_reason_for_another_implementation_does_not_cover_a_failure(tmp_path):
    only_cargo = REASONS + "    implementations: [cargo]\n"
    problems = found(web_repo(tmp_path, reasons=only_cargo))
    assert [p.split(": ")[0] for p in problems] == ["tests/interop/conformance/web.yaml:2",
                                                    "tests/interop/conformance/web.yaml:3"]
    assert "with no reason here" in problems[0] and "remove this entry" in problems[1]


def test_a_reason_for_a_check_that_now_passes_is_named_at_its_entry(tmp_path):
    root = web_repo(tmp_path, rows=[PASS, ("tools-list", "lists-fixtures", {"web/python": "pass"})])
    assert found(root) == [f"tests/interop/conformance/web.yaml:3: expects tools-list (every check) to fail, but "
                           f"the record shows no such failure of web; remove this entry, then run: {RECHECK}"]


def test_an_entry_without_a_reason_is_named_at_its_line(tmp_path):
    root = web_repo(tmp_path, reasons=REASONS + "  - scenario: caching\n")
    (problem,) = found(root)
    assert problem.startswith("tests/interop/conformance/web.yaml:5: an entry needs a scenario and a reason")


def test_a_record_made_with_another_suite_version_is_named_at_its_header(tmp_path):
    root = web_repo(tmp_path, made_with="0.2.0-alpha.11")
    assert found(root) == [f"tests/interop/conformance/record.jsonl:1: made with {suite.NAME} 0.2.0-alpha.11, "
                           f"but package-lock.json pins {PIN}; run: {WRITE}"]
    pin(root, locked="0.2.0-alpha.11")
    assert found(root) == [], "the lock's version is the pinned one"


def test_an_edited_server_says_re_run_the_record_and_a_tool_record_beside_it_does_not(tmp_path):
    root = web_repo(tmp_path)
    write(root / "examples/web/http.python.jsonl", '{"line": 1}\n')
    assert found(root) == [], "the tool's own records are not what the server is made of"
    write(root / "examples/web/server.py", ECHO + "# a comment changes the source\n")
    assert found(root) == [f"tests/interop/conformance/record.jsonl:1: web/python's sources "
                           f"(examples/web/server.py and its folder) changed since the record was made; run: {WRITE}"]


def test_a_record_without_its_header_or_with_a_broken_line_is_refused(tmp_path):
    root = web_repo(tmp_path)
    path = root / gate.DATA / "record.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[1:]), encoding="utf-8")
    assert [p.split(" (")[0] for p in found(root)] == [
        "tests/interop/conformance/record.jsonl:1: has no made_with line"]
    path.write_text(lines[0] + "{not json\n", encoding="utf-8")
    (problem,) = found(root)
    assert problem.startswith("tests/interop/conformance/record.jsonl:2: not a record line")


def test_check_and_the_plain_run_fail_on_a_stale_record_and_check_writes_nothing(tmp_path):
    root = web_repo(tmp_path, rows=[("tools-list", "lists", {"web/python": "pass"})], reasons=None,
                    examples={"web": {"server.py": ECHO}})
    write(root / "docs/examples.md", page("web/transcript.jsonl"))
    invoke(root, env={"CI": ""})  # the answer key and the page written; the record stays stale
    before = snapshot(root)
    checked = invoke(root, "--check", env={"CI": ""})
    assert checked.returncode == 4, checked.out
    assert ("stale    tests/interop/conformance/record.jsonl:2: rows for web/python, which no longer serves "
            "Streamable HTTP") in checked.out
    assert "the conformance record: 1 out of date" in checked.out
    assert checked.out.rstrip().splitlines()[-1].startswith("Bring the conformance record in line")
    assert snapshot(root) == before, "--check writes nothing"
    assert invoke(root, env={"CI": ""}).returncode == 4, "the plain run fails on it too"


def test_a_clean_verdict_is_remembered_until_anything_it_read_changes(tmp_path):
    root = web_repo(tmp_path)
    assert found(root) == [] and (root / gate.MEMO).is_file(), "a check that found nothing is remembered"
    remembered = (root / gate.MEMO).read_bytes()
    assert found(root) == [] and (root / gate.MEMO).read_bytes() == remembered
    write(root / gate.DATA / "web.yaml", REASONS + "  - scenario: caching\n    reason: \"no such failure\"\n")
    assert [p.split(": ")[0] for p in found(root)] == ["tests/interop/conformance/web.yaml:5"]
    write(root / gate.DATA / "web.yaml", REASONS)
    write(root / "examples/web/example.toml", "timeout = 5\n")
    assert [p.split(": ")[0] for p in found(root)] == ["tests/interop/conformance/record.jsonl:2",
                                                       "tests/interop/conformance/web.yaml:1"], \
        "rows of an example that stopped serving HTTP, and its reasons"


def test_a_remembered_verdict_is_not_read_where_caches_are_not(tmp_path):
    root = web_repo(tmp_path)
    assert found(root) == []
    key = (root / gate.MEMO).read_text(encoding="utf-8")
    (root / gate.DATA / "web.yaml").unlink()  # the failure loses its reason ...
    write(root / gate.MEMO, gate._memo_key(root, PIN, {"web/python": gate.source_digest(
        model.discover(root)[0][0].implementations[0])}, None, set()))  # ... and a forged memo says all is well
    assert found(root) == [], "a local run trusts its cache, as it trusts cached verdicts"
    assert len(found(root, remembered=False)) == 1, "CI (and --fresh) check again"
    assert key != (root / gate.MEMO).read_text(encoding="utf-8")
