"""Done when: a deliberately broken copy of an example fails both the strict check and the real-client test.

Each test copies first-server (its Python twin; the Rust twin is left out so nothing compiles and the twins cannot
disagree) into a throwaway repository with tools/ and a page that pastes it, checks that the copy is green, makes
one break, and asserts that

* `run_examples.py --check --root COPY` fails and names the rule, the file and line, and the field; and
* `mcp.Client` over stdio, in both connect modes, fails with the client's own error naming the same fault.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from support import interop_client as ic
from support.interop_cases import MODES, ROOT, listing, run_tool

pytestmark = [pytest.mark.interop, pytest.mark.slow]

CANONICAL = "first-server"
PAGE = """# Scratch page

<!-- example-begin: {name}/server.py -->
<!-- example-end -->

<!-- example-begin: {name}/transcript.jsonl -->
<!-- example-end -->

<!-- example-begin: {name}/answer_key.jsonl -->
<!-- example-end -->
"""


def source_example() -> str:
    """first-server, or (while it is being written) any example with a Python server that runs alone."""
    if (ROOT / "examples" / CANONICAL / "server.py").is_file():
        return CANONICAL
    for folder in sorted((ROOT / "examples").iterdir()):
        if (folder / "server.py").is_file() and not (folder / "example.toml").exists():
            return folder.name
    pytest.fail("no example with a server.py to break: the broken-copy tests need one")


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, str]:
    """One green copy per module; every test breaks its own copy of it."""
    name = source_example()
    root = tmp_path_factory.mktemp("pristine") / "repo"
    shutil.copytree(ROOT / "tools", root / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    target = root / "examples" / name
    target.mkdir(parents=True)
    for file in ("server.py", "transcript.jsonl"):
        shutil.copy(ROOT / "examples" / name / file, target / file)
    (root / "docs").mkdir()
    (root / "docs" / "index.md").write_text(PAGE.format(name=name), encoding="utf-8")
    written = run_tool(root=root)  # writes the answer key and pastes the page
    assert written.returncode == 0, f"the unbroken copy does not verify:\n{written.stdout}\n{written.stderr}"
    checked = run_tool("--check", root=root)
    assert checked.returncode == 0, f"the unbroken copy is not green:\n{checked.stdout}\n{checked.stderr}"
    return root, name


@pytest.fixture
def copy(pristine, tmp_path) -> tuple[Path, str]:
    source, name = pristine
    root = tmp_path / "repo"
    shutil.copytree(source, root, symlinks=True)
    return root, name


def replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{path.name} no longer holds exactly one {old!r}: update this test's break"
    path.write_text(text.replace(old, new), encoding="utf-8")


def drop_ttl_ms(root: Path, name: str) -> None:
    """The tools/list result loses its ttlMs (the discover result keeps its own)."""
    server = root / "examples" / name / "server.py"
    text = server.read_text(encoding="utf-8")
    tools_at = text.index("TOOLS = {")
    ttl = text.index('"ttlMs":', tools_at)
    line_start, line_end = text.rindex("\n", 0, ttl) + 1, text.index("\n", ttl) + 1
    server.write_text(text[:line_start] + text[line_end:], encoding="utf-8")


def meta_beside_params(root: Path, name: str) -> int:
    """Move _meta out of params on the first tools/call line; returns that line's number."""
    transcript = root / "examples" / name / "transcript.jsonl"
    lines = transcript.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, start=1):
        message = json.loads(line)
        if message.get("method") == "tools/call":
            message["_meta"] = message["params"].pop("_meta")
            lines[number - 1] = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
            transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return number
    raise AssertionError("the transcript has no tools/call line")


def answer_notifications(root: Path, name: str) -> None:
    """The server writes an error reply (id null) to every notification instead of staying silent; the transcript
    gains one notification after its first line, a cancel naming no request of it (one naming an answered request
    would be a transcript-cancels-answered finding), so there is a notification to answer."""
    transcript = root / "examples" / name / "transcript.jsonl"
    lines = transcript.read_text(encoding="utf-8").splitlines()
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": "never-sent", "reason": "gets no reply"}}
    lines.insert(1, json.dumps(cancel, separators=(",", ":")))
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    server = root / "examples" / name / "server.py"
    text = server.read_text(encoding="utf-8")
    marker = 'if "id" not in message:'
    at = text.index(marker)
    indent = " " * (at - text.rindex("\n", 0, at) - 1)
    body = f"\n{indent}    return error(None, -32600, \"Invalid Request: a notification\")"
    server.write_text(text[:at + len(marker)] + body + text[at + len(marker):], encoding="utf-8")


def debug_print(root: Path, name: str) -> None:
    """A debug print() to stdout (flushed, as a developer chasing a bug would) in the dispatcher."""
    server = root / "examples" / name / "server.py"
    text = server.read_text(encoding="utf-8")
    marker = "def handle(text):"
    at = text.index(marker)
    body_at = text.index("\n    message = ", at) + 1
    line = '    print(f"debug: handling {text.strip()[:40]}", flush=True)\n'
    server.write_text(text[:body_at] + line + text[body_at:], encoding="utf-8")


def tool_check(root: Path) -> str:
    done = run_tool("--check", root=root)
    output = done.stdout + done.stderr
    assert done.returncode == 3, f"--check should fail the example (exit 3), got {done.returncode}:\n{output}"
    return output


def client_problems(root: Path, name: str) -> dict[str, list[str]]:
    example = next(e for e in listing(root)["examples"] if e["name"] == name)
    impl = next(i for i in example["implementations"] if i["name"] == "python")
    out = {}
    for mode in MODES:
        session = ic.drive(impl["serve_command"], example, root, mode)
        out[mode] = ic.verdict(session, example, root)
    return out


def assert_every_mode(problems: dict[str, list[str]], *needles: str) -> None:
    for mode, found in problems.items():
        assert any(all(n in p for n in needles) for p in found), (
            f"mode={mode!r}: expected a client failure mentioning {needles}, got:\n" + "\n".join(found))


def test_the_unbroken_copy_passes_both(copy):
    root, name = copy  # the fixture has already run --check on it
    assert client_problems(root, name) == {mode: [] for mode in MODES}


def test_dropping_ttl_ms_fails_both(copy):
    root, name = copy
    drop_ttl_ms(root, name)
    output = tool_check(root)
    assert f"examples/{name}/server.py (python): [stdout-" in output  # named at the server, not the answer key
    assert "[stdout-schema] stdout line 2: tools/list result: ttlMs missing" in output, output
    assert_every_mode(client_problems(root, name), "mcp client raised ValidationError", "ttlMs", "Field required")


def test_meta_beside_params_fails_both(copy):
    root, name = copy
    line = meta_beside_params(root, name)
    output = tool_check(root)
    assert f"examples/{name}/transcript.jsonl:{line}: [transcript-meta-beside-params]" in output, output
    assert_every_mode(client_problems(root, name), f"transcript line {line} (tools/call",
                      "_meta sits beside params; mcp.Client puts it inside them")


def test_answering_a_notification_fails_both(copy):
    root, name = copy
    answer_notifications(root, name)
    output = tool_check(root)
    assert f"examples/{name}/server.py (python): [stdout-" in output  # named at the server, not the answer key
    assert "[stdout-reply-without-request]" in output and "notifications get no reply" in output, output
    assert_every_mode(client_problems(root, name), "dropping response for unknown/late request id None")


def test_a_debug_print_on_stdout_fails_both(copy):
    root, name = copy
    debug_print(root, name)
    output = tool_check(root)
    lines = (root / "examples" / name / "server.py").read_text(encoding="utf-8").splitlines()
    at = next(n for n, line in enumerate(lines, 1) if 'print(f"debug: handling' in line)  # named at the print
    assert f"examples/{name}/server.py:{at} (python): [stdout-not-a-message] stdout line 1:" in output, output
    assert "debug: handling" in output
    assert_every_mode(client_problems(root, name), "mcp client could not read a stdout line",
                      "Invalid JSON", "debug: handling")


def add_ping(root: Path, name: str) -> int:
    """Append a well-formed ping request (a legacy method) to the transcript; returns its line number."""
    transcript = root / "examples" / name / "transcript.jsonl"
    lines = transcript.read_text(encoding="utf-8").splitlines()
    meta = next(json.loads(l)["params"]["_meta"] for l in lines if '"_meta"' in l)
    ping = {"jsonrpc": "2.0", "id": "ping-1", "method": "ping", "params": {"_meta": meta}}
    lines.append(json.dumps(ping, separators=(",", ":"), ensure_ascii=False))
    transcript.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


def declare(root: Path, name: str, rule: str, line: int) -> None:
    (root / "examples" / name / "example.toml").write_text(
        f'[[expected_violation]]\nrule = "{rule}"\nline = {line}\nreason = "sent on purpose, for this test"\n',
        encoding="utf-8")


def test_a_declared_break_is_exempt_from_that_rule_only(copy):
    root, name = copy
    line = add_ping(root, name)
    output = tool_check(root)
    assert (f"examples/{name}/transcript.jsonl:{line}: [transcript-schema] ping request: 'ping' is not a request "
            f"method in 2026-07-28") in output, output

    declare(root, name, "transcript-meta-missing", line)  # the wrong rule exempts nothing
    output = tool_check(root)
    assert f"transcript.jsonl:{line}: [transcript-schema]" in output, output

    declare(root, name, "transcript-schema", line)
    written = run_tool(root=root)
    assert written.returncode == 0, written.stdout + written.stderr
    checked = run_tool("--check", root=root)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # The client never sends the declared line, and everything else still matches the answer key.
    assert client_problems(root, name) == {mode: [] for mode in MODES}
