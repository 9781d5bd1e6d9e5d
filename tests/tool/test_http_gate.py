"""The HTTP runner's gate: no verdict a server can forge, no planned exchange silently missing.

The HTTP client is the tool itself, outside the sandbox: only sockets made in the sandbox's network namespace cross
into it (runex/loopback.py). A hostile server looks for a client to write a report into: every process its `/proc`
shows, their memory (`/proc/<pid>/mem`, the ptrace route) and their stdout (`/proc/<pid>/fd/1`), and writes the
answer key into each it can open. It must find nothing but the sandbox's init and itself, and no verdict may come
of it. Each test runs the tool as root (as CI does) and as the unprivileged `nobody`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

from support.tool_repos import HTTP_TWIN, SERVE, TOOLS, invoke, jsonl, make_repo, note, req, skip_or_fail

TRANSCRIPT = jsonl(req(1), note(), req(2))

# What a well-behaved server answers to TRANSCRIPT's two requests: the answer key the forger writes wherever it can.
_REPLY = '{"jsonrpc":"2.0","id":%d,"result":{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}}'

FORGER = textwrap.dedent('''\
    import os, time

    def attempt(path, mode):
        try:
            return open(path, mode, buffering=0), "opened"
        except OSError as exc:
            return None, type(exc).__name__

    if os.environ.get("MCP_HTTP_ADDR"):
        me = os.getpid()
        others = sorted(int(name) for name in os.listdir("/proc") if name.isdigit() and int(name) != me)
        probes = []
        for pid in others:
            mem, mem_seen = attempt(f"/proc/{pid}/mem", "r+b")
            out, out_seen = attempt(f"/proc/{pid}/fd/1", "wb")
            probes.append(f"{pid}: mem={mem_seen} stdout={out_seen}")
            if out is not None:
                out.write(("\\n".join([_REPLY % 1, _REPLY % 2]) + "\\n").encode())
        sys.stderr.write(f"probe others={others} me={me} {'; '.join(probes)}\\n")
        sys.stderr.flush()
        time.sleep(60)  # never listens: an honest run of this server fails
    ''')


def _forging_repo(parent: Path) -> Path:
    source = HTTP_TWIN + f"_REPLY = {_REPLY!r}\n" + FORGER + SERVE
    return make_repo(parent, {"srv": {"server.py": source, "transcript.jsonl": TRANSCRIPT,
                                      "example.toml": "timeout = 3\nhttp = true\n"}})


def _assert_refused(returncode: int, out: str) -> None:
    assert returncode == 3, out
    assert "verified" not in out.split("srv", 1)[-1].splitlines()[0], out
    assert "over HTTP" in out and "MCP_HTTP_ADDR" in out, out
    # The sandbox holds its init (PID 1, bwrap) and the server (PID 2): no client, nothing that holds a report.
    assert "probe others=[1] me=2 " in out, out


@pytest.fixture(autouse=True)
def bwrap_present():
    if shutil.which("bwrap") is None:
        skip_or_fail("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")


def test_a_server_cannot_forge_its_http_verdict_when_the_tool_runs_as_this_user(tmp_path):
    root = _forging_repo(tmp_path)
    for args in ((), ("--check",)):
        proc = invoke(root, *args)
        _assert_refused(proc.returncode, proc.out)
    assert not (root / "examples/srv/answer_key.jsonl").exists()


def test_a_server_cannot_forge_its_http_verdict_when_the_tool_runs_unprivileged():
    """As `nobody`, on the system's Python with this venv's packages (the venv's own interpreter may sit under a
    home no other user can enter): the report pipe then belongs to the same user as the server."""
    if os.geteuid() != 0:
        pytest.skip("this test switches to nobody, which needs root; the test above already runs unprivileged")
    python = _python_for_nobody()
    with tempfile.TemporaryDirectory(prefix="runex-nobody-", dir="/tmp") as scratch:
        base = Path(scratch)
        root = _forging_repo(base)
        venv = _venv_for_nobody(python, base / "venv")
        subprocess.run(["chown", "-R", "nobody:nogroup", str(base)], check=True)
        base.chmod(0o755)
        env = {"PATH": os.environ["PATH"], "HOME": str(base), "LANG": "C.UTF-8", "GITHUB_ACTIONS": ""}
        proc = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                               str(venv / "bin" / "python"), str(TOOLS / "run_examples.py"), "--root", str(root)],
                              env=env, capture_output=True, text=True, timeout=300)
        _assert_refused(proc.returncode, proc.stdout + proc.stderr)


def _venv_for_nobody(python: str, venv: Path) -> Path:
    """A venv of the system's `python` whose site-packages is this venv's: the same packages (the schema package,
    runex), on an interpreter `nobody` can run."""
    subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True)
    [own] = venv.glob("lib/python3*/site-packages")
    own.rmdir()
    own.symlink_to(next(Path(sys.prefix, "lib").glob("python3*/site-packages")), target_is_directory=True)
    return venv


def _python_for_nobody() -> str:
    """The system's interpreter of this venv's Python version (a venv's interpreter would be bound into the sandbox
    by its links into a home that `nobody` cannot enter)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (f"/usr/bin/{version}", f"/usr/local/bin/{version}"):
        if candidate and _runs_as_nobody(candidate, version):
            return candidate
    skip_or_fail(f"no {version} that the user nobody can run (apt-get install {version})")


def _runs_as_nobody(python: str, version: str) -> bool:
    probe = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", python, "-c",
                            "import sys; print(f'python{sys.version_info.major}.{sys.version_info.minor}')"],
                           capture_output=True, text=True, cwd="/")
    return probe.returncode == 0 and probe.stdout.strip() == version


def test_the_forged_report_is_what_an_honest_run_would_report(tmp_path):
    """The forgery is a real one: what the forger writes wherever it can is the answer key an honest server earns,
    with exactly these exchanges."""
    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "transcript.jsonl": TRANSCRIPT,
                                        "example.toml": "http = true\n"}})
    assert invoke(root).returncode == 0
    records = [json.loads(line) for line in (root / "examples/srv/http.python.jsonl").read_text().splitlines()]
    assert [r["status"] for r in records] == [200, 202, 200, 405]
    key = (root / "examples/srv/answer_key.jsonl").read_text().splitlines()
    assert key == [_REPLY % 1, _REPLY % 2]


# ---- What example.toml asks of HTTP is refused at its line when HTTP cannot carry it, and nothing is written.

def _configured(tmp_path: Path, toml: str) -> Path:
    return make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "transcript.jsonl": TRANSCRIPT,
                                        "example.toml": toml}})


@pytest.mark.parametrize("toml, line, said", [
    ('http = true\nhttp_headers = { Authorization = "Bearer a\\r\\nX-Injected: yes" }\n', 2, "'\\r'"),
    ('http = true\nhttp_headers = { "Token-Użytkownika" = "abc" }\n', 2, "'Token-Użytkownika' is not a header name"),
    ('http = true\nhttp_headers = { Note = "zażółć" }\n', 2, "=?base64?"),
    ('http = true\n\n[[http_override]]\nline = 1\nheaders = { "Bad Name" = "x" }\nreason = "r"\n', 3,
     "'Bad Name' is not a header name"),
])
def test_a_header_http_cannot_carry_is_refused_at_its_line_and_nothing_is_written(tmp_path, toml, line, said):
    from support.tool_repos import snapshot

    root = _configured(tmp_path, toml)
    before = snapshot(root)
    for args in (("--check",), ()):
        proc = invoke(root, *args)
        assert proc.returncode == 3, proc.out
        assert f"examples/srv/example.toml:{line}" in proc.out and said in proc.out, proc.out
    assert snapshot(root) == before


def test_an_override_for_a_line_the_transcript_lacks_is_named_at_its_table(tmp_path):
    root = _configured(tmp_path, 'http = true\n\n[[http_override]]\nline = 9\ndrop = ["Mcp-Method"]\nreason = "r"\n')
    proc = invoke(root, "--check")
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml:3: [[http_override]] names line 9" in proc.out, proc.out


def test_an_http_list_naming_an_implementation_the_example_lacks_is_named_at_its_line(tmp_path):
    root = _configured(tmp_path, 'timeout = 5\nhttp = ["cargo"]\n')
    proc = invoke(root, "--check")
    assert proc.returncode != 0, proc.out
    assert "examples/srv/example.toml:2" in proc.out and "http names cargo" in proc.out, proc.out


def test_a_report_missing_an_exchange_fails_at_the_line_it_lacks():
    """The tool counts what it planned against what came back: a conversation that stops early gives no verdict."""
    from runex.run import http
    from runex.wire.transcript import classify

    lines = [classify(n, raw.encode(), "transcript.jsonl")[0] for n, raw in enumerate(TRANSCRIPT.splitlines(), 1)]
    requests = http.plan(lines, (), None)
    exchange = {"event": "exchange", "index": 0, "status": 200, "headers": [["content-type", "application/json"]],
                "body": (_REPLY % 1).encode()}
    result = http._result(requests, [exchange], -15, b"", b"", 0.1)
    assert result.failure == ("no exchange came back for request 2 of 4 (transcript line 2): 1 exchanges reported, "
                              "4 planned")


# ---- `serve --http` serves what it says, says why when it cannot, and leaves nothing behind.

def _serve(root: Path, port: int) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(root.parent / "tmp"))
    (root.parent / "tmp").mkdir(exist_ok=True)
    return subprocess.Popen([sys.executable, str(TOOLS / "run_examples.py"), "serve", "srv", "--http",
                             f"127.0.0.1:{port}", "--root", str(root)], stderr=subprocess.PIPE, env=env, text=True)


def test_serve_http_refuses_an_example_that_does_not_serve_http(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE}})
    proc = invoke(root, "serve", "srv", "--http", "127.0.0.1:8123")
    assert proc.returncode == 2, proc.out
    assert "does not serve Streamable HTTP" in proc.out and "examples/srv/example.toml" in proc.out, proc.out


def test_serve_http_says_within_the_timeout_that_the_server_never_listens(tmp_path):
    from support.repo import free_port

    never = SERVE.replace("HTTPServer((host, int(port)), Handler).serve_forever()", "import time; time.sleep(60)")
    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + never, "example.toml": "timeout = 2\nhttp = true\n"}})
    proc = _serve(root, free_port())
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 3, err
    assert "did not listen" in err and "within 2 s" in err and "MCP_HTTP_ADDR" in err, err
    assert "serving" not in err, err


def test_serve_http_answers_and_stopped_with_sigterm_leaves_no_process_behind(tmp_path):
    import signal
    import time
    import urllib.request

    from support.repo import free_port

    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "example.toml": "http = true\n"}})
    port = free_port()
    proc = _serve(root, port)
    answer, started = None, set()
    try:
        deadline = time.monotonic() + 30
        while answer is None and time.monotonic() < deadline:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=req(5).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
            try:
                answer = urllib.request.urlopen(request, timeout=5).read()
            except OSError:
                time.sleep(0.1)
        started = _descendants(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert answer is not None and json.loads(answer)["id"] == 5, err
    assert started, "the sandbox (bwrap and the server) runs below serve while it serves"
    assert proc.returncode == 143, err
    assert not [pid for pid in started if _alive(pid)], err


def _alive(pid: int) -> bool:
    """Running or sleeping: not gone, and not a zombie (dead, its exit status not yet collected by init)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def _descendants(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:  # a thread that ended meanwhile
            continue
        for child in children:
            found |= {int(child)} | _descendants(int(child))
    return found
