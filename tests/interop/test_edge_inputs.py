"""Two inputs every example server must survive the same way, driven through the tool's own runner.

* Arguments that fail a tool's inputSchema. The spec's tools page (2026-07-28, server/tools.mdx, "Error Handling")
  lists input validation errors as tool execution errors: a normal result with `isError: true`, whose text the model
  reads and can act on. Every tool of every implementation is called with arguments its own inputSchema rejects
  (as tools/list reports it), and every reply must be such a result: a missing required argument, a wrong type, a
  value outside an `enum` (an unknown unit: the other arguments taken from a call in the transcript, so the enum
  alone fails), a property the schema forbids. Unknown tools and malformed requests stay JSON-RPC errors; they are
  not tested here.
* A lone surrogate ("\\ud800") in a string. It is no character (RFC 8259, section 8.2: what a parser does with it is
  unpredictable). Each Python twin must answer every request, byte for byte as its Rust twin: U+FFFD where the Rust
  toy decodes it so, -32700 with id null where the Rust parser refuses the line. The SDK examples have no twin,
  and twins built on the SDKs (SDK_TWINS) do what their SDKs do; that is stated in a test of its own, so a change
  in an SDK shows up here first.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from support.interop_cases import ROOT, declared, entry, listing

from runex import sandboxing
from runex.run import stdio as conversation
from runex.wire import check as wire
from runex.wire import protocol, transcript

pytestmark = [pytest.mark.interop, pytest.mark.slow]

CAPABLE_META = {
    protocol.PROTOCOL_VERSION_KEY: protocol.PROTOCOL_VERSION,
    # elicitation declared, so a tool that needs it (failures' delete_note) gets as far as checking its arguments
    protocol.CLIENT_CAPABILITIES_KEY: {"elicitation": {}},
    protocol.CLIENT_INFO_KEY: {"name": "edge-tests", "version": "1.0.0"},
}
TIMEOUT = 30.0  # per reply; the SDK examples take seconds to start on a busy machine
REPLY_RULES = {"stdout-missing-reply", "stdout-duplicate-reply", "stdout-reply-without-request"}
LONE = "@@LONE-SURROGATE@@"  # a placeholder, replaced by the JSON escape \ud800 once the line is written


def lines_of(texts: list[str]) -> list[transcript.TranscriptLine]:
    return [transcript.classify(number, text.encode("utf-8"), "edge")[0] for number, text in enumerate(texts, 1)]


def talk(impl: dict, texts: list[str]) -> conversation.RunResult:
    if impl.get("error"):
        pytest.fail(f"{impl['entry']} does not build:\n{impl['error']}")
    # The tool's own runner, talking to `run_examples.py serve`, which starts the server in the same sandbox a check
    # uses; the runner itself need not sandbox that command (it is the tool), so it runs it as --unsandboxed would.
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8", TZ="UTC")
    return conversation.converse(lambda home: sandboxing.Spec(list(impl["serve_command"]), env=env), lines_of(texts),
                                 timeout=TIMEOUT, max_output=1 << 20, sandbox=sandboxing.Sandbox(enabled=False))


def request(id_: object, method: str, **params) -> str:
    message = {"jsonrpc": "2.0", "id": id_, "method": method, "params": {"_meta": CAPABLE_META, **params}}
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def replies(stdout: bytes) -> dict:
    out = {}
    for raw in stdout.splitlines():
        try:
            message = json.loads(raw)
        except ValueError:
            continue  # println-trap's stray line: not a reply
        if isinstance(message, dict) and ("result" in message or "error" in message):
            out[message.get("id")] = message
    return out


# ---- arguments that fail the inputSchema ---------------------------------------------------------------------


def outside(values: list) -> object:
    """A value of the same JSON type as an enum's members that is none of them: an unknown unit, say."""
    if all(isinstance(v, str) for v in values):
        return "not-" + "-or-".join(values)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return max(values) + 1
    return {"not": "a member"}


def outside_an_enum(schema: dict, valid: dict) -> list[tuple[str, dict]]:
    """The first enum property given a value outside its enum, the other arguments as a valid call gives them, so
    the enum alone is what fails the schema (and not a missing required argument the server checks first)."""
    for name, spec in (schema.get("properties") or {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("enum"), list) and spec["enum"]:
            return [(f"{name!r} outside its enum {spec['enum']}", {**valid, name: outside(spec["enum"])})]
    return []


def violating_arguments(schema: dict, valid: dict | None = None) -> list[tuple[str, dict]]:
    """Argument objects the schema rejects, each with what is wrong with it. `valid`: arguments a call in the
    example's transcript gave this tool, the base for the enum case."""
    found = outside_an_enum(schema, valid or {})
    required = schema.get("required") or []
    properties = schema.get("properties") or {}
    if required:
        found.append((f"missing required {required[0]!r}", {}))
    wrong = {"string": 12345, "integer": "not a number", "number": "not a number", "boolean": "yes",
             "object": "not an object", "array": "not an array"}
    for name, spec in properties.items():
        if isinstance(spec, dict) and spec.get("type") in wrong:
            found.append((f"{name!r} of the wrong type", {name: wrong[spec["type"]]}))
            break
    if schema.get("additionalProperties") is False:
        found.append(("a property the schema does not allow", {"not_in_the_schema": 1}))
    return found


def calls_tools(example: dict) -> bool:
    text = (ROOT / example["transcript"]).read_text(encoding="utf-8", errors="replace")
    return '"method":"tools/call"' in text


def transcript_arguments(example: dict, root: Path = ROOT) -> dict[str, dict]:
    """Tool name -> the arguments of the first call of it in the example's transcript (ones the server accepts)."""
    found = {}
    for raw in (root / example["transcript"]).read_bytes().splitlines():
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        params = message.get("params") if isinstance(message, dict) else None
        if isinstance(params, dict) and message.get("method") == "tools/call" and isinstance(params.get("arguments"),
                                                                                                dict):
            found.setdefault(params.get("name"), params["arguments"])
    return found


TOOL_CASES = [(example, impl) for example in declared() if calls_tools(example)
              for impl in example["implementations"]]


@pytest.mark.parametrize("example, impl", TOOL_CASES, ids=[f"{e['name']}/{i['name']}" for e, i in TOOL_CASES])
def test_arguments_that_fail_the_input_schema_get_a_result_with_is_error(example, impl):
    example, impl = entry(example["name"], impl["name"])
    wrong = schema_failures(example, impl)
    assert not wrong, (f"{impl['entry']}: {SCHEMA_RULE}:\n  " + "\n  ".join(wrong))


SCHEMA_RULE = ("arguments that fail the inputSchema must get a result with isError true (a tool execution error the "
               "model can read and correct), not a JSON-RPC error; see the rules table in "
               "docs/contributing/adding-an-example.md")


def schema_failures(example: dict, impl: dict, root: Path = ROOT) -> list[str]:
    """Each call with arguments its tool's inputSchema rejects that did not get an isError result, with the reply."""
    listed = replies(talk(impl, [request(1, "tools/list")]).stdout).get(1, {})
    tools = listed.get("result", {}).get("tools") or []
    assert tools, f"{example['name']} calls tools in its transcript but tools/list listed none: {listed}"
    texts, asked = [], {}
    valid = transcript_arguments(example, root)
    for tool in tools:
        for why, arguments in violating_arguments(tool.get("inputSchema") or {}, valid.get(tool["name"])):
            id_ = f"bad-{len(texts) + 1}"
            texts.append(request(id_, "tools/call", name=tool["name"], arguments=arguments))
            asked[id_] = f"{tool['name']} with {why}: {json.dumps(arguments)}"
    assert texts, f"no tool of {example['name']} has an inputSchema that any arguments can fail"
    run = talk(impl, texts)
    assert run.failure is None, f"{impl['entry']}: {run.failure}\n{run.stderr.decode('utf-8', 'replace')[-2000:]}"
    got = replies(run.stdout)
    wrong = []
    for id_, what in asked.items():
        reply = got.get(id_, {})
        result = reply.get("result")
        if not (isinstance(result, dict) and result.get("isError") is True and result.get("content")):
            wrong.append(f"{what}\n    got {json.dumps(reply, ensure_ascii=False)[:400]}")
    return wrong


UNIT_SERVER = '''
UNITS = ["C", "F"]
TOOL = {"name": "convert", "inputSchema": {"type": "object", "required": ["degrees", "unit"],
        "properties": {"degrees": {"type": "number"}, "unit": {"type": "string", "enum": UNITS}}}}
for line in sys.stdin:
    msg = json.loads(line)
    if msg["method"] == "tools/list":
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete", "tools": [TOOL], "ttlMs": 0,
                                                              "cacheScope": "public"}})
        continue
    args = msg["params"].get("arguments") or {}
    if "unit" in args and args["unit"] not in UNITS:  # the slip: an unknown unit as a protocol error
        send({"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32602, "message": "unknown unit"}})
    elif not isinstance(args.get("degrees"), (int, float)) or "unit" not in args:
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete", "isError": True,
                                                              "content": [{"type": "text", "text": "bad arguments"}]}})
    else:
        send({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete",
                                                              "content": [{"type": "text", "text": "ok"}]}})
'''


def test_an_unknown_enum_value_answered_with_a_json_rpc_error_is_caught(tmp_path):
    """The slip the enum case is for: a tool that checks its unit against an enum and answers an unknown one with
    -32602, while every other bad argument gets isError. Only the enum case finds it, and it names the case."""
    from support.tool_repos import jsonl, make_repo, req, server

    calls = jsonl(req(1), req(2, "tools/call", name="convert", arguments={"degrees": 100, "unit": "C"}))
    root = make_repo(tmp_path, {"units": {"server.py": server(UNIT_SERVER), "transcript.jsonl": calls}})
    shutil.copytree(ROOT / "tools", root / "tools", ignore=shutil.ignore_patterns("__pycache__"))  # its own serve
    example, impl = entry("units", "python", root=root)
    wrong = schema_failures(example, impl, root)
    assert len(wrong) == 1, wrong
    assert wrong[0].startswith("convert with 'unit' outside its enum ['C', 'F']: "
                               '{"degrees": 100, "unit": "not-C-or-F"}'), wrong
    assert '"code": -32602' in wrong[0], wrong


# ---- a lone surrogate ---------------------------------------------------------------------------------------------


def with_lone_surrogates(message: dict) -> dict | None:
    """A copy of a request with a lone surrogate in each string argument (or in its uri, or its client's name)."""
    copied = copy.deepcopy(message)
    params = copied.get("params")
    if not isinstance(params, dict):
        return None

    def spoil(value):
        if isinstance(value, str):
            return value + LONE
        if isinstance(value, dict):
            return {key: spoil(item) for key, item in value.items()}
        if isinstance(value, list):
            return [spoil(item) for item in value]
        return value

    arguments = params.get("arguments")
    if isinstance(arguments, dict) and spoil(arguments) != arguments:
        params["arguments"] = spoil(arguments)
    elif isinstance(params.get("uri"), str):
        params["uri"] = spoil(params["uri"])
    else:
        info = (params.get("_meta") or {}).get("io.modelcontextprotocol/clientInfo")
        if not (isinstance(info, dict) and isinstance(info.get("name"), str)):
            return None
        info["name"] = spoil(info["name"])
    return copied


def surrogate_transcript(example: dict) -> list[str]:
    """The example's own transcript, each tools/call, prompts/get and resources/read followed by a spoiled copy,
    and one request at the end: a server that died on a surrogate leaves it unanswered."""
    texts = []
    raw_lines = (ROOT / example["transcript"]).read_bytes().split(b"\n")
    for number, raw in enumerate([r for r in raw_lines if r], start=1):
        texts.append(raw.decode("utf-8"))
        line = transcript.classify(number, raw, "edge")[0]
        if line.kind != "request" or line.method not in ("tools/call", "prompts/get", "resources/read"):
            continue
        spoiled = with_lone_surrogates(line.message)
        if spoiled is not None:
            spoiled["id"] = f"lone-surrogate-{number}"
            texts.append(json.dumps(spoiled, separators=(",", ":"), ensure_ascii=False).replace(LONE, "\\ud800"))
    texts.append(request("after-the-surrogates", "server/discover"))
    return texts


# Twins built on the SDKs (rmcp and the mcp package) both drop such a line without a reply, as
# test_the_sdks_drop_a_line_with_a_lone_surrogate_without_a_reply_and_read_on states for each SDK.
SDK_TWINS = {"authorization", "conformance-reference", "input-required", "sse-progress", "streamable-http"}
TWIN_CASES = [example for example in declared()
              if {"python"} < {impl["name"] for impl in example["implementations"]}
              and example["name"] not in SDK_TWINS]


@pytest.mark.parametrize("example", TWIN_CASES, ids=[e["name"] for e in TWIN_CASES])
def test_every_python_twin_survives_a_lone_surrogate_as_its_rust_twin_does(example):
    example, _ = entry(example["name"])
    texts = surrogate_transcript(example)
    assert any("\\ud800" in text for text in texts), f"nothing in {example['name']}'s transcript to spoil"
    lines = lines_of(texts)
    outputs = {}
    for impl in example["implementations"]:
        run = talk(impl, texts)
        assert run.failure is None, (f"{impl['entry']} ({impl['name']}) did not survive a lone surrogate: "
                                     f"{run.failure}\n{run.stderr.decode('utf-8', 'replace')[-2000:]}")
        problems = [str(p) for p in wire.check_stdout(run.stdout, lines, "stdout", "transcript")
                    if p.rule in REPLY_RULES]
        assert not problems, f"{impl['entry']}: not every request got its one reply:\n" + "\n".join(problems)
        outputs[impl["name"]] = run.stdout
    python = outputs.pop("python")
    for name, other in outputs.items():
        assert python == other, (f"{example['name']}: the python twin and the {name} twin answer a lone surrogate "
                                 f"differently:\n{python.decode('utf-8', 'replace')}\n---\n"
                                 f"{other.decode('utf-8', 'replace')}")


SDK_EXAMPLES = ["python-sdk", "rmcp-server"]


@pytest.mark.parametrize("name", SDK_EXAMPLES)
def test_the_sdks_drop_a_line_with_a_lone_surrogate_without_a_reply_and_read_on(name):
    """Stated, not endorsed: both SDKs fail to parse the line and send nothing for it, neither a reply with its id
    nor a -32700 with id null, then answer the next request. A client waiting for that reply waits until its own
    timeout. If an SDK starts answering, this test fails and the pages that describe the SDK need a look."""
    example = next(e for e in listing()["examples"] if e["name"] == name)
    impl = example["implementations"][0]
    if impl.get("error"):
        pytest.fail(f"{impl['entry']} does not build:\n{impl['error']}")
    spoiled = request("spoiled", "tools/call", name="shout", arguments={"text": "half a crab: " + LONE})
    proc = subprocess.Popen(impl["command"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            cwd=ROOT)
    try:
        proc.stdin.write((spoiled.replace(LONE, "\\ud800") + "\n" + request("next", "tools/list") + "\n").encode())
        proc.stdin.flush()
        seen = []
        deadline = time.monotonic() + TIMEOUT  # a guard against a hang, not a measurement
        while time.monotonic() < deadline:
            raw = proc.stdout.readline()
            if not raw:
                break
            seen.append(json.loads(raw))
            if seen[-1].get("id") == "next":
                break
        proc.stdin.close()
        seen += [json.loads(raw) for raw in proc.stdout.read().splitlines() if raw.strip()]
        proc.wait(timeout=TIMEOUT)
    finally:
        proc.kill()
        proc.wait()
    ids = [message.get("id", "(none)") for message in seen if "result" in message or "error" in message]
    assert "next" in ids, f"{name} did not answer the request after the spoiled line: {seen}"
    assert ids == ["next"], f"{name} now answers a line with a lone surrogate ({ids}): update this test and the pages"
