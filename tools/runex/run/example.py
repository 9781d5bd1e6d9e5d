"""Verify one example, stage by stage: its transcript's rules, then each implementation built and run through its
transport's driver (repeated for determinism), the twins compared, the wire checked, the answer key compared."""

from __future__ import annotations

import time
from pathlib import Path

from .. import sandboxing
from ..answer_key import compare
from ..builds import native
from ..errors import BuildError, ExampleError
from ..examples.model import Example, Implementation
from ..examples.outcome import Outcome, Status
from ..wire import rules
from ..wire.check import MessageValidator
from ..wire.rules import Problem
from .driver import Driver


def verify(root: Path, example: Example, cache: native.Cache, *, check: bool, repeat: int,
           validator: MessageValidator | None, sandbox: sandboxing.Sandbox | None = None) -> Outcome:
    started = time.monotonic()
    outcome = Outcome(example, root, Status.VERIFIED)
    sandbox = sandbox or sandboxing.Sandbox()
    try:
        _verify(root, example, cache, outcome, check=check, repeat=repeat, validator=validator, sandbox=sandbox)
    except ExampleError as exc:
        outcome.fail(exc.message, exc.file, exc.line)
    outcome.seconds = time.monotonic() - started
    if outcome.status == Status.FAILED:
        outcome.stdout = None
    return outcome


def _verify(root: Path, example: Example, cache: native.Cache, outcome: Outcome, *, check: bool, repeat: int,
            validator: MessageValidator | None, sandbox: sandboxing.Sandbox) -> None:
    # Imported here: a run whose every result is cached builds an Outcome but verifies nothing.
    from ..wire import transcript

    rel_transcript = outcome.rel(example.transcript)
    lines, found = transcript.read(example.transcript, rel_transcript)
    transcript_expected = _transcript_stage(example, outcome, lines, found, validator)
    if transcript_expected is None:
        return  # a transcript that breaks rules is not fed to a server: fix the transcript first
    outputs, http_runs = {}, {}
    for impl in example.implementations:
        stdout = _run_stage(root, example, impl, cache, outcome, lines, check=check, repeat=repeat, sandbox=sandbox,
                            validator=validator)
        if stdout is None:
            return
        outputs[impl.name] = stdout
        if example.serves_http(impl.name):
            from . import http_stage

            exchanges = http_stage.run(root, example, impl, cache, outcome, lines, stdout, check=check,
                                       repeat=repeat, sandbox=sandbox)
            if exchanges is None:
                return
            http_runs[impl.name] = exchanges
    stdout = _agreed(outputs, outcome, example)
    if stdout is None:
        _twin_faults(example, outcome, outputs, lines, validator)
        return
    _wire_stage(example, outcome, stdout, lines, transcript_expected, validator)
    if http_runs:
        http_stage.rules_and_records(example, outcome, http_runs)
    if outcome.status == Status.FAILED:
        return
    outcome.stdout = stdout
    compare.record(example, outcome, stdout, check)
    if example.config.test is not None and outcome.status != Status.FAILED:
        from . import own_tests  # example.toml's `test`: the example's own tests, their output recorded

        own_tests.run(root, example, outcome, stdout, cache, check=check, repeat=repeat, sandbox=sandbox)
        if outcome.status == Status.FAILED:
            return
    _browser_stage(root, example, cache, check=check, sandbox=sandbox)


def _browser_stage(root: Path, example: Example, cache: native.Cache, *, check: bool,
                   sandbox: sandboxing.Sandbox) -> None:
    """Each Rust implementation the reader's browser runs, built for wasm32-wasip1 (build/wasm.py); a BuildError
    fails the example, naming example.toml's [not_in_browser] as the way out."""
    from ..builds import wasm

    if not wasm.site_runs_rust(root):
        return
    for impl in wasm.runs_in_browser(example):
        wasm.prepare(root, example, impl, cache, locked=check, sandbox=sandbox)


def driver_for(example: Example, impl: Implementation) -> Driver:
    """The driver that holds the conversation the answer key records (run/driver.py): stdio, in lockstep unless
    example.toml paces some lines with [[send]] (run/paced.py). An implementation that also serves HTTP is run a
    second time by run/http_stage.py, held to the same answer key."""
    if example.config.sends:
        from .paced import Paced

        return Paced(example.config.sends)
    from . import stdio

    return stdio.Lockstep()


def _transcript_stage(example: Example, outcome: Outcome, lines, found: list[Problem],
                      validator: MessageValidator | None) -> list[Problem] | None:
    """The transcript's own rules: the problems it declares, or None (the outcome failed) when it breaks one."""
    from ..wire import check as wire

    rel_transcript = outcome.rel(example.transcript)
    _check_sends(example, outcome, lines)
    found += wire.check_transcript_schema(lines, rel_transcript, validator)
    found += wire.check_late_cancels(lines, rel_transcript, example.config.sends)
    sorted_out = rules.match(found, example.config.expected_violations)
    for problem in sorted_out.unexpected:
        outcome.fail(str(problem), problem.file, problem.line)
    return None if sorted_out.unexpected else sorted_out.expected


def _check_sends(example: Example, outcome: Outcome, lines) -> None:
    """example.toml's [[send]] tables against the transcript they pace (wire/accounting.py)."""
    if not example.config.sends:
        return
    from ..errors import ConfigError
    from ..wire import accounting

    found = accounting.problems(lines, example.config.sends)
    if found:
        message, line = found[0]
        rel = outcome.rel(example.dir / "example.toml")
        raise ConfigError(f"{rel}:{line}: {message}", file=rel, line=line)


def _run_stage(root: Path, example: Example, impl: Implementation, cache: native.Cache, outcome: Outcome, lines, *,
               check: bool, repeat: int, sandbox: sandboxing.Sandbox,
               validator: MessageValidator | None) -> bytes | None:
    """Build one implementation and hold the conversation `repeat` times through its transport's driver: its
    stdout, or None (the outcome failed)."""
    try:
        built = native.prepare(root, impl, cache, locked=check, sandbox=sandbox)
    except BuildError:
        outcome.compiled.append(impl.name)  # the compiler ran and failed: not a cached build
        raise
    if built.compiled:
        outcome.compiled.append(impl.name)
    rel_entry = outcome.rel(impl.entry)
    driver = driver_for(example, impl)
    runs = []
    for _ in range(max(1, repeat)):
        result = driver.converse(lambda home: built.spec(sandbox.enabled, home), lines,
                                 timeout=example.config.timeout, max_output=example.config.max_output_bytes,
                                 sandbox=sandbox)
        outcome.stderr[impl.name] = result.stderr
        if result.failure is None and result.returncode != example.config.exit_code:
            result.failure = f"the server exited with status {result.returncode}, expected {example.config.exit_code}"
        if result.failure is not None:
            outcome.fail(result.failure_report(f"{rel_entry} ({impl.name})"), rel_entry)
            _wire_stage_cut_short(example, impl, outcome, result, lines, validator)
            return None
        runs.append(result.stdout)
    for number, other in enumerate(runs[1:], start=2):
        if other != runs[0]:
            outcome.fail(f"{rel_entry} ({impl.name}): nondeterministic: run 1 and run {number} wrote different "
                         f"stdout\n" + compare.diff_bytes(runs[0], other, "run 1", f"run {number}"), rel_entry)
            return None
    return runs[0]


def _agreed(outputs: dict[str, bytes], outcome: Outcome, example: Example) -> bytes | None:
    """The one stdout every twin wrote, or None (the outcome failed) when two differ: which twin still writes the
    answer key, and each differing value (answer_key/compare.py, disagreement)."""
    names, first = list(outputs), next(iter(outputs.values()))
    if all(out == first for out in outputs.values()):
        return first
    rel_key = outcome.rel(example.answer_key)
    key = example.answer_key.read_bytes() if example.answer_key.is_file() else None
    sources = {name: outcome.rel(_edited_file(example.implementation(name))) for name in names}
    said, line = compare.disagreement(outputs, key, sources)
    outcome.fail(f"{rel_key}:{line}: twins disagree: {' and '.join(names)} wrote different stdout for the same "
                 f"transcript; they must match byte for byte. {said}", rel_key, line)
    return None


def _edited_file(impl: Implementation) -> Path:
    """The file an author edits to change what `impl` writes: a cargo project's src/main.rs, not its Cargo.toml."""
    from . import stray_print

    return next(iter(stray_print.source_files(impl)), impl.entry)


def _twin_faults(example: Example, outcome: Outcome, outputs: dict[str, bytes], lines,
                 validator: MessageValidator | None) -> None:
    """When twins disagree, the wire rules each one breaks (a stray print() on stdout, say), named at that twin's
    own file and put before the disagreement: the twin is what to fix, never the answer key."""
    from ..wire import check as wire

    rel_key, rel_transcript = outcome.rel(example.answer_key), outcome.rel(example.transcript)
    faults = []
    for name, stdout in outputs.items():
        impl = example.implementation(name)
        found = wire.check_stdout(stdout, lines, rel_key, rel_transcript, validator, example.config.sends)
        for problem in rules.match(found, example.config.expected_violations).unexpected:
            faults.append(_at_the_server(problem, [impl], outcome, stdout))
    for text, file, line in reversed(faults):
        outcome.fail_first(text, file, line)


def _at_the_server(problem: Problem, impls: list[Implementation], outcome: Outcome,
                   stdout: bytes) -> tuple[str, str, int | None]:
    """A broken stdout rule named at the servers that wrote the line (twins that agree wrote the same stdout, so
    both broke it), never at the answer key, which is the one file an author must not edit; a stray line at the
    print that wrote it (run/stray_print.py). Any other rule keeps its own file and line. Returns the text, the
    file and the line to annotate."""
    if rules.RULES.get(problem.rule) != "stdout":
        return str(problem), problem.file, problem.line
    if problem.rule == "stdout-not-a-message":
        from . import stray_print

        return stray_print.report(problem, impls, outcome.root, stdout)
    servers = " and ".join(f"{outcome.rel(impl.entry)} ({impl.name})" for impl in impls)
    return (f"{servers}: [{problem.rule}] stdout line {problem.line}: {problem.message}", outcome.rel(impls[0].entry),
            None)


# After a run that stopped, these rules say what the failure said already (the reply it waited for) or what stopping
# the server did (a line cut in half); the rest of what the server wrote is still checked, as a compiler goes on.
_SAID_BY_THE_FAILURE = {"stdout-missing-reply", "stdout-unterminated-line"}


def _wire_stage_cut_short(example: Example, impl: Implementation, outcome: Outcome, result, lines,
                          validator) -> None:
    """The wire rules over what a failed run wrote before it stopped: every other fault is reported with it."""
    from ..wire import check as wire

    if (result.failure or "").startswith("flood:"):
        return  # megabytes of output cut at a limit: the flood is the fault
    sent = lines if result.lines_sent is None else lines[:result.lines_sent]
    found = wire.check_stdout(result.stdout, sent, outcome.rel(example.answer_key), outcome.rel(example.transcript),
                              validator, example.config.sends)
    found = [p for p in found if p.rule not in _SAID_BY_THE_FAILURE]
    for problem in rules.match(found, example.config.expected_violations).unexpected:
        outcome.fail(*_at_the_server(problem, [impl], outcome, result.stdout))


def _wire_stage(example: Example, outcome: Outcome, stdout: bytes, lines, transcript_expected: list[Problem],
                validator: MessageValidator | None) -> None:
    """The stdout rules over the agreed stdout; a declared violation that did not happen fails too."""
    from ..wire import check as wire

    found = wire.check_stdout(stdout, lines, outcome.rel(example.answer_key), outcome.rel(example.transcript),
                              validator, example.config.sends)
    sorted_out = rules.match(found, example.config.expected_violations)
    vanished = [v for v in sorted_out.vanished if not v.rule.startswith("http-")  # run/http_stage.py's to judge
                and not any(p.rule == v.rule and p.line == v.line for p in transcript_expected)]
    for problem in sorted_out.unexpected:
        outcome.fail(*_at_the_server(problem, example.implementations, outcome, stdout))
    for declared in vanished:
        rel_config = outcome.rel(example.dir / "example.toml")
        outcome.fail(f"{rel_config} declares [{declared.rule}] at line {declared.line}, but it did not happen; "
                     f"fix the example or remove the declaration", rel_config)
    outcome.expected = transcript_expected + sorted_out.expected
