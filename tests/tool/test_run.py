"""The conversation: how a server is started, fed, waited for, stopped and judged."""

from __future__ import annotations

import json
import re
import time

import pytest

from support.tool_repos import (ANSWERS_FIRST, example_toml, invoke, jsonl, make_repo, processes_with, py_twin, req,
                                run_one_server, rust_echo, server)

KEY = "examples/srv/answer_key.jsonl"


def run_server(tmp_path, body: str, toml: str | None = None, lines: str | None = None, *args: str):
    return run_one_server(tmp_path, body, *args, toml=toml, lines=lines)


def failed_with(root, proc, *texts):
    assert proc.returncode == 3, proc.out
    for text in texts:
        assert text in proc.out, f"{text!r} not in:\n{proc.out}"
    assert not (root / KEY).exists()


def test_a_clean_server_is_written_then_verified(tmp_path):
    root, proc = run_server(tmp_path, "")
    assert proc.returncode == 0, proc.out
    assert re.search(r"^written +srv +python", proc.out, re.M)
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, 2]
    again = invoke(root, "--check")
    assert again.returncode == 0, again.out
    assert re.search(r"^verified +srv +python", again.out, re.M)


def test_crash_on_the_first_request(tmp_path):
    body = '''
    for line in sys.stdin:
        print("about to crash", file=sys.stderr)
        raise SystemExit(7)
    '''
    root, proc = run_server(tmp_path, body)
    failed_with(root, proc, "examples/srv/server.py (python): the server exited (status 7) without answering "
                "transcript line 1", "about to crash")


def test_crash_after_the_first_reply(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        answer(msg)
        raise RuntimeError("boom after one reply")
    '''
    root, proc = run_server(tmp_path, body)
    # The next line is a notification (written, not waited for), then request 2 finds the server gone.
    failed_with(root, proc, "transcript line", "last lines of stderr:", "RuntimeError: boom after one reply")
    assert re.search(r"transcript line [23]\b", proc.out), proc.out


def test_a_crash_with_a_traceback_shows_the_tail_of_stderr(tmp_path):
    body = '''
    for line in sys.stdin:
        for i in range(40):
            print(f"noise {i}", file=sys.stderr)
        undefined_name
    '''
    root, proc = run_server(tmp_path, body)
    failed_with(root, proc, "NameError", "noise 39")
    assert "noise 5\n" not in proc.out, "only the last lines of stderr are shown"


def test_a_syntax_error_is_a_crash_with_the_traceback(tmp_path):
    root, proc = run_server(tmp_path, "def broken(:\n")
    failed_with(root, proc, "examples/srv/server.py (python): the server exited (status 1) without answering "
                "transcript line 1", "SyntaxError")


def test_hang_without_a_reply_is_killed_and_reported(tmp_path):
    body = '''
    import subprocess
    child = subprocess.Popen(["sleep", "60.TOKEN"])
    print("waiting forever", file=sys.stderr)
    sys.stderr.flush()
    for line in sys.stdin:
        time.sleep(60)
    '''
    token = str(time.monotonic_ns() % 10**9)  # sandboxed PIDs mean nothing outside: find the child by its argument
    root, proc = run_server(tmp_path, body.replace("TOKEN", token), example_toml(timeout=0.5))
    failed_with(root, proc, "examples/srv/server.py (python): hang: no reply to transcript line 1 (id 1) within 0.5 s",
                "does the server flush stdout", "waiting forever")
    assert proc.seconds < 10
    deadline = time.monotonic() + 5
    while processes_with(f"60.{token}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not processes_with(f"60.{token}"), "the server and its children are killed"


def test_a_server_that_does_not_flush_hangs(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result_for(msg)}) + "\\n")
    '''
    root, proc = run_server(tmp_path, body, example_toml(timeout=0.5))
    failed_with(root, proc, "hang: no reply to transcript line 1")


def test_a_server_that_never_exits_after_stdin_closes(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
    print("stdin closed, sleeping anyway", file=sys.stderr)
    sys.stderr.flush()
    time.sleep(60)
    '''
    root, proc = run_server(tmp_path, body, example_toml(timeout=ANSWERS_FIRST))
    failed_with(root, proc, f"hang: the server did not exit within {ANSWERS_FIRST} s after its stdin was closed",
                "stdin closed, sleeping anyway")
    assert proc.seconds < 10


def test_a_server_that_closes_stdout_and_lingers_mid_conversation(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        answer(msg)
        os.close(1)
        time.sleep(60)
    '''
    root, proc = run_server(tmp_path, body, example_toml(timeout=ANSWERS_FIRST))
    failed_with(root, proc, "hang: the server closed its stdout without answering transcript line 3 "
                f"(id 2) and did not exit within {ANSWERS_FIRST} s")
    assert proc.seconds < 10


def test_a_server_that_stops_reading_does_not_hang_the_tool(tmp_path):
    """A request bigger than a pipe buffer, to a server that reads nothing: reported as a hang, not stuck."""
    big = req(1, "tools/call", name="echo", arguments={"text": "x" * 300_000})
    body = '''
    time.sleep(60)
    '''
    root, proc = run_server(tmp_path, body, example_toml(timeout=0.5), jsonl(big))
    failed_with(root, proc, "hang: the server stopped reading its stdin; transcript line 1 could not be written "
                "within 0.5 s")
    assert proc.seconds < 10


def test_flood_is_stopped_and_reported(tmp_path):
    body = '''
    for line in sys.stdin:
        while True:
            sys.stdout.write("x" * 65536)
            sys.stdout.flush()
    '''
    root, proc = run_server(tmp_path, body)
    failed_with(root, proc, "flood: the server wrote more than 1048576 bytes to stdout and was stopped",
                "max_output_bytes")
    assert proc.seconds < 10


def test_flood_limit_comes_from_example_toml(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg, padding="y" * 5000)
    '''
    root, proc = run_server(tmp_path, body, example_toml(max_output_bytes=4000))
    failed_with(root, proc, "flood: the server wrote more than 4000 bytes")


def test_a_chatty_stderr_does_not_block_the_server(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        sys.stderr.write("e" * 300_000 + "\\n")
        sys.stderr.flush()
        if "id" in msg:
            answer(msg)
    '''
    root, proc = run_server(tmp_path, body, example_toml(timeout=3))
    assert proc.returncode == 0, proc.out
    assert b"e" * 10 not in (root / KEY).read_bytes()


def test_wrong_exit_status(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
    print("exiting with 4", file=sys.stderr)
    sys.exit(4)
    '''
    root, proc = run_server(tmp_path, body)
    failed_with(root, proc, "examples/srv/server.py", "the server exited with status 4, expected 0", "exiting with 4")


def test_declared_exit_status_is_expected(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
    sys.exit(4)
    '''
    root, proc = run_server(tmp_path, body, example_toml(exit_code=4))
    assert proc.returncode == 0, proc.out
    root2, proc2 = run_server(tmp_path / "other", "", example_toml(exit_code=4))
    failed_with(root2, proc2, "the server exited with status 0, expected 4")


def test_killed_by_a_signal_is_a_wrong_exit_status(tmp_path):
    body = '''
    import signal
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
    os.kill(os.getpid(), signal.SIGTERM)
    '''
    root, proc = run_server(tmp_path, body)
    failed_with(root, proc, "the server exited with status -15, expected 0")


ENV_SERVER = '''
import resource
env = dict(os.environ)
seen = {
    "env": {k: v for k, v in sorted(env.items()) if k not in ("HOME", "TMPDIR")},
    "home_and_tmpdir_are_cwd": env.get("HOME") == env.get("TMPDIR") == os.getcwd(),
    "cwd_listing": sorted(os.listdir(".")),
    "cwd_is_temp": os.getcwd() == "/tmp" or os.path.basename(os.getcwd()).startswith("run-example-"),
    "cpu_limit": resource.getrlimit(resource.RLIMIT_CPU)[1],
    "core_limit": resource.getrlimit(resource.RLIMIT_CORE)[1],
}
print(f"cwd={os.getcwd()}", file=sys.stderr)
open("left-behind.txt", "w").write("from an earlier run")
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer(msg, seen=seen)
'''


def test_the_server_sees_a_scrubbed_environment_and_a_fresh_temp_cwd(tmp_path, monkeypatch):
    monkeypatch.setenv("RUNEX_TEST_SECRET", "hunter2")
    monkeypatch.setenv("PYTHONPATH", "/somewhere/else")
    root, proc = run_server(tmp_path, ENV_SERVER, None, None, "-v", "--repeat", "2")
    assert proc.returncode == 0, proc.out  # --repeat 2: the second run does not see the first run's file
    seen = json.loads((root / KEY).read_text().splitlines()[0])["result"]["seen"]
    env = seen["env"]
    assert env["PATH"] == "/usr/local/bin:/usr/bin:/bin"
    assert env["LANG"] == "C.UTF-8"
    assert env["TZ"] == "UTC"
    assert "RUNEX_TEST_SECRET" not in env
    assert "hunter2" not in (root / KEY).read_text()
    assert "PYTHONPATH" not in env
    # PWD: bwrap sets it to the directory it starts the command in.
    assert set(env) <= {"PATH", "LANG", "LC_ALL", "TZ", "PYTHONDONTWRITEBYTECODE", "LC_CTYPE", "PWD"}
    assert seen["home_and_tmpdir_are_cwd"] and seen["cwd_is_temp"]
    assert seen["cwd_listing"] == [], "a fresh working directory for every run"
    assert seen["cpu_limit"] > 0 and seen["core_limit"] == 0
    cwds = re.findall(r"cwd=(\S+)", proc.out)
    assert cwds, proc.out
    for cwd in cwds:  # the sandbox's own /tmp, a tmpfs that dies with it
        assert cwd == "/tmp"


def test_stderr_is_never_in_the_answer_key_and_shown_only_with_verbose(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        print("LOG-LINE-for-" + msg["method"], file=sys.stderr)
        if "id" in msg:
            answer(msg)
    '''
    root, quiet = run_server(tmp_path, body)
    assert quiet.returncode == 0, quiet.out
    assert b"LOG-LINE" not in (root / KEY).read_bytes()
    assert "LOG-LINE" not in quiet.out
    loud = invoke(root, "--check", "-v")
    assert loud.returncode == 0, loud.out
    assert "stderr of python:" in loud.out
    assert "LOG-LINE-for-tools/list" in loud.out and "LOG-LINE-for-notifications/cancelled" in loud.out


def test_requests_are_written_one_at_a_time(tmp_path):
    """The next line is written only after the reply to the previous request: the server sees nothing early."""
    body = '''
    import select
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            early = bool(select.select([sys.stdin], [], [], 0.2)[0])
            answer(msg, early=early)
    '''
    lines = jsonl(req(1), req(2), req(3))
    root, proc = run_server(tmp_path, body, None, lines)
    assert proc.returncode == 0, proc.out
    results = [json.loads(l)["result"] for l in (root / KEY).read_text().splitlines()]
    assert [r["early"] for r in results] == [False, False, False]


def test_implementations_from_reuses_another_examples_server(tmp_path):
    root = make_repo(tmp_path, {
        "base": {"server.py": server()},
        "reuse": {"example.toml": example_toml(implementations_from="base"),
                  "transcript.jsonl": jsonl(req("only"))},
    })
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert json.loads((root / "examples/reuse/answer_key.jsonl").read_text())["id"] == "only"


def test_implementations_from_an_unknown_example(tmp_path):
    root = make_repo(tmp_path, {"reuse": {"example.toml": example_toml(implementations_from="nowhere")}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/reuse/example.toml: implementations_from = 'nowhere' names no folder" in proc.out


def test_a_folder_without_an_implementation(tmp_path):
    root = make_repo(tmp_path, {"empty": {"README.txt": "nothing here"}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/empty: no implementation (expected one of: main.rs, Cargo.toml, server.py)" in proc.out


def test_an_answer_key_without_a_transcript_is_an_orphan(tmp_path):
    root = make_repo(tmp_path, {"orphan": {"server.py": server(), "transcript.jsonl": None,
                                           "answer_key.jsonl": "{}\n"}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/orphan: no transcript.jsonl (an answer key without a transcript is an orphan" in proc.out


def test_a_bad_folder_name(tmp_path):
    root = make_repo(tmp_path, {"Bad_Name": {"server.py": server()}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/Bad_Name: example folder names use lowercase letters" in proc.out


def test_an_implementation_symlinked_out_of_examples_is_refused(tmp_path):
    outside = tmp_path / "outside.py"
    outside.write_text(server())
    root = make_repo(tmp_path, {"sneaky": {}})
    (root / "examples/sneaky/server.py").symlink_to(outside)
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/sneaky/server.py: server.py resolves outside examples/" in proc.out


@pytest.mark.parametrize("key", ["implementations_from", "transcript_from"])
def test_a_borrowed_folder_that_resolves_out_of_examples_is_this_examples_error(tmp_path, key):
    """`--check NAME` for an example whose implementations_from (or transcript_from) names a folder that is a
    symlink out of examples/ once answered "no example named NAME" (exit 2): the error named the other folder's
    file, so it was not counted as NAME's. It is NAME's: its example.toml chose the folder."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "server.py").write_text(server())
    (outside / "transcript.jsonl").write_text(jsonl(req(1)))
    files = {"example.toml": f'timeout = 5\n{key} = "borrowed"\n'}
    files.update({"transcript.jsonl": jsonl(req(1))} if key == "implementations_from" else {"server.py": server()})
    root = make_repo(tmp_path, {"ex": files})
    (root / "examples/borrowed").symlink_to(outside)
    proc = invoke(root, "--check", "ex")
    assert proc.returncode == 3, proc.out
    assert (f"examples/ex/example.toml:2: {key} = 'borrowed' borrows examples/borrowed/"
            f"{'server.py' if key == 'implementations_from' else 'transcript.jsonl'}, which resolves outside "
            f"examples/") in proc.out, proc.out
    assert "no example named" not in proc.out


# --- twins ---------------------------------------------------------------------------------------------------

def test_twins_that_agree_pass(tmp_path, rustc):
    root = make_repo(tmp_path, {"twins": {"main.rs": rust_echo("same"), "server.py": py_twin("same")}})
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert re.search(r"^written +twins +rust\+python .*built rust", proc.out, re.M), proc.out


def test_twins_that_disagree_fail_showing_each_differing_value_aligned(tmp_path, rustc):
    root = make_repo(tmp_path, {"twins": {"main.rs": rust_echo("from-rust"), "server.py": py_twin("from-python")}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "twins disagree: rust and python wrote different stdout" in proc.out
    assert "There is no answer key yet to say which twin is right" in proc.out
    start = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public","who":"from-'
    column = len(start) - 30  # the excerpt starts 30 characters before the first difference
    assert (f"    stdout line 1, from character {column + 1}:\n"
            f'        rust    …{start[-30:]}rust"}}}}\n'
            f'        python  …{start[-30:]}python"}}}}\n'
            f"                {' ' * 31}^\n") in proc.out, proc.out
    assert "... and 1 more stdout lines differ" not in proc.out and "stdout line 2" in proc.out
    assert not (root / "examples/twins/answer_key.jsonl").exists()


def test_twins_that_disagree_say_which_one_still_writes_the_answer_key(tmp_path, rustc):
    """The difference sits 230 characters into a line: the excerpt shows the value, not the line, and says which
    twin changed (the one that no longer writes the answer key)."""
    padding = "p" * 230
    root = make_repo(tmp_path, {"twins": {"main.rs": rust_echo(padding + " 212.0 F"),
                                          "server.py": py_twin(padding + " 212.0 F")}})
    assert invoke(root).returncode == 0
    (root / "examples/twins/server.py").write_text(py_twin(padding + " 203.0 F"))
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert ("rust still writes the answer key; python (examples/twins/server.py) changed: fix it, or, if the change "
            "is meant, make rust do the same.") in proc.out, proc.out
    rows = [row for row in proc.out.splitlines() if "212.0" in row or "203.0" in row or row.strip() == "^"]
    assert [row.strip()[:8] for row in rows[:3]] == ["rust    ", "python  ", "^"], proc.out
    assert rows[0].index("212.0") == rows[1].index("203.0") and rows[2].index("^") == rows[0].index("212.0") + 1
    assert all(len(row) < 100 for row in rows), proc.out


def test_a_twin_that_breaks_a_wire_rule_is_named_before_the_disagreement(tmp_path, rustc):
    """A stray print() in the Python twin: the fault is the stdout-not-a-message rule in server.py, not the answer
    key (the one file never to edit), so that rule, at that twin's file, comes first."""
    chatty = py_twin("same").replace("n = 0\n", 'print("loading tools")\nn = 0\n', 1)
    root = make_repo(tmp_path, {"twins": {"main.rs": rust_echo("same"), "server.py": chatty}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    at = chatty.splitlines().index('print("loading tools")') + 1  # named at the print that wrote the stray line
    rule = f"examples/twins/server.py:{at} (python): [stdout-not-a-message] stdout line 1: not a JSON-RPC message"
    assert rule in proc.out, proc.out
    assert "main.rs (rust): [" not in proc.out, proc.out
    assert proc.out.index(rule) < proc.out.index("twins disagree"), proc.out
