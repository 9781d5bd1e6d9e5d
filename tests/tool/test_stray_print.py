"""A stray line on stdout is reported at the print that wrote it: `FILE:LINE (impl)`, the source file and line an
author changes (a cargo project's src/main.rs, never its Cargo.toml), with the print's code."""

from __future__ import annotations


from support.tool_repos import invoke, jsonl, make_repo, py_twin, req, rust_echo, server

from runex.examples.model import Implementation, ImplementationKind
from runex.run import stray_print

CARGO_TOML = '[package]\nname = "stray"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
DEBUG = '        if n == 2 {\n            println!("debug: handling request {n} of {}", "many");\n        }\n'


def rust_with_a_debug_print() -> tuple[str, int]:
    """RUST_ECHO with a println! before its second reply, and the line the println! is on."""
    source = rust_echo("cargo").replace("        let mut out = stdout.lock();\n",
                                        DEBUG + "        let mut out = stdout.lock();\n", 1)
    return source, source.splitlines().index('            println!("debug: handling request {n} of {}", "many");') + 1


def python_twin_with_a_debug_print() -> tuple[str, int]:
    code = '        print(f"debug: handling request {n} of many")'
    source = py_twin("cargo").replace("    result = {", f"    if n == 2:\n{code}\n    result = {{", 1)
    return source, source.splitlines().index(code) + 1


def test_a_println_in_a_cargo_server_is_reported_at_src_main_rs_and_its_line(tmp_path, cargo):
    source, line = rust_with_a_debug_print()
    root = make_repo(tmp_path, {"stray": {"Cargo.toml": CARGO_TOML, "src/main.rs": source,
                                          "transcript.jsonl": jsonl(req(1), req(2))}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    expected = (f"examples/stray/src/main.rs:{line} (cargo): [stdout-not-a-message] stdout line 2: not a JSON-RPC "
                f"message on stdout: 'debug: handling request 2 of many'")
    assert expected in proc.out, proc.out
    assert 'the stray line: written by `println!("debug: handling request {n} of {}", "many");`' in proc.out
    assert "Cargo.toml (cargo)" not in proc.out


def test_twins_that_both_print_it_are_each_named_at_their_print(tmp_path, cargo):
    rust, rust_line = rust_with_a_debug_print()
    python, python_line = python_twin_with_a_debug_print()
    root = make_repo(tmp_path, {"stray": {"Cargo.toml": CARGO_TOML, "src/main.rs": rust, "server.py": python,
                                          "transcript.jsonl": jsonl(req(1), req(2))}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert (f"examples/stray/src/main.rs:{rust_line} (cargo) and examples/stray/server.py:{python_line} (python): "
            f"[stdout-not-a-message] stdout line 2:") in proc.out, proc.out
    assert ('cargo: written by `println!("debug: handling request {n} of {}", "many");`; python: written by '
            '`print(f"debug: handling request {n} of many")`') in proc.out


def test_a_print_in_a_python_server_is_reported_at_server_py_and_its_line(tmp_path):
    body = '''
    for n, line in enumerate(sys.stdin, 1):
        msg = json.loads(line)
        eprint = print  # a name that is not print(): never taken for the culprit
        print(f"(never) {n}", file=sys.stderr)
        if n == 2:
            print(f"debug: handling request {n}")
        answer(msg)
    '''
    text = server(body)
    line = text.splitlines().index('        print(f"debug: handling request {n}")') + 1
    root = make_repo(tmp_path, {"srv": {"server.py": text, "transcript.jsonl": jsonl(req(1), req(2))}})
    proc = invoke(root)
    assert proc.returncode == 3, proc.out
    assert f"examples/srv/server.py:{line} (python): [stdout-not-a-message] stdout line 2:" in proc.out, proc.out
    assert 'written by `print(f"debug: handling request {n}")`' in proc.out


def test_the_best_matching_print_is_chosen_and_stderr_prints_are_not(tmp_path):
    src = tmp_path / "ex" / "src"
    src.mkdir(parents=True)
    (src / "main.rs").write_text('fn main() {\n    eprintln!("got request {m}");\n    println!("{}", reply);\n'
                                 '    println!("got {what}");\n    println!(\n        "got request {m} id={id}",\n'
                                 '    );\n}\n')
    impl = Implementation(ImplementationKind.CARGO, src.parent, src.parent / "Cargo.toml")
    found = stray_print.find(impl, "got request tools/call id=3")
    assert [(p.file.name, p.line) for p in found] == [("main.rs", 5)]
    assert stray_print.find(impl, "nothing like it") == []
    file, line, said = stray_print.at_source(impl, "nothing like it", tmp_path)
    assert (file, line) == ("ex/src/main.rs", None) and "no print" in said
