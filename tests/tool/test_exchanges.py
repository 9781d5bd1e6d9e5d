"""The conversation view (NAME/conversation): pairing by id, every kind of row, escaping, and --check on text
between a conversation's markers.

The page holds only the marker pair; the view is rendered when the site is built (paste/markdown_ext.py). The markup
is checked twice: as the Markdown text the extension puts between the markers, and as the HTML Python-Markdown makes
of it with the site's own extensions (md_in_html, superfences, attr_list), so a server's text cannot break the page
around it.
"""

from __future__ import annotations

import html
import json
import re

import markdown
import pytest

from support.tool_repos import (ECHO, PARSE_ERROR_LOOP, ROOT, compact, invoke, jsonl, make_repo, note, page, req, server,
                                violation)
from runex.examples.files import ExampleFiles
from runex.paste import conversation_view as exchanges
from runex.paste import markdown_ext, markers, pages
from runex.wire.rules import ExpectedViolation


def reply(id, **result) -> str:
    return compact({"jsonrpc": "2.0", "id": id, "result": {"resultType": "complete", **result}})


def error(id, code=-32602, message="Invalid params") -> str:
    return compact({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})


def rows_of(transcript: str, answer_key: str, violations=()):
    return exchanges.conversation(transcript.encode(), answer_key.encode(), tuple(violations))


def shape(rows) -> list[tuple]:
    """(kind, transcript line, answer key line) per row: the pairing at a glance."""
    return [(r.kind, r.request.number if r.request else None, r.reply.number if r.reply else None) for r in rows]


def rendered(transcript: str, answer_key: str, violations=()) -> str:
    return "".join(exchanges.render(transcript.encode(), answer_key.encode(), tuple(violations),
                                    "examples/ex/transcript.jsonl", "examples/ex/answer_key.jsonl"))


def to_html(text: str) -> str:
    """The body as the site renders it (the extensions mkdocs.yml enables for this markup)."""
    return markdown.markdown(text, extensions=["md_in_html", "attr_list", "pymdownx.superfences",
                                               "pymdownx.highlight"])


# ---------------------------------------------------------------- pairing

def test_replies_pair_with_requests_by_id_and_type():
    transcript = jsonl(req(1), req("1"))
    answers = jsonl(reply("1", tools=[]), reply(1, tools=[]))  # the string id answered first
    rows = rows_of(transcript, answers)
    assert shape(rows) == [("exchange", 1, 2), ("exchange", 2, 1)]
    text = rendered(transcript, answers)
    assert re.search(r'<div class="exchange( long)?" data-id="1" markdown>', text)
    assert re.search(r'<div class="exchange( long)?" data-id="&quot;1&quot;" markdown>', text)


def test_out_of_order_replies_stay_in_transcript_order():
    rows = rows_of(jsonl(req(1), req(2), req(3)), jsonl(reply(3), reply(1), reply(2)))
    assert shape(rows) == [("exchange", 1, 2), ("exchange", 2, 3), ("exchange", 3, 1)]


def test_a_notification_is_its_own_row_with_no_reply_by_design():
    transcript = jsonl(req(1), note(requestId=1, reason="late"), req(2))
    answers = jsonl(reply(1), reply(2))
    assert shape(rows_of(transcript, answers)) == [("exchange", 1, 1), ("notification", 2, None),
                                                   ("exchange", 3, 2)]
    text = rendered(transcript, answers)
    assert '<div class="exchange notification" markdown>' in text
    assert "Notification: no reply, by design · <code>notifications/cancelled</code>" in text


def test_error_replies_pair_like_results_and_unreadable_lines_take_null_id_errors_in_order():
    transcript = jsonl(req(1), '{"jsonrpc":"2.0","id":2,"method":', req(3), "not json either")
    answers = jsonl(error(1), error(None, -32700, "first"), reply(3), error(None, -32700, "second"))
    rows = rows_of(transcript, answers)
    assert shape(rows) == [("exchange", 1, 1), ("exchange", 2, 2), ("exchange", 3, 3), ("exchange", 4, 4)]
    text = rendered(transcript, answers)
    assert text.count('data-id="null"') == 2
    assert "Request and reply · id null · error -32700" in text
    assert "Not JSON." in text


def test_a_reply_without_a_request_and_a_request_without_a_reply_get_labelled_rows():
    rows = rows_of(jsonl(req(1), req(2)), jsonl(reply(1), reply(7), reply(1)))
    assert shape(rows) == [("exchange", 1, 1), ("unanswered", 2, None), ("orphan", None, 2), ("orphan", None, 3)]
    text = rendered(jsonl(req(1), req(2)), jsonl(reply(1), reply(7)))
    assert "Request with no reply" in text and "No reply on stdout." in text
    assert re.search(r'<div class="exchange orphan( long)?" data-id="7" markdown>', text)
    assert "A reply no request asked for" in text


def test_a_declared_lone_surrogate_request_pairs_with_a_null_id_reply_or_its_own():
    odd = ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{},"name":"echo",'
           '"arguments":{"text":"\\ud83e"}}}')  # the escape as written on the wire
    transcript = jsonl(req(1), odd)
    declared = [ExpectedViolation("transcript-lone-surrogate", 2, "half a pair on purpose")]
    strict = jsonl(reply(1), error(None, -32700, "Parse error"))
    assert shape(rows_of(transcript, strict, declared)) == [("exchange", 1, 1), ("exchange", 2, 2)]
    lenient = jsonl(reply(1), reply(2))
    assert shape(rows_of(transcript, lenient, declared)) == [("exchange", 1, 1), ("exchange", 2, 2)]
    # Undeclared, a null-id reply to a readable request is no answer to it.
    assert shape(rows_of(transcript, strict)) == [("exchange", 1, 1), ("unanswered", 2, None), ("orphan", None, 2)]


def test_a_repeated_meta_is_shown_once_and_elided_after_with_the_line_it_repeats():
    other = compact({"jsonrpc": "2.0", "id": 3, "method": "tools/list",
                     "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2025-11-25"}}})
    transcript = jsonl(req(1), req(2), other)
    rows = rows_of(transcript, jsonl(reply(1), reply(2), reply(3)))
    first, second, third = (r.request for r in rows)
    assert first.meta_as_in is None and '"_meta": {\n' in first.shown
    assert second.meta_as_in == 1 and '"_meta": {…}' in second.shown
    assert third.meta_as_in is None and "2025-11-25" in third.shown  # a different _meta is shown in full
    text = rendered(transcript, jsonl(reply(1), reply(2), reply(3)))
    assert "Raw line · <code>_meta</code> as on line 1</summary>" in text
    assert text.count(req(2)) == 1  # the raw line keeps it whole
    # Replies too: a result._meta equal to the first reply's is elided, and says which line it repeats.
    info = {"io.modelcontextprotocol/serverInfo": {"name": "s", "version": "1"}}
    answers = jsonl(reply(1, tools=[], _meta=info), reply(2, tools=[], _meta=info), reply(3, tools=[]))
    first, second, third = (r.reply for r in rows_of(transcript, answers))
    assert first.meta_as_in is None and "serverInfo" in first.shown
    assert second.meta_as_in == 1 and '"_meta": {…}' in second.shown and "serverInfo" not in second.shown
    assert third.meta_as_in is None
    assert "Raw line · <code>_meta</code> as on line 1</summary>" in rendered(transcript, answers)


def test_a_duplicated_request_id_takes_its_replies_in_order():
    assert shape(rows_of(jsonl(req(1), req(1)), jsonl(reply(1), reply(1)))) == [("exchange", 1, 1),
                                                                               ("exchange", 2, 2)]


def test_stdout_lines_that_are_no_reply_follow_the_exchange_whose_reply_they_preceded():
    log = compact({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hi"}})
    answers = jsonl(reply(1), log, "debug: got 2", reply(2), "late print")
    rows = rows_of(jsonl(req(1), req(2)), answers)
    assert shape(rows) == [("exchange", 1, 1), ("exchange", 2, 4), ("server-notification", None, 2),
                           ("stray", None, 3), ("stray", None, 5)]
    text = rendered(jsonl(req(1), req(2)), answers)
    assert "Server notification: no reply, by design · <code>notifications/message</code>" in text
    assert "on stdout before the reply on answer key line 4" in text
    assert "Not a message: plain text on stdout." in text


# ---------------------------------------------------------------- declared violations

def test_declared_violations_show_their_reason_on_the_line_they_name():
    transcript = jsonl(req(1), compact({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}))
    answers = jsonl(reply(1), "got request id=2", error(2))
    declared = [ExpectedViolation("transcript-meta-missing", 2, "leaves out _meta <on purpose> & more"),
                ExpectedViolation("stdout-not-a-message", 2, "the println trap")]
    rows = rows_of(transcript, answers, declared)
    assert [v.reason for v in rows[1].request.notes] == ["leaves out _meta <on purpose> & more"]
    assert [v.reason for v in rows[2].reply.notes] == ["the println trap"]
    text = rendered(transcript, answers, declared)
    assert ("Breaks <code>transcript-meta-missing</code> on purpose: leaves out _meta &lt;on purpose&gt; "
            "&amp; more") in text
    assert "Breaks <code>stdout-not-a-message</code> on purpose: the println trap" in text


# ---------------------------------------------------------------- pretty-printing and escaping

def test_pretty_form_keeps_wire_key_order_numbers_as_written_and_characters():
    line = '{"z":1.0,"a":1e3,"m":-0,"s":"zażółć 🦀","e":{},"l":[],"n":null,"t":true}'
    assert exchanges.pretty(line) == ('{\n  "z": 1.0,\n  "a": 1e3,\n  "m": -0,\n  "s": "zażółć 🦀",\n  "e": {},\n'
                                      '  "l": [],\n  "n": null,\n  "t": true\n}')


def test_non_ascii_is_shown_as_characters_and_the_raw_line_keeps_the_exact_text():
    transcript = jsonl(req(1, name="shout", arguments={"text": "zażółć 🦀"}))
    raw_reply = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"\\u017b"}]}}'
    text = rendered(transcript, raw_reply + "\n")
    assert '"text": "zażółć 🦀"' in text
    assert '"text": "Ż"' in text  # the pretty form shows the character ...
    assert raw_reply in text  # ... and the raw line the escape, as sent


def test_a_lone_surrogate_keeps_its_escape_and_the_page_stays_utf8():
    raw_reply = '{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"a\\ud800b"}]}}'
    text = rendered(jsonl(req(1)), raw_reply + "\n")
    assert '"text": "a\\ud800b"' in text
    text.encode("utf-8")  # would raise on a lone surrogate character


def test_server_text_that_looks_like_markup_cannot_break_the_page():
    nasty = "```\n</div></details><script>alert(1)</script> &amp; <!-- example-end -->"
    transcript = jsonl(req(1), req(2))
    answers = jsonl(reply(1, content=[{"type": "text", "text": nasty}]), "```</div>" + "<b>raw</b>", reply(2))
    text = rendered(transcript, answers)
    assert not any(markers.END.match(l) or markers.BEGIN.match(l) for l in text.splitlines())
    out = to_html(text)
    assert "<script>" not in out and "<b>raw</b>" not in out
    assert len(re.findall(r'<div class="exchange[ "]', out)) == 3
    assert out.count('class="conversation"') == 1
    assert "&lt;script&gt;" in out and "&lt;b&gt;raw&lt;/b&gt;" in out  # shown as text, inside code blocks


def test_the_rendered_html_has_the_classes_tests_and_styles_rely_on():
    transcript = jsonl(req(1), note(requestId=1, reason="late"))
    answers = jsonl(reply(1, tools=[{"name": f"tool{i}"} for i in range(8)]))
    out = to_html(rendered(transcript, answers))
    assert re.search(r'<div class="exchange long" data-id="1">', out)
    assert '<div class="exchange notification">' in out
    assert len(re.findall(r'<details class="raw-line" data-file="examples/ex/[a-z_]+.jsonl" data-line="[12]">', out)) == 3  # request, notification, reply
    assert '<details class="show-all">' in out
    # the pretty form is not copied (.no-copy); the raw line keeps the copy button and holds the wire line
    assert out.count('class="no-copy highlight"') == 3
    raw_blocks = re.findall(r'<details class="raw-line"[^>]*>.*?<code>(.*?)</code>', out, re.S)
    shown = [html.unescape(re.sub(r"<[^>]+>", "", b)).strip() for b in raw_blocks]
    assert shown == [req(1), answers.strip(), note(requestId=1, reason="late")]


def test_an_indented_marker_indents_the_whole_view():
    body = exchanges.render(jsonl(req(1)).encode(), jsonl(reply(1)).encode(), (), "t", "a", indent="    ")
    assert all(line == "\n" or line.startswith("    ") for line in body)


# ---------------------------------------------------------------- through the tool: pasting and --check

def built(root, rel: str = "docs/p.md") -> str:
    """The page as the site build reads it: each conversation rendered between its markers (markdown_ext.py)."""
    return markdown_ext.expand((root / rel).read_text(), root, rel)


def conversation_repo(tmp_path, transcript=None, toml=None):
    files = {"server.py": ECHO}
    if transcript is not None:
        files["transcript.jsonl"] = transcript
    if toml is not None:
        files["example.toml"] = toml
    return make_repo(tmp_path, {"ex": files}, {"p.md": page("ex/conversation", "ex/transcript.jsonl")})


def test_the_tool_pastes_a_conversation_and_check_passes(tmp_path):
    root = conversation_repo(tmp_path)
    assert invoke(root).returncode == 0
    on_disk = (root / "docs/p.md").read_text()
    assert "<!-- example-begin: ex/conversation -->\n<!-- example-end -->\n" in on_disk, "the markers stay empty"
    assert "exchange" not in on_disk
    text = built(root)
    # ECHO is a stdlib-only Python twin, so the view carries what "Run it here" needs (runex/paste/run_here.py).
    assert '<div class="conversation" data-example="ex" data-python="examples/ex/server.py" markdown>' in text
    key = (root / "examples/ex/answer_key.jsonl").read_text().splitlines()
    for line in key:
        assert line in text  # every raw answer-key line, exactly
    assert invoke(root, "--check").returncode == 0


def test_check_reports_text_between_a_conversations_markers_and_the_tool_empties_them(tmp_path):
    """A page that still holds a pasted view (or a hand edit) between a conversation's markers: --check names the
    page, the line and the rule, and ends with the command; the tool writes the pair empty again."""
    root = conversation_repo(tmp_path)
    assert invoke(root).returncode == 0
    path = root / "docs/p.md"
    empty = path.read_text()
    old_view = built(root).split("<!-- example-begin: ex/conversation -->\n", 1)[1].split("<!-- example-end", 1)[0]
    path.write_text(empty.replace("<!-- example-begin: ex/conversation -->\n",
                                  "<!-- example-begin: ex/conversation -->\n" + old_view.replace('"2.0"', '"2.1"')))
    begin = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if "example-begin: ex/conversation" in l)
    proc = invoke(root, "--check")
    assert proc.returncode == 5, proc.out
    assert (f"drifted  docs/p.md:{begin}: text between the markers of ex/conversation: a conversation's markers "
            f"stay empty, its view is rendered when the site is built") in proc.out
    assert "tools/run_examples.py" in proc.out.strip().splitlines()[-1]
    with pytest.raises(markers.PageError, match=rf"docs/p.md:{begin}: text between the markers of ex/conversation"):
        built(root)  # the site build refuses it too, rather than render it twice
    assert invoke(root).returncode == 0 and path.read_text() == empty


def test_a_changed_answer_key_changes_the_conversation_in_the_same_run(tmp_path):
    root = conversation_repo(tmp_path)
    assert invoke(root).returncode == 0
    (root / "examples/ex/server.py").write_text(ECHO.replace('"tools": []', '"tools": [], "note": "new"'))
    assert invoke(root).returncode == 0
    assert '"note": "new"' in built(root)


def test_the_conversation_uses_transcript_from_and_shows_declared_violations(tmp_path):
    transcript = jsonl(req(1), "{broken")
    answerer = server(PARSE_ERROR_LOOP)
    toml = 'transcript_from = "src"\n' + violation("transcript-not-json", 2, "cut short on purpose")
    root = make_repo(tmp_path, {"src": {"server.py": answerer, "transcript.jsonl": transcript},
                                "ex": {"server.py": answerer, "example.toml": toml}},
                     {"p.md": page("src/transcript.jsonl", "ex/conversation")})
    (root / "examples/src/example.toml").write_text(violation("transcript-not-json", 2, "cut short on purpose"))
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    text = built(root)
    assert "Conversation: `examples/src/transcript.jsonl`" in text
    assert "Breaks <code>transcript-not-json</code> on purpose: cut short on purpose" in text
    assert 'data-id="null"' in text


@pytest.mark.parametrize("target, message", [
    ("nope/conversation", "there is no folder examples/nope"),
    ("ex/conversation#part", "after # a conversation takes transcript lines"),
    ("ex/conversation#3-2", "after # a conversation takes transcript lines"),
    ("ex/conversation#2-9", "run past its end"),
])
def test_a_bad_conversation_marker_is_a_page_error_naming_page_and_line(tmp_path, target, message):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}}, {"p.md": page("ex/transcript.jsonl", target)})
    proc = invoke(root, "--check")
    assert proc.returncode == 4, proc.out
    begin = next(i for i, l in enumerate((root / "docs/p.md").read_text().splitlines(), 1)
                 if f"example-begin: {target}" in l)
    assert f"docs/p.md:{begin}:" in proc.out and message in proc.out


def test_whole_files_get_line_numbers_and_regions_their_line_range(tmp_path):
    source = "# ANCHOR: loop\n" + ECHO + "# ANCHOR_END: loop\n"
    root = make_repo(tmp_path, {"ex": {"server.py": source}}, {"p.md": page("ex/server.py", "ex/server.py#loop",
                                                                             "ex/transcript.jsonl")})
    assert invoke(root).returncode == 0
    text = (root / "docs/p.md").read_text()
    last = source.count("\n") - 1
    assert '```python title="examples/ex/server.py" linenums="1"' in text
    assert f'```python title="examples/ex/server.py, lines 2\u2013{last} (region loop)"\n' in text


# ---------------------------------------------------------------- the stderr lane (example.toml: stderr_lane)

LOGGING = server('''
    for line in sys.stdin:
        msg = json.loads(line)
        print(f"log: read {msg.get('method')}", file=sys.stderr, flush=True)
        if "id" in msg:
            answer(msg)
    print("log: stdin closed", file=sys.stderr, flush=True)
    ''')


def test_a_stderr_lane_is_written_shown_and_checked_like_the_answer_key(tmp_path):
    root = conversation_repo(tmp_path, toml='stderr_lane = "python"\n')
    (root / "examples/ex/server.py").write_text(LOGGING)
    proc = invoke(root)
    assert proc.returncode == 0, proc.out
    lane = root / "examples/ex/stderr.txt"
    assert lane.read_text() == "log: read tools/list\nlog: read notifications/cancelled\nlog: read tools/list\n" \
                               "log: stdin closed\n"
    text = built(root)
    assert '<div class="stderr-lane" markdown>' in text and "log: stdin closed" in text
    assert "stderr of the Python server" in text, "the lane names the language, not the tool's implementation kind"
    assert invoke(root, "--check").returncode == 0
    lane.write_text(lane.read_text().replace("closed", "shut"))
    proc = invoke(root, "--check")
    assert proc.returncode == 5, proc.out
    assert "examples/ex/stderr.txt (checked in)" in proc.out and "+log: stdin closed" in proc.out
    assert invoke(root).returncode == 0 and "log: stdin closed" in lane.read_text()


def test_a_stderr_txt_left_without_its_lane_is_an_error_naming_the_file(tmp_path):
    """Removing stderr_lane from example.toml leaves a stderr.txt nothing checks any more: a stale file a reader of
    the repository would take for verified output."""
    root = conversation_repo(tmp_path, toml='stderr_lane = "python"\n')
    (root / "examples/ex/server.py").write_text(LOGGING)
    assert invoke(root).returncode == 0
    (root / "examples/ex/example.toml").write_text("")
    proc = invoke(root, "--check")
    assert proc.returncode == 3, proc.out
    assert "examples/ex/stderr.txt: stderr.txt is left over: example.toml sets no stderr_lane" in proc.out
    assert "delete it, or set stderr_lane" in proc.out and "python tools/run_examples.py" in proc.out.splitlines()[-1]
    (root / "examples/ex/stderr.txt").unlink()
    assert invoke(root).returncode == 0
    assert "stderr-lane" not in built(root)


def test_a_stderr_lane_must_name_an_implementation_the_example_runs(tmp_path):
    root = conversation_repo(tmp_path, toml='stderr_lane = "rust"\n')
    proc = invoke(root, "--check")
    assert proc.returncode == 3, proc.out
    assert "examples/ex/example.toml: stderr_lane = 'rust', but the example runs no such implementation" in proc.out


# ---------------------------------------------------------------- "Run it here": which views carry the button

def _conversation_of(root, name: str) -> str:
    block = markers.Block(line=1, indent="", target=f"{name}/conversation", begin="", body=[], end="")
    return "".join(pages.conversation_body(root, block, "docs/page.md", ExampleFiles(root)))


def test_the_view_carries_the_languages_the_browser_runs_and_the_reasons_for_the_others():
    from runex.examples import model
    from runex.paste import run_here as browser

    examples, errors = model.discover(ROOT)
    assert not errors
    for example in examples:
        twin = next((i.entry for i in example.implementations if i.name == "python"), None)
        rust = next((i for i in example.implementations if i.name in ("rust", "cargo")), None)
        declared = dict(example.config.not_in_browser)
        attrs = {"example": example.name}
        reasons = [["Rust", declared[rust.name]]] if rust is not None and rust.name in declared else []
        if twin is not None and browser.stdlib_only(twin):
            attrs["python"] = twin.relative_to(ROOT).as_posix()
        elif twin is not None:
            reasons.append(["Python", "server.py imports packages from outside the standard library, and the "
                                      "browser runs it with the standard library only"])
        if rust is not None and rust.name not in declared:
            main = rust.entry if rust.name == "rust" else rust.source_dir / "src" / "main.rs"
            attrs["rust"] = main.relative_to(ROOT).as_posix()
        if example.config.sends:  # paced: the browser holds a conversation in lockstep, so neither runs it
            attrs = {"example": example.name}
            reasons = [[browser.LANGUAGES[model.ImplementationKind(k)], why]
                       for k, why in example.config.not_in_browser]
            reasons += [[language, browser.PACED] for language in ("Rust", "Python")
                        if (language == "Rust" and rust is not None or language == "Python" and twin is not None)
                        and language not in {r[0] for r in reasons}]
        if reasons:  # one reason per language, for a reader: no configuration key in it
            assert len({language for language, _ in reasons}) == len(reasons), example.name
            assert not any("[[" in why or "example.toml" in why for _, why in reasons), example.name
            attrs["not-here"] = json.dumps(reasons, ensure_ascii=False)
        opening = _conversation_of(ROOT, example.name).split("\n", 2)[1]
        shown = "".join(f' data-{k}="{html.escape(v, quote=True)}"' for k, v in attrs.items())
        assert opening == f'<div class="conversation"{shown} markdown>', example.name
    runnable = {r.name: r for r in browser.browser_runs(ROOT)}
    # The checked-in examples: the SDK twin imports mcp, rmcp's stdio transport does not build for wasm32-wasip1.
    assert "python-sdk" not in runnable and "rmcp-server" not in runnable
    assert runnable["toy-scanner-hard"].python is None and runnable["toy-scanner-hard"].rust is not None
    assert {"first-server", "state-handles", "println-trap"} <= {n for n, r in runnable.items() if r.python}


def test_a_range_of_a_conversation_gets_no_button():
    # The button runs the whole transcript; a part of a view (NAME/conversation#2-3) does not carry it.
    block = markers.Block(line=1, indent="", target="first-server/conversation#2-3", begin="", body=[], end="")
    opening = "".join(pages.conversation_body(ROOT, block, "docs/page.md", ExampleFiles(ROOT))).split("\n", 2)[1]
    assert opening == '<div class="conversation" markdown>'


def test_a_twin_that_imports_a_package_gets_no_button(tmp_path):
    from runex.paste import run_here as browser

    server_py = tmp_path / "server.py"
    server_py.write_text("import json, sys\nfrom os import path\n", encoding="utf-8")
    assert browser.stdlib_only(server_py)
    server_py.write_text("import json\nfrom mcp.server.fastmcp import FastMCP\n", encoding="utf-8")
    assert not browser.stdlib_only(server_py)
    server_py.write_text("from . import helpers\n", encoding="utf-8")
    assert not browser.stdlib_only(server_py)


def test_small_objects_stay_on_one_line_and_large_ones_open_up():
    shown = exchanges.pretty('{"jsonrpc":"2.0","id":3,"params":{"arguments":{"a":2,"b":3},'
                             '"text":{"long_key_number_one":"long value","long_key_number_two":"x"}}}')
    assert '    "arguments": {"a": 2, "b": 3},\n' in shown  # fits the column: one line, as a reader writes it
    assert '    "text": {\n      "long_key_number_one": "long value",\n' in shown  # too wide: one member a line
    assert exchanges.pretty('{"a":[]}') == '{"a": []}'  # the whole message is small: one line
    assert exchanges.pretty('{"a":[],"b":"' + "x" * 40 + '"}') == '{\n  "a": [],\n  "b": "' + "x" * 40 + '"\n}'


def test_a_line_range_shows_only_those_exchanges_with_the_stdout_lines_that_follow_them():
    transcript = jsonl(req(1), req(2), req(3))
    answers = jsonl(reply(1), "stray text", reply(2), reply(3), reply(9))
    rows = rows_of(transcript, answers)
    middle = exchanges.select(rows, 2, 2, count=3)
    assert shape(middle) == [("exchange", 2, 3), ("stray", None, 2)]  # the stray line came just before reply 2
    assert shape(exchanges.select(rows, 1, 1, count=3))[0] == ("exchange", 1, 1)
    assert ("orphan", None, 5) in shape(exchanges.select(rows, 3, 3, count=3))  # the tail goes with the last line
    assert ("orphan", None, 5) not in shape(exchanges.select(rows, 1, 2, count=3))
    text = "".join(exchanges.render(transcript.encode(), answers.encode(), (), "t.jsonl", "a.jsonl", lines=(2, 3)))
    assert 'data-id="1"' not in text and 'data-id="2"' in text and 'data-id="3"' in text
    assert "Conversation, transcript lines 2\u20133:" in text


def test_a_page_may_show_a_conversation_in_parts_and_check_holds_each(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}},
                     {"p.md": page("ex/conversation#1", "ex/conversation#2-3", "ex/transcript.jsonl")})
    assert invoke(root).returncode == 0
    text = built(root)
    assert "Conversation, transcript line 1:" in text and "Conversation, transcript lines 2\u20133:" in text
