"""The command line: parse arguments, run the examples, paste the pages, report, and choose the exit code."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

# Imported where used, not here: the schema (and its verdicts), the thread pool and the scaffold are needed only
# when an example runs, and a local run whose every verdict is cached should not pay for them.
from . import build, cache_gc, integrity, markers, model, page_cache, pages, results_cache
from . import sandbox as sandboxing
from .errors import (EXIT_BROKEN_PAGE, EXIT_CODES_HELP, EXIT_DRIFT, EXIT_EXAMPLE_FAILED, EXIT_INTERNAL, EXIT_OK,
                     EXIT_USAGE, ExampleError, PageError, ToolError, UsageError)
from .fsutil import remove_leftovers, write_atomic
from .report import Reporter
from .verify import Outcome, diff_bytes, verify

SUBCOMMANDS = ("serve", "new")
DESCRIPTION = """Build, run and verify every example under examples/, write their answer keys, and paste sources,
transcripts and answer keys into the pages under docs/. With --check, do all of it and write nothing."""
MORE_HELP = f"""other commands:
  serve NAME [--impl rust|cargo|python]   build (from cache) and run an example server on this stdin/stdout
  new NAME --lang cargo|rust|python       create examples/NAME with a working server, transcript and answer key
                                          (cargo: a member of examples/Cargo.toml's workspace, on serde_json;
                                          rust: one std-only file, for a lesson about having no crates)

Every build and every server runs in a bubblewrap (bwrap) sandbox: no network, no view of the repository or of
this environment, a process limit. --unsandboxed (never with CI=true) runs without it, with a warning.

A local run does not run an example again while nothing its result depends on has changed ("verified, cached";
the list is in tools/runex/results_cache.py); --fresh, --repeat, -v and CI=true run every example.

{EXIT_CODES_HELP}"""


def default_root() -> Path:
    return Path(__file__).resolve().parent.parent.parent


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # --root (for tests and benchmarks) may stand before a subcommand; move it behind.
    if len(argv) >= 2 and argv[0] == "--root":
        argv = argv[2:] + argv[:2]
    try:
        if argv and argv[0] == "serve":
            return serve(parse_serve(argv[1:]))
        if argv and argv[0] == "new":
            return new(parse_new(argv[1:]))
        return run(parse_main(argv))
    except UsageError as exc:
        print(f"run_examples: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ToolError as exc:
        print(f"run_examples: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("run_examples: interrupted; every file is either old or new, none half-written", file=sys.stderr)
        return 130


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 through our own path
        raise UsageError(f"{message}\n{self.format_usage().strip()}")


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--unsandboxed", action="store_true",
                        help="build and run examples WITHOUT the bubblewrap sandbox (a machine without bwrap, such "
                             "as macOS; warns on every run; refused when CI=true)")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("true", "1")


def make_sandbox(args: argparse.Namespace, check: bool = True) -> sandboxing.Sandbox:
    """Fail closed: the sandbox, or a usage error saying why there is none. With check=False the proof that a
    sandbox can be made waits for the caller (a run whose every verdict is cached starts no sandbox at all)."""
    if args.unsandboxed:
        if in_ci():
            raise UsageError("--unsandboxed is refused when CI=true: CI verifies examples only inside the sandbox. "
                             "Install bubblewrap on the runner (apt-get install bubblewrap) and drop --unsandboxed.")
        sandboxing.warn_unsandboxed()
        return sandboxing.Sandbox(enabled=False)
    sandbox = sandboxing.Sandbox()
    if check:
        sandbox.check()
    return sandbox


def parse_main(argv: list[str]) -> argparse.Namespace:
    parser = _Parser(prog="run_examples.py", description=DESCRIPTION, epilog=MORE_HELP,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", metavar="NAME", help="limit the run to these examples")
    parser.add_argument("--check", action="store_true", help="verify everything, write nothing, exit 5 on drift")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                        help="examples run in parallel (default: the number of cores)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show each server's stderr (runs every example: no cached verdicts)")
    parser.add_argument("--fresh", action="store_true",
                        help="ignore the build cache and the cached verdicts: rebuild and run everything")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="run each example N times and fail on any difference (nondeterminism); never "
                             "takes a cached verdict")
    parser.add_argument("--shard", metavar="K/N", help="run only the K-th of N shares of the examples (1-based)")
    parser.add_argument("--list", action="store_true", help="list examples, implementations, files and pages")
    parser.add_argument("--json", action="store_true", help="with --list: machine-readable, with start commands")
    _common(parser)
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("-j must be at least 1")
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.json and not args.list:
        parser.error("--json goes with --list")
    args.shard = _parse_shard(parser, args.shard)
    return args


def _parse_shard(parser, text):
    if text is None:
        return None
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        parser.error(f"--shard takes K/N such as 1/4, got {text!r}")
    if not 1 <= k <= n:
        parser.error(f"--shard K/N needs 1 <= K <= N, got {text!r}")
    return k, n


def parse_serve(argv):
    parser = _Parser(prog="run_examples.py serve", description="Build (from cache) and run one example server "
                     "on this process's stdin and stdout, for an editor or any MCP client.")
    parser.add_argument("name", metavar="NAME")
    parser.add_argument("--impl", choices=list(model.IMPLEMENTATION_FILES), default=None,
                        help="which implementation (default: the first of rust, cargo, python it has)")
    _common(parser)
    return parser.parse_args(argv)


def parse_new(argv):
    parser = _Parser(prog="run_examples.py new", description="Create examples/NAME with a working minimal "
                     "server, a transcript and its verified answer key.")
    parser.add_argument("name", metavar="NAME")
    parser.add_argument("--lang", choices=["cargo", "rust", "python"], required=True)
    _common(parser)
    return parser.parse_args(argv)


def shard_of(examples: list[model.Example], shard: tuple[int, int] | None) -> list[model.Example]:
    if shard is None:
        return examples
    k, n = shard
    return [e for i, e in enumerate(sorted(examples, key=lambda e: e.name)) if i % n == k - 1]


def select(examples: list[model.Example], names: list[str], broken: list[ExampleError]) -> list[model.Example]:
    if not names:
        return examples
    by_name = {e.name: e for e in examples}
    broken_names = {_example_of(e) for e in broken}
    unknown = [n for n in names if n not in by_name and n not in broken_names]
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise UsageError(f"no example named {', '.join(unknown)} under examples/ (known: {known})")
    return [by_name[n] for n in names if n in by_name]


def _example_of(error: ToolError) -> str | None:
    parts = Path(error.file or "").parts
    return parts[1] if len(parts) > 1 and parts[0] == "examples" else None


def fix_command(names: list[str], root: Path | None = None) -> str:
    exe = Path(sys.executable)
    cwd = Path.cwd()
    python = str(exe.relative_to(cwd)) if exe.is_relative_to(cwd) else "python3"
    where = ["--root", str(root)] if root is not None and root != default_root() else []
    import shlex

    return shlex.join([python, "tools/run_examples.py", *names, *where])


def _root_args(root: Path) -> list[str]:
    return [] if root == default_root() else ["--root", str(root)]


def _validator(root: Path):
    from . import schema, verdicts

    return verdicts.CachedValidator(build.Cache(root).dir.parent, schema.load_validator)


def _cached_outcome(root: Path, example: model.Example, store: results_cache.Verdicts) -> Outcome | None:
    started = time.monotonic()
    found = store.lookup(example)
    if found is None:
        return None
    expected, stdout, lane = found
    return Outcome(example, root, "verified", stdout=stdout, expected=expected, stderr_lane=lane, cached=True,
                   seconds=time.monotonic() - started)


def _verify_all(root, chosen, cache, args, validator, sandbox):
    """Yield outcomes as examples finish; -j 1 stays in this thread (no pool), which also keeps profiles whole."""
    if args.jobs == 1:
        for example in chosen:
            yield verify(root, example, cache, check=args.check, repeat=args.repeat, validator=validator,
                         sandbox=sandbox)
        return
    # Longest first: cargo projects, then rustc examples, then Python ones, so no worker ends the run on a build.
    from concurrent.futures import ThreadPoolExecutor, as_completed

    weight = {"cargo": 0, "rust": 1, "python": 2}
    ordered = sorted(chosen, key=lambda e: min(weight[i.name] for i in e.implementations))
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(verify, root, e, cache, check=args.check, repeat=args.repeat, validator=validator,
                               sandbox=sandbox) for e in ordered]
        for future in as_completed(futures):
            yield future.result()


def run(args: argparse.Namespace) -> int:
    root = (args.root or default_root()).resolve()
    started = time.monotonic()
    build.forget_toolchain()
    reading = not (args.fresh or args.repeat > 1 or args.verbose or in_ci())
    if reading and not args.list:
        results_cache.ask_toolchain_early(root, args.names)
    examples, broken = model.discover(root)
    if args.list:
        return list_examples(root, examples, broken, as_json=args.json, args=args)
    chosen = shard_of(select(examples, args.names, broken), args.shard)
    reporter = Reporter(verbose=args.verbose)
    sandbox = make_sandbox(args, check=False)
    cache = build.Cache(root, fresh=args.fresh)
    # A local run takes a verified result from .cache/ while nothing in its key changed (see results_cache.py);
    # --fresh, --repeat, -v (which shows servers' stderr) and CI run everything, and may still record what they
    # verified.
    verdict_store = results_cache.Verdicts(results_cache.Context(root, cache, sandbox), read=reading)
    if reading:
        results_cache.start_probes(verdict_store.ctx, chosen)
    if not args.check:  # a killed run's half-written temporary files: this run's to remove
        for leftover in remove_leftovers([root / "examples", root / "docs"]):
            reporter.line(f"removed {leftover.relative_to(root)} (left by an interrupted run)")
    # Every input, hashed before anything runs: checked again before the verdict (see integrity.py). The keys
    # take their files' hashes from it, so a verdict names exactly the bytes that check proves unchanged.
    snapshot = integrity.Snapshot(root)
    verdict_store.ctx.hashes = snapshot.hashes

    if args.names:
        broken = [e for e in broken if _example_of(e) in args.names]
    for error in broken:
        reporter.line(f"{reporter.paint('failed  ', 'red')} {error}")
        reporter.annotate(error.file, error.line, error.message)
    outcomes: list[Outcome] = []
    to_run = []
    for example in chosen:
        outcome = _cached_outcome(root, example, verdict_store)
        if outcome is None:
            to_run.append(example)
        else:
            outcomes.append(outcome)
            reporter.example(outcome)
    if to_run:
        sandbox.check()
        validator = _validator(root)
        for outcome in _verify_all(root, to_run, cache, args, validator, sandbox):
            outcomes.append(outcome)
            reporter.example(outcome)
        validator.save()
    # A cached outcome's answer key is the file itself: no override needed.
    overrides = {o.example.answer_key.resolve(): o.stdout for o in outcomes if o.stdout is not None and not o.cached}
    overrides.update({o.example.stderr_file.resolve(): o.stderr_lane for o in outcomes
                      if o.stderr_lane is not None and not o.cached})
    # Pages that pasted to themselves are not pasted again while nothing they read changed (page_cache.py).
    known_pages = page_cache.PageCache(root, results_cache.tool_digest(verdict_store.ctx), snapshot.hashes,
                                       overrides, use=verdict_store.read)
    page_results, page_errors = [], []
    for path in pages.page_files(root):
        try:
            page_results.append(known_pages.lookup(path) or pages.paste_page(root, path, overrides))
        except PageError as exc:
            page_errors.append(exc)
    as_pasted = list(page_results)
    unpasted: list[str] = []
    if not page_errors:
        unpasted = sorted({e.name for e in examples} - pages.pasted_examples(root, page_results))
        for name in unpasted:
            page_errors.append(PageError(
                f"pasted by no page; add <!-- example-begin: {name}/{model.TRANSCRIPT} --> and "
                f"<!-- example-end --> to a page under docs/ (and its sources and answer key)",
                file=f"examples/{name}"))
    for error in page_errors:
        reporter.line(f"{reporter.paint('broken  ', 'red')} {error}")
        reporter.annotate(error.file, error.line, error.message)

    # A failing example changes none of its files or pages: its blocks stay as they are, and a Cargo.lock that
    # `cargo fetch` updated for it is put back.
    frozen = {o.example.name for o in outcomes if o.status == "failed"} | {_example_of(e) for e in broken}
    if not args.check:
        for outcome in (o for o in outcomes if o.status == "failed"):
            for impl in (i for i in outcome.example.implementations
                         if i.name == "cargo" and i.source_dir == outcome.example.dir):
                lock = build.lock_file(impl)
                before = snapshot.kept.get(str(lock.relative_to(root)))
                if before is not None and lock.exists() and lock.read_bytes() != before:
                    write_atomic(lock, before)
                elif before is None and lock.exists():
                    lock.unlink()
    page_results = [_keep_blocks_of(r, frozen) for r in page_results]
    drifted_pages = [r for r in page_results if r.new != r.old]
    # Keyed now, from the inputs as the integrity check below proves they were all along, with the answer key as
    # this run verified it (and, without --check, writes it).
    verified = [(verdict_store.key_for_store(o.example, o.stdout, o.stderr_lane), o) for o in outcomes
                if o.status in ("verified", "written") and not o.cached and o.stdout is not None]

    # Nothing the run started may have changed an input. Without --check, the files this run writes may already
    # hold exactly those bytes (a second run at the same time wrote them), and cargo may have updated Cargo.lock.
    own: dict[str, bytes | None] = {}
    if not args.check:
        own = {str(build.lock_file(i).relative_to(root)): None
               for e in chosen for i in e.implementations if i.name == "cargo"}
        own.update({str(o.example.answer_key.relative_to(root)): o.stdout for o in outcomes if o.stdout is not None})
        own.update({r.rel: _pasted_from(snapshot.kept.get(r.rel), r) for r in page_results})
    try:
        snapshot.verify_unchanged(own)
    except integrity.TamperedError as exc:
        reporter.line(f"{reporter.paint('failed  ', 'red')} {exc}")
        reporter.annotate(exc.file, None, exc.message)
        return EXIT_EXAMPLE_FAILED
    if args.check:
        for result in drifted_pages:
            for block in result.stale:
                reporter.line(f"{reporter.paint('drifted ', 'yellow')} {result.rel}:{block.line}: the block pasted "
                              f"from examples/{block.target} differs from the file")
                reporter.annotate(result.rel, block.line, f"pasted block differs from examples/{block.target}")
            reporter.line("\n".join("    " + l for l in diff_bytes(result.old.encode(), result.new.encode(),
                                    f"{result.rel} (checked in)", f"{result.rel} (as pasted)").splitlines()))
    else:
        for outcome in outcomes:
            if outcome.status == "written" and outcome.stdout is not None:
                write_atomic(outcome.example.answer_key, outcome.stdout)
                if outcome.stderr_lane is not None:
                    write_atomic(outcome.example.stderr_file, outcome.stderr_lane)
        for result in drifted_pages:
            write_atomic(result.path, result.new.encode("utf-8"))
            reporter.line(f"{reporter.paint('pasted  ', 'green')} {result.rel}")
    for key, outcome in verified:
        if key is not None:
            verdict_store.store(key, outcome.example, outcome.expected, outcome.stdout, outcome.stderr_lane)
    known_pages.store(as_pasted, [] if args.check else drifted_pages,
                      moved=set() if args.check else _moved_locks(root, snapshot))
    # The caches keep what runs use; entries no run has needed for a month go (at most once a day; cache_gc.py).
    cache_gc.prune(cache.dir.parent)

    failed = [o for o in outcomes if o.status == "failed"]
    drifted = [o for o in outcomes if o.status == "drifted"]
    counts = {s: sum(o.status == s for o in outcomes) for s in ("verified", "written", "drifted", "failed")}
    parts = [f"{n} {s}" for s, n in counts.items() if n]
    cached = sum(o.cached for o in outcomes)
    if cached:
        parts[0] += f" ({cached} cached)"
    if broken:
        parts.append(f"{len(broken)} broken")
    marker_errors = len(page_errors) - len(unpasted)
    page_note = (f"{len(page_results) + marker_errors} pages: "
                 + (f"{len(drifted_pages)} {'drifted' if args.check else 'pasted'}, " if drifted_pages else "")
                 + (f"{marker_errors} broken, " if marker_errors else "")
                 + f"{len(page_results) - len(drifted_pages)} up to date"
                 + (f" ({len(known_pages.hits)} cached)" if known_pages.hits else "")
                 + (f"; {len(unpasted)} example{'s' if len(unpasted) != 1 else ''} pasted by no page"
                    if unpasted else ""))
    total = len(outcomes) + len(broken)
    reporter.line(f"{total} example{'s' if total != 1 else ''}: {', '.join(parts) or 'none'}; {page_note} "
                  f"in {time.monotonic() - started:.1f} s")

    if failed or broken:
        reporter.line(f"Fix the failing example{'s' if len(failed) + len(broken) > 1 else ''} above, then run: "
                      f"{fix_command(args.names, root)}")
        return EXIT_EXAMPLE_FAILED
    if page_errors:
        reporter.line(f"Fix the page marker{'s' if len(page_errors) > 1 else ''} above, then run: "
                      f"{fix_command(args.names, root)}")
        return EXIT_BROKEN_PAGE
    if args.check and (drifted or drifted_pages):
        reporter.line(f"Update answer keys and pages with: {fix_command(args.names, root)}")
        return EXIT_DRIFT
    return EXIT_OK


def _moved_locks(root: Path, snapshot: integrity.Snapshot) -> set[str]:
    """The Cargo.lock files that differ from the snapshot now: the inputs a run without --check may change."""
    moved = set()
    for rel, before in snapshot.kept.items():
        if rel.endswith("/Cargo.lock"):
            try:
                if (root / rel).read_bytes() != before:
                    moved.add(rel)
            except OSError:
                moved.add(rel)
    return moved


def _rebodied(old_text: str, new_text: str, rel: str, keep_old) -> str | None:
    """`old_text` with each block's body taken from `new_text`, except the blocks `keep_old(block)` keeps as they
    are; None when the two pages do not hold the same markers."""
    old_segments = markers.parse(old_text, rel)
    old_blocks = [s for s in old_segments if isinstance(s, markers.Block)]
    new_blocks = [s for s in markers.parse(new_text, rel) if isinstance(s, markers.Block)]
    if [b.target for b in old_blocks] != [b.target for b in new_blocks]:
        return None
    bodies = {old.line: (old.body if keep_old(old) else new.body) for old, new in zip(old_blocks, new_blocks)}
    return markers.render(old_segments, bodies)


def _pasted_from(original: bytes | None, result: pages.PageResult) -> bytes | None:
    """What this run writes to a page, pasted into the page as it was before the run (not as it is now)."""
    if original is None:
        return b""  # did not exist then: any content now is someone else's
    try:
        pasted = _rebodied(original.decode("utf-8"), result.new, result.rel, lambda block: False)
    except (UnicodeDecodeError, PageError):
        return original
    return original if pasted is None else pasted.encode("utf-8")


def _keep_blocks_of(result: pages.PageResult, names: set[str]) -> pages.PageResult:
    """The page as pasted, but with the blocks of the examples in `names` kept exactly as they were."""
    def example_of(block: markers.Block) -> str:
        return block.path.split("/", 1)[0]

    if not names or not any(example_of(b) in names for b in result.blocks):
        return result
    # result.new was pasted from result.old, so both hold the same markers.
    new = _rebodied(result.old, result.new, result.rel, lambda block: example_of(block) in names)
    stale = [b for b in result.stale if example_of(b) not in names]
    return pages.PageResult(result.path, result.rel, result.old, new, result.blocks, stale)


def _pasted_by(root: Path) -> dict[str, list[str]]:
    where: dict[str, list[str]] = {}
    for path in pages.page_files(root):
        rel = str(path.relative_to(root))
        try:
            segments = markers.parse(path.read_text(encoding="utf-8"), rel)
        except PageError:
            continue
        for block in (s for s in segments if isinstance(s, markers.Block)):
            name = block.path.split("/", 1)[0]
            where.setdefault(name, []).append(f"{rel}:{block.line}")
    return where


def list_examples(root: Path, examples, broken, *, as_json: bool, args: argparse.Namespace) -> int:
    pasted = _pasted_by(root)
    cache = build.Cache(root)
    sandbox = make_sandbox(args) if as_json else None
    entries = []
    for example in examples:
        impls = []
        for impl in example.implementations:
            serve_cmd = [sys.executable, str(default_root() / "tools" / "run_examples.py"), "serve", example.name,
                         "--impl", impl.name, *_root_args(root)]
            entry = {"name": impl.name, "entry": str(impl.entry.relative_to(root)),
                     "files": [str(p.relative_to(root)) for p in build.source_files(impl)],
                     "serve_command": serve_cmd}
            if as_json:
                try:
                    entry["command"] = build.prepare(root, impl, cache, locked=True, sandbox=sandbox).command
                except ToolError as exc:
                    entry["command"] = None
                    entry["error"] = str(exc)
            impls.append(entry)
        files = sorted(str(p.relative_to(root)) for p in example.dir.rglob("*")
                       if p.is_file() and "target" not in p.relative_to(example.dir).parts)
        entries.append({"name": example.name, "dir": str(example.dir.relative_to(root)),
                        "transcript": str(example.transcript.relative_to(root)),
                        "answer_key": str(example.answer_key.relative_to(root)),
                        "timeout": example.config.timeout, "exit_code": example.config.exit_code,
                        "expected_violations": [{"rule": v.rule, "line": v.line, "reason": v.reason}
                                                for v in example.config.expected_violations],
                        "implementations": impls, "files": files, "pages": pasted.get(example.name, [])})
    if as_json:
        print(json.dumps({"examples": entries, "broken": [str(b) for b in broken]}, indent=2))
        return EXIT_OK
    for entry in entries:
        print(entry["name"])
        print("  implementations: " + ", ".join(f"{i['name']} ({i['entry']})" for i in entry["implementations"]))
        print("  files: " + ", ".join(entry["files"]))
        print("  pasted by: " + (", ".join(entry["pages"]) or "no page"))
    for error in broken:
        print(f"broken: {error}")
    return EXIT_OK if not broken else EXIT_EXAMPLE_FAILED


def serve(args: argparse.Namespace) -> int:
    root = (args.root or default_root()).resolve()
    examples, _ = model.discover(root)
    example = next((e for e in examples if e.name == args.name), None)
    if example is None:
        raise UsageError(f"no example named {args.name!r} (known: {', '.join(e.name for e in examples)})")
    try:
        impl = example.implementation(args.impl)
    except ToolError as exc:
        raise UsageError(exc.message) from None
    sandbox = make_sandbox(args)
    built = build.prepare(root, impl, build.Cache(root), locked=True, sandbox=sandbox)
    # stdout is the wire from here on: nothing but the server may write to it. The server runs in the same
    # sandbox as under --check, with this process's stdin and stdout passed straight through.
    sys.stdout.flush()
    sys.stderr.flush()
    sandbox.exec(built.spec(sandbox.enabled, os.getcwd()))
    return EXIT_INTERNAL  # not reached


def new(args: argparse.Namespace) -> int:
    root = (args.root or default_root()).resolve()
    sandbox = make_sandbox(args)
    from . import scaffold

    folder = scaffold.create(root, args.name, args.lang)
    examples, _ = model.discover(root)
    example = next(e for e in examples if e.name == args.name)
    outcome = verify(root, example, build.Cache(root), check=False, repeat=1, validator=_validator(root),
                     sandbox=sandbox)
    Reporter().example(outcome)
    if outcome.status == "failed":
        return EXIT_EXAMPLE_FAILED
    write_atomic(example.answer_key, outcome.stdout)
    entry = scaffold.ENTRY[args.lang]
    joined = " (and added it to the workspace's members in examples/Cargo.toml)" if args.lang == "cargo" and \
        (root / "examples/Cargo.toml").is_file() else ""
    print(f"created {folder.relative_to(root)}/ with {entry}, {model.TRANSCRIPT} and {model.ANSWER_KEY}{joined}.\n"
          f"Next: paste it into a page under docs/, for example\n"
          f"  <!-- example-begin: {args.name}/{entry} -->\n  <!-- example-end -->\n"
          f"  <!-- example-begin: {args.name}/{model.TRANSCRIPT} -->\n  <!-- example-end -->\n"
          f"  <!-- example-begin: {args.name}/{model.ANSWER_KEY} -->\n  <!-- example-end -->\n"
          f"then run: {fix_command([])}")
    return EXIT_OK
