"""Helpers for the run_examples tests: tiny repositories in tmp_path, tiny servers, and a way to run the tool.

Every repository built here is a throwaway under tmp_path; nothing is ever written under the real examples/.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
import time
from pathlib import Path

from runex.wire.protocol import CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION, PROTOCOL_VERSION_KEY

from .repo import ROOT, run_tool, skip_or_fail  # noqa: F401  (run_tool, skip_or_fail: for the tests)

TOOLS = ROOT / "tools"

META = {
    PROTOCOL_VERSION_KEY: PROTOCOL_VERSION,
    CLIENT_CAPABILITIES_KEY: {},
    CLIENT_INFO_KEY: {"name": "tests", "version": "1.0.0"},
}


def compact(obj) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def req(id, method: str = "tools/list", **params) -> str:
    """One transcript request line with params._meta, as the contract wants."""
    return compact({"jsonrpc": "2.0", "id": id, "method": method, "params": {"_meta": META, **params}})


def note(method: str = "notifications/cancelled", **params) -> str:
    """A notification; with no params, a cancellation the schema accepts (it requires requestId). Its id is one no
    transcript here sends, so it is never a cancel of a request already answered (transcript-cancels-answered)."""
    if not params and method == "notifications/cancelled":
        params = {"requestId": 999}
    return compact({"jsonrpc": "2.0", "method": method, "params": params})


def jsonl(*lines: str) -> str:
    return "".join(line + "\n" for line in lines)


DEFAULT_TRANSCRIPT = jsonl(req(1), note(requestId=999, reason="stop"), req(2))

# Python servers: a prelude with two helpers, then a loop. They run under the scrubbed env with the tool's python.
# Results are valid 2026-07-28 results (the tool validates them): tools/list by default, tools/call on request;
# `extra` members ride along in a tools/list result (the schema allows them) or as the text of a tools/call result.
PRELUDE = '''\
import json, os, sys, time


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\\n")
    sys.stdout.flush()


def result_for(msg, **extra):
    if msg["method"] == "tools/call":
        return {"resultType": "complete", "content": [{"type": "text", "text": json.dumps(extra, sort_keys=True)}]}
    return {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public", **extra}


def answer(msg, **extra):
    send({"jsonrpc": "2.0", "id": msg["id"], "result": result_for(msg, **extra)})

'''


def server(body: str = "") -> str:
    """A Python server: the prelude, then `body` (dedented). Without a body: answer every request, exit on EOF."""
    body = textwrap.dedent(body) if body.strip() else ECHO_LOOP
    return PRELUDE + body


ECHO_LOOP = '''\
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer(msg)
'''

ECHO = server()

# A loop that answers a line it cannot parse with -32700 and a null id, and every request as ECHO_LOOP does.
PARSE_ERROR_LOOP = '''
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        continue
    if "id" in msg:
        answer(msg)
'''

# A std-only Rust server: answers the n-th request line with id n (transcripts for it use ids 1, 2, ...).
RUST_ECHO = r'''use std::io::{self, BufRead, Write};

fn main() {
    let stdout = io::stdout();
    let mut n = 0;
    for line in io::stdin().lock().lines() {
        let line = line.unwrap();
        if !line.contains("\"id\":") {
            continue;
        }
        n += 1;
        let mut out = stdout.lock();
        let result = r#"{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public","who":"WHO"}"#;
        writeln!(out, "{{\"jsonrpc\":\"2.0\",\"id\":{n},\"result\":{result}}}").unwrap();
        out.flush().unwrap();
    }
}
'''

# The Python twin of RUST_ECHO: the same bytes for the same transcript.
PY_TWIN = server('''
n = 0
for line in sys.stdin:
    if '"id":' not in line:
        continue
    n += 1
    result = {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public", "who": "WHO"}
    send({"jsonrpc": "2.0", "id": n, "result": result})
''')


# A server that also serves Streamable HTTP, for the HTTP tests: stdio as the usual echo loop; over HTTP, http.server answering each POST with
# the same reply, except what `BROKEN` changes.
HTTP_TWIN = textwrap.dedent('''\
    import json, os, sys
    from http.server import BaseHTTPRequestHandler, HTTPServer

    def reply(msg):
        return {"jsonrpc": "2.0", "id": msg["id"],
                "result": {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"}}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            global REQUEST_HEADERS
            REQUEST_HEADERS = self.headers  # for a BROKEN that looks at them
            msg = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if BEFORE(self, msg):
                return  # BEFORE answered the request itself
            status, body = (200, json.dumps(reply(msg), separators=(",", ":"))) if "id" in msg else (202, "")
            status, body = BROKEN(msg, status, body)
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body.encode())

        def do_GET(self):
            if self.path in GETS:
                status, headers, body = GETS[self.path](self.headers)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body.encode())
                return
            self.send_response(405)
            self.send_header("Allow", "POST")
            self.end_headers()

        def log_message(self, *args):
            pass

    BROKEN = lambda msg, status, body: (status, body)
    GETS = {}  # path -> function(request headers) -> (status, response headers, body)
    BEFORE = lambda handler, msg: False  # True: it answered the request itself
    ''')

SERVE = textwrap.dedent('''\
    address = os.environ.get("MCP_HTTP_ADDR")
    if address:
        host, port = address.rsplit(":", 1)
        HTTPServer((host, int(port)), Handler).serve_forever()
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            sys.stdout.write(json.dumps(reply(msg), separators=(",", ":")) + "\\n")
            sys.stdout.flush()
    ''')

HTTP_ECHO = HTTP_TWIN + SERVE


def rust_echo(who: str = "twin") -> str:
    return RUST_ECHO.replace("WHO", who)


def py_twin(who: str = "twin") -> str:
    return PY_TWIN.replace("WHO", who)


def page(*targets: str, title: str = "Examples") -> str:
    """A page pasting each target between an empty marker pair."""
    parts = [f"# {title}\n\n"]
    for target in targets:
        parts.append(f"Some prose before {target}.\n\n<!-- example-begin: {target} -->\n<!-- example-end -->\n\n")
    return "".join(parts)


def make_repo(tmp_path: Path, examples: dict[str, dict[str, str | bytes]] | None = None,
              pages: dict[str, str] | None = None, name: str = "repo") -> Path:
    """A tiny repository: examples/<name>/<file> for each entry, and docs/<page> for each page.

    An example without transcript.jsonl gets DEFAULT_TRANSCRIPT (give None to leave a file out). Without `pages`,
    docs/examples.md pastes each example's transcript (so that no example is "pasted by no page").
    """
    root = tmp_path / name
    (root / "examples").mkdir(parents=True)
    (root / "docs").mkdir()
    examples = examples or {}
    for ex_name, files in examples.items():
        folder = root / "examples" / ex_name
        folder.mkdir(parents=True, exist_ok=True)
        files = dict(files)
        if "transcript_from" not in str(files.get("example.toml", "")):
            files.setdefault("transcript.jsonl", DEFAULT_TRANSCRIPT)
        for rel, content in files.items():
            if content is not None:  # None: leave this file out
                write(folder / rel, content)
    if pages is None:
        pages = {"examples.md": page(*(f"{n}/transcript.jsonl" for n in examples))} if examples else {}
    for rel, content in pages.items():
        write(root / "docs" / rel, content)
    return root


def write(path: Path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def tool(root: Path, *args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run the tool on `root`; `.out` holds stdout and stderr together."""
    proc = run_tool(*args, root=root, env=env, timeout=timeout)
    proc.out = proc.stdout + proc.stderr
    return proc


class Invoked:
    def __init__(self, returncode: int, out: str):
        self.returncode = returncode
        self.out = out


def invoke(root: Path, *args: str, env: dict | None = None) -> Invoked:
    """Run the tool's main() in this process (fast: the schema is loaded once per test session).

    The tool's own stdout and stderr are captured together into `.out`; `env` entries are set for the call.
    """
    import contextlib
    import io

    from runex import cli

    buffer = io.StringIO()
    env = {"GITHUB_ACTIONS": "", **(env or {})}  # no annotations unless a test asks for them
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            code = cli.main([*args, "--root", str(root)])
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return Invoked(code, buffer.getvalue())


def forget_verdicts(root: Path) -> None:
    """Empty the cached verdicts (cache/results.py), for a test about what a real run does on a second pass (the
    build cache, say): with them, an unchanged example is not run again at all."""
    shutil.rmtree(root / ".cache" / "run_examples" / "verdicts", ignore_errors=True)


def ok(root: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    """Run the tool and insist on exit 0, showing its output otherwise."""
    proc = tool(root, *args, **kwargs)
    assert proc.returncode == 0, proc.out
    return proc


def snapshot(root: Path, skip: tuple[str, ...] = (".cache",)) -> dict[str, tuple[bytes, int]]:
    """Every file under root (but `skip` folders): its bytes and mtime in nanoseconds."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] in skip or path.is_dir():
            continue
        found[str(rel)] = (path.read_bytes() if path.is_file() else b"<not a file>", path.lstat().st_mtime_ns)
    return found


def temp_files(root: Path) -> list[str]:
    """Leftovers of an interrupted atomic write (.NAME.XXXX.tmp), anywhere under root."""
    return sorted(str(p.relative_to(root)) for p in root.rglob(".*.tmp"))


def require(program: str) -> None:
    if shutil.which(program) is None:
        skip_or_fail(f"{program} is not installed")


# The timeout for a server that must answer before it hangs: started in the sandbox beside three other busy workers on
# two cores, a Python server once took longer than 0.5 s to answer its first line, and the test saw the wrong hang.
ANSWERS_FIRST = 2


def example_toml(**keys) -> str:
    lines = []
    for key, value in keys.items():
        lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def violation(rule: str, line: int, reason: str = "on purpose") -> str:
    return f'\n[[expected_violation]]\nrule = "{rule}"\nline = {line}\nreason = "{reason}"\n'


def status_lines(out: str) -> dict[str, str]:
    """{example name: status} from the tool's one-line-per-example report."""
    found = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("verified", "written", "drifted", "failed"):
            found[parts[1]] = parts[0]
    return found


def pid_alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is as good as gone



def processes_with(text: str) -> list[int]:
    """PIDs (as this machine sees them) of live processes whose command line contains `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline and pid_alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def run_one_server(tmp_path: Path, body: str, *args: str, toml: str | None = None, lines: str | None = None):
    """A repository with one Python example `srv` (server body, optional example.toml and transcript), run once."""
    files = {"server.py": server(body)}
    if toml is not None:
        files["example.toml"] = toml
    if lines is not None:
        files["transcript.jsonl"] = lines
    root = make_repo(tmp_path, {"srv": files})
    started = time.monotonic()
    proc = invoke(root, *args)
    proc.seconds = time.monotonic() - started
    return root, proc
