"""The wire check: what a server writes to stdout, line by line, against the JSON-RPC and stdio rules."""

from __future__ import annotations

import json

import pytest

from support.tool_repos import (ANSWERS_FIRST, META, PARSE_ERROR_LOOP, compact, example_toml, invoke, jsonl, note, req,
                                run_one_server, server, violation)
from runex.wire import check as wire
from runex.wire import transcript

KEY = "examples/srv/answer_key.jsonl"
TRANSCRIPT = "examples/srv/transcript.jsonl"
SERVER_AT = "examples/srv/server.py (python)"  # where a broken stdout rule is named


def stray_at(body: str, code: str) -> str:
    """Where a stray stdout line is named: at the print in server.py that wrote it (run/stray_print.py)."""
    lines = server(body).splitlines()
    return f"examples/srv/server.py:{next(n for n, l in enumerate(lines, 1) if code in l)} (python)"


def run_server(tmp_path, body: str, lines: str | None = None, toml: str | None = None, *args: str):
    return run_one_server(tmp_path, body, *args, toml=toml, lines=lines)


def assert_failed(root, proc, *expected: str):
    assert proc.returncode == 3, proc.out
    for text in expected:
        assert text in proc.out, f"{text!r} not in:\n{proc.out}"
    assert not (root / KEY).exists(), "a failed example must not get an answer key"


# Each server misbehaves once, on the first request, then answers normally.
MISBEHAVIOURS = {
    "non-utf8": ('sys.stdout.buffer.write(b"\\xff\\xfe{}\\n"); sys.stdout.flush()',
                 [f"{SERVER_AT}: [stdout-not-utf8] stdout line 1:", "byte 0"]),
    "stray-line": ('print("debug: got a request"); sys.stdout.flush()',
                   ["{STRAY_AT}: [stdout-not-a-message] stdout line 1:", "debug: got a request",
                    "diagnostics belong on stderr"]),
    "not-an-object": ('print("[1, 2]"); sys.stdout.flush()', [f"{SERVER_AT}: [stdout-not-jsonrpc] stdout line 1:"]),
    "server-request": ('send({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage", "params": {}})',
                       [f"{SERVER_AT}: [stdout-server-request] stdout line 1:", "sampling/createMessage"]),
    "unknown-id": ('send({"jsonrpc": "2.0", "id": 99, "result": result_for(msg)})',
                   [f"{SERVER_AT}: [stdout-reply-without-request] stdout line 1:", "response id 99 was never asked"]),
    "null-id-reply": ('send({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "no"}})',
                      [f"{SERVER_AT}: [stdout-reply-without-request] stdout line 1:", "null id"]),
    "neither-result-nor-error": ('send({"jsonrpc": "2.0", "id": 5})',
                                 [f"{SERVER_AT}: [stdout-not-jsonrpc] stdout line 1:"]),
    "bad-error-shape": ('send({"jsonrpc": "2.0", "id": 77, "error": {"code": "x", "message": "m"}})',
                        [f"{SERVER_AT}: [stdout-not-jsonrpc] stdout line 1:", "integer \\\"code\\\""]),
}


@pytest.mark.parametrize("case", sorted(MISBEHAVIOURS))
def test_a_bad_line_on_stdout_fails_the_example_naming_the_server_and_its_stdout_line(tmp_path, case):
    code, expected = MISBEHAVIOURS[case]
    body = f'''
    first = True
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            if first:
                {code}
                first = False
            answer(msg)
    '''
    root, proc = run_server(tmp_path, body)
    expected = [e.replace('\\"', '"').replace("{STRAY_AT}", stray_at(body, code)) for e in expected]
    assert_failed(root, proc, *expected)
    assert "answer_key.jsonl:" not in proc.out, "the answer key is the one file never to edit: name the server"


def test_reply_to_a_notification(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        send({"jsonrpc": "2.0", "id": msg.get("id", "for-a-notification"), "result": result_for(msg)})
    '''
    root, proc = run_server(tmp_path, body)
    # Line 1 answers request 1, line 2 answers the notification, line 3 answers request 2.
    assert_failed(root, proc, f"{SERVER_AT}: [stdout-reply-without-request] stdout line 2:", '"for-a-notification" was never asked')


def test_duplicate_reply(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
            if msg["id"] == 1:
                answer(msg)
    '''
    root, proc = run_server(tmp_path, body)
    assert_failed(root, proc, f"{SERVER_AT}: [stdout-duplicate-reply] stdout line 2:", "already answered on stdout line 1")


def test_result_and_error_in_one_response(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": result_for(msg),
                  "error": {"code": -32603, "message": "both"}})
    '''
    root, proc = run_server(tmp_path, body)
    assert_failed(root, proc, f"{SERVER_AT}: [stdout-result-and-error] stdout line 1:", f"{SERVER_AT}: [stdout-result-and-error] stdout line 2:")


def test_a_reply_that_is_not_jsonrpc_leaves_its_request_unanswered(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            reply = {"jsonrpc": "2.0" if msg["id"] != 1 else "1.0", "id": msg["id"], "result": result_for(msg)}
            send(reply)
    '''
    root, proc = run_server(tmp_path, body)
    assert_failed(root, proc, f"{SERVER_AT}: [stdout-not-jsonrpc] stdout line 1:", f"{TRANSCRIPT}:1: [stdout-missing-reply]",
                  "request id 1 (tools/list) got no reply")


def test_unterminated_last_line(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
    sys.stdout.write('{"jsonrpc":"2.0","method":"notifications/message"')
    sys.stdout.flush()
    '''
    root, proc = run_server(tmp_path, body)
    assert_failed(root, proc, f"{SERVER_AT}: [stdout-unterminated-line] stdout line 3:")


def test_server_notifications_are_allowed(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "info", "data": "working"}})
            answer(msg)
    '''
    root, proc = run_server(tmp_path, body)
    assert proc.returncode == 0, proc.out
    assert (root / KEY).read_text().count("notifications/message") == 2


def test_ids_keep_their_type(tmp_path):
    """A string id is answered with the same string; the reply order follows the transcript."""
    lines = jsonl(req("a-1"), req(7), note(), req("7"))
    root, proc = run_server(tmp_path, "", lines)
    assert proc.returncode == 0, proc.out
    ids = [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()]
    assert ids == ["a-1", 7, "7"]


def test_a_result_that_breaks_the_schema_is_a_schema_finding(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            send({"jsonrpc": "2.0", "id": msg["id"], "result": {"resultType": "complete", "tools": []}})
    '''
    root, proc = run_server(tmp_path, body)
    assert_failed(root, proc, f"{SERVER_AT}: [stdout-schema] stdout line 1:", "ttlMs missing")


# --- expected violations -------------------------------------------------------------------------------------

STRAY_ON_LINE_2 = '''
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        if msg["id"] == 2:
            print("debug: request 2")
            sys.stdout.flush()
        answer(msg)
'''


def test_an_expected_violation_that_happens_passes_and_is_reported(tmp_path):
    root, proc = run_server(tmp_path, STRAY_ON_LINE_2, toml=violation("stdout-not-a-message", 2))
    assert proc.returncode == 0, proc.out
    assert "expected: stdout-not-a-message at answer_key.jsonl:2" in proc.out
    assert (root / KEY).read_text().splitlines()[1] == "debug: request 2"
    assert invoke(root, "--check").returncode == 0


def test_an_expected_violation_that_vanishes_fails(tmp_path):
    root, proc = run_server(tmp_path, "", toml=violation("stdout-not-a-message", 2))
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml" in proc.out
    assert "declares [stdout-not-a-message] at line 2, but it did not happen" in proc.out
    assert not (root / KEY).exists()


def test_an_expected_violation_on_another_line_does_not_excuse_this_one(tmp_path):
    root, proc = run_server(tmp_path, STRAY_ON_LINE_2, toml=violation("stdout-not-a-message", 1))
    assert proc.returncode == 3, proc.out
    assert f"{stray_at(STRAY_ON_LINE_2, 'print(')}: [stdout-not-a-message] stdout line 2:" in proc.out
    assert "declares [stdout-not-a-message] at line 1, but it did not happen" in proc.out


def test_an_expected_violation_of_another_rule_does_not_excuse_this_one(tmp_path):
    root, proc = run_server(tmp_path, STRAY_ON_LINE_2, toml=violation("stdout-not-utf8", 2))
    assert proc.returncode == 3, proc.out
    assert f"{stray_at(STRAY_ON_LINE_2, 'print(')}: [stdout-not-a-message] stdout line 2:" in proc.out


def test_a_declared_malformed_transcript_line_gets_one_null_id_reply(tmp_path):
    lines = jsonl(req(1), '{"jsonrpc":"2.0","id":2,"method":"tools/li', req(3))
    root, proc = run_server(tmp_path, PARSE_ERROR_LOOP, lines, violation("transcript-not-json", 2))
    assert proc.returncode == 0, proc.out
    assert "expected: transcript-not-json at transcript.jsonl:2" in proc.out
    replies = [json.loads(l) for l in (root / KEY).read_text().splitlines()]
    assert [r["id"] for r in replies] == [1, None, 3]
    assert replies[1]["error"]["code"] == -32700


def test_a_declared_transcript_violation_that_vanishes_fails(tmp_path):
    root, proc = run_server(tmp_path, "", None, violation("transcript-not-json", 2))
    assert proc.returncode == 3, proc.out
    assert "declares [transcript-not-json] at line 2, but it did not happen" in proc.out


def test_a_declared_missing_meta_request_is_fed_to_the_server(tmp_path):
    lines = jsonl(req(1), compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}))
    root, proc = run_server(tmp_path, "", lines, violation("transcript-meta-missing", 2))
    assert proc.returncode == 0, proc.out
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, 2]


def test_example_toml_with_a_bad_declaration_is_reported(tmp_path):
    root, proc = run_server(tmp_path, "", None, '[[expected_violation]]\nrule = "stdout-not-a-message"\n')
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml" in proc.out
    assert "rule, line and reason" in proc.out


def test_example_toml_with_an_unknown_key_is_reported(tmp_path):
    root, proc = run_server(tmp_path, "", None, "timeuot = 3\n")
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml:1: unknown key 'timeuot'" in proc.out


def test_example_toml_that_is_not_toml_is_reported(tmp_path):
    root, proc = run_server(tmp_path, "", None, "timeout = = 3\n")
    assert proc.returncode == 3, proc.out
    assert "examples/srv/example.toml:1: cannot read TOML" in proc.out


# --- check_stdout in process ---------------------------------------------------------------------------------

def lines_of(tmp_path, *texts: str):
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(*texts))
    lines, problems = transcript.read(path, TRANSCRIPT)
    assert all(p.rule in ("transcript-not-json", "transcript-lone-surrogate") for p in problems)
    return lines


def check(stdout: bytes, lines) -> list[tuple[str, str, int]]:
    return [(p.rule, p.file, p.line) for p in wire.check_stdout(stdout, lines, KEY, TRANSCRIPT)]


def reply(id, **body) -> bytes:
    return (compact({"jsonrpc": "2.0", "id": id, **(body or {"result": {}})}) + "\n").encode()


def test_check_stdout_accepts_a_clean_conversation(tmp_path):
    lines = lines_of(tmp_path, req(1), note(), req("x"))
    assert check(reply(1) + reply("x"), lines) == []


def test_check_stdout_reports_every_unanswered_request_at_its_transcript_line(tmp_path):
    lines = lines_of(tmp_path, req(1), note(), req(2), req(3))
    assert check(reply(2), lines) == [("stdout-missing-reply", TRANSCRIPT, 1), ("stdout-missing-reply", TRANSCRIPT, 4)]


def test_check_stdout_treats_integer_and_string_ids_apart(tmp_path):
    lines = lines_of(tmp_path, req(1))
    assert check(reply("1"), lines) == [("stdout-reply-without-request", KEY, 1),
                                        ("stdout-missing-reply", TRANSCRIPT, 1)]


def test_check_stdout_owes_a_null_reply_to_each_unreadable_line(tmp_path):
    lines = lines_of(tmp_path, "garbage", "more garbage")
    null = reply(None, error={"code": -32700, "message": "Parse error"})
    assert check(null + null, lines) == []
    assert check(null, lines) == [("stdout-missing-reply", TRANSCRIPT, 2)]
    assert check(null * 3, lines) == [("stdout-reply-without-request", KEY, 3)]


def test_check_stdout_empty_output_misses_every_reply(tmp_path):
    lines = lines_of(tmp_path, req(1))
    assert check(b"", lines) == [("stdout-missing-reply", TRANSCRIPT, 1)]


def test_check_stdout_boolean_error_code_is_not_an_integer(tmp_path):
    lines = lines_of(tmp_path, req(1))
    found = check(reply(1, error={"code": True, "message": "m"}), lines)
    assert ("stdout-not-jsonrpc", KEY, 1) in found


IGNORE_RESPONSES = '''
for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    if "method" not in msg:
        continue  # a response from the client: never answered
    if msg.get("jsonrpc") != "2.0":
        send({"jsonrpc": "2.0", "id": msg.get("id"), "error": {"code": -32600, "message": "Invalid Request"}})
        continue
    if "id" in msg:
        answer(msg)
'''


def test_a_declared_response_in_the_transcript_is_not_waited_for(tmp_path):
    lines = jsonl(req(1), compact({"jsonrpc": "2.0", "id": 9, "result": {}}), req(3))
    root, proc = run_server(tmp_path, IGNORE_RESPONSES, lines,
                            example_toml(timeout=2) + violation("transcript-response", 2))
    assert proc.returncode == 0, proc.out
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, 3]


def test_a_declared_invalid_request_with_a_readable_id_is_answered_with_that_id(tmp_path):
    lines = jsonl(req(1), compact({"id": 2, "method": "tools/list", "params": {"_meta": META}}), req(3))
    root, proc = run_server(tmp_path, IGNORE_RESPONSES, lines,
                            example_toml(timeout=2) + violation("transcript-not-jsonrpc", 2))
    assert proc.returncode == 0, proc.out
    replies = [json.loads(l) for l in (root / KEY).read_text().splitlines()]
    assert [r["id"] for r in replies] == [1, 2, 3] and replies[1]["error"]["code"] == -32600


def test_a_result_to_a_declared_malformed_line_with_an_odd_method_does_not_crash(tmp_path):
    lines = jsonl(req(1), compact({"jsonrpc": "2.0", "id": 2, "method": ["not", "a", "string"]}))
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        send({"jsonrpc": "2.0", "id": msg["id"], "result": result_for({"method": "tools/list"})})
    '''
    root, proc = run_server(tmp_path, body, lines, violation("transcript-not-jsonrpc", 2))
    assert proc.returncode == 0, proc.out
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, 2]


ECHO_BODY = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
    '''


def test_a_notification_in_the_transcript_is_checked_against_the_schema(tmp_path):
    # notifications/cancelled needs requestId; this one has only a reason.
    lines = jsonl(req(1), note(reason="no request id"), req(2))
    root, proc = run_server(tmp_path, ECHO_BODY, lines)
    assert proc.returncode == 3, proc.out
    assert f"{TRANSCRIPT}:2: [transcript-schema] notifications/cancelled notification: params.requestId missing" in proc.out


def test_a_server_notification_on_stdout_is_checked_against_the_schema(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": "half"}})
            answer(msg)
    '''
    root, proc = run_server(tmp_path, body)
    assert_failed(root, proc, f"{SERVER_AT}: [stdout-schema] stdout line 1: notifications/progress notification:")


def test_a_reply_under_the_wrong_id_is_named_not_reported_as_a_plain_hang(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            send({"jsonrpc": "2.0", "id": "wrong-" + str(msg["id"]), "result": result_for(msg)})
    '''
    root, proc = run_server(tmp_path, body, None, example_toml(timeout=ANSWERS_FIRST))
    assert_failed(root, proc, "no reply with id 1 to transcript line 1", "answered with id(s) 'wrong-1' instead")


# ---- transcript-cancels-answered: the runner waits for every reply, so a cancel of an earlier request is late ----


def late_cancels(tmp_path, *texts: str) -> list[tuple[str, int]]:
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(*texts))
    lines, _ = transcript.read(path, TRANSCRIPT)
    return [(p.rule, p.line) for p in wire.check_late_cancels(lines, TRANSCRIPT)]


def test_a_cancel_of_an_answered_request_is_flagged_at_the_cancel_line(tmp_path):
    found = late_cancels(tmp_path, req(1), req(2), note(requestId=1, reason="stop"), req(3))
    assert found == [("transcript-cancels-answered", 3)]


def test_a_cancel_for_an_id_not_sent_before_it_is_not_this_rule(tmp_path):
    # 7 never appears; 3 appears only after the cancel; "1" is not 1 (ids compare by type).
    assert late_cancels(tmp_path, req(1), note(requestId=7), note(requestId=3), req(3), note(requestId="1")) == []


def test_a_late_cancel_fails_the_example_with_the_spec_sentence_and_is_not_fed(tmp_path):
    lines = jsonl(req(1), note(requestId=1, reason="stop"), req(2))
    root, proc = run_server(tmp_path, "", lines)
    assert_failed(root, proc, f"{TRANSCRIPT}:2: [transcript-cancels-answered] notifications/cancelled names "
                              f"request 1 (line 1)", "MUST only cancel requests it believes are still in progress",
                  "basic/patterns/cancellation")


def test_a_declared_late_cancel_passes_and_is_reported(tmp_path):
    lines = jsonl(req(1), note(requestId=1, reason="stop"), req(2))
    root, proc = run_server(tmp_path, "", lines, violation("transcript-cancels-answered", 2))
    assert proc.returncode == 0, proc.out
    assert "expected: transcript-cancels-answered at transcript.jsonl:2" in proc.out
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, 2]


# ---- transcript-lone-surrogate: "\ud800" is no character; a strict parser refuses the line, a lenient one reads on ----

def escaped(id, text: str) -> str:
    """A tools/call line whose text ends in `text`, written as JSON \\u escapes (compact() would write raw text)."""
    return req(id, "tools/call", name="shout", arguments={"text": "half a crab: @"}).replace("@", text)


LONE = escaped(2, "\\ud83e")

STRICT_SERVER = '''
for line in sys.stdin:
    try:
        msg = json.loads(line)
        json.dumps(msg, ensure_ascii=False).encode("utf-8")
    except ValueError:
        send({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
        continue
    if "id" in msg:
        answer(msg)
'''

LENIENT_SERVER = '''
import re
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        text = json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result_for(msg)}, ensure_ascii=False)
        sys.stdout.write(re.sub("[\\ud800-\\udfff]", "\\ufffd", text) + "\\n")
        sys.stdout.flush()
'''


def test_a_request_with_a_lone_surrogate_is_flagged_at_its_line(tmp_path):
    path = tmp_path / "t.jsonl"
    path.write_text(jsonl(req(1), LONE, escaped(3, "\\ud83e\\udd80")))
    _, problems = transcript.read(path, TRANSCRIPT)
    assert [(p.rule, p.line) for p in problems] == [("transcript-lone-surrogate", 2)]  # a whole pair is fine
    assert "RFC 8259 section 8.2" in problems[0].message


@pytest.mark.parametrize("body, reply_id", [(STRICT_SERVER, None), (LENIENT_SERVER, 2)], ids=["strict", "lenient"])
def test_a_declared_lone_surrogate_accepts_a_null_id_or_its_own_id(tmp_path, body, reply_id):
    root, proc = run_server(tmp_path, body, jsonl(req(1), LONE, req(3)), violation("transcript-lone-surrogate", 2))
    assert proc.returncode == 0, proc.out
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, reply_id, 3]


def test_check_stdout_a_lone_surrogate_request_is_owed_exactly_one_reply(tmp_path):
    lines = lines_of(tmp_path, req(1), LONE)
    null = reply(None, error={"code": -32700, "message": "Parse error"})
    assert check(reply(1) + null, lines) == []
    assert check(reply(1) + reply(2), lines) == []
    assert check(reply(1), lines) == [("stdout-missing-reply", TRANSCRIPT, 2)]
    assert check(reply(1) + null + reply(2), lines) == [("stdout-duplicate-reply", KEY, 3)]
    assert check(reply(1) + null + null, lines) == [("stdout-reply-without-request", KEY, 3)]


def test_a_run_that_stops_still_reports_every_wire_fault_it_wrote(tmp_path):
    """Like a compiler, a run reports every problem it finds: a server with four faults (a debug line, a result
    with an error, a reply to a notification, its last reply under an id of the wrong type) once showed only the
    hang the last one caused. The hang is reported, then each fault in what the server wrote before it."""
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("id") == 1:
            print("debug: got request 1", flush=True)
            answer(msg)
        elif msg.get("id") == 2:
            send({"jsonrpc": "2.0", "id": 2, "result": result_for(msg), "error": {"code": 1, "message": "x"}})
            answer(msg)
        elif "id" not in msg:
            send({"jsonrpc": "2.0", "id": 77, "result": {}})
        else:
            send({"jsonrpc": "2.0", "id": str(msg["id"]), "result": result_for(msg)})
    '''
    root, proc = run_server(tmp_path, body, jsonl(req(1), req(2), note(), req(3)), "timeout = 1\n")
    assert_failed(root, proc, "no reply with id 3 to transcript line 4 within 1 s",
                  f"{stray_at(body, 'print(')}: [stdout-not-a-message] stdout line 1:",
                  f"{SERVER_AT}: [stdout-result-and-error] stdout line 3:",
                  f"{SERVER_AT}: [stdout-reply-without-request] stdout line 5: response id 77",
                  f'{SERVER_AT}: [stdout-reply-without-request] stdout line 6: response id "3"')
    assert proc.out.count("[stdout-") == 4, proc.out


def test_a_fault_declared_in_example_toml_is_not_reported_after_a_run_that_stops(tmp_path):
    body = '''
    for line in sys.stdin:
        msg = json.loads(line)
        print("debug", flush=True)
        if msg.get("id") == 1:
            answer(msg)
    '''
    toml = "timeout = 1\n" + violation("stdout-not-a-message", 1)
    root, proc = run_server(tmp_path, body, jsonl(req(1), req(2)), toml)
    assert_failed(root, proc, "no reply to transcript line 2",
                  f"{stray_at(body, 'print(')}: [stdout-not-a-message] stdout line 3:")
    assert f"{KEY}:1:" not in proc.out, proc.out
