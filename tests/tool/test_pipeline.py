"""The pipeline as an API (tools/runex/pipeline.py): typed values out of each stage, and a Report that says what the
command line prints, without anything being printed."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from support.tool_repos import ECHO, invoke, jsonl, make_repo, page, req, server

from runex import cli, pipeline
from runex.examples.model import ImplementationKind
from runex.report import text
from runex.examples.outcome import Status

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


def test_the_paste_stage_reads_each_example_file_once(tmp_path, monkeypatch):
    """Two pages pasting the same example's files and views: planning loaded the example, so pasting reads each of
    its files from disk at most once (examples/files.py), and its example.toml not at all."""
    monkeypatch.setenv("CI", "")
    views = ("ex/conversation", "ex/transcript.jsonl", "ex/server.py", "ex/answer_key.jsonl")
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO, "example.toml": "timeout = 10\n"}},
                     {"a.md": page(*views), "b.md": page(*views, "ex/conversation#1")})
    assert invoke(root, env=LOCAL).returncode == 0  # the answer key, written
    planned = pipeline.plan(root, pipeline.Options(check=True, jobs=1, fresh=True))
    outcomes = pipeline.verify_examples(planned)
    reads: dict[str, int] = {}
    real_read_bytes, real_read_text, real_open = Path.read_bytes, Path.read_text, open

    def counted(path) -> None:
        rel = os.path.relpath(os.path.abspath(path), root)
        if rel.startswith("examples" + os.sep):
            reads[rel] = reads.get(rel, 0) + 1

    monkeypatch.setattr(Path, "read_bytes", lambda self: counted(self) or real_read_bytes(self))
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: counted(self) or real_read_text(self, *a, **k))
    monkeypatch.setattr("builtins.open", lambda file, *a, **k: counted(file) or real_open(file, *a, **k))
    pastes = pipeline.paste_pages(planned, outcomes)
    monkeypatch.undo()
    assert pastes.errors == [] and not pastes.drifted, pastes.errors
    assert {"examples/ex/transcript.jsonl", "examples/ex/server.py"} <= set(reads)
    assert "examples/ex/example.toml" not in reads, "planning loaded the example's example.toml already"
    assert "examples/ex/answer_key.jsonl" not in reads, "the run's own stdout stands in for the key it verified"
    assert max(reads.values()) == 1, f"read more than once while pasting: {reads}"
