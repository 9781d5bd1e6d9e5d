"""The command line: parse arguments into the pipeline's Options, call it, print its Report, choose the exit code."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

# Imported where used, not here: the schema (and its cached findings), the run stage, the thread pool and the other
# commands are needed only when an example runs or another command is asked for, and a local run whose every result
# is cached should not pay for them.
from . import pipeline
from .environment import default_root
from .errors import (EXIT_BROKEN_PAGE, EXIT_CODES_HELP, EXIT_DRIFT, EXIT_EXAMPLE_FAILED, EXIT_INTERNAL, EXIT_OK,
                     EXIT_USAGE, ToolError, UsageError)
from .examples import model
from .examples.outcome import Status
from .report.text import Reporter, fix_command

SUBCOMMANDS = ("serve", "new")
DESCRIPTION = """Build, run and verify every example under examples/, write their answer keys, and paste sources,
transcripts and answer keys into the pages under docs/. With --check, do all of it and write nothing."""
MORE_HELP = f"""other commands:
  serve NAME [--impl rust|cargo|python] [--http ADDR]
                                          build (from cache) and run an example server on this stdin/stdout,
                                          or over Streamable HTTP at http://ADDR/mcp (a local address)
  new NAME [--lang both|cargo|python|rust] [--page 101|201|301]
                                          create examples/NAME with working servers, transcript and answer key
                                          (both, the default: Rust and Python twins with one answer key; cargo:
                                          Rust only, a member of examples/Cargo.toml's workspace, on serde_json;
                                          rust: one std-only file, for a lesson about having no crates);
                                          --page: also docs/mcp/NAME.md at that level, listed in the nav

Every build and every server runs in a bubblewrap (bwrap) sandbox: no network, no view of the repository or of
this environment, a process limit. --unsandboxed (never with CI=true) runs without it, with a warning.

A local run does not run an example again while nothing its result depends on has changed ("verified, cached";
the list is in tools/runex/cache/results.py); --fresh, --repeat, -v and CI=true run every example.

{EXIT_CODES_HELP}"""


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
        args = parse_main(argv)
        return list_examples(args) if args.list else run(args)
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
    parser.add_argument("--impl", choices=[kind.value for kind in model.IMPLEMENTATION_FILES], default=None,
                        help="which implementation (default: the first of rust, cargo, python it has)")
    parser.add_argument("--http", metavar="ADDR", default=None,
                        help="serve Streamable HTTP at http://ADDR/mcp (such as 127.0.0.1:8000) instead of stdio; "
                             "for an example whose example.toml sets http")
    _common(parser)
    return parser.parse_args(argv)


def parse_new(argv):
    from .new import page_stub, scaffold

    parser = _Parser(prog="run_examples.py new", description="Create examples/NAME with working minimal servers, "
                     "a transcript and its verified answer key; with --page, a page that pastes them.")
    parser.add_argument("name", metavar="NAME")
    parser.add_argument("--lang", choices=scaffold.LANGS, default="both",
                        help="both (default): a Rust twin (cargo) and a Python twin; or one language only")
    parser.add_argument("--page", choices=page_stub.LEVELS, metavar="LEVEL",
                        help="also write docs/mcp/NAME.md, a page stub at this level (101, 201 or 301), and list it "
                             "in mkdocs.yml, docs/levels.md and docs/index.md")
    _common(parser)
    return parser.parse_args(argv)


def options_from(args: argparse.Namespace) -> pipeline.Options:
    return pipeline.Options(names=tuple(args.names), check=args.check, jobs=args.jobs, verbose=args.verbose,
                            fresh=args.fresh, repeat=args.repeat, shard=args.shard, unsandboxed=args.unsandboxed)


def run(args: argparse.Namespace) -> int:
    root = (args.root or default_root()).resolve()
    reporter = Reporter(verbose=args.verbose)
    report = pipeline.run(root, options_from(args), reporter)
    reporter.finish(report)
    return exit_code(report)


def exit_code(report: pipeline.Report) -> int:
    """The first that applies: an example failed (or an input changed), a page is broken, drift under --check."""
    if report.failed:
        return EXIT_EXAMPLE_FAILED
    if report.pastes.errors or report.stale_record:
        return EXIT_BROKEN_PAGE
    if report.options.check and report.drifted:
        return EXIT_DRIFT
    return EXIT_OK


def list_examples(args: argparse.Namespace) -> int:
    from . import commands

    root = (args.root or default_root()).resolve()
    examples, broken = model.discover(root)
    if args.names:  # only these: --json then builds only these
        examples = pipeline.select(examples, tuple(args.names), broken)
    entries = commands.listing(root, examples, with_commands=args.json, unsandboxed=args.unsandboxed)
    if args.json:
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
    from . import commands

    status = commands.serve((args.root or default_root()).resolve(), args.name, args.impl, args.unsandboxed,
                            args.http)
    return status if args.http else EXIT_INTERNAL  # stdio: not reached, the server replaced this process


def new(args: argparse.Namespace) -> int:
    import shlex

    from . import commands
    from .new import hint as new_hint

    root = (args.root or default_root()).resolve()
    again = shlex.join(["new", args.name] + (["--lang", args.lang] if args.lang != "both" else [])
                       + (["--page", args.page] if args.page else []))
    rerun = fix_command([], root).replace("tools/run_examples.py", "tools/run_examples.py " + again, 1)
    folder, example, outcome, page = commands.new(root, args.name, args.lang, args.unsandboxed, args.page, rerun)
    Reporter().example(outcome)
    if outcome.status == Status.FAILED:
        return EXIT_EXAMPLE_FAILED
    print(new_hint.text(root, folder, args.lang, page))
    return EXIT_OK
