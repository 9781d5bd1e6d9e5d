"""Paste example files into pages, and check the graph: every marker resolves, every example is pasted."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ..errors import ConfigError, PageError
from ..examples import model
from ..examples.files import ExampleFiles
from ..examples.model import ANSWER_KEY, TRANSCRIPT
from . import markers

CONVERSATION = "conversation"  # NAME/conversation: a virtual target, the transcript and answer key as exchanges
HTTP_VIEW = "http"  # NAME/http: a virtual target, the HTTP records of every implementation as one table
SSE_VIEW = "sse"  # NAME/sse#LINE: a virtual target, that line's POST with curl and each SSE stream recorded

LANGUAGES = {".rs": "rust", ".py": "python", ".toml": "toml", ".json": "json", ".jsonl": "json", ".md": "markdown"}


@dataclass
class PageResult:
    path: Path
    rel: str
    old: str
    new: str
    parsed: list[markers.Block] | None = None  # the blocks; None: parsed from `old` when first asked
    stale: list[markers.Block] = field(default_factory=list)  # blocks whose pasted body differs from the file
    known_examples: frozenset[str] | None = None  # what `examples` is, when the page cache knows it already

    @property
    def blocks(self) -> list[markers.Block]:
        if self.parsed is None:  # a page the page cache vouched for: only a failed example's blocks need these
            self.parsed = [s for s in markers.parse(self.old, self.rel) if isinstance(s, markers.Block)]
        return self.parsed

    @property
    def examples(self) -> frozenset[str]:
        """The examples this page pastes something of (the first part of each block's path)."""
        if self.known_examples is None:
            self.known_examples = frozenset(p[0] for b in self.blocks if (p := PurePosixPath(b.path).parts))
        return self.known_examples


def page_files(root: Path) -> list[Path]:
    docs = root / "docs"
    return sorted(docs.rglob("*.md")) if docs.is_dir() else []


def resolve_target(root: Path, target: str, page: str, line: int, files: ExampleFiles | None = None) -> Path:
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
    if not path.is_file() and not (files and files.is_pending(path)):  # an answer key about to be written is fine
        raise PageError(f"marker names examples/{path_text}, which does not exist", file=page, line=line)
    return path


def caption_for(rel: str) -> str:
    name = PurePosixPath(rel).name
    if name == ANSWER_KEY:
        return (f"Answer key: `{rel}`, the server's stdout, written by `tools/run_examples.py` and "
                f"verified by CI; never typed by hand.")
    if name == TRANSCRIPT:
        return f"Transcript: `{rel}`, what the client writes to the server's stdin, one message per line."
    if name.startswith("http.") and name.endswith(".jsonl"):
        return (f"HTTP record: `{rel}`, status and headers of each POST over Streamable HTTP, written by "
                f"`tools/run_examples.py` and verified by CI; never typed by hand.")
    if name.startswith("tests.") and name.endswith(".txt"):  # example.toml's `test` (run/own_tests.py)
        return (f"Test output: `{rel}`, what the example's own tests printed in the sandbox (durations as "
                f"`<time>`), written by `tools/run_examples.py` and verified by CI; never typed by hand.")
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


def paste_page(root: Path, path: Path, files: ExampleFiles) -> PageResult:
    """Compute the page as the tool would write it, from `files` (the run's examples, and what it will write)."""
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
        if is_conversation(block.target):  # checked here, rendered when the site is built (markdown_ext.py)
            conversation_body(root, block, rel, files)
            bodies[block.line] = []
            continue
        if is_http_view(block.target):
            bodies[block.line] = http_body(root, block, rel, files)
            continue
        if is_view(block.target, SSE_VIEW):
            bodies[block.line] = sse_body(root, block, rel, files)
            continue
        source = resolve_target(root, block.target, rel, block.line, files)
        source_rel = str(source.relative_to(root))
        raw = files.read(source)
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
        title = title_for(source_rel, text, block.region)
        caption = caption_for(source_rel)
        bodies[block.line] = markers.fenced(content, language_for(source, content), title, caption, block.indent,
                                            line_numbers=block.region is None)
    if markers.CAPTION in old:
        _no_stale_copies(segments, blocks, bodies, rel)
    stale = [b for b in blocks if b.body != bodies[b.line]]
    return PageResult(path, rel, old, markers.render(segments, bodies), blocks, stale)


def _no_stale_copies(segments: list[markers.Segment], blocks: list[markers.Block], bodies: dict[int, list[str]],
                     page: str) -> None:
    """Pasted text outside markers (a repair that wrote the pair empty leaves the old body below it as plain text,
    which no check would read again) is an error at its caption line, naming the block whose caption it repeats."""
    for line, caption in markers.loose_captions(segments):
        owner = next((b for b in blocks if caption and caption in (l.strip() for l in bodies[b.line])), None)
        said = (f"repeats the caption of the block pasted at line {owner.line} ({owner.target})" if owner else
                f"is a caption the tool writes ({markers.CAPTION})")
        raise PageError(f"text outside markers {said}: a stale copy of pasted text, left by a repair? Delete the "
                        f"copy, from its first line down to this one; only text between markers is the tool's",
                        file=page, line=line)


def title_for(source_rel: str, source_text: str, region: str | None) -> str:
    """A whole file is named by its path; a region also by where it sits in the file (anchor lines counted)."""
    if region is None:
        return source_rel
    first, last = markers.region_lines(source_text, region)
    lines = f"line {first}" if first == last else f"lines {first}\u2013{last}"
    return f"{source_rel}, {lines} (region {region})"


def is_conversation(target: str) -> bool:
    parts = PurePosixPath(target.split("#", 1)[0]).parts
    return len(parts) == 2 and parts[1] == CONVERSATION


def is_http_view(target: str) -> bool:
    return is_view(target, HTTP_VIEW)


def is_view(target: str, view: str) -> bool:
    parts = PurePosixPath(target.split("#", 1)[0]).parts
    return len(parts) == 2 and parts[1] == view


def http_body(root: Path, block: markers.Block, page: str, files: ExampleFiles) -> list[str]:
    """NAME/http: the http.<impl>.jsonl records (about to be written, else checked in) as one table."""
    from . import http_view

    name = PurePosixPath(block.target).parts[0]
    shown = _line_range(block, name, page, HTTP_VIEW)
    example = _http_example(files, name, block, page, "HTTP view")
    records = files.http_records(example)
    key = files.read(example.answer_key)
    if key is None or any(data is None for data in records.values()):
        raise PageError(f"marker names the HTTP view of {name}, whose answer key or http records are not written "
                        f"yet; run the tool without --check to write them", file=page, line=block.line)
    lines = files.transcript_lines(example)
    reasons = {o.line: o.reason for o in example.config.http_overrides}
    record_files = [str(example.http_file(impl).relative_to(root)) for impl in records]
    if shown is not None and not all(n in {l.number for l in lines} for n in shown):
        raise PageError(f"{block.target}: the transcript of {name} has lines 1 to {len(lines)}", file=page,
                        line=block.line)
    return http_view.render(lines, key, records, reasons, block.indent, record_files, shown, example.config.sends)


def sse_body(root: Path, block: markers.Block, page: str, files: ExampleFiles) -> list[str]:
    """NAME/sse#LINE: that line sent with curl, and the SSE stream each implementation's record holds for it."""
    from . import sse_view

    name = PurePosixPath(block.target).parts[0]
    shown = _line_range(block, name, page, SSE_VIEW)
    example = _http_example(files, name, block, page, "SSE view")
    if shown is None or shown[0] != shown[1]:
        raise PageError(f"{block.target}: an SSE view shows one transcript line, such as {name}/{SSE_VIEW}#2",
                        file=page, line=block.line)
    records = files.http_records(example)
    if any(data is None for data in records.values()):
        raise PageError(f"marker names the SSE view of {name}, whose http records are not written yet; run the "
                        f"tool without --check to write them", file=page, line=block.line)
    lines = files.transcript_lines(example)
    line = next((l for l in lines if l.number == shown[0]), None)
    if line is None:
        raise PageError(f"{block.target}: the transcript of {name} has lines 1 to {len(lines)}", file=page,
                        line=block.line)
    record_files = {impl: str(example.http_file(impl).relative_to(root)) for impl in records}
    try:
        return sse_view.render(name, line.number, line.raw, records, record_files, block.indent)
    except sse_view.NoStream as exc:
        raise PageError(f"{block.target}: {exc}", file=page, line=block.line) from None


def _http_example(files: ExampleFiles, name: str, block: markers.Block, page: str, view: str) -> model.Example:
    try:
        example = files.example(name)
    except ConfigError as exc:
        raise PageError(f"cannot show the {view} of {name}: {exc}", file=page, line=block.line) from None
    if example is None or not example.config.http:
        raise PageError(f"marker names the {view} of {name!r}, but no example of that name sets http in its "
                        f"{model.CONFIG}", file=page, line=block.line)
    return example


def conversation_body(root: Path, block: markers.Block, page: str, files: ExampleFiles) -> list[str]:
    """NAME/conversation: the example's transcript (its own, or transcript_from's) and the answer key about to be
    written (`files.pending`), else the one checked in, laid out as exchanges by exchanges.render."""
    # Only a page being pasted needs these, not one the page cache vouches for.
    from . import conversation_view as exchanges
    from . import run_here as browser

    name = PurePosixPath(block.path).parts[0]
    folder = root / "examples" / name
    lines = _line_range(block, name, page)
    if not model.NAME_PATTERN.match(name) or not folder.is_dir():
        raise PageError(f"marker names the conversation of example {name!r}, but there is no folder "
                        f"examples/{name}", file=page, line=block.line)
    try:
        config = files.config(name)
    except ConfigError as exc:
        raise PageError(f"cannot show the conversation of {name}: {exc}", file=page, line=block.line) from None
    transcript = config.transcript_of(root, name)
    answer_key = folder / ANSWER_KEY
    resolve_target(root, str(transcript.relative_to(root / "examples")), page, block.line)  # inside examples/
    key_bytes = files.read(answer_key)
    if key_bytes is None:
        raise PageError(f"marker names the conversation of {name}, which has no {ANSWER_KEY} yet; run the "
                        f"tool without --check to write it", file=page, line=block.line)
    lane = None
    if config.stderr_lane is not None:  # the stderr lane: the file about to be written, else the checked-in one
        stderr_file = folder / model.STDERR_LANE
        data = files.read(stderr_file)
        if data is None:
            raise PageError(f"marker names the conversation of {name}, whose stderr_lane has no {model.STDERR_LANE} "
                            f"yet; run the tool without --check to write it", file=page, line=block.line)
        lane = exchanges.StderrLane(config.stderr_lane, str(stderr_file.relative_to(root)), data)
    run = browser.browser_run(root, name, config, files)
    # "Run it here" runs the whole transcript, so only a whole view gets the button (a range is part of one); a range
    # of an example that runs in no language here still says why (run-here.js shows it once per page).
    runs_here = None
    if run is not None and lines is None:
        runs_here = run.attributes(root)
    elif run is not None and not run.runnable:
        runs_here = {"example": name, "not-here": run.attributes(root)["not-here"]}
    try:
        return exchanges.render(files.read(transcript) or b"", key_bytes, config.expected_violations,
                                str(transcript.relative_to(root)), str(answer_key.relative_to(root)), block.indent,
                                stderr=lane, lines=lines, runs_here=runs_here, sends=config.sends)
    except exchanges.RangeError as exc:
        raise PageError(f"{block.target}: {exc}", file=page, line=block.line) from None


_RANGE = re.compile(r"^(?P<first>[1-9][0-9]*)(?:-(?P<last>[1-9][0-9]*))?$")


def _line_range(block: markers.Block, name: str, page: str, view: str = CONVERSATION) -> tuple[int, int] | None:
    """`NAME/conversation#7-9` shows the exchanges of transcript lines 7 to 9 (`#7`: line 7 alone), so a page can
    put each part of a conversation next to the prose about it; `NAME/http#7-9` those lines' HTTP rows."""
    if "#" not in block.target:
        return None
    found = _RANGE.match(block.region or "")
    if not found or int(found["last"] or found["first"]) < int(found["first"]):
        what = {CONVERSATION: "a conversation", SSE_VIEW: "an SSE view"}.get(view, "an HTTP view")
        raise PageError(f"{block.target}: after # {what} takes transcript lines, such as "
                        f"{name}/{view}#7-9 or {name}/{view}#3", file=page, line=block.line)
    return int(found["first"]), int(found["last"] or found["first"])


def pasted_examples(root: Path, results: list[PageResult]) -> set[str]:
    """Names of examples with at least one file pasted somewhere."""
    return set().union(*(result.examples for result in results))
