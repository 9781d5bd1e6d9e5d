"""One build of one row with one set of rmcp features, in the project's build sandbox (runex.sandboxing), offline:
`cargo check` first (the compiler's errors, without code generation), then, if that passes, the row's own build
and run.

The examples' workspace is copied to a scratch folder (.cache/rmcp-features/examples, mtimes kept, so cargo reuses
what it built before) and only the row's Cargo.toml is rewritten. Cargo runs with --offline against a fresh copy
of examples/Cargo.lock: the lock's versions, nothing downloaded. Not --locked: with fewer features cargo drops
unused packages from its copy of the lock, which --locked would refuse.
Its target folder sits under .cache/cargo-target (which CI caches), apart from the tool's own, so a feature build
never overwrites a binary the examples' check is about to copy.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .. import sandboxing
from .. import toolchain

from . import manifest
from .rows import Row

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
SCRATCH = ROOT / ".cache" / "rmcp-features"
TARGET = ROOT / ".cache" / "cargo-target" / "rmcp-features"
INSIDE_SRC, INSIDE_TARGET, CARGO_HOME = "/src", "/target", "/opt/cargo-home"
TIMEOUT = 900.0
REPLY_TIMEOUT = 30.0
HASH = re.compile(r"-[0-9a-f]{16}\b")
PATH = re.compile(r"(/[\w.@+-]+)+/(?=[\w.-]+\b)")


@dataclass(frozen=True)
class Outcome:
    ok: bool
    said: str  # "" when it built and ran; else the first error, normalised

    def word(self) -> str:
        return "builds and runs" if self.ok else self.said


def prepare() -> Path:
    """A fresh scratch copy of examples/, owned by the sandbox's user when we are root."""
    copy = SCRATCH / "examples"
    if copy.exists():
        shutil.rmtree(copy)
    shutil.copytree(EXAMPLES, copy, ignore=shutil.ignore_patterns("target", "__pycache__"))
    TARGET.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        for folder in (SCRATCH, TARGET):
            os.chown(folder, sandboxing.NOBODY, sandboxing.NOBODY)
        for path in [copy, *copy.rglob("*")]:
            os.chown(path, sandboxing.NOBODY, sandboxing.NOBODY, follow_symlinks=False)
    return copy


def normalise(line: str) -> str:
    """No folders and no cargo hashes: the same error reads the same on every machine."""
    return HASH.sub("", PATH.sub("", line)).strip()


def first_error(text: str) -> str:
    for line in text.splitlines():
        if line.startswith("error") and not line.startswith("error: could not compile"):
            return normalise(line)
    return ""


def _spec(argv: list[str], writable: bool) -> sandboxing.Spec:
    sysroot = str(toolchain.sysroot())
    home = Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")
    mounts = ((str(SCRATCH), INSIDE_SRC), (str(TARGET), INSIDE_TARGET))
    env = {**sandboxing.base_env("/tmp"), "CARGO_HOME": CARGO_HOME, "CARGO_TARGET_DIR": INSIDE_TARGET,
           "RUSTC": f"{sysroot}/bin/rustc", "CARGO_TERM_COLOR": "never"}
    return sandboxing.Spec(
        argv, read_only=((sysroot, sysroot), *((str(home / d), f"{CARGO_HOME}/{d}") for d in ("registry", "git")),
                         *(() if writable else mounts)),
        writable=mounts if writable else (), env=env, chdir=f"{INSIDE_SRC}/examples",
        limits=sandboxing.BUILD_LIMITS)


def _cargo_argv(row: Row, verb: str) -> list[str]:
    """`cargo check` or the row's own `cargo build` / `cargo test`, offline."""
    cargo = str(toolchain.sysroot() / "bin" / "cargo")
    target = ["--target", row.target] if row.target else []
    scope = {"test": ["--bins", "--tests"], "lib": ["--lib"], "stdio": ["--bins"]}[row.step]
    if verb == "build" and row.step == "test":  # as the examples' check runs them (runex/run/own_tests.py)
        verb, scope = "test", ["--test", "*", "--no-fail-fast"]
        target += ["--", "--test-threads=1"]
    return [cargo, verb, "--offline", "-p", row.crate, *scope, *target]


def _converse(proc, transcript: list[str]) -> list[str]:
    """Each transcript line in turn; after a request, its reply (as the examples' check feeds them)."""
    replies = []
    for line in transcript:
        proc.stdin.write(line.encode() + b"\n")
        if "id" in json.loads(line) and "method" in json.loads(line):
            ready, _, _ = select.select([proc.stdout], [], [], REPLY_TIMEOUT)
            reply = _read_line(proc.stdout) if ready else b""
            if not reply:
                break
            replies.append(reply.decode("utf-8", "replace").rstrip("\n"))
    proc.stdin.close()
    return replies


def _read_line(stream) -> bytes:
    line = b""
    while not line.endswith(b"\n"):
        byte = stream.read(1)
        if not byte:
            break
        line += byte
    return line


def _run_transcript(row: Row, sandbox: sandboxing.Sandbox) -> Outcome:
    """The built server with its transcript, a line at a time: its replies must be its answer key, line by line."""
    transcript = (EXAMPLES / row.crate / "transcript.jsonl").read_text(encoding="utf-8").splitlines()
    want = (EXAMPLES / row.crate / "answer_key.jsonl").read_text(encoding="utf-8").splitlines()
    proc = sandbox.popen_pipes(_spec([f"{INSIDE_TARGET}/debug/{row.crate}"], writable=False))
    got: list[str] = []
    try:
        got = _converse(proc, transcript)
        proc.wait(timeout=REPLY_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        pass  # a server that stops reading or never exits: its replies so far are compared below
    finally:
        sandboxing.kill(proc)
        proc.wait()
        for stream in (proc.stdout, proc.stderr):
            stream.close()
    if got == want:
        return Outcome(True, "")
    same = sum(a == b for a, b in zip(got, want))
    return Outcome(False, f"builds, but its replies are not the answer key's ({same} of {len(want)} lines as "
                          f"expected)")


def _test_failure(proc) -> str:
    out = proc.stdout.decode("utf-8", "replace")
    for line in out.splitlines():
        if "panicked at" in line or line.startswith("test result: FAILED"):
            return "builds, but a test fails: " + normalise(line)
    return f"cargo test exits {proc.returncode}"


def attempt(row: Row, features: list[str], copy: Path, sandbox: sandboxing.Sandbox) -> Outcome:
    """Check, build and run the row with exactly `features` of rmcp: a missing feature stops at the check, so
    only the builds that compile pay for code generation."""
    member = copy / row.crate / "Cargo.toml"
    member.write_text(manifest.rewrite(EXAMPLES / row.crate / "Cargo.toml", features), encoding="utf-8")
    shutil.copyfile(EXAMPLES / "Cargo.lock", copy / "Cargo.lock")
    checked = _cargo(row, "check", sandbox)  # a missing feature fails here, without code generation
    if not checked.ok:
        return checked
    built = _cargo(row, "build", sandbox)
    if not built.ok:
        return built
    return _run_transcript(row, sandbox) if row.step == "stdio" else built


def _cargo(row: Row, verb: str, sandbox: sandboxing.Sandbox) -> Outcome:
    proc = sandbox.run(_spec(_cargo_argv(row, verb), writable=True), timeout=TIMEOUT)
    if proc.returncode is None:
        return Outcome(False, f"did not finish within {TIMEOUT:g} s")
    error = first_error(proc.stderr.decode("utf-8", "replace"))
    if error:
        return Outcome(False, error)
    if proc.returncode != 0 and row.step == "test":
        return Outcome(False, _test_failure(proc))
    if proc.returncode != 0:
        return Outcome(False, f"cargo exits {proc.returncode} without an error line")
    return Outcome(True, "")
