"""Hostile examples, as a contributor with bad intent would write them: each must fail to escape the sandbox.

Every server here reports what it saw in its replies (so the answer key is the evidence), and each test asserts both
what the server saw and that the repository is untouched. The seven escapes of issue 12, measured on the tool before
the sandbox: the repository found through __file__ (Python) and argv[0] (Rust) and rewritten; a setsid grandchild
outliving the run; the tool's environment read through /proc; the network; a planted cache binary; a build.rs with
the tool's environment and no time limit; no process limit.
"""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from runex.builds import native

from support.tool_repos import (invoke, jsonl, make_repo, page, processes_with, req, server, snapshot,
                                skip_or_fail)

KEY = "examples/srv/answer_key.jsonl"


@pytest.fixture(autouse=True)
def bwrap_present():
    import shutil

    if shutil.which("bwrap") is None:
        skip_or_fail("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")


def seen_by(root: Path, name: str = "srv") -> dict:
    """What the server reported in its first reply (a tools/list result with an extra `seen` member)."""
    first = json.loads((root / "examples" / name / "answer_key.jsonl").read_text().splitlines()[0])
    return first["result"]["seen"]


def run_hostile(tmp_path: Path, body: str, *args: str, env: dict | None = None):
    root = make_repo(tmp_path, {"srv": {"server.py": server(body.replace("ROOT", str(tmp_path / "repo")))}})
    (root / "docs" / "index.md").write_text("# Home\n")
    first = invoke(root, *args, env=env)
    return root, first


# The end of every hostile body: answer each request, reporting in the reply what the server saw.
ANSWER_WITH_WHAT_IT_SAW = '''
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer(msg, seen=seen)
'''

# A probe every Python server below shares: try to read and write the repository by every route it might know.
PROBE = '''
from pathlib import Path

def attempt(action):
    try:
        action()
        return "ok"
    except OSError as exc:
        return type(exc).__name__

repo = Path("ROOT")
here = Path(__file__).resolve().parent
seen = {
    "file": __file__,
    "read_repo_page": attempt(lambda: (repo / "docs/examples.md").read_text()),
    "append_index": attempt(lambda: open(repo / "docs/index.md", "a").write("owned\\n")),
    "rewrite_key": attempt(lambda: (repo / "examples/srv/answer_key.jsonl").write_text("{}\\n")),
    "beside_file": attempt(lambda: (here / "answer_key.jsonl").write_text("{}\\n")),
    "cache": attempt(lambda: list((repo / ".cache").iterdir())),
}
'''


def test_a_python_server_cannot_find_or_write_the_repository_through_its_file(tmp_path):
    body = PROBE + ANSWER_WITH_WHAT_IT_SAW
    root, first = run_hostile(tmp_path, body)
    assert first.returncode == 0, first.out
    before = snapshot(root)
    check = invoke(root, "--check")
    assert check.returncode == 0, check.out
    assert snapshot(root) == before, "--check wrote nothing and the server could not"
    seen = seen_by(root)
    assert seen["file"] == "/example/server.py", "__file__ names nothing of the repository"
    for route in ("read_repo_page", "append_index", "rewrite_key", "cache"):
        assert seen[route] == "FileNotFoundError", (route, seen)
    assert seen["beside_file"] in ("OSError", "PermissionError"), seen  # /example is read-only
    assert (root / "docs/index.md").read_text() == "# Home\n"


RUST_PROBE = r'''use std::io::{self, BufRead, Write};

fn attempt<T>(result: std::io::Result<T>) -> &'static str {
    match result { Ok(_) => "ok", Err(_) => "denied" }
}

fn main() {
    let argv0 = std::env::args().next().unwrap_or_default();
    let beside = std::path::Path::new(&argv0).with_file_name("answer_key.jsonl");
    let key = attempt(std::fs::write("ROOT/examples/srv/answer_key.jsonl", b"{}\n"));
    let next_to = attempt(std::fs::write(&beside, b"{}\n"));
    let page = attempt(std::fs::OpenOptions::new().append(true).open("ROOT/docs/index.md"));
    let seen = format!(r#"{{"argv0":"{argv0}","key":"{key}","beside":"{next_to}","page":"{page}"}}"#);
    let stdout = io::stdout();
    let mut n = 0;
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        if !line.contains("\"id\":") { continue; }
        n += 1;
        let mut out = stdout.lock();
        let result = format!(r#"{{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public","seen":{seen}}}"#);
        writeln!(out, "{{\"jsonrpc\":\"2.0\",\"id\":{n},\"result\":{result}}}").unwrap();
        out.flush().unwrap();
    }
}
'''


def test_a_rust_server_cannot_find_or_write_the_repository_through_argv0(tmp_path, rustc):
    source = RUST_PROBE.replace("ROOT", str(tmp_path / "repo"))
    root = make_repo(tmp_path, {"srv": {"main.rs": source}})
    (root / "docs" / "index.md").write_text("# Home\n")
    first = invoke(root)
    assert first.returncode == 0, first.out
    seen = seen_by(root)
    assert seen == {"argv0": "/example/server", "key": "denied", "beside": "denied", "page": "denied"}
    before = snapshot(root)
    assert invoke(root, "--check").returncode == 0
    assert snapshot(root) == before
    assert (root / "docs/index.md").read_text() == "# Home\n"


def test_a_setsid_grandchild_dies_with_the_sandbox(tmp_path):
    token = str(time.monotonic_ns() % 10**9)
    body = f'''
import subprocess
# A grandchild in a new session (so no process-group kill reaches it) that would edit a page later.
subprocess.Popen(["setsid", "sh", "-c", "sleep 3.{token}; echo owned >> ROOT/docs/index.md"],
                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                 start_new_session=True)
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer(msg)
'''
    root, first = run_hostile(tmp_path, body)
    assert first.returncode == 0, first.out
    # The sandbox's PID 1 is gone once the tool returns; the kernel then kills its namespace. Wait for that (the
    # kill is asynchronous by a few milliseconds), not for the grandchild's own 3 s.
    deadline = time.monotonic() + 2
    while processes_with(f"3.{token}") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert processes_with(f"3.{token}") == [], "the detached grandchild outlived the sandbox"
    assert (root / "docs/index.md").read_text() == "# Home\n"


def test_the_tool_environment_cannot_be_read_through_proc(tmp_path):
    body = '''
found = []
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
for pid in pids:
    try:
        if b"hunter2" in open(f"/proc/{pid}/environ", "rb").read():
            found.append(pid)
    except OSError:
        pass
seen = {"pids": pids, "secret_in": found, "ppid": os.getppid(), "own_env": "hunter2" in str(os.environ)}
''' + ANSWER_WITH_WHAT_IT_SAW
    root, first = run_hostile(tmp_path, body, env={"RUNEX_TEST_SECRET": "hunter2"})
    assert first.returncode == 0, first.out
    seen = seen_by(root)
    assert seen["secret_in"] == [] and seen["own_env"] is False, seen
    # Only the sandbox's own processes: bwrap's init, the server, at most a wrapper between them.
    assert max(seen["pids"]) < 10 and len(seen["pids"]) <= 4, seen
    assert "hunter2" not in (root / KEY).read_text()


def test_no_network_not_even_loopback(tmp_path):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    body = f'''
import socket
def attempt(action):
    try:
        action()
        return "ok"
    except OSError as exc:
        return type(exc).__name__
seen = {{
    "connect": attempt(lambda: socket.create_connection(("127.0.0.1", {port}), timeout=2)),
    "resolve": attempt(lambda: socket.getaddrinfo("example.com", 443)),
}}
''' + ANSWER_WITH_WHAT_IT_SAW
    try:
        root, first = run_hostile(tmp_path, body)
        assert first.returncode == 0, first.out
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected to the test's listener
    finally:
        listener.close()
    seen = seen_by(root)
    assert seen["connect"] == "ConnectionRefusedError", seen  # the sandbox's own, empty loopback
    assert seen["resolve"] == "gaierror", seen


def test_a_server_cannot_plant_a_binary_in_the_build_cache(tmp_path, rustc):
    from support.tool_repos import rust_echo

    cache = tmp_path / "repo" / ".cache" / "run_examples" / "builds"
    attacker = server(f'''
from pathlib import Path
def plant():
    for entry in Path("{cache}").iterdir():
        (entry / "server").write_bytes(b"#!/bin/sh\\necho planted\\n")
        (entry / "entry.json").write_text("{{}}")
try:
    plant()
    outcome = "planted"
except OSError as exc:
    outcome = type(exc).__name__
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer(msg, seen=outcome)
''')
    root = make_repo(tmp_path, {"a-victim": {"main.rs": rust_echo("victim"), "transcript.jsonl": jsonl(req(1), req(2))},
                                "z-attacker": {"server.py": attacker}})
    first = invoke(root, "-j", "1")  # the victim is built first, so its entry exists when the attacker runs
    assert first.returncode == 0, first.out
    assert seen_by(root, "z-attacker") == "FileNotFoundError"
    [entry] = [p for p in cache.iterdir() if not p.name.startswith(".")]
    binary = (entry / "server").read_bytes()
    again = invoke(root, "--check", "a-victim")
    assert again.returncode == 0, again.out
    assert (entry / "server").read_bytes() == binary
    assert b"planted" not in binary


def test_the_process_limit_holds_as_root_too(tmp_path):
    """A fork bomb bounded by the test (at most 500 children), in a sandbox whose limit is 64 processes."""
    body = '''
import os, subprocess
nested = subprocess.run(["unshare", "--user", "true"], capture_output=True).returncode  # before the bomb
children = 0
error = None
for _ in range(500):
    try:
        pid = os.fork()
    except OSError as exc:
        error = type(exc).__name__
        break
    if pid == 0:
        time.sleep(30)
        os._exit(0)
    children += 1
seen = {"children": children, "error": error, "uid": os.getuid(), "nested_userns": nested}
''' + ANSWER_WITH_WHAT_IT_SAW
    root, first = run_hostile(tmp_path, body)
    assert first.returncode == 0, first.out
    seen = seen_by(root)
    from runex import sandboxing

    assert seen["error"] == "BlockingIOError", seen  # EAGAIN: RLIMIT_NPROC
    assert seen["children"] < sandboxing.SERVER_LIMITS.processes, seen
    assert seen["uid"] == sandboxing.SANDBOX_UID or not sandboxing.Sandbox().as_root
    assert seen["nested_userns"] != 0, "no user namespace inside the sandbox (where it would regain capabilities)"


BUILD_RS_PROBE = r'''use std::net::TcpStream;
use std::time::Duration;

fn main() {
    let secret = std::env::var("RUNEX_TEST_SECRET").is_ok();
    let home = std::env::var("HOME").unwrap_or_default();
    let net = TcpStream::connect_timeout(&"127.0.0.1:PORT".parse().unwrap(), Duration::from_secs(2)).is_ok();
    let repo = std::fs::metadata("ROOT/docs").is_ok();
    println!("cargo:rustc-env=SEEN=secret={secret} net={net} repo={repo} home={home}");
    if std::env::var("CARGO_PKG_NAME").is_err() { panic!("not run by cargo") }
    if SLEEP { let _ = std::process::Command::new("sleep").arg("300.TOKEN").status(); }
}
'''

SEEN_MAIN = r'''use std::io::{self, BufRead, Write};

fn main() {
    let stdout = io::stdout();
    let mut n = 0;
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        if !line.contains("\"id\":") { continue; }
        n += 1;
        let mut out = stdout.lock();
        let seen = env!("SEEN");
        let result = format!(r#"{{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public","seen":"{seen}"}}"#);
        writeln!(out, "{{\"jsonrpc\":\"2.0\",\"id\":{n},\"result\":{result}}}").unwrap();
        out.flush().unwrap();
    }
}
'''


CARGO_TOML = '''[package]
name = "hostile-build"
version = "0.1.0"
edition = "2021"
build = "build.rs"

[dependencies]
'''


def cargo_repo(tmp_path: Path, port: int, sleep: bool, token: str = "0") -> Path:
    build_rs = (BUILD_RS_PROBE.replace("PORT", str(port)).replace("ROOT", str(tmp_path / "repo"))
                .replace("SLEEP", "true" if sleep else "false").replace("TOKEN", token))
    toml = CARGO_TOML
    return make_repo(tmp_path, {"srv": {"Cargo.toml": toml, "build.rs": build_rs, "src/main.rs": SEEN_MAIN,
                                        "transcript.jsonl": jsonl(req(1), req(2))}},
                     {"p.md": page("srv/transcript.jsonl")})


def test_a_build_script_sees_no_secret_no_network_no_repository(tmp_path, cargo):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.setblocking(False)
    try:
        root = cargo_repo(tmp_path, listener.getsockname()[1], sleep=False)
        first = invoke(root, env={"RUNEX_TEST_SECRET": "hunter2"})
        assert first.returncode == 0, first.out
        with pytest.raises(BlockingIOError):
            listener.accept()
    finally:
        listener.close()
    assert seen_by(root) == "secret=false net=false repo=false home=/tmp"


@pytest.mark.slow  # waits out a build time limit
def test_a_build_script_that_hangs_is_stopped_at_the_time_limit(tmp_path, cargo, monkeypatch):
    token = str(time.monotonic_ns() % 10**9)
    root = cargo_repo(tmp_path, 9, sleep=True, token=token)
    monkeypatch.setattr(native, "BUILD_TIMEOUT", 20.0)
    started = time.monotonic()
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "cargo build did not finish within 20 s and was stopped" in proc.out
    assert time.monotonic() - started < 300, "the sleeping build script did not hang the tool"
    deadline = time.monotonic() + 2
    while processes_with(f"300.{token}") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert processes_with(f"300.{token}") == [], "the build script's sleep outlived its sandbox"
    assert not (root / KEY).exists()
