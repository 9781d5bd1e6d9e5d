"""An example's own tests (example.toml `test = "cargo"` or `"pytest"`): run in the sandbox once the example has
verified, their output recorded in tests.<runner>.txt and checked like the answer key.

    cargo   `cargo test --test '*'`: the crate's tests/*.rs, one at a time (the order is then the same every run),
            in the build sandbox, on the workspace's target folder, so only what the tests add is compiled.
    pytest  `python -m pytest -v` in the example's folder, on the tool's interpreter and pinned packages, with no
            plugin but anyio's (which the tests use), so the tool's own pytest plugins change nothing.

The tests see the example's folder as this run verified it: a copy (mtimes kept, so cargo's fingerprints hold)
holding the answer key this run wrote or checked, bound where the folder is. Runners print durations; NOISE below
replaces each with `<time>` (and drops cargo's progress lines and the hash in a test binary's name), so the record
changes only when a test's name or verdict does. A failing test fails the example, named at its file and line.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import sandboxing
from .. import toolchain
from ..builds import native
from ..examples.model import ANSWER_KEY, TEST_RUNNERS, Example, ImplementationKind
from ..examples.outcome import Outcome, Status

TIMEOUT = native.BUILD_TIMEOUT  # a first `cargo test` compiles the tests' dependencies
WIDTH = 80  # pytest's terminal width without a terminal; its summary line is centred in it

# (pattern, replacement) over the combined stdout and stderr, line by line; None drops the line.
NOISE = (
    (re.compile(r"^\s*(Compiling|Finished|Fresh|Blocking|Locking|Downloaded?|Updating)\b.*$"), None),
    (re.compile(r"\(\S*/(debug|release)/deps/(\S+)-[0-9a-f]{16}\)"), r"(target/\1/deps/\2-<hash>)"),
    (re.compile(r"finished in \d+(\.\d+)?s"), "finished in <time>"),
)
PYTEST_SUMMARY = re.compile(r"^=+ (?P<what>.+) in \d+(\.\d+)?s(?: \([\d:.]+\))? =+$")


def run(root: Path, example: Example, outcome: Outcome, stdout: bytes, cache: native.Cache, *, check: bool,
        repeat: int, sandbox: sandboxing.Sandbox) -> None:
    """Run the example's tests against `stdout` as its answer key (`repeat` times, their outputs compared); record
    their output or fail the outcome."""
    runner = example.config.test
    impl = example.implementation(TEST_RUNNERS[runner])
    outputs = []
    with tempfile.TemporaryDirectory(prefix="runex-tests-") as scratch:
        folder = _verified_copy(example, stdout, Path(scratch))
        if sandbox.enabled and sandbox.as_root:
            Path(scratch).chmod(0o755)  # the sandboxed runner is nobody: it must enter the (read-only) copy
        if runner == "cargo":
            native.fetch(root, impl, locked=check)  # the dev-dependencies: usually there already
        for _ in range(max(1, repeat)):
            code, text = _run_once(root, example, impl, cache, folder, sandbox)
            if code != 0:
                outcome.fail(*_failure(root, example, runner, code, text))
                return
            outputs.append(normalize(text).encode("utf-8"))
    if _same(example, outcome, outputs):
        _record(example, outcome, outputs[0], check)


def _run_once(root: Path, example: Example, impl, cache: native.Cache, folder: Path, sandbox: sandboxing.Sandbox
              ) -> tuple[int | None, str]:
    if example.config.test == "cargo":
        spec, cwd = _cargo_spec(root, impl, cache, folder, sandbox)
        with native.workspace_build:  # one cargo at a time on the shared target folder
            return _run(spec, sandbox, cwd)
    spec, cwd = _pytest_spec(root, example, folder, sandbox)
    return _run(spec, sandbox, cwd)


def _same(example: Example, outcome: Outcome, outputs: list[bytes]) -> bool:
    """With --repeat, every run's normalized output must be the first's (a test whose output varies cannot be
    recorded)."""
    from ..answer_key.compare import diff_bytes

    rel = outcome.rel(example.tests_file)
    for number, other in enumerate(outputs[1:], start=2):
        if other != outputs[0]:
            outcome.fail(f"{rel}: nondeterministic: the tests' output of run 1 and run {number} differ; make what "
                         f"they print the same every run\n" + diff_bytes(outputs[0], other, "run 1", f"run {number}"),
                         rel)
            return False
    return True


def _verified_copy(example: Example, stdout: bytes, scratch: Path) -> Path:
    """The example's folder as the tests must see it: its files, and the answer key this run verified."""
    folder = scratch / example.name
    shutil.copytree(example.dir, folder, symlinks=True, ignore=shutil.ignore_patterns("target", "__pycache__"))
    (folder / ANSWER_KEY).write_bytes(stdout)
    return folder


def _inside(root: Path, example: Example) -> str:
    return f"{native.SOURCE_ROOT}/{example.dir.relative_to(root).as_posix()}"


def _cargo_spec(root: Path, impl, cache: native.Cache, folder: Path, sandbox: sandboxing.Sandbox
                ) -> tuple[sandboxing.Spec, str | None]:
    """`cargo test` as compile.py runs `cargo build`: toolchain, sources and downloaded crates read-only, the target
    folder writable, no network; the verified copy bound over the example's own folder. --unsandboxed: on the
    host, in the example's own folder (its answer key as it is on disk)."""
    workspace = native.workspace_of(impl)
    target = cache.cargo_targets / ("workspace" if workspace else impl.source_dir.name)
    target.mkdir(parents=True, exist_ok=True)
    tests = ["--test", "*", "--no-fail-fast", "--", "--test-threads=1"]
    if not sandbox.enabled:
        argv = ["cargo", "test", "--frozen", "--offline", "--manifest-path", str(impl.entry), *tests]
        return sandboxing.Spec(argv, env=dict(os.environ, CARGO_TARGET_DIR=str(target))), str(root)
    native.writable_by_sandbox(target, sandbox)
    toolchain_dir = toolchain.sysroot()
    host_src, inside_src = native.source_mount(root, impl, workspace)
    home = "/opt/cargo-home"
    downloads = [native.cargo_home() / "registry", native.cargo_home() / "git"]
    env = {**sandboxing.base_env("/tmp"), "CARGO_HOME": home, "CARGO_TARGET_DIR": "/target",
           "RUSTC": str(toolchain_dir / "bin" / "rustc"), "CARGO_TERM_COLOR": "never"}
    manifest = f"{native.SOURCE_ROOT}/{impl.entry.relative_to(root).as_posix()}"
    argv = [str(toolchain_dir / "bin" / "cargo"), "test", "--frozen", "--offline", "--manifest-path", manifest, *tests]
    read_only = ((str(toolchain_dir), str(toolchain_dir)), (host_src, inside_src),
                 *((str(d), f"{home}/{d.name}") for d in downloads if d.is_dir()),
                 (str(folder), f"{native.SOURCE_ROOT}/{impl.source_dir.relative_to(root).as_posix()}"))
    return sandboxing.Spec(argv, read_only=read_only, writable=((str(target), "/target"),), env=env,
                           chdir=native.SOURCE_ROOT, limits=sandboxing.BUILD_LIMITS), None


def _pytest_spec(root: Path, example: Example, folder: Path, sandbox: sandboxing.Sandbox
                 ) -> tuple[sandboxing.Spec, str | None]:
    """pytest on the tool's interpreter, mounted as a Python server's is (compile.python_launch)."""
    launch = native.python_launch(example.implementation(ImplementationKind.PYTHON))
    options = ["-m", "pytest", "-v", "--no-header", "--tb=short", "-p", "no:cacheprovider", "-p", "anyio"]
    if not sandbox.enabled:
        env = {**sandboxing.base_env(str(folder.parent)), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
        return sandboxing.Spec([sys.executable, *options], env=env, limits=sandboxing.BUILD_LIMITS), str(folder)
    inside = _inside(root, example)
    env = {**sandboxing.base_env("/tmp"), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    mounts = tuple(m for m in launch.mounts if not m[1].startswith(native.INSIDE)) + ((str(folder), inside),)
    return sandboxing.Spec([launch.inside[0], *options], read_only=mounts, env=env, chdir=inside,
                           limits=sandboxing.BUILD_LIMITS), None


def _run(spec: sandboxing.Spec, sandbox: sandboxing.Sandbox, host_cwd: str | None) -> tuple[int | None, str]:
    """The exit status (None: stopped after TIMEOUT) and stdout and stderr as one text, in the order written."""
    proc = sandbox.popen(spec, host_cwd=host_cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        sandboxing.kill(proc)
        out, _ = proc.communicate()
        return None, out.decode("utf-8", "replace")
    return proc.returncode, out.decode("utf-8", "replace")


def normalize(text: str) -> str:
    """The runner's output without what changes from run to run (NOISE, and pytest's summary line's duration)."""
    kept = []
    for line in text.splitlines():
        for pattern, replacement in NOISE:
            if replacement is None and pattern.match(line):
                line = None
                break
            line = pattern.sub(replacement, line) if replacement is not None else line
        if line is None:
            continue
        summary = PYTEST_SUMMARY.match(line)
        if summary:
            line = f" {summary.group('what')} in <time> ".center(WIDTH, "=")
        kept.append(line)
    return "\n".join(kept).strip("\n") + "\n"


def _record(example: Example, outcome: Outcome, data: bytes, check: bool) -> None:
    """tests.<runner>.txt against this run's output: verified, drifted (--check) or written."""
    from ..answer_key.compare import diff_bytes, first_difference

    path = example.tests_file
    rel = outcome.rel(path)
    outcome.side_files[path] = data
    current = path.read_bytes() if path.exists() else None
    if current == data:
        return
    if not check:
        outcome.status = Status.WRITTEN
        return
    outcome.status = Status.DRIFTED
    outcome.diff += (f"{rel} is missing\n" if current is None
                     else diff_bytes(current, data, f"{rel} (checked in)", f"{rel} ({example.config.test} now)"))
    outcome.locations.append((rel, None if current is None else first_difference(current, data),
                              "test output drifted"))


# Where a runner says a test failed: cargo's panic line, rustc's error location, pytest's section header and the
# first traceback line under it (with --tb=short, the line in the test file).
PANIC = re.compile(r"^thread '(?P<test>[^']+)'(?: \(\d+\))? panicked at (?P<file>[^:\s]+):(?P<line>\d+):\d+:?$")
RUSTC_AT = re.compile(r"^\s*--> (?P<file>[^:\s]+):(?P<line>\d+):\d+$")
PYTEST_SECTION = re.compile(r"^_{3,} (?P<test>\S+) _{3,}$")
PYTEST_AT = re.compile(r"^(?P<file>[^:\s]+\.py):(?P<line>\d+): ")


def _failure(root: Path, example: Example, runner: str, code: int | None, text: str
             ) -> tuple[str, str | None, int | None]:
    """The message, file and line of a failed test run: every failing test and where it failed, the first one's
    file and line to annotate."""
    rel_dir = example.dir.relative_to(root).as_posix()
    command = "cargo test" if runner == "cargo" else "pytest"
    status = f"did not finish within {TIMEOUT:g} s and was stopped" if code is None else f"failed (exit {code})"
    failures = [(test, _in_repo(example, rel_dir, file), line)
                for test, file, line in _failures(runner, text.splitlines())]
    where, line = (failures[0][1], failures[0][2]) if failures else (f"{rel_dir}/example.toml", None)
    named = "; ".join(f"test {test} failed at {file}:{at}" if test else f"{file}:{at}" for test, file, at in failures)
    tail = "\n".join(text.splitlines()[-60:])
    message = (f"{where}{f':{line}' if line else ''}: {command} {status}{': ' + named if named else ''}; fix the "
               f"test or the server, then run `python tools/run_examples.py {example.name}`\n{tail}")
    return message, where, line


def _in_repo(example: Example, rel_dir: str, file: str) -> str:
    """A runner's path as the repository names it: cargo gives a workspace member's relative to examples/."""
    if file.startswith(f"{example.name}/"):
        return f"examples/{file}"
    return f"{rel_dir}/{file}"


def _failures(runner: str, lines: list[str]) -> list[tuple[str | None, str, int]]:
    """(test, file, line) for each failure the runner reported, in its order."""
    found = []
    if runner == "cargo":
        for text in lines:
            hit = PANIC.match(text) or RUSTC_AT.match(text)
            if hit:
                found.append((hit.groupdict().get("test"), hit["file"], int(hit["line"])))
        return found
    test = None
    for text in lines:
        section = PYTEST_SECTION.match(text)
        if section:
            test = section["test"]
            continue
        at = PYTEST_AT.match(text)
        if at and test is not None:
            found.append((test, at["file"], int(at["line"])))
            test = None
    return found
