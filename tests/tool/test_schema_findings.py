"""The schema's cached findings (tools/runex/cache/schema_findings.py): a local run reads them, the runs that must
run everything ask the real validator, each part of the key is a different file, and a damaged file is a miss.

A poisoned file (every cached finding replaced by one the schema never gave) shows which runs read it: a run that
reads it fails with the poisoned finding, a run that asks the real validator passes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.tool_repos import ECHO, forget_verdicts, invoke, make_repo, page

from runex.cache import schema_findings

LOCAL = {"CI": ""}
POISON = "poisoned: a finding the schema never gave"


def findings_files(root: Path) -> list[Path]:
    return sorted((root / ".cache" / "run_examples" / schema_findings.FOLDER).glob("*.json"))


def poisoned_repo(tmp_path: Path) -> Path:
    """A verified example whose cached findings all say POISON, and no cached result (so the example runs)."""
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl")})
    assert invoke(root, env=LOCAL).returncode == 0
    [path] = findings_files(root)
    cached = json.loads(path.read_text())
    assert cached, "the run recorded what the schema said about its messages"
    path.write_text(json.dumps({key: [POISON] for key in cached}))
    forget_verdicts(root)
    return root


def test_a_local_run_takes_the_cached_findings(tmp_path):
    root = poisoned_repo(tmp_path)
    proc = invoke(root, "--check", env=LOCAL)
    assert proc.returncode == 3 and POISON in proc.out, proc.out


@pytest.mark.parametrize("args,env", [(("--fresh",), LOCAL), (("--repeat", "2"), LOCAL), (("-v",), LOCAL),
                                      ((), {"CI": "true"})], ids=["fresh", "repeat", "verbose", "CI=true"])
def test_these_runs_ask_the_real_validator(args, env, tmp_path):
    root = poisoned_repo(tmp_path)
    proc = invoke(root, "--check", *args, env=env)
    assert proc.returncode == 0 and POISON not in proc.out, proc.out
    [path] = findings_files(root)
    assert POISON not in path.read_text(), "what the real validator said replaces what it was asked again"


class Judge:
    """A stand-in for the real validator that counts how often it is loaded (the real one is what it judges)."""

    loads = 0

    def __init__(self, findings: list[str]):
        self.findings = findings

    def load(self):
        Judge.loads += 1
        return self

    def check_request(self, method, params):
        return list(self.findings)

    check_result = check_request

    def check_error(self, error):
        return list(self.findings)

    def check_notification(self, method, params):
        return list(self.findings)


def ask(cache_dir: Path, judge: Judge, read: bool = True) -> list[str]:
    validator = schema_findings.CachedValidator(cache_dir, judge.load, read=read)
    found = validator.check_result("tools/list", {"tools": [], "resultType": "complete"})
    validator.save()
    return found


def test_a_finding_is_asked_once_then_read(tmp_path):
    judge = Judge(["ttlMs missing"])
    Judge.loads = 0
    assert ask(tmp_path, judge) == ["ttlMs missing"] and Judge.loads == 1
    assert ask(tmp_path, Judge(["something else"])) == ["ttlMs missing"] and Judge.loads == 1
    assert ask(tmp_path, Judge(["asked again"]), read=False) == ["asked again"] and Judge.loads == 2


def change_source(monkeypatch, tmp_path):
    """The judge's files, copied as they are, then one line added to one of them."""
    copies = []
    for source in schema_findings.SOURCES:
        copies.append(tmp_path / "judge" / source.parent.name / source.name)
        copies[-1].parent.mkdir(parents=True, exist_ok=True)
        copies[-1].write_bytes(source.read_bytes())
    monkeypatch.setattr(schema_findings, "SOURCES", tuple(copies))
    before = schema_findings.fingerprint()
    copies[0].write_bytes(copies[0].read_bytes() + b"\n# edited\n")
    assert schema_findings.fingerprint() != before


def change_package(name):
    def change(monkeypatch, tmp_path):
        real = schema_findings._version
        monkeypatch.setattr(schema_findings, "_version", lambda d: "9.9.9" if d == name else real(d))
    return change


CHANGES = {
    "format": lambda monkeypatch, tmp_path: monkeypatch.setattr(schema_findings, "FORMAT", schema_findings.FORMAT + 1),
    "validator source": change_source,
    "mcp-types": change_package("mcp-types"),
    "pydantic": change_package("pydantic"),
    "pydantic-core": change_package("pydantic-core"),
    "interpreter": lambda monkeypatch, tmp_path: monkeypatch.setattr(schema_findings.sys, "version", "3.99.0 (a test)"),
}


def test_every_part_of_the_key_is_tested():
    covered = {"format": "format", "judge": "validator source", "packages": "pydantic",
               "interpreter": "interpreter"}
    assert [name for name, _, _ in schema_findings.KEY_PARTS] == list(covered)
    assert set(schema_findings.DISTRIBUTIONS) <= set(CHANGES)


@pytest.mark.parametrize("part", list(CHANGES))
def test_changing_a_part_of_the_key_asks_the_real_validator_again(part, tmp_path, monkeypatch):
    Judge.loads = 0
    assert ask(tmp_path, Judge(["before"])) == ["before"]
    CHANGES[part](monkeypatch, tmp_path)
    assert ask(tmp_path, Judge(["after"])) == ["after"] and Judge.loads == 2
    assert len(list((tmp_path / schema_findings.FOLDER).glob("*.json"))) == 2, "one file per judge"


@pytest.mark.parametrize("content", ["not json", "[1, 2]", '{"%s": "not a list"}', '{"%s": [1]}'],
                         ids=["not json", "a list", "not a list", "not strings"])
def test_a_damaged_file_is_a_miss_never_a_crash(content, tmp_path):
    Judge.loads = 0
    assert ask(tmp_path, Judge(["real"])) == ["real"]
    [path] = (tmp_path / schema_findings.FOLDER).glob("*.json")
    key = next(iter(json.loads(path.read_text())))
    path.write_text(content.replace("%s", key))
    assert ask(tmp_path, Judge(["real"])) == ["real"] and Judge.loads == 2


def test_a_lone_surrogate_in_a_message_is_cached_like_any_other(tmp_path):
    judge = Judge(["arguments.text: bad"])
    for _ in range(2):
        validator = schema_findings.CachedValidator(tmp_path, judge.load)
        assert validator.check_request("tools/call", {"arguments": {"text": "\ud800"}}) == ["arguments.text: bad"]
        validator.save()
