"""The pipeline as an API: `run(root, options) -> Report`, one function per stage, typed values between them.

    plan             example files -> Plan (what to run, the sandbox, the caches, the integrity snapshot)
    verify_examples  Plan -> [Outcome]: build, run (run/), wire check (wire/), answer key, per example
    paste_pages      Plan, [Outcome] -> Pastes: every page pasted from what the run verified (paste/)
    settle           Plan, [Outcome], Pastes -> Report: the integrity gate, then the writes and the caches;
                     and the conformance report card's record held to the examples it is about (check_record)

`cli.py` parses arguments into Options, prints the Report and picks the exit code; the MkDocs plugin
(mkdocs_plugin.py) calls `run` under `mkdocs serve` and logs the Report. A `Listener` hears each example as it
finishes, so a terminal sees progress on a long run.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import integrity, toolchain
from . import sandboxing
from .builds import native
from .cache import pages as page_cache
from . import cache_gc
from .cache import results as results_cache
from .environment import in_ci
from .errors import ExampleError, PageError, ToolError, UsageError
from .examples import model
from .examples.files import ExampleFiles
from .fsutil import remove_leftovers, write_atomic
from .paste import pages
from .examples.outcome import Outcome, Status


@dataclass(frozen=True)
class Options:
    names: tuple[str, ...] = ()  # limit the run to these examples
    check: bool = False  # verify everything, write nothing
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)  # examples run in parallel
    verbose: bool = False  # servers' stderr shown: every example runs
    fresh: bool = False  # no build cache, no cached results
    repeat: int = 1  # runs per implementation, compared (nondeterminism)
    shard: tuple[int, int] | None = None  # (K, N): only the K-th of N shares of the examples
    unsandboxed: bool = False  # without bubblewrap (never with CI=true)

    @property
    def reads_caches(self) -> bool:
        """Whether cached results, pages and schema findings may stand in for a real run."""
        return not (self.fresh or self.repeat > 1 or self.verbose or in_ci())


class Listener:
    """Told as the run goes; the Report holds the same facts afterwards. This one hears nothing; report.text's
    Reporter prints each event. (A plain class, not a typing.Protocol: a warm run does not import typing.)"""

    def removed(self, rel: str) -> None:
        """A temporary file an interrupted run left was removed."""

    def broken(self, error: ExampleError) -> None:
        """An example folder does not load."""

    def example(self, outcome: Outcome) -> None:
        """An example finished."""


@dataclass
class Plan:
    root: Path
    options: Options
    examples: list[model.Example]  # every example that loads
    chosen: list[model.Example]  # the ones this run verifies
    broken: list[ExampleError]  # folders that do not load (of the chosen names, when names are given)
    sandbox: sandboxing.Sandbox
    builds: native.Cache
    results: results_cache.ResultStore
    snapshot: integrity.Snapshot
    removed: list[str] = field(default_factory=list)  # leftovers of an interrupted run, removed
    started: float = 0.0


@dataclass
class Pastes:
    results: list[pages.PageResult]  # every page as this run pastes it (a failed example's blocks kept)
    as_pasted: list[pages.PageResult]  # the same, before a failed example's blocks were put back
    errors: list[PageError]  # broken markers, and examples no page pastes
    unpasted: list[str]  # examples no page pastes
    cache: page_cache.PageCache

    @property
    def drifted(self) -> list[pages.PageResult]:
        return [r for r in self.results if r.new != r.old]


@dataclass
class Report:
    options: Options
    root: Path
    outcomes: list[Outcome]  # in the order they finished
    broken: list[ExampleError]
    pastes: Pastes
    removed: list[str] = field(default_factory=list)
    tampered: integrity.TamperedError | None = None  # an input changed during the run: nothing was written
    stale_record: list[ToolError] = field(default_factory=list)  # the conformance record no longer matches
    written_pages: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: Status) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def failed(self) -> bool:
        return self.tampered is not None or bool(self.broken) or self.count(Status.FAILED) > 0

    @property
    def drifted(self) -> bool:
        return self.count(Status.DRIFTED) > 0 or bool(self.pastes.drifted and self.options.check)


def run(root: Path, options: Options, listener: Listener | None = None) -> Report:
    """The whole pipeline: plan, verify every chosen example, paste every page, settle."""
    listener = listener or Listener()
    planned = plan(root, options, listener)
    outcomes = verify_examples(planned, listener)
    pastes = paste_pages(planned, outcomes)
    return settle(planned, outcomes, pastes)


def open_sandbox(unsandboxed: bool, check: bool = True) -> sandboxing.Sandbox:
    """Fail closed: the sandbox, or a usage error saying why there is none. With check=False the proof that a
    sandbox can be made waits for the caller (a run whose every result is cached starts no sandbox at all)."""
    if unsandboxed:
        if in_ci():
            raise UsageError("--unsandboxed is refused when CI=true: CI verifies examples only inside the sandbox. "
                             "Install bubblewrap on the runner (apt-get install bubblewrap) and drop --unsandboxed.")
        sandboxing.warn_unsandboxed()
        return sandboxing.Sandbox(enabled=False)
    sandbox = sandboxing.Sandbox()
    if check:
        sandbox.check()
    return sandbox


def plan(root: Path, options: Options, listener: Listener | None = None) -> Plan:
    """Stage 1: discover the examples, choose this run's, and open the sandbox, the caches and the snapshot."""
    listener = listener or Listener()
    started = time.monotonic()
    root = root.resolve()
    toolchain.forget()
    reading = options.reads_caches
    if reading:
        toolchain.ask_if_rust_ahead(root, options.names)
    examples, broken = model.discover(root)
    chosen = shard_of(select(examples, options.names, broken), options.shard)
    sandbox = open_sandbox(options.unsandboxed, check=False)
    builds = native.Cache(root, fresh=options.fresh)
    # A local run takes a verified result from .cache/ while nothing in its key changed (see cache/results.py);
    # --fresh, --repeat, -v (which shows servers' stderr) and CI run everything, and may still record what they
    # verified.
    results = results_cache.ResultStore(results_cache.Context(root, builds, sandbox), read=reading)
    if reading:
        results_cache.start_probes(results.ctx, chosen)
    removed = []
    if not options.check:  # a killed run's half-written temporary files: this run's to remove
        for leftover in remove_leftovers([root / "examples", root / "docs"]):
            removed.append(str(leftover.relative_to(root)))
            listener.removed(removed[-1])
    # Every input, hashed before anything runs: checked again before the verdict (see integrity.py). The keys
    # take their files' hashes from it, so a result names exactly the bytes that check proves unchanged.
    snapshot = integrity.Snapshot(root)
    results.ctx.hashes = snapshot.hashes
    if options.names:
        broken = [e for e in broken if example_of(e) in options.names]
    return Plan(root, options, examples, chosen, broken, sandbox, builds, results, snapshot, removed, started)


def shard_of(examples: list[model.Example], shard: tuple[int, int] | None) -> list[model.Example]:
    if shard is None:
        return examples
    k, n = shard
    return [e for i, e in enumerate(sorted(examples, key=lambda e: e.name)) if i % n == k - 1]


def select(examples: list[model.Example], names: tuple[str, ...], broken: list[ExampleError]) -> list[model.Example]:
    if not names:
        return examples
    by_name = {e.name: e for e in examples}
    broken_names = {example_of(e) for e in broken}
    unknown = [n for n in names if n not in by_name and n not in broken_names]
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise UsageError(f"no example named {', '.join(unknown)} under examples/ (known: {known})")
    return [by_name[n] for n in names if n in by_name]


def example_of(error: ExampleError) -> str | None:
    """The example folder an error names (examples/NAME/...), or None."""
    parts = Path(error.file or "").parts
    return parts[1] if len(parts) > 1 and parts[0] == "examples" else None


def verify_examples(planned: Plan, listener: Listener | None = None) -> list[Outcome]:
    """Stage 2: each chosen example's outcome, from the cached results or from a real build and run."""
    listener = listener or Listener()
    for error in planned.broken:
        listener.broken(error)
    outcomes: list[Outcome] = []
    to_run = []
    for example in planned.chosen:
        outcome = _cached_outcome(planned, example)
        if outcome is None:
            to_run.append(example)
        else:
            outcomes.append(outcome)
            listener.example(outcome)
    if to_run:
        planned.sandbox.check()
        validator = schema_validator(planned.root, read=planned.options.reads_caches)
        for outcome in _verify_all(planned, to_run, validator):
            outcomes.append(outcome)
            listener.example(outcome)
        validator.save()
    return outcomes


def schema_validator(root: Path, *, read: bool = True):
    """The strict schema check, through its cache of findings (cache/schema_findings.py) when `read` allows."""
    from .cache import schema_findings
    from .schema import validator

    return schema_findings.CachedValidator(native.Cache(root).dir.parent, validator.load_validator, read=read)


def _cached_outcome(planned: Plan, example: model.Example) -> Outcome | None:
    started = time.monotonic()
    found = planned.results.lookup(example)
    if found is None:
        return None
    expected, stdout, lane = found
    return Outcome(example, planned.root, Status.VERIFIED, stdout=stdout, expected=expected, stderr_lane=lane,
                   cached=True, seconds=time.monotonic() - started)


def _verify_all(planned: Plan, examples: list[model.Example], validator):
    """Yield outcomes as examples finish; -j 1 stays in this thread (no pool), which also keeps profiles whole."""
    from .run.example import verify  # here: a run whose every result is cached runs nothing

    options = planned.options

    def one(example: model.Example) -> Outcome:
        return verify(planned.root, example, planned.builds, check=options.check, repeat=options.repeat,
                      validator=validator, sandbox=planned.sandbox)

    if options.jobs == 1:
        yield from map(one, examples)
        return
    # Longest first: cargo projects, then rustc examples, then Python ones, so no worker ends the run on a build.
    from concurrent.futures import ThreadPoolExecutor, as_completed

    weight = {model.ImplementationKind.CARGO: 0, model.ImplementationKind.RUST: 1, model.ImplementationKind.PYTHON: 2}
    ordered = sorted(examples, key=lambda e: min(weight[i.name] for i in e.implementations))
    with ThreadPoolExecutor(max_workers=options.jobs) as pool:
        for future in as_completed([pool.submit(one, e) for e in ordered]):
            yield future.result()


def paste_pages(planned: Plan, outcomes: list[Outcome]) -> Pastes:
    """Stage 3: every page pasted from the files as this run verified them; a failed example's blocks are kept."""
    root = planned.root
    # A cached outcome's answer key is the file itself: no override needed.
    fresh = [o for o in outcomes if not o.cached]
    overrides = {o.example.answer_key.resolve(): o.stdout for o in fresh if o.stdout is not None}
    overrides.update({o.example.stderr_file.resolve(): o.stderr_lane for o in fresh if o.stderr_lane is not None})
    overrides.update({path.resolve(): data for o in fresh for path, data in o.side_files.items()})
    # Pages that pasted to themselves are not pasted again while nothing they read changed (cache/pages.py).
    known = page_cache.PageCache(root, results_cache.tool_digest(planned.results.ctx), planned.snapshot.hashes,
                                 overrides, use=planned.results.read)
    files = ExampleFiles(root, planned.examples, overrides)  # every page reads an example's files from here, once
    results, errors = [], []
    for path in pages.page_files(root):
        try:
            results.append(known.lookup(path) or pages.paste_page(root, path, files))
        except PageError as exc:
            errors.append(exc)
    unpasted: list[str] = []
    if not errors:
        # Of the examples this run verifies: `--check NAME` judges NAME, not another folder still without a page.
        unpasted = sorted({e.name for e in planned.chosen} - pages.pasted_examples(root, results))
        errors += [PageError(f"pasted by no page; add <!-- example-begin: {name}/{model.TRANSCRIPT} --> and "
                             f"<!-- example-end --> to a page under docs/ (and its sources and answer key)",
                             file=f"examples/{name}") for name in unpasted]
    # A failing example changes none of its files or pages: its blocks stay as they are.
    frozen = {o.example.name for o in outcomes if o.status == Status.FAILED} | \
        {example_of(e) for e in planned.broken}
    return Pastes(_keep_blocks_of(results, frozen), results, errors, unpasted, known)


def _keep_blocks_of(results: list[pages.PageResult], frozen: set[str | None]) -> list[pages.PageResult]:
    if not frozen:
        return list(results)
    from .paste.keep import keep_blocks_of

    return [keep_blocks_of(r, frozen) for r in results]


def settle(planned: Plan, outcomes: list[Outcome], pastes: Pastes) -> Report:
    """Stage 4: prove no input changed during the run, then (without --check) write answer keys and pages, and
    record what was verified in the caches."""
    options, root = planned.options, planned.root
    report = Report(options, root, outcomes, planned.broken, pastes, removed=planned.removed,
                    stale_record=check_record(planned))
    if not options.check:
        _restore_locks_of_failed(planned, outcomes)
    # Keyed now, from the inputs as the integrity check below proves they were all along, with the answer key as
    # this run verified it (and, without --check, writes it).
    verified = [(planned.results.key_for_store(o.example, o.stdout, o.stderr_lane, o.side_files), o) for o in outcomes
                if o.status in (Status.VERIFIED, Status.WRITTEN) and not o.cached and o.stdout is not None]
    try:
        planned.snapshot.verify_unchanged(_own_writes(planned, outcomes, pastes))
    except integrity.TamperedError as exc:
        report.tampered = exc
        report.seconds = time.monotonic() - planned.started
        return report
    if not options.check:
        report.written_pages = _write(outcomes, pastes)
    for key, outcome in verified:
        if key is not None:
            planned.results.store(key, outcome.example, outcome.expected, outcome.stdout, outcome.stderr_lane)
    pastes.cache.store(pastes.as_pasted, [] if options.check else pastes.drifted,
                       moved=set() if options.check else planned.snapshot.moved_locks())
    # The caches keep what runs use; entries no run has needed for a month go (at most once a day; cache_gc.py).
    cache_gc.prune(planned.builds.dir.parent)
    report.seconds = time.monotonic() - planned.started
    return report


def check_record(planned: Plan) -> list[ToolError]:
    """The conformance report card's record against the examples as they are (conformance/gate.py): read,
    never written, and the suite never run here. A run of some examples (names, a shard after the first) checks
    only theirs; the whole run, or the first shard, also the record's rows of examples that are gone."""
    from .conformance import gate

    options = planned.options
    whole = not options.names and (options.shard is None or options.shard[0] == 1)
    return list(gate.check(planned.root, planned.examples, None if whole else {e.name for e in planned.chosen},
                           skip={example_of(e) for e in planned.broken}, remembered=options.reads_caches))


def _restore_locks_of_failed(planned: Plan, outcomes: list[Outcome]) -> None:
    """A Cargo.lock that `cargo fetch` updated for an example that then failed is put back."""
    for outcome in (o for o in outcomes if o.status == Status.FAILED):
        for impl in (i for i in outcome.example.implementations
                     if i.name == model.ImplementationKind.CARGO and i.source_dir == outcome.example.dir):
            lock = native.lock_file(impl)
            before = planned.snapshot.kept.get(str(lock.relative_to(planned.root)))
            if before is not None and lock.exists() and lock.read_bytes() != before:
                write_atomic(lock, before)
            elif before is None and lock.exists():
                lock.unlink()


def _own_writes(planned: Plan, outcomes: list[Outcome], pastes: Pastes) -> dict[str, bytes | None]:
    """The inputs this run may change itself: without --check, the files it writes may already hold exactly those
    bytes (a second run at the same time wrote them), and cargo may have updated Cargo.lock."""
    if planned.options.check:
        return {}
    root = planned.root
    own: dict[str, bytes | None] = {str(native.lock_file(i).relative_to(root)): None for e in planned.chosen
                                    for i in e.implementations if i.name == model.ImplementationKind.CARGO}
    own.update({str(o.example.answer_key.relative_to(root)): o.stdout for o in outcomes if o.stdout is not None})
    own.update({str(p.relative_to(root)): d for o in outcomes if o.stdout is not None for p, d in o.side_files.items()})
    from .paste.keep import pasted_from

    own.update({r.rel: pasted_from(planned.snapshot.kept.get(r.rel), r) for r in pastes.results})
    return own


def files_a_run_may_write(root: Path) -> list[Path]:
    """Every file under `root` that a run without --check may write: the pages, each example's answer key, stderr
    lane and HTTP records (_write), and the Cargo.lock files `cargo fetch` may update (the workspace's, a lone
    project's). Not examples/**: a contributor's cargo build leaves examples/target/ there."""
    examples = root / "examples"
    mine = (model.ANSWER_KEY, model.STDERR_LANE, model.HTTP_RECORDS.format(impl="*"), "Cargo.lock")
    return [*(root / "docs").rglob("*.md"), examples / "Cargo.lock",
            *(path for name in mine for path in examples.glob(f"*/{name}"))]


def _write(outcomes: list[Outcome], pastes: Pastes) -> list[str]:
    """Answer keys and stderr lanes that changed, then the pages; each file whole or not at all."""
    for outcome in outcomes:
        if outcome.status == Status.WRITTEN and outcome.stdout is not None:
            write_atomic(outcome.example.answer_key, outcome.stdout)
            if outcome.stderr_lane is not None:
                write_atomic(outcome.example.stderr_file, outcome.stderr_lane)
            for path, data in outcome.side_files.items():
                write_atomic(path, data)
    for result in pastes.drifted:
        write_atomic(result.path, result.new.encode("utf-8"))
    return [r.rel for r in pastes.drifted]
