"""Robustness found while attacking the tool (issue 12): each case once failed in the way its docstring says."""

from __future__ import annotations

import fcntl
import json

import pytest

from support.tool_repos import (META, compact, example_toml, invoke, jsonl, make_repo, page, req, run_one_server,
                                server, violation)

KEY = "examples/srv/answer_key.jsonl"
SERVER = "examples/srv/server.py (python)"  # where a broken stdout rule is named


def test_an_unclosed_fence_above_a_marker_pair_is_a_broken_page(tmp_path):
    """It used to hide the markers below it, so a stale (here: empty) pair passed --check."""
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    assert invoke(root).returncode == 0
    (root / "docs/other.md").write_text("# Other\n\n```python\nprint('never closed')\n\n"
                                        "<!-- example-begin: srv/transcript.jsonl -->\n<!-- example-end -->\n")
    proc = invoke(root, "--check")
    assert proc.returncode == 4, proc.out
    assert "docs/other.md:3: the fenced code block opened here (```) never closes" in proc.out


def test_a_50_mib_transcript_line_is_fed_at_pipe_speed(tmp_path):
    """It used to be fed at about 6.5 MB/s (10 ms asleep per 64 KiB) and reported as 'stopped reading its stdin'."""
    big = req(1, "tools/call", name="echo", arguments={"text": "x" * (50 << 20)})
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg, length=len(line))
    '''
    files = {"server.py": server(body), "transcript.jsonl": jsonl(big)}
    root = make_repo(tmp_path, {"srv": files}, {"p.md": page("srv/server.py")})
    proc = invoke(root)
    assert proc.returncode == 0, proc.out[-2000:]
    reply = json.loads((root / KEY).read_text())
    assert json.loads(reply["result"]["content"][0]["text"])["length"] == len(big) + 1


def test_a_non_utf8_byte_in_a_reply_is_named_at_the_server_with_its_stdout_line(tmp_path):
    """It used to hide the reply from the runner, which then reported a hang."""
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            text = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result_for(msg, note="BAD")})
            sys.stdout.buffer.write(text.replace("BAD", "\\\\xff").encode().replace(b"\\\\xff", b"\\xff") + b"\\n")
            sys.stdout.flush()
    '''
    root, proc = run_one_server(tmp_path, body)
    assert proc.returncode == 3, proc.out
    assert f"{SERVER}: [stdout-not-utf8] stdout line 1:" in proc.out
    assert "hang" not in proc.out


def test_a_reply_ahead_of_its_request_gets_the_same_verdict_every_time(tmp_path):
    """A server that answers request 2 before it was written: the verdict once varied from run to run."""
    body = '''
    first = True
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg and first:
            first = False
            answer(msg)
            answer(dict(msg, id=2))
    '''
    root, proc = run_one_server(tmp_path, body, "--repeat", "5")
    assert proc.returncode == 0, proc.out
    again = invoke(root, "--check", "--repeat", "5")
    assert again.returncode == 0, again.out


DISCOVER = compact({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": META}})


def test_a_discover_answered_with_an_error_fails(tmp_path):
    """server/discover is mandatory in 2026-07-28; -32601 for it used to pass."""
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("method") == "server/discover":
            send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": "Method not found"}})
        elif "id" in msg:
            answer(msg)
    '''
    root, proc = run_one_server(tmp_path, body, lines=jsonl(DISCOVER, req(2)))
    assert proc.returncode == 3, proc.out
    assert "examples/srv/server.py (python): [stdout-discover-failed] stdout line 1:" in proc.out


def test_a_discover_left_unanswered_fails(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg and msg.get("method") != "server/discover":
            answer(msg)
    '''
    root, proc = run_one_server(tmp_path, body, toml=example_toml(timeout=0.5), lines=jsonl(DISCOVER, req(2)))
    assert proc.returncode == 3, proc.out
    assert "no reply to transcript line 1" in proc.out


def test_a_failing_regenerate_changes_none_of_the_examples_files_or_pages(tmp_path):
    """It used to paste the new (unverified) transcript into the page beside the old answer key."""
    root = make_repo(tmp_path, {"srv": {"server.py": server()}},
                     {"p.md": page("srv/transcript.jsonl", "srv/answer_key.jsonl")})
    assert invoke(root).returncode == 0
    page_before = (root / "docs/p.md").read_bytes()
    key_before = (root / KEY).read_bytes()
    (root / "examples/srv/transcript.jsonl").write_text(jsonl(req(1), req(2), req(3, "tools/call", name="x")))
    (root / "examples/srv/server.py").write_text(server('''
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("method") == "tools/call":
            raise SystemExit(9)
        if "id" in msg:
            answer(msg)
    '''))
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert (root / "docs/p.md").read_bytes() == page_before
    assert (root / KEY).read_bytes() == key_before


def test_a_killed_runs_temporary_files_are_removed_by_the_next_run(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    left = [root / "examples/srv/.answer_key.jsonl.a1b2c3d4.tmp", root / "docs/.examples.md.Zz_9Yy8X.tmp"]
    live = root / "docs/.examples.md.LIVE1234.tmp"
    for path in left + [live]:
        path.write_text("half a file")
    unrelated = root / "docs/.notes.tmp"  # not the tool's pattern: not the tool's to remove
    unrelated.write_text("mine")
    with open(live) as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # another run still writing it
        proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert not any(p.exists() for p in left)
    assert live.exists() and unrelated.exists()
    assert "removed examples/srv/.answer_key.jsonl.a1b2c3d4.tmp (left by an interrupted run)" in proc.out


BAD_CONFIGS = [
    ("# why\ntimeout = nan\n", 2, "timeout must be a number of seconds above 0"),
    ("timeout = inf\n", 1, "timeout must be"),
    ("\ntimeout = 0\n", 2, "timeout must be"),
    ('timeout = "5"\n', 1, "timeout must be"),
    ("timeout = true\n", 1, "timeout must be"),
    ("exit_code = 256\n", 1, "exit_code must be an integer from 0 to 255"),
    ("exit_code = -1\n", 1, "exit_code must be"),
    ("exit_code = 1.5\n", 1, "exit_code must be"),
    ("max_output_bytes = 0\n", 1, "max_output_bytes must be an integer from 1"),
    ('implementations = ["python", "python"]\n', 1, "implementations must be a non-empty list without repeats"),
    ("transcript_from = 3\n", 1, "transcript_from must name another example's folder"),
    ("timeout = 1\n" + violation("stdout-made-up", 1), 3, "rule 'stdout-made-up' is not a rule the tool knows"),
    ("timeout = 1\n" + violation("stdout-schema", 0), 3, "line must be a positive integer"),
    ("timeout = 1\n" + violation("stdout-schema", 1, " "), 3, "reason must say, in words"),
    ('[[expected_violation]]\nrule = "stdout-schema"\nline = 1\n', 1, "needs exactly rule, line and reason"),
    ("timeout = 1\nmystery = 2\n", 2, "unknown key 'mystery'"),
    ("timeout = = 1\n", 1, "cannot read TOML"),
]


@pytest.mark.parametrize("toml, line, text", BAD_CONFIGS, ids=[c[2][:30] + str(i) for i, c in enumerate(BAD_CONFIGS)])
def test_every_config_value_is_validated_with_its_line(tmp_path, toml, line, text):
    root, proc = run_one_server(tmp_path, "", toml=toml)
    assert proc.returncode == 3, proc.out
    assert f"examples/srv/example.toml:{line}: " in proc.out, proc.out
    assert text in proc.out, proc.out


def test_a_non_utf8_example_toml_names_its_line(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": server(), "example.toml": b"# fine\n# caf\xe9\n"}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml:2: not UTF-8" in proc.out


def test_twins_that_disagree_name_the_line(tmp_path, rustc):
    from support.tool_repos import py_twin, rust_echo

    root = make_repo(tmp_path, {"srv": {"main.rs": rust_echo("rust"), "server.py": py_twin("python"),
                                        "transcript.jsonl": jsonl(req(1), req(2))}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/srv/answer_key.jsonl:1: twins disagree" in proc.out


def test_a_failing_cargo_example_gets_its_cargo_lock_back(tmp_path, cargo):
    """`cargo fetch` (outside the sandbox) may write Cargo.lock; if the example then fails, the run undoes it."""
    toml = '[package]\nname = "broken-crate"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
    root = make_repo(tmp_path, {"srv": {"Cargo.toml": toml, "src/main.rs": "fn main() { this is not rust }\n",
                                        "transcript.jsonl": jsonl(req(1))}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "cargo build failed" in proc.out
    assert not (root / "examples/srv/Cargo.lock").exists(), "the failing example left a new Cargo.lock behind"
