"""Transcript checks: a malformed line is reported with its file, line and rule, and no server is started."""

from __future__ import annotations

import json

import pytest

from support.tool_repos import META, compact, invoke, jsonl, make_repo, note, req, server
from runex.wire import transcript

# Each bad line sits on line 2 of examples/bad/transcript.jsonl, between two good requests.
BAD_LINES = {
    "not-json": ('{"jsonrpc":"2.0","id":2,"method":"tools/list",', "transcript-not-json"),
    "not-json-text": ("hello there", "transcript-not-json"),
    "not-an-object": ("[1,2,3]", "transcript-not-jsonrpc"),
    "no-jsonrpc-member": (compact({"id": 2, "method": "tools/list", "params": {"_meta": META}}),
                          "transcript-not-jsonrpc"),
    "wrong-jsonrpc-version": (compact({"jsonrpc": "1.0", "id": 2, "method": "x", "params": {"_meta": META}}),
                              "transcript-not-jsonrpc"),
    "no-method": (compact({"jsonrpc": "2.0", "id": 2, "params": {}}), "transcript-not-jsonrpc"),
    "method-not-string": (compact({"jsonrpc": "2.0", "id": 2, "method": 7, "params": {"_meta": META}}),
                          "transcript-not-jsonrpc"),
    "float-id": (compact({"jsonrpc": "2.0", "id": 2.5, "method": "x", "params": {"_meta": META}}),
                 "transcript-bad-id"),
    "bool-id": (compact({"jsonrpc": "2.0", "id": True, "method": "x", "params": {"_meta": META}}),
                "transcript-bad-id"),
    "null-id": (compact({"jsonrpc": "2.0", "id": None, "method": "x", "params": {"_meta": META}}),
                "transcript-bad-id"),
    "object-id": (compact({"jsonrpc": "2.0", "id": {}, "method": "x", "params": {"_meta": META}}),
                  "transcript-bad-id"),
    "duplicate-id": (req(1, "tools/list"), "transcript-duplicate-id"),
    "response": (compact({"jsonrpc": "2.0", "id": 9, "result": {}}), "transcript-response"),
    "error-response": (compact({"jsonrpc": "2.0", "id": 9, "error": {"code": 1, "message": "x"}}),
                       "transcript-response"),
    "meta-beside-params": (compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "_meta": META}),
                           "transcript-meta-beside-params"),
    "meta-beside-params-of-notification": (
        compact({"jsonrpc": "2.0", "method": "notifications/x", "params": {}, "_meta": META}),
        "transcript-meta-beside-params"),
    "meta-missing": (compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}),
                     "transcript-meta-missing"),
    "meta-not-object": (compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": []}}),
                        "transcript-meta-missing"),
    "meta-key-missing": (compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28"}}}), "transcript-meta-key-missing"),
    "params-missing": (compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), "transcript-params-missing"),
    "params-not-object": (compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": [1]}),
                          "transcript-params-missing"),
    "not-utf8": (b'{"jsonrpc":"2.0","id":2,"method":"\xff","params":{}}', "transcript-not-json"),
}


@pytest.mark.parametrize("case", sorted(BAD_LINES))
def test_bad_transcript_line_is_reported_and_no_server_runs(tmp_path, case):
    bad, rule = BAD_LINES[case]
    ran = tmp_path / "server-ran"
    spy = server(f'''
    open({str(ran)!r}, "w").close()
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg)
    ''')
    text = (req(1).encode() + b"\n" + (bad if isinstance(bad, bytes) else bad.encode()) + b"\n"
            + req(3).encode() + b"\n")
    root = make_repo(tmp_path, {"bad": {"server.py": spy, "transcript.jsonl": text}})

    proc = invoke(root)

    assert proc.returncode == 3, proc.out
    assert f"examples/bad/transcript.jsonl:2: [{rule}]" in proc.out
    assert not ran.exists(), "a transcript that breaks the rules must not be fed to a server"
    assert not (root / "examples" / "bad" / "answer_key.jsonl").exists()


def test_meta_key_missing_names_the_missing_key(tmp_path):
    line = compact({"jsonrpc": "2.0", "id": 1, "method": "x",
                    "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
    root = make_repo(tmp_path, {"bad": {"server.py": server(), "transcript.jsonl": jsonl(line)}})
    proc = invoke(root, "--check")
    assert proc.returncode == 3
    assert "examples/bad/transcript.jsonl:1: [transcript-meta-key-missing]" in proc.out
    assert "io.modelcontextprotocol/clientCapabilities" in proc.out


def test_duplicate_id_names_the_first_line(tmp_path):
    root = make_repo(tmp_path, {"bad": {"server.py": server(),
                                        "transcript.jsonl": jsonl(req("a"), req(2), req("a"))}})
    proc = invoke(root, "--check")
    assert proc.returncode == 3
    assert "examples/bad/transcript.jsonl:3: [transcript-duplicate-id]" in proc.out
    assert "already used on line 1" in proc.out


def test_empty_transcript_is_an_error(tmp_path):
    root = make_repo(tmp_path, {"bad": {"server.py": server(), "transcript.jsonl": ""}})
    proc = invoke(root, "--check")
    assert proc.returncode == 3
    assert "examples/bad/transcript.jsonl:1: [transcript-not-json]" in proc.out
    assert "empty" in proc.out


def test_every_problem_is_reported_not_only_the_first(tmp_path):
    lines = jsonl("nope", compact({"jsonrpc": "2.0", "id": 2, "method": "x"}), req(3))
    root = make_repo(tmp_path, {"bad": {"server.py": server(), "transcript.jsonl": lines}})
    proc = invoke(root, "--check")
    assert proc.returncode == 3
    assert "transcript.jsonl:1: [transcript-not-json]" in proc.out
    assert "transcript.jsonl:2: [transcript-params-missing]" in proc.out


# --- the parser itself, in process ---------------------------------------------------------------------------

def read(tmp_path, text: str):
    path = tmp_path / "transcript.jsonl"
    path.write_text(text)
    return transcript.read(path, "examples/x/transcript.jsonl")


def test_string_and_integer_ids_are_different_ids(tmp_path):
    lines, problems = read(tmp_path, jsonl(req(1), req("1")))
    assert problems == []
    assert [l.kind for l in lines] == ["request", "request"]
    assert [l.reply_id for l in lines] == [1, "1"]


def test_notifications_need_no_params_and_expect_no_reply(tmp_path):
    lines, problems = read(tmp_path, jsonl(compact({"jsonrpc": "2.0", "method": "notifications/initialized"})))
    assert problems == []
    assert lines[0].kind == "notification" and not lines[0].expects_reply


def test_a_line_whose_id_cannot_be_read_is_owed_a_null_id_reply(tmp_path):
    lines, problems = read(tmp_path, jsonl("{not json", req(2)))
    assert [p.rule for p in problems] == ["transcript-not-json"]
    assert lines[0].kind == "invalid" and lines[0].expects_reply and lines[0].reply_id is None
    assert lines[1].reply_id == 2


def test_line_numbers_and_raw_bytes_are_kept(tmp_path):
    text = jsonl(req(1), note(), req(2, "tools/call", name="é"))
    lines, problems = read(tmp_path, text)
    assert problems == []
    assert [l.number for l in lines] == [1, 2, 3]
    assert b"\n".join(l.raw for l in lines) + b"\n" == text.encode()
    assert json.loads(lines[2].raw)["params"]["name"] == "é"


def test_a_blank_line_is_not_json(tmp_path):
    _, problems = read(tmp_path, req(1) + "\n\n" + req(2) + "\n")
    assert [(p.rule, p.line) for p in problems] == [("transcript-not-json", 2)]
