"""Which line of a server's source wrote a stray line to stdout: the print an author must change.

A line on stdout that is no message is nearly always a debug print. Its text is the print's format string with the
placeholders filled in, so the source line whose literal pieces all appear in the stray text, in order, is the one
that wrote it (`println!("got request {method} id={id}")` wrote "got request tools/call id=3"). Only calls that
write to stdout are considered: eprintln! and print(..., file=sys.stderr) cannot have written it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..examples.model import Implementation

_RUST_PRINT = re.compile(r"(?<![\w!])(println|print)!\s*\(")
_PYTHON_PRINT = re.compile(r"(?<![\w.])print\s*\(|\bsys\.stdout\.(buffer\.)?write\s*\(")
_STRING = re.compile(r'''[rbfuRBFU]*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')''')
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%[-+ #0-9.]*[sdifrx]")
_CALL_LINES = 4  # a call's arguments may run over a few lines


@dataclass(frozen=True)
class Print:
    file: Path
    line: int
    code: str  # the source line, stripped


def source_files(impl: Implementation) -> list[Path]:
    """What the implementation's author edits: main.rs, the .rs files under a cargo project's src/, or server.py."""
    if impl.name == "cargo":
        src = impl.source_dir / "src"
        return sorted(src.rglob("*.rs"), key=lambda p: (p.name != "main.rs", str(p))) if src.is_dir() else []
    return [impl.entry]


def find(impl: Implementation, stray: str) -> list[Print]:
    """The print calls whose literal text matches `stray` best (several only when they match equally well)."""
    best, found = 0, []
    for path in source_files(impl):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for index, line in enumerate(lines):
            if not _prints_to_stdout(line, path.suffix):
                continue
            score = _score("\n".join(lines[index:index + _CALL_LINES]), stray, path.suffix)
            if score > best:
                best, found = score, []
            if score == best and score > 0:
                found.append(Print(path, index + 1, line.strip()))
    return found


def _prints_to_stdout(line: str, suffix: str) -> bool:
    code = line.split("//", 1)[0] if suffix == ".rs" else line.split("#", 1)[0]
    if suffix == ".rs":
        return bool(_RUST_PRINT.search(code))
    return bool(_PYTHON_PRINT.search(code)) and "sys.stderr" not in code


def _score(call: str, stray: str, suffix: str) -> int:
    """How many characters of the call's first string literal appear in `stray`, in order; 0 when a piece is missing.
    A literal with nothing but placeholders ("{}") says nothing about which print it was, so it scores 0 too."""
    match = _STRING.search(call)
    if match is None:
        return 0
    literal = match.group(1) if match.group(1) is not None else match.group(2)
    literal = literal.replace("{{", "\0").replace("}}", "\1")
    pieces = [p.replace("\0", "{").replace("\1", "}").replace('\\"', '"').replace("\\'", "'")
              for p in _PLACEHOLDER.split(literal)]
    position, score = 0, 0
    for piece in filter(None, pieces):
        at = stray.find(piece, position)
        if at < 0:
            return 0
        position, score = at + len(piece), score + len(piece)
    return score


def at_source(impl: Implementation, stray: str, root: Path) -> tuple[str, int | None, str]:
    """(file, line, what to say) for an implementation that wrote `stray`: the print that wrote it when its source
    shows one, else the file an author edits (a cargo project's src/main.rs rather than its Cargo.toml)."""
    prints = find(impl, stray)
    if prints:
        first = prints[0]
        others = "".join(f", or {p.file.relative_to(root)}:{p.line}" for p in prints[1:])
        return str(first.file.relative_to(root)), first.line, f"written by `{first.code}`{others}"
    files = source_files(impl)
    return str((files[0] if files else impl.entry).relative_to(root)), None, "no print in the source writes this text"


def report(problem, impls: list[Implementation], root: Path, stdout: bytes) -> tuple[str, str, int | None]:
    """A stray stdout line (rule stdout-not-a-message) as the author reads it: each server that wrote it named at
    the print that wrote it, `FILE:LINE (impl)`, then the rule's message and the print's own code. Returns the
    text, and the file and line of the first print for an annotation."""
    lines = stdout.split(b"\n")
    stray = lines[problem.line - 1].decode("utf-8", "replace") if 0 < problem.line <= len(lines) else ""
    places = [(impl.name, *at_source(impl, stray, root)) for impl in impls]
    servers = " and ".join(f"{file}:{line} ({name})" if line else f"{file} ({name})" for name, file, line, _ in places)
    said = "; ".join(f"{name}: {what}" if len(places) > 1 else what for name, _, _, what in places)
    text = f"{servers}: [{problem.rule}] stdout line {problem.line}: {problem.message}; the stray line: {said}"
    return text, places[0][1], places[0][2]
