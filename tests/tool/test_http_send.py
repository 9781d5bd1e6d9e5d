"""Lines that do not wait, over Streamable HTTP: [[send]] gates on open streams, and a cancel as a closed stream.

Over HTTP a line that does not wait is POSTed while an earlier request's response stream is still open; a
notifications/cancelled of a request in flight is not POSTed at all: the client closes that request's stream, the
cancel on this transport (streamable-http.mdx, "Cancellation"). The server here is stdlib only (ThreadingHTTPServer),
so each test costs a fraction of a second of server start; its `wait` call reports progress, then waits until it is
cancelled, and `running` says how many `wait` calls still run, which is how a run sees whether the work stopped.
"""

from __future__ import annotations

import json
import textwrap

from runex.run import http as run_http
from runex.run import http_stage
from runex.wire import accounting
from runex.wire import http as wire_http
from runex.wire.transcript import classify
from support.tool_repos import invoke, jsonl, make_repo, note, processes_with, req

MARK = "http-send-fixture-7f3a"  # in each server's source: a process left behind would carry it

SERVER = textwrap.dedent('''\
    import json, os, sys, threading, time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    MARK = "%s"
    IGNORE_CLOSE = %s  # True: a closed stream does not stop `wait` (the bad case)
    HELLO_DELAY = %s  # seconds `hello` takes: longer than `slow` makes `slow` end first over HTTP
    waiting = 0

    def text(msg, words):
        return {"jsonrpc": "2.0", "id": msg["id"],
                "result": {"resultType": "complete", "content": [{"type": "text", "text": words}]}}

    def progress(msg):
        token = msg["params"]["_meta"]["progressToken"]
        return {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": 0}}

    def answer(msg):
        name = msg["params"].get("name")
        if msg["method"] == "tools/list":
            return {"jsonrpc": "2.0", "id": msg["id"],
                    "result": {"resultType": "complete", "tools": [], "ttlMs": 0, "cacheScope": "public"}}
        if name == "slow":
            time.sleep(0.5)
            return text(msg, "slow done")
        if name == "running":
            deadline = time.monotonic() + 2
            while waiting and time.monotonic() < deadline:
                time.sleep(0.01)
            return text(msg, f"running: {waiting}")
        time.sleep(HELLO_DELAY)
        return text(msg, "hello")

    def line(obj):
        return json.dumps(obj, separators=(",", ":"))

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.0"

        def do_POST(self):
            global waiting
            msg = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if "id" not in msg:
                self.send_response(202)
                self.end_headers()
                return
            if msg["params"].get("name") == "wait":
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                self.wfile.write(f"data: {line(progress(msg))}\\n\\n".encode())
                self.wfile.flush()
                waiting += 1
                if IGNORE_CLOSE:
                    time.sleep(3600)
                self.rfile.read(1)  # b"" once the client closes the stream: the cancel
                waiting -= 1
                return
            body = line(answer(msg)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            self.send_response(405)
            self.send_header("Allow", "POST")
            self.end_headers()

        def log_message(self, *args):
            pass

    address = os.environ.get("MCP_HTTP_ADDR")
    if address:
        host, port = address.rsplit(":", 1)
        server = ThreadingHTTPServer((host, int(port)), Handler)
        server.daemon_threads = True
        server.serve_forever()
    slow = []
    for raw in sys.stdin:
        msg = json.loads(raw)
        if msg.get("method") == "notifications/cancelled":
            waiting -= 1
        elif "id" in msg and msg["params"].get("name") == "wait":
            print(line(progress(msg)), flush=True)
            waiting += 1
        elif "id" in msg and msg["params"].get("name") == "slow":
            slow.append(msg)  # answered after the next request: the fast one overtakes it
        elif "id" in msg:
            print(line(answer(msg)), flush=True)
            for held in slow:
                print(line(text(held, "slow done")), flush=True)
            slow.clear()
    ''')


def _wait_call(id: int) -> str:
    message = json.loads(req(id, "tools/call", name="wait", arguments={}))
    message["params"]["_meta"]["progressToken"] = f"wait-{id}"
    return json.dumps(message, separators=(",", ":"))


CANCEL_TRANSCRIPT = jsonl(req(1), _wait_call(2), note(requestId=2, reason="stop"),
                          req(3, "tools/call", name="hello", arguments={}),
                          req(4, "tools/call", name="running", arguments={}))
CANCEL_TOML = textwrap.dedent('''\
    timeout = 10
    http = true

    [[send]]
    line = 3
    wait_for = "notifications/progress"
    of_line = 2
    ''')


def _repo(tmp_path, *, ignore=False, hello_delay=0, transcript=CANCEL_TRANSCRIPT, toml=CANCEL_TOML):
    source = SERVER % (MARK, ignore, hello_delay)
    return make_repo(tmp_path, {"srv": {"server.py": source, "transcript.jsonl": transcript, "example.toml": toml}})


def _records(root):
    return [json.loads(l) for l in (root / "examples/srv/http.python.jsonl").read_text().splitlines()]


def test_a_cancel_in_flight_closes_the_stream_and_the_work_stops(tmp_path):
    root = _repo(tmp_path)
    first = invoke(root)
    assert first.returncode == 0, first.out
    by_line = {r.get("line", r.get("probe")): r for r in _records(root)}
    assert [e["data"] for e in by_line[2]["sse"]] == ["notifications/progress"], by_line[2]
    assert by_line[2]["closed_by"] == 3, by_line[2]
    assert by_line[3] == {"line": 3, "closes_stream_of": 2}  # nothing POSTed for the cancel line
    key = (root / "examples/srv/answer_key.jsonl").read_text()
    assert "running: 0" in key and '"id":2,' not in key  # the stdio run and the HTTP run alike
    again = invoke(root, "--check", "--repeat", "2")
    assert again.returncode == 0, again.out


def test_a_server_that_ignores_the_closed_stream_is_named_at_the_send_table_and_the_line(tmp_path):
    root = _repo(tmp_path, ignore=True)
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/srv/transcript.jsonl:5: transports disagree" in proc.out, proc.out
    assert "line 3 cancelled line 2 (examples/srv/example.toml:4) by closing its response stream" in proc.out
    assert "running: 1" in proc.out and "running: 0" in proc.out
    assert processes_with(MARK) == [], "a server outlived its sandbox"


NO_WAIT_TRANSCRIPT = jsonl(req(1, "tools/call", name="slow", arguments={}),
                           req(2, "tools/call", name="hello", arguments={}))
NO_WAIT_TOML = "timeout = 10\nhttp = true\n\n[[send]]\nline = 2\nno_wait = true\nanswered_before = 1\n"


def test_a_line_that_does_not_wait_is_posted_while_the_slow_stream_is_open_and_overtakes_it(tmp_path):
    root = _repo(tmp_path, transcript=NO_WAIT_TRANSCRIPT, toml=NO_WAIT_TOML)
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    assert [r["status"] for r in _records(root)] == [200, 200, 405]


def test_an_arrival_order_that_does_not_hold_over_http_is_named_at_its_send_table(tmp_path):
    root = _repo(tmp_path / "late", hello_delay=1.5, transcript=NO_WAIT_TRANSCRIPT, toml=NO_WAIT_TOML)
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml:4: [[send]] says transcript line 2 is answered before line 1, but over " \
           "HTTP line 1's response ended first" in proc.out, proc.out


def _lines(*raw: str):
    return [classify(n, r.encode(), "t")[0] for n, r in enumerate(raw, start=1)]


def test_the_plan_gates_each_line_as_its_send_table_says_and_turns_a_cancel_in_flight_into_a_close():
    lines = _lines(*CANCEL_TRANSCRIPT.splitlines())
    sends = (accounting.Send(3, wait_for=accounting.PROGRESS, of_line=2, at=4), accounting.Send(4, no_wait=True))
    planned = run_http.plan(lines, (), None, sends=sends)
    assert [r.method for r in planned[:5]] == ["POST", "POST", "CLOSE", "POST", "POST"]
    assert planned[2].closes == 2 and planned[2].body == b""
    assert [r.gate for r in planned[:5]] == [{"kind": "all"}, {"kind": "all"},
                                             {"kind": "event", "of": 1, "method": "notifications/progress"},
                                             {"kind": "sent"}, {"kind": "all"}]
    assert run_http._wire(planned[2])["closes"] == 1  # the client counts requests from 0


def test_a_late_cancel_is_still_posted_as_a_notification():
    lines = _lines(req(1), note(requestId=1), req(2))
    planned = run_http.plan(lines, (), None, sends=(accounting.Send(3, no_wait=True),))
    assert [r.method for r in planned[:2]] == ["POST", "POST"]


def _closed_pair(reply_too: bool = False, ended_first: bool = False):
    lines = _lines(*CANCEL_TRANSCRIPT.splitlines())
    progress = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "wait-2",
                                                                                 "progress": 0}}
    messages = [progress] + ([{"jsonrpc": "2.0", "id": 2, "result": {"resultType": "complete", "content": []}}]
                             if reply_too else [])
    body = "".join(f"data: {json.dumps(m)}\n\n" for m in messages).encode()
    stream = wire_http.Exchange(lines[1], "POST", [], [], 200, [("content-type", "text/event-stream")], body,
                                closed=True, closed_by=3)
    wire_http.read_body(stream)
    close = wire_http.Exchange(lines[2], "CLOSE", [], [], None, [], b"", closes=2, ended_first=ended_first)
    return stream, close


def test_a_closed_stream_needs_no_response_and_the_record_says_who_closed_it():
    stream, close = _closed_pair()
    assert wire_http.check([stream, close], "t") == []
    recorded = [json.loads(l) for l in wire_http.record([stream, close]).decode().splitlines()]
    assert recorded[0]["closed_by"] == 3 and recorded[0]["sse"] == [{"data": "notifications/progress"}]
    assert recorded[1] == {"line": 3, "closes_stream_of": 2}


class _Example:
    class config:
        sends = (accounting.Send(3, wait_for=accounting.PROGRESS, of_line=2, at=7),)


def test_a_cancel_whose_stream_had_already_ended_is_the_race_named_at_its_send_table():
    for stream, close in (_closed_pair(reply_too=True), _closed_pair(ended_first=True)):
        said = http_stage._raced([stream, close], _Example, "examples/x/example.toml")
        assert said.startswith("examples/x/example.toml:7: over HTTP transcript line 3 cancels line 2"), said
        assert "raced the reply" in said and "wait_for its first progress" in said
    assert http_stage._raced(list(_closed_pair()), _Example, "examples/x/example.toml") is None


def test_a_paced_answer_key_is_grouped_by_the_request_each_message_belongs_to():
    lines = _lines(*CANCEL_TRANSCRIPT.splitlines())
    key = (b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
           b'{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"wait-2","progress":0}}\n'
           b'{"jsonrpc":"2.0","id":3,"result":{}}\n{"jsonrpc":"2.0","id":4,"result":{}}\n')
    groups = wire_http.group_by_line(key, lines, _Example.config.sends)
    assert [len(groups[n]) for n in range(1, 6)] == [1, 1, 0, 1, 1]
    assert b"progress" in groups[2][0] and b'"id":3' in groups[4][0]
