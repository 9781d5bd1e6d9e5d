"""The tool's other commands over the same stages: list the examples, serve one, create one."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from . import toolchain
from .builds import native
from .environment import default_root
from .errors import EXIT_EXAMPLE_FAILED, PageError, ToolError, UsageError
from .examples import model
from .paste import markers, pages
from .pipeline import open_sandbox, schema_validator
from .examples.outcome import Outcome


def pasted_by(root: Path) -> dict[str, list[str]]:
    """Each example's blocks in the pages, as PAGE:LINE."""
    where: dict[str, list[str]] = {}
    for path in pages.page_files(root):
        rel = str(path.relative_to(root))
        try:
            segments = markers.parse(path.read_text(encoding="utf-8"), rel)
        except PageError:
            continue
        for block in (s for s in segments if isinstance(s, markers.Block)):
            name = block.path.split("/", 1)[0]
            where.setdefault(name, []).append(f"{rel}:{block.line}")
    return where


def root_args(root: Path) -> list[str]:
    return [] if root == default_root() else ["--root", str(root)]


def listing(root: Path, examples: list[model.Example], *, with_commands: bool, unsandboxed: bool) -> list[dict]:
    """What `--list` shows, one entry per example; `with_commands` (`--json`) builds each implementation (from the
    cache) to give the command that starts it."""
    toolchain.forget()
    pasted = pasted_by(root)
    cache = native.Cache(root)
    sandbox = open_sandbox(unsandboxed) if with_commands else None
    entries = []
    for example in examples:
        impls = [_implementation_entry(root, example, impl, cache, sandbox) for impl in example.implementations]
        files = sorted(str(p.relative_to(root)) for p in example.dir.rglob("*")
                       if p.is_file() and "target" not in p.relative_to(example.dir).parts)
        entries.append({"name": example.name, "dir": str(example.dir.relative_to(root)),
                        "transcript": str(example.transcript.relative_to(root)),
                        "answer_key": str(example.answer_key.relative_to(root)),
                        "timeout": example.config.timeout, "exit_code": example.config.exit_code,
                        "expected_violations": [{"rule": v.rule, "line": v.line, "reason": v.reason}
                                                for v in example.config.expected_violations],
                        "implementations": impls, "files": files, "pages": pasted.get(example.name, [])})
    return entries


def _implementation_entry(root: Path, example: model.Example, impl: model.Implementation, cache: native.Cache,
                          sandbox) -> dict:
    serve_cmd = [sys.executable, str(default_root() / "tools" / "run_examples.py"), "serve", example.name,
                 "--impl", impl.name.value, *root_args(root)]
    entry = {"name": impl.name.value, "entry": str(impl.entry.relative_to(root)),
             "files": [str(p.relative_to(root)) for p in native.source_files(impl)],
             "serve_command": serve_cmd}
    if example.serves_http(impl.name):  # the same server over Streamable HTTP, for a client that wants a URL
        entry["http"] = {"serve_command": serve_cmd + ["--http", HTTP_DEFAULT], "url": f"http://{HTTP_DEFAULT}/mcp",
                         "env": dict(example.config.http_env)}  # what `command` needs besides MCP_HTTP_ADDR
    if sandbox is not None:
        try:
            entry["command"] = native.prepare(root, impl, cache, locked=True, sandbox=sandbox).command
        except ToolError as exc:
            entry["command"] = None
            entry["error"] = str(exc)
    return entry


def serve(root: Path, name: str, impl_name: str | None, unsandboxed: bool, http: str | None = None) -> int:
    """Build (from cache) and run one example server on this process's stdin and stdout (does not return), or,
    with `http` (an address such as 127.0.0.1:8000), over Streamable HTTP there until it stops."""
    examples, _ = model.discover(root)
    example = next((e for e in examples if e.name == name), None)
    if example is None:
        raise UsageError(f"no example named {name!r} (known: {', '.join(e.name for e in examples)})")
    try:
        impl = example.implementation(impl_name)
    except ToolError as exc:
        raise UsageError(exc.message) from None
    if http is not None:
        _check_local(http)
        _check_serves_http(example, impl.name)
    sandbox = open_sandbox(unsandboxed)
    built = native.prepare(root, impl, native.Cache(root), locked=True, sandbox=sandbox)
    if http is not None:
        spec = built.spec(sandbox.enabled, os.getcwd()).with_env(example.config.http_env)  # as the check serves it
        return _serve_http(spec, http, sandbox, f"{name} ({impl.name})", example.config.timeout)
    # stdout is the wire from here on: nothing but the server may write to it. The server runs in the same
    # sandbox as under --check, with this process's stdin and stdout passed straight through.
    sys.stdout.flush()
    sys.stderr.flush()
    sandbox.exec(built.spec(sandbox.enabled, os.getcwd()))


LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
HTTP_DEFAULT = "127.0.0.1:8000"  # what --list --json suggests; any free local port works


def _check_local(address: str) -> None:
    """Streamable HTTP servers run locally SHOULD bind only to localhost (streamable-http.mdx, "Security
    Warning"): serve binds nothing else."""
    host, _, port = address.rpartition(":")
    if host not in LOCAL_HOSTS or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--http takes a local address such as 127.0.0.1:8000 (host one of "
                         f"{', '.join(LOCAL_HOSTS)}), got {address!r}")


def _check_serves_http(example: model.Example, impl: str) -> None:
    if not example.serves_http(impl):
        raise UsageError(f"{example.name} ({impl}) does not serve Streamable HTTP: its example.toml does not list it "
                         f"under http; serve it over stdio (leave out --http), or add http = true to "
                         f"examples/{example.name}/example.toml once the server reads MCP_HTTP_ADDR")


def _sigterm_flag():
    """An event SIGTERM sets. The handler raises nothing: an exception in the middle of starting or reaping the
    sandbox could leave it running; the loops below poll the event, and every `finally` runs."""
    import signal
    import threading

    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: stopped.set())
    return stopped


def _serve_http(spec, address: str, sandbox, label: str, timeout: float) -> int:
    """The server in its sandbox, listening on the sandbox's loopback at the port of `address` (so an Origin it
    allows names it); each connection to `address` relayed to a socket made on that loopback (loopback.py). Until it
    exits, Ctrl-C or SIGTERM (143); 3 if it never listens within the example's timeout."""
    import subprocess

    from .run import http_client, http_relay, http_server, http_stream
    from .run.http import GRACE_SECONDS

    stopped = _sigterm_flag()
    if not sandbox.enabled:
        env = dict(spec.env, MCP_HTTP_ADDR=address)
        print(f"serving {label} at http://{address}/mcp, unsandboxed (Ctrl-C stops it)", file=sys.stderr)
        proc = subprocess.Popen(spec.argv, env=env)
        try:
            return _exit_or_stop(proc, stopped)
        finally:
            proc.terminate()
            proc.wait()
    port = int(address.rpartition(":")[2])
    try:
        listener = http_relay.listen(address)
    except OSError as exc:
        raise UsageError(f"cannot listen on {address}: {exc.strerror}; choose another port") from None
    server = http_server.ServerProcess(spec.with_env({"MCP_HTTP_ADDR": f"127.0.0.1:{port}"}), sandbox,
                                       capture=False)
    try:
        inside = http_stream.Address(server.loopback, "127.0.0.1", port)
        listening = http_client.wait_listening(inside, server.exited, timeout)
        if stopped.is_set():
            return 143
        if listening is not True:
            print(f"{label}: {listening}", file=sys.stderr)
            return EXIT_EXAMPLE_FAILED
        http_relay.relay(listener, inside)
        print(f"serving {label} at http://{address}/mcp from its sandbox (Ctrl-C stops it)", file=sys.stderr)
        return _exit_or_stop(server.proc, stopped)
    except KeyboardInterrupt:
        return 130
    finally:
        listener.close()
        server.stop(GRACE_SECONDS)


def _exit_or_stop(proc, stopped) -> int:
    """Wait for the server's exit status, or for SIGTERM (143), whichever comes first."""
    while proc.poll() is None and not stopped.is_set():
        stopped.wait(0.1)
    return 143 if stopped.is_set() else proc.returncode


def new(root: Path, name: str, lang: str, unsandboxed: bool, level: str | None = None,
        rerun: str = "") -> tuple[Path, model.Example, Outcome, Path | None]:
    """Create examples/NAME from the templates and verify it; its answer key is written when it verifies. With a
    level, the page stub docs/mcp/NAME.md and its listings too (planned before anything is written, written when the
    example verifies), then pasted."""
    from . import pipeline
    from .new import page_stub, scaffold
    from .fsutil import write_atomic
    from .examples.outcome import Status
    from .run.example import verify

    sandbox = open_sandbox(unsandboxed)
    scaffold.check_name(root, name)
    page = page_stub.plan(root, name, level, scaffold.ENTRIES[lang], rerun) if level else None
    folder = scaffold.create(root, name, lang)
    examples, _ = model.discover(root)
    example = next(e for e in examples if e.name == name)
    outcome = verify(root, example, native.Cache(root), check=False, repeat=1, validator=schema_validator(root),
                     sandbox=sandbox)
    if outcome.status == Status.FAILED:
        return folder, example, outcome, None
    write_atomic(example.answer_key, outcome.stdout)
    if page is None:
        return folder, example, outcome, None
    page_stub.write_all(page)
    pasted = pipeline.run(root, pipeline.Options(names=(name,), unsandboxed=unsandboxed))
    if pasted.failed or pasted.pastes.errors:
        from .report.text import fix_command

        raise PageError(f"written, but the example could not be pasted into it; run: {fix_command([name], root)}",
                        file=f"docs/mcp/{name}.md")
    return folder, example, outcome, next(iter(page))
