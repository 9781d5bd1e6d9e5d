"""What an example is: its folder, its transcript, its answer key, its implementations and its optional config."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .errors import ConfigError

TRANSCRIPT = "transcript.jsonl"
ANSWER_KEY = "answer_key.jsonl"
CONFIG = "example.toml"
STDERR_LANE = "stderr.txt"  # with stderr_lane = IMPL: that implementation's stderr, written and checked like the key

# Which file makes which implementation; the order is also the default for `serve`.
IMPLEMENTATION_FILES = {"rust": "main.rs", "cargo": "Cargo.toml", "python": "server.py"}

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*$")

DEFAULT_TIMEOUT = 5.0
DEFAULT_MAX_OUTPUT = 1 << 20


@dataclass(frozen=True)
class ExpectedViolation:
    rule: str
    line: int
    reason: str


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


@dataclass(frozen=True)
class Implementation:
    name: str  # "rust", "cargo" or "python"
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

    def implementation(self, name: str | None) -> Implementation:
        if name is None:
            return self.implementations[0]
        for impl in self.implementations:
            if impl.name == name:
                return impl
        known = ", ".join(i.name for i in self.implementations)
        raise ConfigError(f"example {self.name!r} has no implementation {name!r} (it has: {known})")


_CONFIG_KEYS = {"timeout", "exit_code", "max_output_bytes", "implementations_from", "transcript_from",
                "implementations", "expected_violation", "stderr_lane"}
_VIOLATION_KEYS = {"rule", "line", "reason"}


def load_config(path: Path, rel: str) -> Config:
    if not path.exists():
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read TOML: {exc}", file=rel) from None
    unknown = set(data) - _CONFIG_KEYS
    if unknown:
        raise ConfigError(f"unknown key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(_CONFIG_KEYS))}",
                          file=rel)
    violations = []
    for entry in data.get("expected_violation", []):
        if not isinstance(entry, dict) or set(entry) - _VIOLATION_KEYS or not {"rule", "line", "reason"} <= set(entry):
            raise ConfigError("each [[expected_violation]] needs exactly rule, line and reason", file=rel)
        if not isinstance(entry["line"], int) or entry["line"] < 1:
            raise ConfigError(f"expected_violation line must be a positive integer, got {entry['line']!r}", file=rel)
        violations.append(ExpectedViolation(str(entry["rule"]), entry["line"], str(entry["reason"])))

    def number(key, default, kind):
        value = data.get(key, default)
        if not isinstance(value, kind) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"{key} must be a non-negative number, got {value!r}", file=rel)
        return value

    return Config(
        timeout=float(number("timeout", DEFAULT_TIMEOUT, (int, float))),
        exit_code=number("exit_code", 0, int),
        max_output_bytes=number("max_output_bytes", DEFAULT_MAX_OUTPUT, int),
        implementations_from=data.get("implementations_from"),
        transcript_from=data.get("transcript_from"),
        implementations=_names(data, rel),
        expected_violations=tuple(violations),
        stderr_lane=_lane(data, rel),
    )


def _lane(data: dict, rel: str) -> str | None:
    lane = data.get("stderr_lane")
    if lane is not None and lane not in IMPLEMENTATION_FILES:
        raise ConfigError(f"stderr_lane names the implementation whose stderr is shown, one of "
                          f"{', '.join(IMPLEMENTATION_FILES)}; got {lane!r}", file=rel)
    return lane


def _names(data: dict, rel: str) -> tuple[str, ...] | None:
    names = data.get("implementations")
    if names is None:
        return None
    if not isinstance(names, list) or not names or any(n not in IMPLEMENTATION_FILES for n in names):
        raise ConfigError(f"implementations must be a non-empty list drawn from {', '.join(IMPLEMENTATION_FILES)}, "
                          f"got {names!r}", file=rel)
    return tuple(names)


def _implementations_in(folder: Path) -> list[Implementation]:
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
    folders = sorted(p for p in examples_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    by_name = {p.name: p for p in folders}
    for folder in folders:
        rel = f"examples/{folder.name}"
        try:
            examples.append(_load_example(root, folder, rel, by_name))
        except ConfigError as exc:
            errors.append(exc)
    return examples, errors


def _other(by_name: dict[str, Path], name: str | None, key: str, rel: str) -> Path | None:
    if name is None:
        return None
    if name not in by_name:
        raise ConfigError(f"{key} = {name!r} names no folder under examples/", file=f"{rel}/{CONFIG}")
    return by_name[name]


def _load_example(root: Path, folder: Path, rel: str, by_name: dict[str, Path]) -> Example:
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
    impls = _implementations_in(impl_dir)
    if config.implementations_from and _implementations_in(folder):
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
    if not impls:
        wanted = ", ".join(IMPLEMENTATION_FILES.values())
        raise ConfigError(f"no implementation (expected one of: {wanted})", file=rel)
    for impl in impls:
        _check_inside(root, impl.entry)
    _check_inside(root, transcript)
    return Example(folder.name, folder, config, transcript, impls)


def _check_inside(root: Path, path: Path) -> None:
    """No code outside examples/ is run as an example, whatever symlinks say."""
    examples_dir = (root / "examples").resolve()
    if not path.resolve().is_relative_to(examples_dir):
        raise ConfigError(f"{path.name} resolves outside examples/ ({path.resolve()})",
                          file=str(path.relative_to(root)))
