"""Cached verdicts: an example verified once is not run again while nothing that could change its result changed.

An example's key is a sha256 over KEY_PARTS below, in that order; that list IS the definition of "nothing
changed", and each part has a test that changing it turns a cached verdict into a real run
(tests/tool/test_results_cache.py). Only a verified result is stored, as .cache/run_examples/verdicts/<key>.json,
written whole (temp + rename); a failure or a drift never is. An entry that does not parse, names another key or
example, or disagrees with the answer key on disk is a miss, never a pass.

Who reads it: a local run, with or without --check. `--fresh`, `--repeat N`, `-v` (which shows servers' stderr)
and CI=true run everything and never read it (they may write it), so CI always runs every server.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from .. import sandboxing
from .. import toolchain
from ..builds import native
from ..errors import ToolError
from ..examples.model import ANSWER_KEY, Example
from ..fsutil import sha256_bytes, write_atomic
from ..wire.rules import Problem
from .. import cache_gc

FORMAT = 1  # bump when an entry's layout or the meaning of a key part changes
TOOL_DIR = Path(__file__).resolve().parent.parent  # tools/runex/: every file of it, templates included
TOOL_ENTRY = TOOL_DIR.parent / "run_examples.py"
# The pins of the tool's own environment: the interpreter a Python server runs on is the tool's, so the packages
# it can import (`mcp` for python-sdk) are the tool's, and so is the schema package that judges the wire.
PIN_FILES = (TOOL_DIR.parent.parent / "requirements.txt", TOOL_DIR.parent.parent / "constraints.txt")
NOT_CACHEABLE = None  # what a key part returns when the example cannot be keyed yet (a binary not built)


digest = sha256_bytes  # the one hashing helper (fsutil.py)


def file_digest(path: Path) -> str:
    try:
        return digest(path.read_bytes())
    except FileNotFoundError:
        return "absent"


def start_probes(ctx: Context, examples: list[Example]) -> None:
    """Start the commands whose answers go into keys now, side by side, without waiting for them: `rustc -vV` and
    `cargo -V` (toolchain.version takes their answers) when an example has a Rust implementation, and
    `bwrap --version` when sandboxed. They are mostly process start-up, and the first key that needs an answer
    comes after the integrity snapshot, which is taken meanwhile."""
    if any(i.name != "python" for e in examples for i in e.implementations):
        toolchain.ask()
    if ctx.sandbox.enabled and examples:
        ctx.ask([sandboxing.BWRAP, "--version"])


class Context:
    """What one run's keys share, each part computed once and only when an example needs it."""

    def __init__(self, root: Path, cache: native.Cache, sandbox: sandboxing.Sandbox,
                 hashes: dict[str, str] | None = None):
        self.root = root
        self.builds = cache
        self.sandbox = sandbox
        # The integrity snapshot's sha256 of every input (integrity.Snapshot.hashes, relative paths), once taken:
        # a key then names exactly the bytes the gate proves unchanged at the end of the run, hashed once.
        self.hashes = hashes or {}
        self._memo: dict[str, object] = {}
        self._asked: toolchain.Asked = {}

    def ask(self, command: list[str]) -> None:
        """Start `command` now; output() takes its answer (one answer per run: the Context is the run's)."""
        toolchain.start(self._asked, tuple(command), command)

    def output(self, command: list[str]) -> str:
        """`command`'s exit status, stdout and stderr, as one text (from ask(), if it was asked)."""
        try:
            done = toolchain.take(self._asked, tuple(command), command)
        except OSError as exc:
            return f"did not run: {exc}"
        return f"exit {done.returncode}\n{done.stdout}{done.stderr}"

    def once(self, name: str, compute: Callable[[], object]) -> object:
        if name not in self._memo:
            self._memo[name] = compute()
        return self._memo[name]

    def rel(self, path: Path) -> str:
        text, prefix = str(path), f"{self.root}/"
        if text.startswith(prefix):  # what relative_to() gives, without its parsing (a key asks for many)
            return text[len(prefix):]
        return str(path.relative_to(self.root))

    def file_digest(self, path: Path) -> str:
        """file_digest(path), from the snapshot when it hashed this file's bytes (not a symlink: the snapshot
        records where a link points, a key what it reads), else read now."""
        try:
            known = self.hashes.get(self.rel(path))
        except ValueError:
            known = None  # outside the repository
        if known is not None and len(known) == 64 and not known.startswith("link:"):
            return known
        return file_digest(path)


def tool_digest(ctx: Context) -> str:
    """One hash of every file under tools/runex/ and of tools/run_examples.py."""
    return _tool_source(ctx, None)


def tool_source_digest() -> str:
    """One hash of every file under tools/runex/ and of tools/run_examples.py, read now (the site plugin asks it
    on each rebuild of `mkdocs serve`: whether to import the tool again)."""
    files = []
    for folder, subfolders, names in os.walk(TOOL_DIR):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]  # bytecode is not source
        files += [Path(folder, name) for name in names]
    return digest(json.dumps([[str(p.relative_to(TOOL_DIR)), file_digest(p)] for p in sorted(files)]
                             + [["run_examples.py", file_digest(TOOL_ENTRY)]]).encode())


def _tool_source(ctx: Context, example: Example | None) -> object:
    return ctx.once("tool", tool_source_digest)


def _example(ctx: Context, example: Example) -> object:
    return [example.name, ctx.rel(example.dir)]


def _config(ctx: Context, example: Example) -> object:
    return ctx.file_digest(example.dir / "example.toml")


def _transcript(ctx: Context, example: Example) -> object:
    return [ctx.rel(example.transcript), ctx.file_digest(example.transcript)]


def _answer_key(ctx: Context, example: Example) -> object:
    return ctx.file_digest(example.answer_key)


def _stderr_lane(ctx: Context, example: Example) -> object:
    if example.config.stderr_lane is None:
        return "no lane"
    return [example.config.stderr_lane, ctx.file_digest(example.stderr_file)]


def _http_records(ctx: Context, example: Example) -> object:
    return [[impl.name, ctx.file_digest(example.http_file(impl.name))] for impl in example.implementations
            if example.serves_http(impl.name)]


def _own_tests(ctx: Context, example: Example, record: str | None = None) -> object:
    """example.toml's `test`: every file of the example's folder the tests may read (its answer key and the other
    records are parts of their own), and the record of their output, tests.<runner>.txt (or, when storing, the
    digest of what this run verified: `record`)."""
    if example.config.test is None:
        return "no tests"
    output = example.tests_file
    files = sorted(p for p in example.dir.rglob("*") if p.is_file() and p != output and p.name != ANSWER_KEY
                   and not {"target", "__pycache__"} & set(p.relative_to(example.dir).parts))
    return [[[ctx.rel(p), ctx.file_digest(p)] for p in files], record or ctx.file_digest(output)]


def built_binary(ctx: Context, impl) -> tuple[str, Path, str] | None:
    """The build cache's key, binary and the binary's sha256 for a Rust implementation, if it is built; never
    builds or fetches. The recipe is the one native.prepare() keys on (--locked left out, as there)."""
    recipe = native.rustc_recipe(impl) if impl.name == "rust" else native.cargo_recipe(False)
    key = native.cache_key(ctx.root, impl, recipe)
    found = ctx.builds.lookup_verified(key)  # re-hashes the binary: a damaged one is no artefact
    return None if found is None else (key, *found)


def _artefacts(ctx: Context, example: Example) -> object:
    """What runs: a Python server's own bytes; a Rust server's binary, as the build cache holds it (its sha256,
    and the build key that names the sources, the recipe and the toolchain it was built from)."""
    found = []
    for impl in example.implementations:
        if impl.name == "python":
            found.append([impl.name, ctx.rel(impl.entry), ctx.file_digest(impl.entry)])
            continue
        built = built_binary(ctx, impl)
        if built is None:
            return NOT_CACHEABLE
        key, _, sha256 = built  # the binary's bytes as just hashed, equal to its record's
        found.append([impl.name, ctx.rel(impl.entry), key, sha256])
    return found


def _lock_files(ctx: Context, example: Example) -> object:
    locks = sorted({native.lock_file(i) for i in example.implementations if i.name == "cargo"})
    return [[ctx.rel(lock), ctx.file_digest(lock)] for lock in locks]


def _toolchain(ctx: Context, example: Example) -> object:
    if all(i.name == "python" for i in example.implementations):
        return "not used"
    return [toolchain.version("rustc"), toolchain.version("cargo")]


def _interpreter(ctx: Context, example: Example) -> object:
    """Every example: the tool's own interpreter judges the wire (mcp-types), and Python servers run on it."""
    def compute():
        installed = []
        for folder in sorted({p for p in sys.path if p.endswith("-packages")}):
            try:
                installed += sorted(n for n in os.listdir(folder) if n.endswith((".dist-info", ".egg-info")))
            except OSError:
                continue
        return [sys.version, sys.executable, os.path.realpath(sys.prefix), installed,
                [[p.name, file_digest(p)] for p in PIN_FILES]]
    return ctx.once("interpreter", compute)


def _sandbox(ctx: Context, example: Example) -> object:
    def compute():
        settings = {"sandboxed": ctx.sandbox.enabled, "as_root": ctx.sandbox.as_root,
                    "server_limits": asdict(sandboxing.SERVER_LIMITS), "build_limits": asdict(sandboxing.BUILD_LIMITS),
                    "tmp_bytes": sandboxing.TMP_SIZE_BYTES}
        if ctx.sandbox.enabled:
            settings["bwrap"] = ctx.output([sandboxing.BWRAP, "--version"])
        return settings
    return ctx.once("sandbox", compute)


# The key, in order: (name, what it covers, how it is computed). Add to this list, never around it.
KEY_PARTS: tuple[tuple[str, str, Callable[[Context, Example], object]], ...] = (
    ("format", "the layout of an entry (FORMAT)", lambda ctx, example: FORMAT),
    ("tool source", "every file under tools/runex/ (templates included) and tools/run_examples.py", _tool_source),
    ("example", "the example's name and folder", _example),
    ("example.toml", "the example's config, or its absence", _config),
    ("transcript", "the transcript it reads (its own or another example's)", _transcript),
    ("answer key", "the answer key as it is on disk", _answer_key),
    ("stderr lane", "stderr.txt, when example.toml sets stderr_lane", _stderr_lane),
    ("http records", "http.<impl>.jsonl of each implementation example.toml's `http` names", _http_records),
    ("own tests", "with example.toml's `test`, every file of the example's folder (tests.<runner>.txt too)",
     _own_tests),
    ("artefacts", "server.py's bytes; a Rust binary's sha256 and build key (sources, recipe, toolchain)", _artefacts),
    ("lock files", "the Cargo.lock a cargo implementation builds from", _lock_files),
    ("toolchain", "`rustc -vV` and `cargo -V`, for an example with a Rust implementation", _toolchain),
    ("interpreter", "sys.version, the interpreter and its prefix, the installed distributions, requirements.txt "
                    "and constraints.txt", _interpreter),
    ("sandbox", "sandboxed or --unsandboxed, root or not, the limits, `bwrap --version`", _sandbox),
)


def key_of(ctx: Context, example: Example, overrides: dict[str, object] | None = None) -> str | None:
    """The example's key, or None when a part cannot be known yet. `overrides` replaces parts by name (the answer
    key and stderr lane this run is about to write, when storing)."""
    parts = []
    for name, _, compute in KEY_PARTS:
        value = (overrides or {}).get(name, NOT_CACHEABLE)
        if value is NOT_CACHEABLE:
            value = compute(ctx, example)
        if value is NOT_CACHEABLE:
            return None
        parts.append([name, value])
    return digest(json.dumps(parts, sort_keys=True).encode())


class ResultStore:
    """The store of verified results: look one up, or record one."""

    def __init__(self, ctx: Context, *, read: bool):
        self.ctx = ctx
        self.read = read
        self.dir = ctx.root / ".cache" / "run_examples" / "verdicts"

    def lookup(self, example: Example) -> tuple[list[Problem], bytes, bytes | None] | None:
        """(expected problems, answer key, stderr lane) of a cached verified result, or None (a miss)."""
        if not self.read:
            return None
        try:
            key = key_of(self.ctx, example)
        except (ToolError, OSError):
            return None  # a missing rustc or an unreadable file, say: the real run reports it
        if key is None:
            return None
        path = self.dir / f"{key}.json"
        try:
            found = self._trusted(json.loads(path.read_text(encoding="utf-8")), key, example)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None  # absent, unreadable or malformed: run it
        if found is not None:
            cache_gc.mark_used(path)
        return found

    def _trusted(self, entry: dict, key: str, example: Example):
        if entry["format"] != FORMAT or entry["key"] != key or entry["example"] != example.name:
            return None
        stdout = example.answer_key.read_bytes()
        if digest(stdout) != entry["answer_key"]:
            return None
        lane = None
        if example.config.stderr_lane is not None:
            lane = example.stderr_file.read_bytes()
            if digest(lane) != entry["stderr_lane"]:
                return None
        expected = [Problem(str(p["rule"]), str(p["file"]), p["line"] if isinstance(p["line"], int) else None,
                            str(p["message"])) for p in entry["expected"]]
        return expected, stdout, lane

    def key_for_store(self, example: Example, stdout: bytes, lane: bytes | None,
                      side_files: dict | None = None) -> str | None:
        """The key the example will have once its answer key (stderr lane, http records) hold what this run
        verified."""
        overrides: dict[str, object] = {"answer key": digest(stdout)}
        if side_files:
            overrides["http records"] = [[impl.name, digest(side_files[example.http_file(impl.name)])]
                                         for impl in example.implementations if example.serves_http(impl.name)]
        if side_files and example.config.test is not None:
            overrides["own tests"] = _own_tests(self.ctx, example, digest(side_files[example.tests_file]))
        if example.config.stderr_lane is not None:
            overrides["stderr lane"] = [example.config.stderr_lane, digest(lane or b"")]
        try:
            return key_of(self.ctx, example, overrides)
        except (ToolError, OSError):
            return None

    def store(self, key: str, example: Example, expected: list[Problem], stdout: bytes, lane: bytes | None) -> None:
        entry = {"format": FORMAT, "key": key, "example": example.name, "answer_key": digest(stdout),
                 "stderr_lane": None if lane is None else digest(lane),
                 "expected": [{"rule": p.rule, "file": p.file, "line": p.line, "message": p.message}
                              for p in expected]}
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            write_atomic(self.dir / f"{key}.json", json.dumps(entry, sort_keys=True).encode("utf-8"))
        except OSError:
            pass  # a verdict not recorded costs the next run one real run, nothing else
