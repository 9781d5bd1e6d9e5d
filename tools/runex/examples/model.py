"""What an example is: its folder, its transcript, its answer key, its implementations and its optional config."""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ConfigError
from ..wire.accounting import Send
from ..wire.rules import ExpectedViolation
from . import http_config, violations

TRANSCRIPT = "transcript.jsonl"
ANSWER_KEY = "answer_key.jsonl"
CONFIG = "example.toml"
STDERR_TAIL_BYTES = 64 << 10  # the most of a server's stderr a run keeps (its tail), and the lane may hold
STDERR_LANE = "stderr.txt"  # with stderr_lane = IMPL: that implementation's stderr, written and checked like the key
HTTP_RECORDS = "http.{impl}.jsonl"  # with http: what the HTTP side of IMPL's run looked like, checked like the key



class ImplementationKind(enum.StrEnum):
    """How an implementation is built and started; the value is the word printed, listed and written in JSON."""

    RUST = "rust"  # main.rs: one file, rustc, std only
    CARGO = "cargo"  # Cargo.toml: a cargo project (a member of examples/Cargo.toml's workspace)
    PYTHON = "python"  # server.py: run on the tool's own interpreter


# Which file makes which implementation; the order is also the default for `serve`.
IMPLEMENTATION_FILES = {ImplementationKind.RUST: "main.rs", ImplementationKind.CARGO: "Cargo.toml",
                        ImplementationKind.PYTHON: "server.py"}

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")

DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_OUTPUT = 1 << 20


@dataclass(frozen=True)
class Config:
    timeout: float = DEFAULT_TIMEOUT
    exit_code: int = 0
    max_output_bytes: int = DEFAULT_MAX_OUTPUT
    implementations_from: str | None = None
    transcript_from: str | None = None
    implementations: tuple[str, ...] | None = None  # run only these (e.g. the Rust toy of a Rust/Python pair)
    expected_violations: tuple[ExpectedViolation, ...] = ()
    stderr_lane: str | None = None  # an implementation whose stderr is part of the lesson (stderr.txt, checked)
    sends: tuple[Send, ...] = ()  # [[send]]: lines written without waiting for every reply (examples/sends.py)
    http: bool | tuple[str, ...] = False  # implementations that also serve Streamable HTTP (true: every one)
    http_overrides: tuple[http_config.HttpOverride, ...] = ()
    http_headers: dict[str, str] = field(default_factory=dict)  # sent on every HTTP request (a test token)
    http_get: tuple[str, ...] = ()  # paths also fetched with GET over HTTP (a metadata document), recorded
    http_env: dict[str, str] = field(default_factory=dict)  # the server's environment when it serves HTTP
    # Implementations "Run it here" cannot run in a reader's browser, each with the reason its page shows instead.
    not_in_browser: tuple[tuple[str, str], ...] = ()
    test: str | None = None  # the example's own tests: "cargo" (cargo test) or "pytest", run by run/own_tests.py

    @property
    def borrowed(self) -> tuple[str, ...]:
        """The other examples' folders this one reads files from (transcript_from, implementations_from)."""
        return tuple(name for name in (self.transcript_from, self.implementations_from) if name)

    def transcript_of(self, root: Path, name: str) -> Path:
        """Example NAME's transcript: its own, or transcript_from's (one rule for every view that shows it)."""
        return root / "examples" / (self.transcript_from or name) / TRANSCRIPT


@dataclass(frozen=True)
class Implementation:
    name: ImplementationKind
    source_dir: Path  # where its files live (another example's folder with implementations_from)
    entry: Path  # main.rs, Cargo.toml or server.py


@dataclass
class Example:
    name: str
    dir: Path
    config: Config
    transcript: Path
    implementations: list[Implementation] = field(default_factory=list)

    @property
    def answer_key(self) -> Path:
        return self.dir / ANSWER_KEY

    @property
    def stderr_file(self) -> Path:
        return self.dir / STDERR_LANE

    def http_file(self, impl: str) -> Path:
        """What the HTTP side of `impl`'s run looked like (status, headers), checked like the answer key."""
        return self.dir / HTTP_RECORDS.format(impl=impl)

    @property
    def tests_file(self) -> Path:
        """The output of the example's own tests (example.toml's `test`), checked like the answer key."""
        return self.dir / f"tests.{self.config.test}.txt"

    def serves_http(self, impl: str) -> bool:
        http = self.config.http
        return http is True or (isinstance(http, tuple) and impl in http)

    def implementation(self, name: str | None) -> Implementation:
        if name is None:
            return self.implementations[0]
        for impl in self.implementations:
            if impl.name == name:
                return impl
        known = ", ".join(i.name for i in self.implementations)
        raise ConfigError(f"example {self.name!r} has no implementation {name!r} (it has: {known})")


_CONFIG_KEYS = {"timeout", "exit_code", "max_output_bytes", "implementations_from", "transcript_from",
                "implementations", "expected_violation", "stderr_lane", "http", "http_override",
                "http_headers", "http_get", "http_env", "send", "not_in_browser", "test"}
MAX_TIMEOUT = 3600.0
MAX_OUTPUT_LIMIT = 1 << 30


class _Located:
    """Line numbers for example.toml's keys (tomllib gives values only): errors point at the line to change."""

    def __init__(self, text: str, rel: str):
        self.lines = text.splitlines()
        self.rel = rel

    def key(self, key: str) -> int | None:
        pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
        return next((n for n, line in enumerate(self.lines, start=1) if pattern.match(line)), None)

    def table(self, index: int, name: str = "expected_violation") -> int | None:
        """The line of the index-th [[name]] header."""
        headers = [n for n, line in enumerate(self.lines, start=1)
                   if re.match(rf"^\s*\[\[\s*{name}\s*\]\]", line)]
        return headers[index] if index < len(headers) else None

    def error(self, message: str, line: int | None) -> ConfigError:
        return ConfigError(message, file=self.rel, line=line)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _key_line(folder: Path, key: str) -> int | None:
    """The line of `key = ...` in the folder's example.toml, for a fault found only once the folder is known."""
    path = folder / CONFIG
    return _Located(path.read_text(encoding="utf-8"), CONFIG).key(key) if path.exists() else None


def load_config(path: Path, rel: str) -> Config:
    if not path.exists():
        return Config()
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise ConfigError(f"not UTF-8 (byte {exc.start}); example.toml is UTF-8", file=rel, line=line) from None
    import tomllib  # here: most examples have no example.toml, and a warm run need not pay for the parser

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None) or _toml_error_line(str(exc))
        raise ConfigError(f"cannot read TOML: {exc}", file=rel, line=line) from None
    at = _Located(text, rel)
    from . import sends  # here: like tomllib, only an example.toml needs it
    for key in sorted(set(data) - _CONFIG_KEYS):
        raise at.error(f"unknown key {key!r}; known: {', '.join(sorted(_CONFIG_KEYS))}", at.key(key) or at.table(0))

    timeout = data.get("timeout", DEFAULT_TIMEOUT)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not math.isfinite(timeout) \
            or not 0 < timeout <= MAX_TIMEOUT:
        raise at.error(f"timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g}, got {timeout!r}",
                       at.key("timeout"))
    exit_code = data.get("exit_code", 0)
    if not _is_int(exit_code) or not 0 <= exit_code <= 255:
        raise at.error(f"exit_code must be an integer from 0 to 255, got {exit_code!r}", at.key("exit_code"))
    max_output = data.get("max_output_bytes", DEFAULT_MAX_OUTPUT)
    if not _is_int(max_output) or not 1 <= max_output <= MAX_OUTPUT_LIMIT:
        raise at.error(f"max_output_bytes must be an integer from 1 to {MAX_OUTPUT_LIMIT}, got {max_output!r}",
                       at.key("max_output_bytes"))
    for key in ("implementations_from", "transcript_from"):
        value = data.get(key)
        if value is not None and (not isinstance(value, str) or not NAME_PATTERN.match(value)):
            raise at.error(f"{key} must name another example's folder (lowercase letters, digits, hyphens), "
                           f"got {value!r}", at.key(key))
    return Config(
        timeout=float(timeout),
        exit_code=exit_code,
        max_output_bytes=max_output,
        implementations_from=data.get("implementations_from"),
        transcript_from=data.get("transcript_from"),
        implementations=_names(data, at),
        expected_violations=violations.parse(data, at),
        stderr_lane=_lane(data, at),
        http=http_config.http(data, at, tuple(IMPLEMENTATION_FILES)),
        http_overrides=http_config.overrides(data, at),
        http_headers=http_config.headers(data, at),
        http_get=http_config.gets(data, at),
        http_env=http_config.environment(data, at),
        sends=sends.parse(data, at),
        not_in_browser=_not_in_browser(data, at),
        test=_test_runner(data, at),
    )


TEST_RUNNERS = {"cargo": ImplementationKind.CARGO, "pytest": ImplementationKind.PYTHON}


def _test_runner(data: dict, at: _Located) -> str | None:
    """test = "cargo" or "pytest": the example's own tests, run after it verified (run/own_tests.py)."""
    runner = data.get("test")
    if runner is not None and runner not in TEST_RUNNERS:
        raise at.error(f"test names the runner of the example's own tests, \"cargo\" (cargo test) or \"pytest\"; "
                       f"got {runner!r}", at.key("test"))
    return runner


def _not_in_browser(data: dict, at: _Located) -> tuple[tuple[str, str], ...]:
    """[not_in_browser] IMPL = "why": this implementation cannot run in the reader's browser (threads, sockets, a
    crate feature that does not build for wasm32-wasip1); its page says why instead of offering the button."""
    table = data.get("not_in_browser", {})
    line = at.key("not_in_browser") or next((n for n, l in enumerate(at.lines, start=1)
                                             if re.match(r"^\s*\[\s*not_in_browser\s*\]", l)), None)
    if not isinstance(table, dict):
        raise at.error("not_in_browser must be a table: [not_in_browser] then IMPL = \"why\"", line)
    for impl, reason in table.items():
        if impl not in IMPLEMENTATION_FILES:
            raise at.error(f"not_in_browser names {impl!r}; an implementation is one of "
                           f"{', '.join(IMPLEMENTATION_FILES)}", at.key(impl) or line)
        if not isinstance(reason, str) or not reason.strip():
            raise at.error(f"not_in_browser {impl} must say, in words, why it cannot run in a browser",
                           at.key(impl) or line)
    return tuple(sorted(table.items()))


def _lane(data: dict, at: _Located) -> str | None:
    lane = data.get("stderr_lane")
    if lane is not None and lane not in IMPLEMENTATION_FILES:
        raise at.error(f"stderr_lane names the implementation whose stderr is shown, one of "
                       f"{', '.join(IMPLEMENTATION_FILES)}; got {lane!r}", at.key("stderr_lane"))
    return lane


def _toml_error_line(message: str) -> int | None:
    found = re.search(r"line (\d+)", message)
    return int(found.group(1)) if found else None


def _names(data: dict, at: _Located) -> tuple[str, ...] | None:
    names = data.get("implementations")
    if names is None:
        return None
    if not isinstance(names, list) or not names or any(n not in IMPLEMENTATION_FILES for n in names) \
            or len(set(names)) != len(names):
        raise at.error(f"implementations must be a non-empty list without repeats drawn from "
                       f"{', '.join(IMPLEMENTATION_FILES)}, got {names!r}", at.key("implementations"))
    return tuple(names)


def implementations_in(folder: Path) -> list[Implementation]:
    found = []
    for name, filename in IMPLEMENTATION_FILES.items():
        entry = folder / filename
        if entry.is_file():
            found.append(Implementation(name, folder, entry))
    return found


def discover(root: Path) -> tuple[list[Example], list[ConfigError]]:
    """Every folder under examples/ is an example. Broken folders are returned as errors, not skipped."""
    examples_dir = root / "examples"
    examples: list[Example] = []
    errors: list[ConfigError] = []
    if not examples_dir.is_dir():
        return examples, errors
    # target/: where a contributor's own `cargo build` in the examples' workspace puts its output; not an example.
    folders = sorted(p for p in examples_dir.iterdir()
                     if p.is_dir() and not p.name.startswith((".", "_")) and p.name != "target")
    by_name = {p.name: p for p in folders}
    resolved = examples_dir.resolve()
    for folder in folders:
        rel = f"examples/{folder.name}"
        try:
            examples.append(_load_example(root, folder, rel, by_name, resolved))
        except ConfigError as exc:
            errors.append(exc)
    return examples, errors


def load_one(root: Path, name: str) -> Example | None:
    """Example NAME alone (reading only its own files and those its example.toml borrows), or None when there is
    no such folder; a broken one raises ConfigError."""
    examples_dir = root / "examples"
    folder = examples_dir / name
    if not NAME_PATTERN.match(name) or not folder.is_dir():
        return None
    by_name = {p.name: p for p in examples_dir.iterdir() if p.is_dir()}
    return _load_example(root, folder, f"examples/{name}", by_name, examples_dir.resolve())


def _other(by_name: dict[str, Path], name: str | None, key: str, rel: str) -> Path | None:
    if name is None:
        return None
    if name not in by_name:
        raise ConfigError(f"{key} = {name!r} names no folder under examples/", file=f"{rel}/{CONFIG}")
    return by_name[name]


def _load_example(root: Path, folder: Path, rel: str, by_name: dict[str, Path], examples_dir: Path) -> Example:
    if not NAME_PATTERN.match(folder.name):
        raise ConfigError("example folder names use lowercase letters, digits and hyphens", file=rel)
    config = load_config(folder / CONFIG, f"{rel}/{CONFIG}")
    transcript_dir = _other(by_name, config.transcript_from, "transcript_from", rel) or folder
    transcript = transcript_dir / TRANSCRIPT
    if not transcript.is_file():
        hint = " (an answer key without a transcript is an orphan: delete it or add the transcript)" \
            if (folder / ANSWER_KEY).exists() else ""
        raise ConfigError(f"no {TRANSCRIPT}{hint}", file=rel)
    impl_dir = _other(by_name, config.implementations_from, "implementations_from", rel) or folder
    impls = implementations_in(impl_dir)
    if config.implementations_from and implementations_in(folder):
        raise ConfigError("has its own implementations and implementations_from; choose one", file=rel)
    if config.implementations is not None:
        missing = [n for n in config.implementations if n not in {i.name for i in impls}]
        if missing:
            raise ConfigError(f"implementations names {', '.join(missing)}, which {impl_dir.name} does not have",
                              file=f"{rel}/{CONFIG}")
        impls = [i for i in impls if i.name in config.implementations]
    if config.stderr_lane is not None and config.stderr_lane not in {i.name for i in impls}:
        raise ConfigError(f"stderr_lane = {config.stderr_lane!r}, but the example runs no such implementation "
                          f"(it runs: {', '.join(i.name for i in impls) or 'none'})", file=f"{rel}/{CONFIG}")
    stray = [name for name, _ in config.not_in_browser if name not in {i.name for i in impls}]
    if stray:
        raise ConfigError(f"not_in_browser names {', '.join(stray)}, which the example does not run (it runs: "
                          f"{', '.join(i.name for i in impls) or 'none'}); remove that line", file=f"{rel}/{CONFIG}")
    if config.test is not None and TEST_RUNNERS[config.test] not in {i.name for i in impls}:
        raise ConfigError(f"test = {config.test!r} runs the tests of a {TEST_RUNNERS[config.test]} implementation, "
                          f"which the example does not have (it runs: {', '.join(i.name for i in impls) or 'none'})",
                          file=f"{rel}/{CONFIG}", line=_key_line(folder, "test"))
    if config.stderr_lane is None and (folder / STDERR_LANE).exists():  # the tool no longer checks it: say so
        raise ConfigError(f"{STDERR_LANE} is left over: example.toml sets no stderr_lane, so nothing checks it and "
                          f"no page shows it; delete it, or set stderr_lane = \"IMPL\" in {CONFIG}",
                          file=f"{rel}/{STDERR_LANE}")
    if config.http and not isinstance(config.http, bool):
        missing = [n for n in config.http if n not in {i.name for i in impls}]
        if missing:
            raise ConfigError(f"http names {', '.join(missing)}, which the example does not run (it runs: "
                              f"{', '.join(i.name for i in impls) or 'none'}); remove it from the list",
                              file=f"{rel}/{CONFIG}", line=_key_line(folder, "http"))
    _no_left_over_records(folder, rel, config, {i.name for i in impls})
    if not impls:
        wanted = ", ".join(IMPLEMENTATION_FILES.values())
        raise ConfigError(f"no implementation (expected one of: {wanted})", file=rel)
    for impl in impls:
        _check_inside(root, impl.entry, examples_dir, folder, "implementations_from")
    _check_inside(root, transcript, examples_dir, folder, "transcript_from")
    return Example(folder.name, folder, config, transcript, impls)


def _no_left_over_records(folder: Path, rel: str, config: Config, names: set[str]) -> None:
    """An http or tests record that nothing checks any more (the key that asked for it is gone): say so."""
    for left_over in sorted(folder.glob("http.*.jsonl")):  # the tool no longer checks it: say so
        impl = left_over.name[len("http."):-len(".jsonl")]
        if not (config.http is True and impl in names) and not (
                isinstance(config.http, tuple) and impl in config.http):
            raise ConfigError(f"{left_over.name} is left over: no implementation {impl!r} serves HTTP in this "
                              f"example, so nothing checks it; delete it, or list {impl!r} under http in {CONFIG}",
                              file=f"{rel}/{left_over.name}")
    for left_over in sorted(folder.glob("tests.*.txt")):  # the tool no longer checks it: say so
        if left_over.name != f"tests.{config.test}.txt":
            raise ConfigError(f"{left_over.name} is left over: example.toml's test does not name that runner, so "
                              f"nothing checks it; delete it, or set test = \"{left_over.name[6:-4]}\" in {CONFIG}",
                              file=f"{rel}/{left_over.name}")


def _check_inside(root: Path, path: Path, examples_dir: Path, folder: Path, key: str) -> None:
    """No code outside examples/ (`examples_dir`, resolved) is run as an example, whatever symlinks say. A file
    borrowed from another folder (`key` in example.toml) is this example's error, named at that key."""
    if path.resolve().is_relative_to(examples_dir):
        return
    if path.parent == folder:
        raise ConfigError(f"{path.name} resolves outside examples/ ({path.resolve()})",
                          file=str(path.relative_to(root)))
    config = folder / CONFIG
    rel_config = str(config.relative_to(root))
    line = _Located(config.read_text(encoding="utf-8"), rel_config).key(key)
    raise ConfigError(f"{key} = {path.parent.name!r} borrows {path.relative_to(root)}, which resolves outside "
                      f"examples/ ({path.resolve()}); no code outside examples/ is run: point {key} at a folder "
                      f"under examples/, or move the files into this example", file=rel_config, line=line)
