"""The pipeline as an API (tools/runex/pipeline.py): typed values out of each stage, and a Report that says what the
command line prints, without anything being printed."""

from __future__ import annotations

import contextlib
import io

from support.tool_repos import ECHO, invoke, jsonl, make_repo, page, req, server

from runex import cli, pipeline
from runex.examples.model import ImplementationKind
from runex.report import text
from runex.report.outcome import Status

LOCAL = {"CI": ""}


def quiet_run(root, **options) -> tuple[pipeline.Report, str]:
    """pipeline.run, with whatever it might print caught: the API itself prints nothing."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        report = pipeline.run(root, pipeline.Options(**options))
    return report, printed.getvalue()


def test_the_stages_hand_typed_values_to_each_other(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "")
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl")})
    planned = pipeline.plan(root, pipeline.Options(check=True, jobs=1))
    assert [e.name for e in planned.chosen] == ["ex"] and planned.broken == []
    assert planned.chosen[0].implementations[0].name is ImplementationKind.PYTHON
    outcomes = pipeline.verify_examples(planned)
    assert [o.status for o in outcomes] == [Status.DRIFTED], "no answer key yet: --check calls that drift"
    pastes = pipeline.paste_pages(planned, outcomes)
    assert [r.rel for r in pastes.results] == ["docs/p.md"] and pastes.errors == []
    report = pipeline.settle(planned, outcomes, pastes)
    assert report.drifted and not report.failed and report.tampered is None
    assert not (root / "examples/ex/answer_key.jsonl").exists(), "--check writes nothing"


def test_run_returns_the_report_the_command_line_prints(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "")
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}, "bad": {"server.py": server("sys.exit(3)\n")}},
                     {"p.md": page("ex/transcript.jsonl", "bad/transcript.jsonl")})
    report, printed = quiet_run(root, jobs=1)
    assert printed == "", "the API prints nothing; the command line and the MkDocs plugin print its Report"
    assert {o.example.name: o.status for o in report.outcomes} == {"ex": Status.WRITTEN, "bad": Status.FAILED}
    assert report.failed and cli.exit_code(report) == 3
    rendered = text.render(report)
    assert rendered.splitlines()[-2] == text.summary(report) and rendered.splitlines()[-1] == text.fix_line(report)
    assert "failed   bad" in rendered and "written  ex" in rendered


def test_the_status_and_kind_enums_print_as_the_words_they_always_were(tmp_path):
    assert [str(s) for s in Status] == ["verified", "written", "drifted", "failed"]
    assert [f"{s:<8}|" for s in Status][0] == "verified|"
    assert [k.value for k in ImplementationKind] == ["rust", "cargo", "python"]
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO, "transcript.jsonl": jsonl(req(1))}})
    listed = invoke(root, "--list", "--json", env=LOCAL)
    assert '"name": "python"' in listed.out, listed.out
