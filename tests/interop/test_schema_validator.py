"""The strict validator (tools/runex/schema/) on single messages: each finding names the field that is wrong."""

from __future__ import annotations

import subprocess
import sys

import pytest

from support.interop_cases import ROOT

from runex.schema import validator as schema
from runex.wire.protocol import (CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION, PROTOCOL_VERSION_KEY,
                                 SERVER_INFO_KEY)

META = {PROTOCOL_VERSION_KEY: PROTOCOL_VERSION, CLIENT_CAPABILITIES_KEY: {},
        CLIENT_INFO_KEY: {"name": "tests", "version": "1.0.0"}}
INFO = {SERVER_INFO_KEY: {"name": "s", "version": "1"}}


@pytest.fixture(scope="module")
def v():
    return schema.load_validator()


def test_it_is_built_once(v):
    assert schema.load_validator() is v


@pytest.mark.parametrize("method, result, findings", [
    ("tools/list", {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public", "_meta": INFO}, []),
    ("tools/list", {"resultType": "complete", "tools": [], "cacheScope": "public"}, ["ttlMs missing"]),
    ("tools/list", {"resultType": "complete", "tools": [], "ttlMs": "300000", "cacheScope": "public"},
     ['ttlMs: Input should be a valid integer (got "300000")']),  # the SDK's lax mode would take it
    ("tools/list", {"resultType": "complete", "tools": [{"name": "a", "inputSchema": {"type": "string"}}],
                    "ttlMs": 0, "cacheScope": "shared"},
     ["cacheScope: Input should be 'private' or 'public' (got \"shared\")",
      "tools[0].inputSchema.type: Input should be 'object' (got \"string\")"]),
    ("tools/call", {"resultType": "complete", "content": [{"type": "text"}]}, ["content[0].text missing"]),
    ("tools/call", {"resultType": "complete", "content": [{"type": "bogus"}]},
     ["content[0].type: Input should be 'text' or 'image' or 'audio' or 'resource_link' or 'resource' "
      "(got \"bogus\")"]),
    ("tools/call", {"resultType": "complete", "content": "oops"},  # the union's input_required arm would take it
     ["content: Input should be a valid list (got \"oops\")"]),
    ("tools/call", {"resultType": "complete", "content": [], "isError": 1},
     ["isError: Input should be a valid boolean (got 1)"]),
    ("tools/call", {"content": []}, ["resultType missing"]),
    ("tools/call", {"resultType": "done", "content": []},
     ['resultType "done" is not a 2026-07-28 result type ("complete" or "input_required"); a client must treat '
      'it as invalid']),
    ("tools/call", {"resultType": "input_required", "requestState": "x"}, []),
    ("tools/call", {"resultType": "input_required"},
     ["an input_required result needs inputRequests or requestState (at least one)"]),
    ("tools/list", {"resultType": "input_required", "requestState": "x"},
     ['resultType "input_required" is allowed only on prompts/get, resources/read, tools/call, not on tools/list']),
    ("server/discover", {"resultType": "complete", "capabilities": {}, "ttlMs": 0, "cacheScope": "public",
                         "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "s"}}},
     ["supportedVersions missing", '_meta["io.modelcontextprotocol/serverInfo"].version missing']),
    ("initialize", {"protocolVersion": "2025-11-25"},
     ["the 2026-07-28 schema defines no result for 'initialize'; a server answers a method it does not know with "
      "error -32601 (Method not found)"]),
])
def test_result_findings_name_the_field(v, method, result, findings):
    assert v.check_result(method, result) == findings


@pytest.mark.parametrize("error, findings", [
    ({"code": -32601, "message": "Method not found"}, []),
    ({"code": -32602, "message": "Unknown tool: x"}, []),
    ({"code": -32002, "message": "Resource not found"},
     ["code -32002 is retired (resource not found before 2026-07-28; use -32602) and must not be sent"]),
    ({"code": -32042, "message": "x"},
     ["code -32042 is retired (URL elicitation required in 2025-11-25; retired) and must not be sent"]),
    ({"code": -32050, "message": "x"},
     ["code -32050 is in -32020..-32099, reserved for the MCP spec, which defines only -32020, -32021 and "
      "-32022 there"]),
    ({"code": -32099, "message": "x"},
     ["code -32099 is in -32020..-32099, reserved for the MCP spec, which defines only -32020, -32021 and "
      "-32022 there"]),
    ({"code": -32019, "message": "legacy range, not reserved"}, []),
    ({"code": -32022, "message": "x", "data": {"supported": ["2026-07-28"], "requested": "2025-06-18"}}, []),
    ({"code": -32022, "message": "x"},
     ['data missing: -32022 carries data {"supported": [...], "requested": "..."}']),
    ({"code": -32022, "message": "x", "data": {"supported": "2026-07-28"}},
     ['data.supported must be a list of version strings, got "2026-07-28"', "data.requested missing"]),
    ({"code": -32021, "message": "x", "data": {"requiredCapabilities": {"elicitation": {}}}}, []),
    ({"code": -32021, "message": "x", "data": {}}, ["data.requiredCapabilities missing"]),
    ({"code": "1", "message": 2}, ['code must be an integer, got "1"', "message must be a string, got 2"]),
    ({"code": True, "message": "x"}, ["code must be an integer, got true"]),
    ("boom", ['error must be a JSON object, got "boom"']),
])
def test_error_shape_and_codes(v, error, findings):
    assert v.check_error(error) == findings


def test_requests(v):
    assert v.check_request("tools/call", {"_meta": META, "name": "add", "arguments": {"a": 1}}) == []
    assert v.check_request("tools/call", {"_meta": META}) == ["params.name missing"]
    assert v.check_request("tools/call", {"_meta": META, "name": "x", "arguments": [1]}) == [
        "params.arguments: Input should be a valid dictionary (got an array)"]
    # Faults the transcript-* rules own are theirs alone in the tool; a page (check_message) gets them all.
    assert v.check_request("tools/list", {}) == []
    assert v.check_request("tools/list", None) == []
    assert v.check_request("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}) == []
    assert v.check_message({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}) == [
        "tools/list request: params._meta missing"]
    caps_wrong = {**META, "io.modelcontextprotocol/clientCapabilities": []}
    assert v.check_request("tools/list", {"_meta": caps_wrong}) == [
        'params._meta["io.modelcontextprotocol/clientCapabilities"]: Input should be a valid dictionary or '
        'instance of ClientCapabilities (got an array)']


def test_methods_the_schema_does_not_know(v):
    [finding] = v.check_request("ping", {"_meta": META})
    assert finding.startswith("'ping' is not a request method in 2026-07-28 (a legacy method, removed in this "
                              "revision); if the example sends it on purpose, declare it in example.toml")
    [finding] = v.check_request("tools/lsit", {"_meta": META})
    assert "known: completion/complete, prompts/get" in finding


def test_notifications(v):
    assert v.check_notification("notifications/cancelled", {"requestId": 1, "reason": "stop"}) == []
    assert v.check_notification("notifications/cancelled", {}) == ["params.requestId missing"]
    assert v.check_notification("notifications/tools/list_changed", None) == []
    [finding] = v.check_notification("notifications/initialized", None)
    assert finding.startswith("'notifications/initialized' is not a 2026-07-28 notification")


def test_whole_messages(v):
    assert v.check_message({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "_meta": META}) == [
        "_meta sits beside params; it belongs inside them, as params._meta", "tools/list request: params missing"]
    assert v.check_message({"jsonrpc": "2.0", "id": 1, "result": {}, "error": {}}) == [
        "a response carries exactly one of result and error"]
    assert v.check_message({"jsonrpc": "1.0", "id": 1, "error": {"code": -32601, "message": "x"}}) == [
        'jsonrpc must be "2.0", got "1.0"']
    assert v.check_message({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete"}}) == [
        "cannot tell which request this result answers"]


def test_a_missing_schema_package_is_a_clear_error(tmp_path):
    """Without mcp_types the tool refuses to run (exit 2) and says how to set up, rather than checking less.

    The repository has one example whose messages no earlier run has judged (a fresh root has an empty verdict
    cache), so the tool must reach for the schema."""
    script = ("import sys; sys.modules['mcp_types'] = None;"
              "from runex import cli; sys.exit(cli.main(['--check', '--root', sys.argv[1]]))")
    example = tmp_path / "examples" / "ex"
    example.mkdir(parents=True)
    templates = ROOT / "tools" / "runex" / "new" / "templates"
    (example / "server.py").write_text((templates / "server.py").read_text())
    (example / "transcript.jsonl").write_text((templates / "transcript.jsonl").read_text())
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "mcp-types 2.3.0" in done.stderr and "make setup" in done.stderr, done.stderr
