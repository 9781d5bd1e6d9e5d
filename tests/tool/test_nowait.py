"""Transcripts that do not wait ([[send]] in example.toml): the declaration, the paced driver, the answer key's order,
and the wire rules of what belongs to a request in flight (progress, cancels, listen streams)."""

from __future__ import annotations

import json

from support.tool_repos import compact, example_toml, jsonl, note, req, run_one_server
from runex.wire import accounting, transcript
from runex.wire.accounting import Send

KEY = "examples/srv/answer_key.jsonl"
SERVER = "examples/srv/server.py (python)"  # where a broken stdout rule is named
TRANSCRIPT = "examples/srv/transcript.jsonl"
CONFIG = "examples/srv/example.toml"


def send_table(**keys) -> str:
    return "\n[[send]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in keys.items())


def call(id, token=None, name="work"):
    line = json.loads(req(id, "tools/call", name=name, arguments={}))
    if token is not None:
        line["params"]["_meta"]["progressToken"] = token
    return compact(line)


def progress(token, value, total=None):
    params = {"progressToken": token, "progress": value}
    if total is not None:
        params["total"] = total
    return {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}


def failed(proc, *expected: str) -> None:
    assert proc.returncode == 3, proc.out
    for text in expected:
        assert text in proc.out, f"{text!r} not in:\n{proc.out}"


def lines_of(text: str):
    out = []
    for number, raw in enumerate(text.encode().splitlines(), start=1):
        out.append(transcript.classify(number, raw, "t")[0])
    return out


# ---------------------------------------------------------------- the declaration

BAD_TABLES = {
    "unknown key": (send_table(line=2, no_wait=True, wait=1), "unknown key 'wait'"),
    "unknown line": (send_table(line=9, no_wait=True), "line = 9, but transcript.jsonl has 3 lines"),
    "unknown method": (send_table(line=2, wait_for="notifications/done", of_line=1),
                       "wait_for = 'notifications/done' is nothing the runner can wait for"),
    "both": (send_table(line=2, no_wait=True, wait_for="reply", of_line=1), "either no_wait = true or wait_for"),
    "of_line below": (send_table(line=2, wait_for="reply", of_line=3), "of_line = 3 is not above line 2"),
    "no token": (send_table(line=3, wait_for="notifications/progress", of_line=1),
                 "line 1 sends no params._meta.progressToken"),
    "line 1": (send_table(line=1, no_wait=True), "line 1 is written first"),
    "twice": (send_table(line=2, no_wait=True) + send_table(line=2, no_wait=True),
              "transcript line 2 has two [[send]] tables"),
}


def test_each_bad_send_table_names_its_example_toml_line_and_ends_with_the_command(tmp_path):
    for case, (table, expected) in BAD_TABLES.items():
        toml = "timeout = 5\n" + table
        header = toml.splitlines().index("[[send]]") + 1
        if case == "twice":
            header = [n for n, l in enumerate(toml.splitlines(), start=1) if l == "[[send]]"][1]
        root, proc = run_one_server(tmp_path / case.replace(" ", "-"), "", toml=toml,
                                    lines=jsonl(req(1), req(2), req(3)))
        failed(proc, f"{CONFIG}:{header}", expected)
        assert "tools/run_examples.py" in proc.out.rstrip().splitlines()[-1], (case, proc.out)


def test_a_wait_for_that_never_comes_is_a_hang_naming_the_example_toml_line(tmp_path):
    toml = "timeout = 2\n" + send_table(line=2, wait_for="notifications/progress", of_line=1)
    root, proc = run_one_server(tmp_path, "", toml=toml, lines=jsonl(call(1, token="t1"), req(2)))
    failed(proc, "hang: example.toml line 3: [[send]] for transcript line 2 waits for notifications/progress of "
                 "transcript line 1, and the server wrote none within 2 s")


# ---------------------------------------------------------------- the plan (pure)

def test_the_plan_tells_a_cancel_in_flight_from_a_late_one():
    lines = lines_of(jsonl(call(1, token="a"), note(requestId=1), req(2), note(requestId=2)))
    lockstep = accounting.plan(lines)
    assert lockstep.cancelled == {} and lockstep.late_cancels == [(2, 1), (4, 3)]
    paced = accounting.plan(lines, (Send(2, wait_for="notifications/progress", of_line=1),))
    assert paced.cancelled == {1: 2} and paced.late_cancels == [(4, 3)]
    assert paced.outstanding[2] == frozenset({1}) and paced.outstanding[3] == frozenset()


# ---------------------------------------------------------------- the answer key's order

OUT_OF_ORDER = '''
held = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("id") == 1:
        held = msg  # answered only once request 2 is in: 2's reply is always written first
    elif "id" in msg:
        answer(msg)
        answer(held)
'''


def test_replies_out_of_order_are_recorded_in_transcript_order_and_the_declared_order_is_checked(tmp_path):
    toml = example_toml(timeout=10) + send_table(line=2, no_wait=True, answered_before=1, reason="in flight")
    root, proc = run_one_server(tmp_path / "ok", OUT_OF_ORDER, "--repeat", "3", toml=toml,
                                lines=jsonl(req(1), req(2)))
    assert proc.returncode == 0, proc.out
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, 2]
    in_order = OUT_OF_ORDER.replace("answer(msg)\n        answer(held)", "answer(held)\n        answer(msg)")
    assert in_order != OUT_OF_ORDER
    root, proc = run_one_server(tmp_path / "wrong", in_order, toml=toml, lines=jsonl(req(1), req(2)))
    failed(proc, "example.toml line 3: [[send]] says transcript line 2 is answered before line 1, but line 1's "
                 "reply came first")


def test_a_lockstep_example_still_waits_for_each_reply(tmp_path):
    # Without [[send]] the held request 1 is never answered: the runner waits for it and never writes line 2.
    root, proc = run_one_server(tmp_path, OUT_OF_ORDER, toml=example_toml(timeout=1), lines=jsonl(req(1), req(2)))
    failed(proc, "hang: no reply to transcript line 1 (id 1) within 1 s")


# ---------------------------------------------------------------- progress

def progress_server(values, token_from_request=True, after_reply=False) -> str:
    token = 'msg["params"]["_meta"]["progressToken"]' if token_from_request else '"nobody-sent-this"'
    sends = "\n".join(f"        send(progress({token}, {v}))" for v in values)
    head = '''
def progress(token, value):
    return {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": token, "progress": value}}
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
'''
    return head + (f"        answer(msg)\n{sends}\n" if after_reply else f"{sends}\n        answer(msg)\n")


def test_progress_with_a_token_no_request_carried_fails(tmp_path):
    root, proc = run_one_server(tmp_path, progress_server([1], token_from_request=False),
                                lines=jsonl(call(1, token="t1")))
    failed(proc, f"{SERVER}: [stdout-progress-unknown-token] stdout line 1: progress for token \"nobody-sent-this\"",
           "basic/patterns/progress.mdx")


def test_progress_that_falls_fails_at_each_step_down(tmp_path):
    root, proc = run_one_server(tmp_path, progress_server([2, 1, 0]), lines=jsonl(call(1, token="t1")))
    failed(proc, f"{SERVER}: [stdout-progress-not-increasing] stdout line 2: progress 1 for token \"t1\" (transcript line 1) does "
                 f"not exceed the 2 before it", f"{SERVER}: [stdout-progress-not-increasing] stdout line 3:",
           "MUST increase with each notification")
    assert f"{KEY}:1: [stdout-progress" not in proc.out


def test_progress_after_the_reply_fails(tmp_path):
    root, proc = run_one_server(tmp_path, progress_server([1], after_reply=True), lines=jsonl(call(1, token="t1")))
    failed(proc, f"{SERVER}: [stdout-progress-after-reply] stdout line 2:", "MUST stop after completion")


def test_rising_progress_before_the_reply_passes(tmp_path):
    root, proc = run_one_server(tmp_path, progress_server([1, 2.5, 3]), lines=jsonl(call(1, token="t1")))
    assert proc.returncode == 0, proc.out


# ---------------------------------------------------------------- cancel in flight

def cancel_server(answer_after_cancel: bool) -> str:
    late = "answer(slow)" if answer_after_cancel else "pass"
    return f'''
slow = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "notifications/cancelled":
        {late}
    elif msg.get("id") == 1:
        slow = msg
        send({{"jsonrpc": "2.0", "method": "notifications/progress",
              "params": {{"progressToken": "t1", "progress": 0}}}})
    elif "id" in msg:
        answer(msg)
'''


CANCEL_LINES = jsonl(call(1, token="t1"), note(requestId=1, reason="stop"), req(2))
CANCEL_TOML = example_toml(timeout=10) + send_table(line=2, wait_for="notifications/progress", of_line=1)


def test_a_request_cancelled_in_flight_owes_no_reply_and_the_server_lives_on(tmp_path):
    root, proc = run_one_server(tmp_path, cancel_server(False), "--repeat", "2", toml=CANCEL_TOML,
                                lines=CANCEL_LINES)
    assert proc.returncode == 0, proc.out
    assert "transcript-cancels-answered" not in proc.out
    recorded = [json.loads(l) for l in (root / KEY).read_text().splitlines()]
    assert [m.get("id", m.get("method")) for m in recorded] == ["notifications/progress", 2]


def test_a_reply_after_a_cancel_in_flight_fails_with_the_must_not(tmp_path):
    root, proc = run_one_server(tmp_path, cancel_server(True), toml=CANCEL_TOML, lines=CANCEL_LINES)
    failed(proc, f"{SERVER}: [stdout-reply-after-cancel] stdout line 2: id 1 (transcript line 1) was answered after "
                 f"line 2 cancelled it", "MUST NOT send any further messages", "a race the spec allows",
           'give line 2 a [[send]] with wait_for = "notifications/progress" and of_line = 1')


def test_a_reply_that_beat_the_cancel_is_the_race_and_fails_as_the_example_s_fault(tmp_path):
    # Progress and reply leave in one write: the reply is in before the cancel can be written.
    body = '''
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        p = {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t1", "progress": 0}}
        r = {"jsonrpc": "2.0", "id": msg["id"], "result": result_for(msg)}
        sys.stdout.write(json.dumps(p) + "\\n" + json.dumps(r) + "\\n")
        sys.stdout.flush()
'''
    root, proc = run_one_server(tmp_path, body, toml=CANCEL_TOML, lines=CANCEL_LINES)
    failed(proc, "transcript line 2 cancels line 1, but line 1's reply reached the runner before the cancel was "
                 "written: the cancel raced the reply")


# ---------------------------------------------------------------- listen streams

def listen(id):
    return req(id, "subscriptions/listen", notifications={"toolsListChanged": True})


def listen_server(first: str) -> str:
    """Answers subscriptions/listen with `first` (a notification), then closes the stream with a completion result."""
    return f'''
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("method") == "subscriptions/listen":
        sub = {{"io.modelcontextprotocol/subscriptionId": msg["id"]}}
        send({first})
        send({{"jsonrpc": "2.0", "id": msg["id"], "result": {{"resultType": "complete", "_meta": sub}}}})
    elif "id" in msg:
        answer(msg)
'''


ACK = ('{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", '
       '"params": {"_meta": sub, "notifications": {"toolsListChanged": True}}}')
CHANGED = '{"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": sub}}'


def test_a_listen_stream_acknowledged_first_passes(tmp_path):
    root, proc = run_one_server(tmp_path, listen_server(ACK), lines=jsonl(listen("l1")))
    assert proc.returncode == 0, proc.out


def test_a_listen_stream_that_does_not_start_with_its_acknowledgement_fails(tmp_path):
    root, proc = run_one_server(tmp_path, listen_server(CHANGED), lines=jsonl(listen("l1")))
    failed(proc, f"{SERVER}: [stdout-listen-not-acknowledged-first] stdout line 1:", "subscriptions.mdx")


def test_a_listen_notification_without_or_with_a_foreign_subscription_id_fails(tmp_path):
    bare = ('{"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", '
            '"params": {"notifications": {"toolsListChanged": True}}}')
    root, proc = run_one_server(tmp_path / "bare", listen_server(bare), lines=jsonl(listen("l1")))
    failed(proc, f"{SERVER}: [stdout-listen-no-subscription-id] stdout line 1:")
    foreign = ACK.replace('"_meta": sub', '"_meta": {"io.modelcontextprotocol/subscriptionId": "l9"}')
    root, proc = run_one_server(tmp_path / "foreign", listen_server(foreign), lines=jsonl(listen("l1")))
    failed(proc, f"{SERVER}: [stdout-listen-unknown-subscription] stdout line 1: notifications/subscriptions/acknowledged names "
                 f"subscription \"l9\"")


# ---------------------------------------------------------------- the conversation view

def view(transcript_text: str, answers: list, sends=()):
    from runex.paste import conversation_view as exchanges

    key = "".join(compact(m) + "\n" for m in answers)
    rows = exchanges.conversation(transcript_text.encode(), key.encode(), (), sends=tuple(sends))
    text = "".join(exchanges.render(transcript_text.encode(), key.encode(), (), "t.jsonl", "k.jsonl",
                                    sends=tuple(sends)))
    return rows, text


def result(id):
    return {"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", "content": []}}


def test_the_view_draws_a_request_s_progress_above_its_reply_in_its_own_row():
    rows, text = view(jsonl(call(1, token="t1"), req(2)),
                      [progress("t1", 1), progress("t1", 2), result(1), result(2)])
    assert [(r.kind, r.request.number, [l.number for l in r.related]) for r in rows] == [
        ("exchange", 1, [1, 2]), ("exchange", 2, [])]
    first = text.index('data-id="1"')
    column = text.index('<div class="exchange-column"', first)
    assert column < text.index("answer key line 1</span>", first) < text.index("answer key line 2</span>", first) \
        < text.index("Reply <span", first) < text.index('data-id="2"')
    assert "Server notification" not in text


def test_the_view_marks_lines_sent_without_waiting_the_declared_arrival_order_and_a_cancel_in_flight():
    lines = jsonl(call(1, token="t1"), req(2), note(requestId=1, reason="stop"), req(3))
    sends = (Send(2, no_wait=True, answered_before=1, reason="two calls in flight"),
             Send(3, wait_for="notifications/progress", of_line=1))
    rows, text = view(lines, [progress("t1", 1), result(2)], sends)
    assert [r.kind for r in rows] == ["cancelled", "exchange", "notification", "unanswered"]
    assert "sent without waiting for line 1" in text and "Not waiting, on purpose: two calls in flight" in text
    assert "sent once line 1's <code>notifications/progress</code> came · cancels line 1 in flight" in text
    assert "Request cancelled in flight · <code>tools/call</code> · id 1 · cancelled in flight by line 3" in text
    assert "No reply: line 3 cancelled it" in text
    assert "arrived 1st" in text  # line 2's reply; line 1 has none to mark


def test_the_view_puts_a_listen_stream_in_its_row_and_shows_it_cancelled():
    sub = {"io.modelcontextprotocol/subscriptionId": "l1"}
    ack = {"jsonrpc": "2.0", "method": accounting.ACKNOWLEDGED,
           "params": {"_meta": sub, "notifications": {"toolsListChanged": True}}}
    changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": sub}}
    lines = jsonl(req("l1", "subscriptions/listen", notifications={"toolsListChanged": True}), req(2),
                  note(requestId="l1"))
    sends = (Send(2, wait_for=accounting.ACKNOWLEDGED, of_line=1),
             Send(3, wait_for="notifications/tools/list_changed", of_line=1))
    rows, text = view(lines, [ack, changed, result(2)], sends)
    assert [(r.kind, [l.number for l in r.related]) for r in rows] == [("cancelled", [1, 2]), ("exchange", []),
                                                                        ("notification", [])]
    assert "sent once line 1's <code>notifications/subscriptions/acknowledged</code> came" in text


def test_a_paced_line_without_a_table_waits_for_every_reply_still_owed(tmp_path):
    # Line 2 goes without waiting, line 3 has no table: it waits for line 1's reply, which never comes.
    body = '''
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg and msg["id"] != 1:
        answer(msg)
'''
    toml = example_toml(timeout=1) + send_table(line=2, no_wait=True)
    root, proc = run_one_server(tmp_path, body, toml=toml, lines=jsonl(req(1), req(2), req(3)))
    failed(proc, "hang: before transcript line 3, no reply to transcript line 1 (id 1) within 1 s")


def test_wait_for_reply_waits_for_that_line_only(tmp_path):
    # Request 1 is answered only once request 3 is in; line 3 waits for line 2's reply alone, so it is written.
    body = '''
held = None
for line in sys.stdin:
    msg = json.loads(line)
    if msg.get("id") == 1:
        held = msg
    elif "id" in msg:
        answer(msg)
        if msg["id"] == 3:
            answer(held)
'''
    toml = example_toml(timeout=10) + send_table(line=2, no_wait=True) + \
        send_table(line=3, wait_for="reply", of_line=2)
    root, proc = run_one_server(tmp_path, body, "--repeat", "2", toml=toml, lines=jsonl(req(1), req(2), req(3)))
    assert proc.returncode == 0, proc.out
    assert [json.loads(l)["id"] for l in (root / KEY).read_text().splitlines()] == [1, 2, 3]
