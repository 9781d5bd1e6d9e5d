"""The command line: exit codes, --check and drift, --list, NAME, -j, --repeat, --shard, annotations, serve (new: test_new.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from support.tool_repos import (ECHO, TOOLS, invoke, jsonl, make_repo, note, page, req, server, snapshot,
                                status_lines, tool, violation, write)

FIX = "Update answer keys and pages with: .venv/bin/python tools/run_examples.py"

# Echoes the arguments of each tools/call, so that a byte of the transcript shows in the answer key.
ECHO_ARGS = server('''
# a comment the tests edit: AAAA
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer(msg, **msg["params"].get("arguments", {}))
''')
CALLS = jsonl(req(1, "tools/call", name="echo", arguments={"text": "hello"}), note(),
              req(2, "tools/call", name="echo", arguments={"text": "world"}))


def echo_repo(tmp_path, **more):
    examples = {"ex": {"server.py": ECHO_ARGS, "transcript.jsonl": CALLS}, **more}
    targets = ["ex/server.py", "ex/transcript.jsonl", "ex/answer_key.jsonl"]
    targets += [f"{n}/transcript.jsonl" for n in more]
    root = make_repo(tmp_path, examples, {"p.md": page(*targets)})
    first = invoke(root)
    assert first.returncode == 0, first.out
    return root


# --- exit codes -------------------------------------------------------------------------------------------------

def test_help_lists_the_exit_codes(tmp_path):
    proc = tool(tmp_path, "--help")
    assert proc.returncode == 0
    for code in ("0  every example verified", "2  usage error", "3  an example failed", "4  a page is broken",
                 "5  drift (--check only)"):
        assert code in proc.out
    assert "serve NAME" in proc.out and "new NAME [--lang both|cargo|python|rust]" in proc.out


@pytest.mark.parametrize("args, words", [
    (["nope"], "no example named nope under examples/ (known: ex)"),
    (["-j", "0"], "-j must be at least 1"),
    (["-j", "many"], "invalid int value"),
    (["--shard", "0/2"], "--shard K/N needs 1 <= K <= N"),
    (["--shard", "3/2"], "--shard K/N needs 1 <= K <= N"),
    (["--shard", "1/0"], "--shard K/N needs 1 <= K <= N"),
    (["--shard", "half"], "--shard takes K/N such as 1/4"),
    (["--shard", "1/2/3"], "--shard takes K/N such as 1/4"),
    (["--repeat", "0"], "--repeat must be at least 1"),
    (["--json"], "--json goes with --list"),
    (["--no-such-option"], "unrecognized arguments"),
])
def test_usage_errors_exit_2(tmp_path, args, words):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}})
    before = snapshot(root, skip=())
    proc = invoke(root, *args)
    assert proc.returncode == 2, proc.out
    assert words in proc.out
    assert snapshot(root, skip=()) == before


def test_usage_error_in_a_subprocess_exits_2_with_usage(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}})
    proc = tool(root, "nope")
    assert proc.returncode == 2
    assert proc.stderr.startswith("run_examples: no example named nope")
    assert proc.stdout == ""


def test_exit_codes_3_4_5_and_0_from_a_subprocess(tmp_path):
    root = echo_repo(tmp_path)
    assert tool(root, "--check").returncode == 0
    page_path = root / "docs/p.md"
    good = page_path.read_text()

    key = root / "examples/ex/answer_key.jsonl"
    key.write_text(key.read_text().replace("hello", "HELLO"))
    assert tool(root, "--check").returncode == 5

    page_path.write_text(good + "<!-- example-end -->\n")
    assert tool(root, "--check").returncode == 4

    (root / "examples/ex/server.py").write_text(server("raise SystemExit(2)\n"))
    assert tool(root, "--check").returncode == 3


def test_root_may_come_first_even_before_a_subcommand(tmp_path):
    from runex import cli

    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}})
    assert cli.main(["--root", str(root), "--check", "--list"]) == 0
    assert cli.main(["--root", str(root), "new", "second", "--lang", "python"]) == 0
    assert (root / "examples/second/answer_key.jsonl").is_file()


# --- --check ----------------------------------------------------------------------------------------------------

def edit_source(root):
    path = root / "examples/ex/server.py"
    path.write_text(path.read_text().replace("AAAA", "AAAB"))
    return "docs/p.md", "AAAB"


def edit_transcript(root):
    path = root / "examples/ex/transcript.jsonl"
    path.write_text(path.read_text().replace("hello", "hellp"))
    return "examples/ex/answer_key.jsonl", "hellp"


def edit_answer_key(root):
    path = root / "examples/ex/answer_key.jsonl"
    path.write_text(path.read_text().replace("world", "worle"))
    return "examples/ex/answer_key.jsonl", "worle"


def edit_pasted_block(root):
    path = root / "docs/p.md"
    text = path.read_text()
    assert text.count("AAAA") == 1
    path.write_text(text.replace("AAAA", "AAAC"))
    return "docs/p.md", "AAAC"


@pytest.mark.parametrize("edit", [edit_source, edit_transcript, edit_answer_key, edit_pasted_block])
def test_one_changed_byte_fails_check_naming_the_file_and_writes_nothing(tmp_path, edit):
    root = echo_repo(tmp_path)
    named, shown = edit(root)
    before = snapshot(root)  # everything but .cache/, the tool's own build and schema-verdict caches
    proc = invoke(root, "--check")
    assert proc.returncode == 5, proc.out
    assert snapshot(root) == before, "--check writes nothing"
    assert re.search(rf"^drifted +{re.escape(named)}:\d+: |^drifted +ex ", proc.out, re.M), proc.out
    assert f"--- {named} (checked in)" in proc.out
    assert re.search(rf"^ +[-+].*{shown}", proc.out, re.M), "the diff shows the changed line"
    if edit is edit_transcript:  # the page pastes the transcript too: its block drifts, under its title
        assert 'title="examples/ex/transcript.jsonl"' in proc.out
        assert re.search(r"^drifted +docs/p\.md:\d+: the block pasted from examples/ex/transcript\.jsonl differs",
                         proc.out, re.M), proc.out
    assert proc.out.rstrip().splitlines()[-1] == f"{FIX} --root {root}"  # the command, runnable as printed
    assert invoke(root).returncode == 0
    assert invoke(root, "--check").returncode == 0


def test_answer_key_drift_is_a_unified_diff_of_checked_in_and_server_output(tmp_path):
    root = echo_repo(tmp_path)
    edit_answer_key(root)
    proc = invoke(root, "--check")
    assert "--- examples/ex/answer_key.jsonl (checked in)" in proc.out
    assert "+++ examples/ex/answer_key.jsonl (server output)" in proc.out
    assert re.search(r"^ +-.*worle", proc.out, re.M) and re.search(r"^ +\+.*world", proc.out, re.M)
    assert re.search(r"^drifted +ex ", proc.out, re.M)


def test_page_drift_names_the_page_and_line(tmp_path):
    root = echo_repo(tmp_path)
    edit_pasted_block(root)
    lines = (root / "docs/p.md").read_text().splitlines()
    changed = next(i for i, l in enumerate(lines, 1) if "AAAC" in l)
    begin = max(i for i, l in enumerate(lines[:changed], 1) if "example-begin:" in l)  # the block holding it
    target = lines[begin - 1].split("example-begin:")[1].split("-->")[0].strip()
    proc = invoke(root, "--check")
    assert f"drifted  docs/p.md:{begin}: the block pasted from examples/{target} differs from the file" in proc.out
    assert "+++ docs/p.md (as pasted)" in proc.out


def test_a_hand_edit_in_a_pasted_region_names_the_file_and_region_it_belongs_in(tmp_path):
    """An edit between the markers is undone by the command that fixes drift: the message says where the text comes
    from (the file, the region and its lines) and that the edit belongs there, before that command."""
    source = ECHO_ARGS.replace("import json", "# ANCHOR: top\nimport json", 1).replace(
        "def send(", "# ANCHOR_END: top\n\ndef send(", 1)
    root = make_repo(tmp_path, {"ex": {"server.py": source, "transcript.jsonl": CALLS}}, {"p.md": page("ex/server.py#top")})
    assert invoke(root).returncode == 0
    page_text = (root / "docs/p.md").read_text()
    edited = page_text.replace("import json", "import json as JSON", 1)
    (root / "docs/p.md").write_text(edited)
    line = next(n for n, l in enumerate(edited.splitlines(), 1) if "import json as JSON" in l)
    first, last = (next(n for n, l in enumerate(source.splitlines(), 1) if marker in l) for marker in
                   ("ANCHOR: top", "ANCHOR_END: top"))
    proc = invoke(root, "--check")
    assert proc.returncode == 5, proc.out
    note = (f"docs/p.md:{line} is the first line that differs. The text between these markers is copied from "
            f"examples/ex/server.py (region top, lines {first + 1}\u2013{last - 1}); an edit made on the page belongs "
            f"in examples/ex/server.py: make it there, then run the command below, which pastes the file's text here "
            f"again (and drops any edit made on the page).")
    assert note in " ".join(proc.out.split()), proc.out
    assert proc.out.index("is the first line that differs") < proc.out.index("Update answer keys and pages with:")


def test_a_missing_answer_key_is_drift_under_check(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}})
    before = snapshot(root)
    proc = invoke(root, "--check")
    assert proc.returncode == 5, proc.out
    assert "examples/ex/answer_key.jsonl is missing" in proc.out
    assert snapshot(root) == before


def test_check_writes_nothing_even_when_everything_is_wrong(tmp_path, rustc):
    """Compiled, failing, drifting and broken at once: no file under the repo changes (the build cache aside)."""
    root = make_repo(tmp_path, {
        "ok": {"server.py": ECHO},
        "rs": {"main.rs": "fn main() {}\n"},
        "crash": {"server.py": server("raise SystemExit(9)\n")},
    }, {"p.md": page("ok/transcript.jsonl", "ok/answer_key.jsonl", "rs/main.rs", "crash/transcript.jsonl"),
        "broken.md": "<!-- example-end -->\n"})
    before = snapshot(root)
    proc = tool(root, "--check")
    assert proc.returncode == 3, proc.out
    assert snapshot(root) == before


def test_the_fix_command_names_the_examples_given(tmp_path):
    root = echo_repo(tmp_path, other={"server.py": ECHO})
    edit_answer_key(root)
    proc = invoke(root, "--check", "ex")
    assert proc.returncode == 5
    assert proc.out.rstrip().splitlines()[-1] == f"{FIX} ex --root {root}"


# --- --list -------------------------------------------------------------------------------------------------------

def test_list(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}, "lonely": {"server.py": ECHO}},
                     {"p.md": page("ex/transcript.jsonl", "ex/server.py")})
    proc = tool(root, "--list")
    assert proc.returncode == 0, proc.out
    assert "ex\n  implementations: python (examples/ex/server.py)\n" in proc.out
    assert "  files: examples/ex/server.py, examples/ex/transcript.jsonl\n" in proc.out
    assert "  pasted by: docs/p.md:5, docs/p.md:10\n" in proc.out
    assert "lonely\n" in proc.out and "  pasted by: no page\n" in proc.out
    assert not (root / "examples/ex/answer_key.jsonl").exists()
    only = invoke(root, "--list", "lonely")
    assert only.returncode == 0 and "lonely\n" in only.out and "\nex\n" not in "\n" + only.out
    assert invoke(root, "--list", "nope").returncode == 2


def test_list_json(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO, "example.toml": "timeout = 2.5\n"
                                       + violation("stdout-not-a-message", 3, "why")}},
                     {"p.md": page("ex/transcript.jsonl")})
    proc = tool(root, "--list", "--json")
    assert proc.returncode == 0, proc.out
    data = json.loads(proc.stdout)
    assert data["broken"] == []
    [ex] = data["examples"]
    assert ex["name"] == "ex" and ex["dir"] == "examples/ex" and ex["timeout"] == 2.5
    assert ex["transcript"] == "examples/ex/transcript.jsonl" and ex["answer_key"] == "examples/ex/answer_key.jsonl"
    assert ex["expected_violations"] == [{"rule": "stdout-not-a-message", "line": 3, "reason": "why"}]
    assert ex["pages"] == ["docs/p.md:5"]
    [impl] = ex["implementations"]
    assert impl["name"] == "python" and impl["entry"] == "examples/ex/server.py"
    reply = subprocess.run(impl["command"], input=(req(1) + "\n").encode(), capture_output=True, timeout=20)
    assert json.loads(reply.stdout)["id"] == 1
    assert impl["serve_command"][-6:] == ["serve", "ex", "--impl", "python", "--root", str(root)]


def test_list_shows_broken_examples_and_exits_3(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}, "bad": {"server.py": ECHO, "example.toml": "x = 1\n"}})
    proc = tool(root, "--list")
    assert proc.returncode == 3
    assert "broken: examples/bad/example.toml:1: unknown key 'x'" in proc.out
    data = json.loads(tool(root, "--list", "--json").stdout)
    assert [e["name"] for e in data["examples"]] == ["ex"] and "unknown key 'x'" in data["broken"][0]


# --- selecting, parallel, repeat, shard -------------------------------------------------------------------------

def many(tmp_path, count=5):
    names = [f"ex{i}" for i in range(count)]
    return make_repo(tmp_path, {n: {"server.py": ECHO} for n in names}), names


def test_names_limit_the_run(tmp_path):
    root, names = many(tmp_path, 3)
    proc = invoke(root, "ex1")
    assert status_lines(proc.out) == {"ex1": "written"}
    assert [n for n in names if (root / "examples" / n / "answer_key.jsonl").exists()] == ["ex1"]


def test_a_named_broken_example_fails_the_run(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}, "bad": {"server.py": ECHO, "example.toml": "x = 1\n"}})
    proc = invoke(root, "bad")
    assert proc.returncode == 3, proc.out
    assert "failed   examples/bad/example.toml:1: unknown key 'x'" in proc.out
    clean = invoke(root, "ex")
    assert clean.returncode == 0, clean.out


def test_jobs_give_the_same_bytes_as_one_job(tmp_path):
    root, names = many(tmp_path, 4)
    parallel = invoke(root, "-j", "3")
    assert parallel.returncode == 0, parallel.out
    assert status_lines(parallel.out) == {n: "written" for n in names}
    keys = {n: (root / "examples" / n / "answer_key.jsonl").read_bytes() for n in names}
    serial = invoke(root, "-j", "1", "--check")
    assert serial.returncode == 0, serial.out
    assert status_lines(serial.out) == {n: "verified" for n in names}
    assert keys == {n: (root / "examples" / n / "answer_key.jsonl").read_bytes() for n in names}


def test_repeat_catches_nondeterminism(tmp_path):
    flaky = server('''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            answer(msg, nonce=os.urandom(8).hex())  # not the pid: in the sandbox every server is PID 2
    ''')
    root = make_repo(tmp_path, {"flaky": {"server.py": flaky}, "steady": {"server.py": ECHO}})
    assert invoke(root).returncode == 0, "one run cannot see it"
    proc = invoke(root, "--check", "--repeat", "3")
    assert proc.returncode == 3, proc.out
    assert "examples/flaky/server.py (python): nondeterministic: run 1 and run 2 wrote different stdout" in proc.out
    assert "--- run 1" in proc.out and "+++ run 2" in proc.out
    assert status_lines(proc.out) == {"flaky": "failed", "steady": "verified"}


def test_shards_partition_the_examples(tmp_path):
    root, names = many(tmp_path, 5)
    assert invoke(root).returncode == 0
    seen = []
    for k in (1, 2, 3):
        proc = invoke(root, "--check", "--shard", f"{k}/3")
        assert proc.returncode == 0, proc.out
        statuses = status_lines(proc.out)
        assert set(statuses.values()) <= {"verified"}
        assert statuses, f"shard {k}/3 ran nothing"
        seen.append(set(statuses))
    assert set().union(*seen) == set(names)
    assert sum(len(s) for s in seen) == len(names), "no example runs in two shards"
    assert status_lines(invoke(root, "--check", "--shard", "1/1").out) == {n: "verified" for n in names}


# --- GitHub annotations -------------------------------------------------------------------------------------------

def test_github_actions_annotations_for_drift_failures_and_broken_pages(tmp_path):
    stray = server('''
    for line in sys.stdin:
        msg = json.loads(line)
        if "id" in msg:
            if msg["id"] == 2:
                print("oops")
            answer(msg)
    ''')
    root = echo_repo(tmp_path)
    write(root / "examples/bad/server.py", stray)
    write(root / "examples/bad/transcript.jsonl", jsonl(req(1), req(2)))
    write(root / "docs/bad.md", page("bad/transcript.jsonl"))
    edit_answer_key(root)
    edit_pasted_block(root)
    env = {"GITHUB_ACTIONS": "true"}
    proc = tool(root, "--check", env=env)
    assert proc.returncode == 3, proc.out
    assert "::error file=examples/ex/answer_key.jsonl,line=2::ex: answer key drifted" in proc.out
    assert re.search(r"^::error file=docs/p\.md,line=\d+::pasted block differs", proc.out, re.M)
    at = stray.splitlines().index('            print("oops")') + 1  # the print that wrote the stray line
    assert re.search(rf"^::error file=examples/bad/server\.py,line={at}::bad: .*\[stdout-not-a-message\] stdout line 2:",
                     proc.out, re.M), proc.out
    assert "::error" not in tool(root, "--check").out, "annotations only on GitHub Actions"

    write(root / "docs/p.md", (root / "docs/p.md").read_text() + "\n<!-- example-end -->\n")
    broken = tool(root, "--check", "ex", env=env)
    line = (root / "docs/p.md").read_text().count("\n")
    assert broken.returncode == 4, broken.out
    assert f"::error file=docs/p.md,line={line}::example-end without an example-begin above it" in broken.out


def test_github_annotation_for_a_broken_example_folder(tmp_path):
    root = make_repo(tmp_path, {"bad": {"server.py": ECHO, "example.toml": "x = 1\n"}})
    proc = invoke(root, "--check", env={"GITHUB_ACTIONS": "true"})
    assert proc.returncode == 3
    assert re.search(r"^::error file=examples/bad/example\.toml,line=1::unknown key 'x'", proc.out, re.M), proc.out


# --- serve ----------------------------------------------------------------------------------------------------------

def serve(root, *args):
    return subprocess.Popen([sys.executable, str(TOOLS / "run_examples.py"), "serve", *args, "--root", str(root)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_serve_runs_the_server_on_this_stdin_and_stdout(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO_ARGS}})
    proc = serve(root, "ex", "--impl", "python")
    try:
        proc.stdin.write((req(7, "tools/call", name="echo", arguments={"text": "served"}) + "\n").encode())
        proc.stdin.flush()
        reply = json.loads(proc.stdout.readline())
        proc.stdin.close()
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
    assert reply["id"] == 7 and "served" in reply["result"]["content"][0]["text"]
    assert proc.stdout.read() == b"", "nothing but the server writes to stdout"


def test_serve_an_unknown_example_or_implementation(tmp_path):
    root = make_repo(tmp_path, {"ex": {"server.py": ECHO}})
    unknown = serve(root, "nope")
    _, err = unknown.communicate(timeout=20)
    assert unknown.returncode == 2 and b"no example named 'nope'" in err
    wrong = serve(root, "ex", "--impl", "rust")
    _, err = wrong.communicate(timeout=20)
    assert wrong.returncode != 0 and b"has no implementation 'rust' (it has: python)" in err


def test_a_hand_edit_in_a_pasted_answer_key_points_at_the_server_not_the_key(tmp_path):
    root = echo_repo(tmp_path)
    text = (root / "docs/p.md").read_text()
    key = text.index("<!-- example-begin: ex/answer_key.jsonl -->")
    (root / "docs/p.md").write_text(text[:key] + text[key:].replace("hello", "HELLO", 1))
    proc = invoke(root, "--check")
    assert proc.returncode == 5, proc.out
    said = " ".join(proc.out.split())
    assert ("The text between these markers is copied from examples/ex/answer_key.jsonl; examples/ex/answer_key.jsonl "
            "is written by the tool from what the server wrote: an edit made on the page belongs in the server (or the "
            "transcript), never in that file, then run the command below") in said, proc.out
