"""Paste example files into pages, and check the graph: every marker resolves, every example is pasted."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from . import markers
from .errors import PageError
from .model import ANSWER_KEY, TRANSCRIPT

LANGUAGES = {".rs": "rust", ".py": "python", ".toml": "toml", ".json": "json", ".jsonl": "json", ".md": "markdown"}


@dataclass
class PageResult:
    path: Path
    rel: str
    old: str
    new: str
    blocks: list[markers.Block] = field(default_factory=list)
    stale: list[markers.Block] = field(default_factory=list)  # blocks whose pasted body differs from the file


def page_files(root: Path) -> list[Path]:
    docs = root / "docs"
    return sorted(docs.rglob("*.md")) if docs.is_dir() else []


def resolve_target(root: Path, target: str, page: str, line: int, pending: dict[Path, bytes] | None = None) -> Path:
    """A marker path names a file under examples/; anything that leaves it is refused."""
    path_text = target.split("#", 1)[0]
    pure = PurePosixPath(path_text)
    if not path_text or pure.is_absolute() or "\\" in path_text or ".." in pure.parts:
        raise PageError(f"marker path {path_text!r} must be relative to examples/ and stay inside it "
                        f"(no '..', no absolute path)", file=page, line=line)
    examples = (root / "examples").resolve()
    path = root / "examples" / pure
    if not path.resolve().is_relative_to(examples):
        raise PageError(f"marker path {path_text!r} leaves examples/ through a symlink", file=page, line=line)
    if not path.is_file() and path.resolve() not in (pending or {}):  # an answer key about to be written is fine
        raise PageError(f"marker names examples/{path_text}, which does not exist", file=page, line=line)
    return path


def caption_for(rel: str) -> str:
    name = PurePosixPath(rel).name
    if name == ANSWER_KEY:
        return (f"Answer key: `{rel}`, the server's stdout, written by `tools/run_examples.py` and "
                f"verified by CI; never typed by hand.")
    if name == TRANSCRIPT:
        return f"Transcript: `{rel}`, what the client writes to the server's stdin, one message per line."
    if name in ("main.rs", "server.py"):  # a rustc example, a cargo project's src/main.rs, or Python
        action = "runs" if name.endswith(".py") else "compiles and runs"
        return f"Source: `{rel}`, the file CI {action} against the example's transcript."
    return f"From `{rel}`, part of the example that CI builds and runs."


def language_for(path: Path, content: str) -> str:
    lang = LANGUAGES.get(path.suffix, "text")
    if lang == "json":
        for line in content.splitlines():
            try:
                json.loads(line)
            except ValueError:
                return "text"  # an answer key that shows a broken line: json highlighting would mark it red
    return lang


def paste_page(root: Path, path: Path, overrides: dict[Path, bytes]) -> PageResult:
    """Compute the page as the tool would write it. `overrides` holds answer keys not yet written."""
    rel = str(path.relative_to(root))
    try:  # bytes, not read_text(): a page's own line endings (CRLF too) are text outside markers, kept as they are
        old = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[:exc.start].count(b"\n") + 1
        raise PageError(f"not UTF-8 (byte {exc.start}); pages are UTF-8", file=rel, line=line) from None
    segments = markers.parse(old, rel)
    bodies: dict[int, list[str]] = {}
    blocks = [s for s in segments if isinstance(s, markers.Block)]
    for block in blocks:
        source = resolve_target(root, block.target, rel, block.line, overrides)
        source_rel = str(source.relative_to(root))
        raw = overrides.get(source.resolve())
        if raw is None:
            raw = source.read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise PageError(f"{source_rel} is not UTF-8 and cannot be shown on a page", file=rel,
                            line=block.line) from None
        try:
            content = markers.extract_region(text, block.region, source_rel)
        except LookupError:
            known = ", ".join(markers.regions_of(text)) or "none"
            raise PageError(f"{source_rel} has no region {block.region!r} (regions: {known}); mark one with "
                            f"ANCHOR: {block.region} / ANCHOR_END: {block.region}", file=rel,
                            line=block.line) from None
        if any(markers.BEGIN.match(l) or markers.END.match(l) for l in content.splitlines()):
            raise PageError(f"{source_rel} contains a marker line and cannot be pasted", file=rel, line=block.line)
        title = source_rel + (f" (region {block.region})" if block.region else "")
        caption = caption_for(source_rel)
        bodies[block.line] = markers.fenced(content, language_for(source, content), title, caption, block.indent)
    stale = [b for b in blocks if b.body != bodies[b.line]]
    return PageResult(path, rel, old, markers.render(segments, bodies), blocks, stale)


def pasted_examples(root: Path, results: list[PageResult]) -> set[str]:
    """Names of examples with at least one file pasted somewhere."""
    names = set()
    for result in results:
        for block in result.blocks:
            parts = PurePosixPath(block.path).parts
            if parts:
                names.add(parts[0])
    return names
