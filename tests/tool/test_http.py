"""Streamable HTTP: the headers a client derives, the SSE reader, and whole runs against real and broken servers."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from runex.wire import http as wire_http
from runex.wire import http_headers
from support.repo import free_port
from support.tool_repos import HTTP_TWIN, SERVE, invoke, jsonl, make_repo, note, req, temp_files

# The spec's own examples (streamable-http.mdx, "Value Encoding").
@pytest.mark.parametrize("value, header", [
    ("us-west1", "us-west1"),
    ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
    (" padded ", "=?base64?IHBhZGRlZCA=?="),
    ("=?base64?abc?=", "=?base64?PT9iYXNlNjQ/YWJjPz0=?="),
    ("line\nbreak", "=?base64?bGluZQpicmVhaw==?="),
    (42, "42"),
    (True, "true"),
    (False, "false"),
    (None, None),
    (1.5, None),
])
def test_header_values_are_encoded_as_the_spec_says(value, header):
    assert http_headers.encode_value(value) == header


TOOLS = {"tools": [{"name": "forecast", "inputSchema": {"type": "object", "properties": {
    "region": {"type": "string", "x-mcp-header": "Region"}, "days": {"type": "integer", "x-mcp-header": "Days"},
    "note": {"type": "string"}}}}]}


def test_a_tools_call_mirrors_name_and_marked_arguments():
    message = json.loads(req(7, "tools/call", name="forecast", arguments={"region": "Kraków", "days": 3, "note": "x"}))
    headers = http_headers.derive(message, http_headers.header_params(TOOLS))
    assert headers == [("Accept", "application/json, text/event-stream"), ("Content-Type", "application/json"),
                       ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "forecast"),
                       ("Mcp-Param-Region", "=?base64?S3Jha8Ozdw==?="), ("Mcp-Param-Days", "3")]


def test_a_null_argument_sends_no_header_and_a_notification_still_names_the_revision():
    message = json.loads(req(7, "tools/call", name="forecast", arguments={"region": None}))
    assert not any(k.startswith("Mcp-Param") for k, _ in http_headers.derive(message, http_headers.header_params(TOOLS)))
    headers = dict(http_headers.derive(json.loads(note()), {}))
    assert headers["MCP-Protocol-Version"] == "2026-07-28" and headers["Mcp-Method"] == "notifications/cancelled"


def test_an_override_replaces_in_place_drops_and_adds():
    headers = [("Accept", "a"), ("Mcp-Method", "m"), ("Mcp-Name", "n")]
    assert http_headers.apply_override(headers, {"mcp-name": "wrong", "Origin": "http://evil.example"},
                                       ("Mcp-Method",)) == [("Accept", "a"), ("mcp-name", "wrong"),
                                                            ("Origin", "http://evil.example")]


def test_sse_events_are_read_in_order_with_comments_and_multiline_data():
    text = ": ping\n\nevent: message\ndata: {\"a\":1}\n\ndata:{\"b\":\ndata: 2}\r\n\r\nid: 3\n"
    assert wire_http.sse_data(text) == ['{"a":1}', '{"b":\n2}']


def test_messages_that_differ_only_in_escapes_are_the_same_but_key_order_is_not():
    assert wire_http.same_message(b'{"t":"\\u00f3"}', '{"t":"ó"}'.encode()) == "escapes"
    assert wire_http.same_message(b'{"a":1,"b":2}', b'{"b":2,"a":1}') is False


# A real server: the `mcp` package (MCPServer), over stdio without MCP_HTTP_ADDR, else its Streamable HTTP app on
# uvicorn at that address.
SDK_SERVER = textwrap.dedent('''\
    import os
    from typing import Annotated
    from mcp.server import MCPServer
    from pydantic import Field

    mcp = MCPServer("http-test", version="1.0.0")

    @mcp.tool(description="Echo the text back.")
    def echo(text: str) -> str:
        return text

    @mcp.tool(description="The weather in a region.")
    def forecast(region: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Region"})]) -> str:
        return "sunny in " + region

    if __name__ == "__main__":
        address = os.environ.get("MCP_HTTP_ADDR")
        if address:
            import uvicorn
            host, port = address.rsplit(":", 1)
            app = mcp.streamable_http_app(json_response=True, host=host)
            uvicorn.run(app, host=host, port=int(port), log_level="warning")
        else:
            mcp.run()
''')

SDK_TRANSCRIPT = jsonl(
    req(1, "tools/list"),
    req(2, "tools/call", name="echo", arguments={"text": "Zażółć"}),
    req(3, "tools/call", name="forecast", arguments={"region": "Kraków"}),
    note(requestId=99, reason="nothing to cancel"),
    req(4, "tools/call", name="echo", arguments={"text": "plain"}),
)

SDK_TOML = textwrap.dedent('''\
    timeout = 60
    http = true

    [[http_override]]
    line = 3
    headers = { "Mcp-Param-Region" = "Warszawa" }
    reason = "a header that does not mirror the body: 400 and -32020"

    [[http_override]]
    line = 5
    headers = { "Origin" = "http://evil.example" }
    reason = "a foreign Origin: 403"
''')


def _records(root, impl="python"):
    return [json.loads(l) for l in (root / f"examples/srv/http.{impl}.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_the_sdk_server_over_http_is_held_to_the_stdio_answer_key(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": SDK_SERVER, "transcript.jsonl": SDK_TRANSCRIPT,
                                        "example.toml": SDK_TOML}})
    first = invoke(root)
    assert first.returncode == 0, first.out
    records = _records(root)
    by_line = {r.get("line", r.get("probe")): r for r in records}
    assert by_line[1]["request"] == {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}
    assert by_line[2]["status"] == 200 and "json" in by_line[2]  # ó escaped in the HTTP body: recorded, not hidden
    assert by_line[3]["status"] == 400 and '"code":-32020' in by_line[3]["body"]
    assert by_line[4]["status"] == 202
    assert by_line[5]["status"] == 403
    assert by_line["GET"]["status"] == 405 and by_line["GET"]["headers"] == {"allow": "POST"}
    again = invoke(root, "--check")
    assert again.returncode == 0, again.out
    (root / "examples/srv/http.python.jsonl").write_text("{}\n")
    drifted = invoke(root, "--check")
    assert drifted.returncode == 5 and "examples/srv/http.python.jsonl" in drifted.out, drifted.out


TRANSCRIPT = jsonl(req(1), note(), req(2))


def _broken(tmp_path, broken: str, toml: str = "http = true\n", serve: str = SERVE):
    source = HTTP_TWIN + textwrap.dedent(broken) + serve
    root = make_repo(tmp_path, {"srv": {"server.py": source, "transcript.jsonl": TRANSCRIPT, "example.toml": toml}})
    return root, invoke(root)


def test_a_plain_http_server_that_keeps_the_rules_is_written(tmp_path):
    root, proc = _broken(tmp_path, "")
    assert proc.returncode == 0, proc.out
    assert [r["status"] for r in _records(root)] == [200, 202, 200, 405]


def test_a_notification_answered_with_200_breaks_the_202_rule_at_its_line(tmp_path):
    _, proc = _broken(tmp_path, '''
        BROKEN = lambda msg, status, body: (200, body) if "id" not in msg else (status, body)
        ''')
    assert proc.returncode == 3, proc.out
    assert "examples/srv/transcript.jsonl:2: [http-notification-not-202]" in proc.out


def test_an_http_rule_broken_on_a_line_is_named_before_the_transports_are_compared(tmp_path):
    _, proc = _broken(tmp_path, '''
        BROKEN = lambda msg, status, body: (200, '{"jsonrpc":"2.0","id":0,"result":{}}') if "id" not in msg else (
            status, body)
        ''')
    assert proc.returncode == 3, proc.out
    assert "examples/srv/transcript.jsonl:2: [http-notification-not-202]" in proc.out, proc.out
    assert "transports disagree" not in proc.out, proc.out


def test_an_unknown_method_error_with_200_breaks_the_status_rule(tmp_path):
    _, proc = _broken(tmp_path, '''
        def BROKEN(msg, status, body):
            if msg.get("id") == 2:
                return 200, json.dumps({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}})
            return status, body
        ''', serve=SERVE.replace('sys.stdout.write(json.dumps(reply(msg)',
                                 'sys.stdout.write(json.dumps(reply(msg) if msg["id"] != 2 else '
                                 '{"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}}'))
    assert proc.returncode == 3, proc.out
    assert "transcript.jsonl:3: [http-error-status]" in proc.out and "spec gives it 404" in proc.out


def test_other_messages_over_http_than_over_stdio_is_a_disagreement_at_the_line(tmp_path):
    _, proc = _broken(tmp_path, '''
        BROKEN = lambda msg, status, body: (status, body.replace('"public"', '"private"'))
        ''')
    assert proc.returncode == 3, proc.out
    assert "examples/srv/transcript.jsonl:1: transports disagree" in proc.out
    assert '+{"jsonrpc":"2.0","id":1,' in proc.out and "private" in proc.out


def test_a_server_that_never_listens_is_named_with_the_variable_it_must_read(tmp_path):
    _, proc = _broken(tmp_path, "", toml="timeout = 2\nhttp = true\n",
                      serve=SERVE.replace("HTTPServer((host, int(port)), Handler).serve_forever()", "pass"))
    assert proc.returncode == 3, proc.out
    assert "over HTTP" in proc.out and ("MCP_HTTP_ADDR" in proc.out or "exited" in proc.out), proc.out


def test_a_foreign_origin_that_is_served_breaks_the_origin_rule(tmp_path):
    toml = ('http = true\n[[http_override]]\nline = 1\nheaders = { Origin = "http://evil.example" }\n'
            'reason = "DNS rebinding"\n')
    _, proc = _broken(tmp_path, "", toml=toml)
    assert proc.returncode == 3, proc.out
    assert "transcript.jsonl:1: [http-foreign-origin]" in proc.out


def test_an_http_override_without_http_names_its_table(tmp_path):
    toml = 'timeout = 5\n\n[[http_override]]\nline = 1\ndrop = ["Mcp-Method"]\nreason = "r"\n'
    _, proc = _broken(tmp_path, "", toml=toml)
    assert proc.returncode != 0
    assert "examples/srv/example.toml:3" in proc.out and "needs http = true" in proc.out


def test_an_http_record_left_over_is_named(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "transcript.jsonl": TRANSCRIPT,
                                        "http.python.jsonl": "{}\n"}})
    proc = invoke(root)
    assert proc.returncode != 0
    assert "examples/srv/http.python.jsonl" in proc.out and "left over" in proc.out


def test_serve_http_reaches_the_sandboxed_server_through_the_relay(tmp_path):
    import subprocess
    import sys
    import time
    import urllib.request

    from support.tool_repos import TOOLS

    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "example.toml": "http = true\n"}})
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(TOOLS / "run_examples.py"), "serve", "srv", "--http",
                             f"127.0.0.1:{port}", "--root", str(root)], stderr=subprocess.PIPE)
    try:
        body, deadline = None, time.monotonic() + 30
        while body is None and time.monotonic() < deadline:
            request = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=req(5).encode(), method="POST",
                                             headers={"Content-Type": "application/json"})
            try:
                body = json.loads(urllib.request.urlopen(request, timeout=5).read())
            except OSError:
                time.sleep(0.1)
        assert body is not None and body["id"] == 5 and body["result"]["tools"] == []
        said = proc.stderr.readline()  # "serving" comes once the server listens: at most a poll after this reply
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    assert b"from its sandbox" in said


def test_serve_http_binds_only_a_local_address(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "example.toml": "http = true\n"}})
    proc = invoke(root, "serve", "srv", "--http", "0.0.0.0:8000")
    assert proc.returncode == 2 and "local address" in proc.out


def test_http_headers_go_on_every_request_and_http_get_paths_are_recorded(tmp_path):
    toml = ('http = true\nhttp_headers = { Authorization = "Bearer test-token" }\n'
            'http_get = ["/.well-known/oauth-protected-resource/mcp"]\n')
    root, proc = _broken(tmp_path, '''
        def BROKEN(msg, status, body):
            if REQUEST_HEADERS.get("Authorization") != "Bearer test-token":
                return 500, "no token"
            return status, body
        GETS["/.well-known/oauth-protected-resource/mcp"] = lambda headers: (
            200, {"Content-Type": "application/json"},
            json.dumps({"resource": "/mcp", "token": headers.get("Authorization")}))
        ''', toml=toml)
    assert proc.returncode == 0, proc.out
    records = _records(root)
    assert all(r["request"].get("Authorization") == "Bearer test-token" for r in records)
    metadata = next(r for r in records if r.get("get") == "/.well-known/oauth-protected-resource/mcp")
    assert metadata["status"] == 200 and json.loads(metadata["body"])["token"] == "Bearer test-token"
    assert records[-1].get("probe") == "GET"


def test_a_401_without_a_challenge_breaks_its_rule(tmp_path):
    toml = ('http = true\nhttp_headers = { Authorization = "Bearer t" }\n\n'
            '[[http_override]]\nline = 1\ndrop = ["Authorization"]\nreason = "no token"\n')
    _, proc = _broken(tmp_path, '''
        def BROKEN(msg, status, body):
            return (401, "") if "Authorization" not in REQUEST_HEADERS else (status, body)
        ''', toml=toml)
    assert proc.returncode == 3, proc.out
    assert "transcript.jsonl:1: [http-401-without-challenge]" in proc.out



def _sse_exchange(request: dict, *messages: dict) -> wire_http.Exchange:
    from runex.wire.transcript import classify

    line, _ = classify(1, json.dumps(request).encode(), "t")
    body = "".join(f"event: message\ndata: {json.dumps(m)}\n\n" for m in messages).encode()
    exchange = wire_http.Exchange(line, "POST", [], [], 200, [("content-type", "text/event-stream")], body)
    wire_http.read_body(exchange)
    return exchange


def test_progress_with_the_request_token_may_precede_the_reply_on_its_stream():
    request = json.loads(req(1, "tools/call", name="count", arguments={}))
    request["params"]["_meta"]["progressToken"] = "t1"
    progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t1", "progress": 1}}
    reply = {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}}
    assert wire_http.check([_sse_exchange(request, progress, reply)], "t") == []
    other = dict(progress, params={"progressToken": "t2", "progress": 1})
    changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {}}
    found = wire_http.check([_sse_exchange(request, other, changed, reply)], "t")
    assert [p.rule for p in found] == ["http-unrelated-notification"] * 2


def test_a_stream_whose_last_event_is_not_the_response_breaks_the_end_rule():
    request = json.loads(req(1, "tools/call", name="count", arguments={}))
    reply = {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}}
    log = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "late"}}
    assert [p.rule for p in wire_http.check([_sse_exchange(request, reply, log)], "t")] == ["http-stream-end"]


def test_a_server_listening_on_every_interface_is_named(tmp_path):
    _, proc = _broken(tmp_path, "", serve=SERVE.replace("HTTPServer((host, int(port))", 'HTTPServer(("0.0.0.0", int(port))'))
    assert proc.returncode == 3, proc.out
    assert "listens on every interface" in proc.out and "examples/srv/server.py" in proc.out


def test_a_flooding_response_is_cut_at_max_output_bytes(tmp_path):
    _, proc = _broken(tmp_path, '''
        BROKEN = lambda msg, status, body: (status, body + " " * 3000) if "id" in msg else (status, body)
        ''', toml="http = true\nmax_output_bytes = 2000\n")
    assert proc.returncode == 3, proc.out
    assert "flood: the response to request 1 is over 2000 bytes" in proc.out


def test_a_stream_that_never_ends_is_a_hang_within_the_timeout(tmp_path):
    root, proc = _broken(tmp_path, '''
        import time

        def BEFORE(handler, msg):
            if msg.get("id") != 2:
                return False
            handler.send_response(200)
            handler.send_header("Content-Type", "text/event-stream")
            handler.end_headers()
            handler.wfile.write(b": still working\\n\\n")
            handler.wfile.flush()
            time.sleep(3600)
        ''', toml="timeout = 2\nhttp = true\n")
    assert proc.returncode == 3, proc.out
    assert ("the response to request 3 began (status 200, text/event-stream) but did not end within 2 s"
            in proc.out and "(transcript line 3)" in proc.out), proc.out


def test_a_reply_with_another_content_type_breaks_its_rule(tmp_path):
    plain = HTTP_TWIN.replace('self.send_header("Content-Type", "application/json")', 'self.send_header("Content-Type", "text/plain")')
    assert plain != HTTP_TWIN
    root = make_repo(tmp_path, {"srv": {"server.py": plain + SERVE, "transcript.jsonl": TRANSCRIPT,
                                        "example.toml": "http = true\n"}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "transcript.jsonl:1: [http-content-type]" in proc.out


def test_list_json_gives_the_http_form_of_an_http_example(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "example.toml": "http = true\n"},
                                "plain": {"server.py": HTTP_TWIN + SERVE}})
    listing = json.loads(invoke(root, "--list", "--json").out)
    impls = {e["name"]: e["implementations"][0] for e in listing["examples"]}
    assert impls["srv"]["http"]["url"] == "http://127.0.0.1:8000/mcp"
    assert impls["srv"]["http"]["serve_command"][-2:] == ["--http", "127.0.0.1:8000"]
    assert "http" not in impls["plain"]


def test_a_request_whose_params_are_not_an_object_still_gets_its_stream_judged():
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ["not", "an", "object"]}
    progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t1", "progress": 1}}
    reply = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "Invalid params"}}
    assert [p.rule for p in wire_http.check([_sse_exchange(request, progress, reply)], "t")] == \
        ["http-unrelated-notification"]


def test_http_env_reaches_the_server_over_http_only_and_an_allowed_origin_must_be_served(tmp_path):
    toml = ('http = true\nhttp_env = { MCP_PUBLIC_URL = "https://mcp.example.com" }\n\n[[http_override]]\nline = 1\n'
            'headers = { Host = "mcp.example.com", Origin = "https://mcp.example.com" }\norigin_allowed = true\n'
            'reason = "through the proxy"\n')
    served = '''
        def BROKEN(msg, status, body):
            if os.environ.get("MCP_PUBLIC_URL") != "https://mcp.example.com":
                return 500, "no public URL in the environment"
            return status, body
        '''
    root, proc = _broken(tmp_path, served, toml=toml)
    assert proc.returncode == 0, proc.out
    assert _records(root)[0]["status"] == 200
    refused = served.replace("return status, body", 'return (403, "") if REQUEST_HEADERS.get("Origin") else (status, body)')
    _, proc = _broken(tmp_path / "refused", refused, toml=toml)
    assert proc.returncode == 3, proc.out
    assert "transcript.jsonl:1: [http-allowed-origin]" in proc.out, proc.out


@pytest.mark.parametrize("toml, said", [
    ('http = true\nhttp_env = { "lower" = "x" }\n', "http_env is a table of environment variable names"),
    ('http = true\nhttp_env = { MCP_HTTP_ADDR = "0.0.0.0:1" }\n', "cannot set MCP_HTTP_ADDR"),
    ('http_env = { A = "x" }\n', "http_env needs http = true"),
    ('http = true\n[[http_override]]\nline = 1\nheaders = { Host = "h" }\norigin_allowed = true\nreason = "r"\n',
     "needs an Origin in headers"),
])
def test_http_env_and_origin_allowed_are_refused_at_their_line_when_malformed(tmp_path, toml, said):
    _, proc = _broken(tmp_path, "", toml=toml)
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml:" in proc.out and said in proc.out, proc.out


def test_an_http_view_with_a_line_range_shows_those_lines_and_the_get_after_them(tmp_path):
    from support.tool_repos import page

    root = make_repo(tmp_path, {"srv": {"server.py": HTTP_TWIN + SERVE, "transcript.jsonl": TRANSCRIPT,
                                        "example.toml": "http = true\n"}},
                     pages={"examples.md": page("srv/transcript.jsonl", "srv/http#2-3")})
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    text = (root / "docs/examples.md").read_text()
    rows = [l for l in text.split("srv/http#2-3", 1)[1].splitlines() if l.startswith("| ") and "---" not in l][1:]
    assert [r.split("|")[1].strip() for r in rows] == ["2 `notifications/cancelled`", "3 `tools/list`",
                                                       "GET `/mcp` (no body)"], rows
    (root / "docs/examples.md").write_text(page("srv/transcript.jsonl", "srv/http#4-9"))
    wrong = invoke(root)
    assert wrong.returncode == 4 and "docs/examples.md" in wrong.out and "lines 1 to 3" in wrong.out, wrong.out


# Broken SSE streams. Each answers request 2 (transcript line 3) with text/event-stream and then misbehaves; each
# must fail with an error naming the example's file and line, write nothing, and leave no process behind (the
# server starts a `sleep` with an odd argument first, looked for in /proc afterwards).
SSE_START = '''
    import subprocess, time

    def stream(handler, msg):
        subprocess.Popen(["sleep", "4242.17"])
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        return handler.wfile
    '''


def _sse_broken(tmp_path, then: str, toml: str = "timeout = 2\nhttp = true\nmax_output_bytes = 4000\n"):
    before = textwrap.dedent(SSE_START) + textwrap.dedent('''
        def BEFORE(handler, msg):
            if msg.get("id") != 2:
                return False
            out = stream(handler, msg)
        ''') + textwrap.indent(textwrap.dedent(then), "    ") + "    return True\n"
    root, proc = _broken(tmp_path, before, toml=toml)
    assert proc.returncode == 3, proc.out
    assert "(transcript line 3)" in proc.out or "transcript.jsonl:3" in proc.out, proc.out
    written = [p for p in ("answer_key.jsonl", "http.python.jsonl") if (root / "examples/srv" / p).exists()]
    assert written == [] and temp_files(root) == [], (written, temp_files(root))
    assert not _processes_with("4242.17"), "a process of the broken server outlived its run"
    return proc


def _processes_with(marker: str) -> list[str]:
    found = []
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            text = cmdline.read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue  # the process ended while we looked
        if marker in text:
            found.append(text)
    return found


def test_an_sse_stream_that_keeps_sending_keep_alives_and_never_ends_is_stopped_at_the_timeout(tmp_path):
    proc = _sse_broken(tmp_path, '''
        for _ in range(3600):
            out.write(b": ping\\n\\n")
            out.flush()
            time.sleep(0.3)
        ''')
    assert "the response to request 3 began (status 200, text/event-stream) but did not end within 2 s" in proc.out
    assert "examples/srv/server.py" in proc.out, proc.out


def test_an_sse_stream_that_floods_is_cut_at_max_output_bytes(tmp_path):
    proc = _sse_broken(tmp_path, '''
        note = b'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\\n\\n'
        while True:
            out.write(note * 50)
        ''')
    assert "flood: the response to request 3 is over 4000 bytes (transcript line 3)" in proc.out, proc.out


def test_an_sse_stream_closed_before_the_reply_names_what_it_carried(tmp_path):
    proc = _sse_broken(tmp_path, '''
        out.write(b'event: message\\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":'
                  b'{"level":"info","data":"working"}}\\n\\n')
        out.flush()
        ''')
    assert "examples/srv/transcript.jsonl:3: [http-stream-end]" in proc.out, proc.out
    assert "the SSE stream closed after 1 event(s) (notifications/message) without the reply" in proc.out


def test_an_sse_stream_cut_in_the_middle_of_its_reply_does_not_count_the_cut_event(tmp_path):
    proc = _sse_broken(tmp_path, '''
        out.write(b'data: {"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[],')
        out.flush()
        ''')
    assert "examples/srv/transcript.jsonl:3: [http-stream-end]" in proc.out, proc.out
    assert "closed after 0 event(s) (none), in the middle of one more" in proc.out, proc.out


def test_an_event_the_stream_ends_in_the_middle_of_is_not_dispatched():
    events, cut = wire_http.sse_events('event: message\r\ndata: {"a":1}\r\n\r\nid: 7\ndata: {"b"')
    assert [(e.event, e.data) for e in events] == [("message", '{"a":1}')] and cut
    events, cut = wire_http.sse_events(': ping\n\nid: 7\nretry: 10\ndata: x\n\n: ping\n')
    assert [(e.id, e.retry, e.data) for e in events] == [("7", "10", "x")] and not cut


def test_the_record_keeps_each_event_s_fields_and_the_stream_without_keep_alives():
    request = json.loads(req(1, "tools/call", name="count", arguments={}))
    request["params"]["_meta"]["progressToken"] = "t1"
    progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t1", "progress": 1}}
    reply = {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "content": []}}
    exchange = _sse_exchange(request, progress, reply)
    exchange.body = b": ping\n\n" + exchange.body + b": ping\n\n"
    wire_http.read_body(exchange)
    entry = json.loads(wire_http.record([exchange]))
    assert entry["sse"] == [{"event": "message", "data": "notifications/progress"},
                            {"event": "message", "data": "response"}]
    assert entry["stream"].startswith("event: message\ndata: ") and "ping" not in entry["stream"]


SSE_REPLY = '''
    def BEFORE(handler, msg):
        if msg.get("id") != 2:
            return False
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        handler.wfile.write(b"event: message\\r\\ndata: " + json.dumps(reply(msg), separators=(",", ":")).encode()
                            + b"\\r\\n\\r\\n")
        return True
    '''


def test_an_sse_view_shows_the_line_sent_with_curl_and_the_recorded_stream(tmp_path):
    from support.tool_repos import page

    source = HTTP_TWIN + textwrap.dedent(SSE_REPLY) + SERVE
    root = make_repo(tmp_path, {"srv": {"server.py": source, "transcript.jsonl": TRANSCRIPT,
                                        "example.toml": "http = true\n"}},
                     pages={"examples.md": page("srv/transcript.jsonl", "srv/sse#3")})
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert _records(root)[2]["sse"] == [{"event": "message", "data": "response"}]
    text = (root / "docs/examples.md").read_text()
    assert "$ curl -N -X POST http://127.0.0.1:8000/mcp \\" in text and "-H 'Mcp-Method: tools/list' \\" in text
    assert '    event: message\n    data: {"jsonrpc":"2.0","id":2,' in text, text
    assert "examples/srv/http.python.jsonl` recorded it (line ends CRLF" in text
    for target, said in (("srv/sse#1", "no implementation of srv answered transcript line 1 with an SSE stream"),
                         ("srv/sse#1-3", "an SSE view shows one transcript line"),
                         ("srv/sse#9", "the transcript of srv has lines 1 to 3")):
        (root / "docs/examples.md").write_text(page("srv/transcript.jsonl", target))
        wrong = invoke(root)
        assert wrong.returncode == 4 and "docs/examples.md:" in wrong.out and said in wrong.out, (target, wrong.out)
