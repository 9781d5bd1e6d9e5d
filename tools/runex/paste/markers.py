"""Find marker pairs in a page and paste example files between them.

A page is a list of segments: text the tool never touches, and blocks (begin marker, owned body, end marker).
Markers inside a hand-written fenced code block are text, so a page can show the marker syntax.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import PageError

BEGIN = re.compile(r"^(?P<indent>[ \t]*)<!--\s*example-begin:\s*(?P<target>\S+)\s*-->[ \t]*\r?\n?$")
END = re.compile(r"^(?P<indent>[ \t]*)<!--\s*example-end\s*-->[ \t]*\r?\n?$")
LOOSE = re.compile(r"<!--\s*example-(begin|end)\b")  # anything that looks like a marker but is not one
MARKED = "example-"  # in every line BEGIN, END or LOOSE matches: a line without it is text, no pattern tried
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
CAPTION = "{: .example-caption }"  # the last line of every body the tool pastes, before one blank line
ANCHOR = re.compile(r"^\s*(?://|#)\s*ANCHOR(?P<end>_END)?:\s*(?P<name>[A-Za-z0-9_-]+)\s*$")


@dataclass
class Block:
    line: int  # 1-based line of the begin marker
    indent: str
    target: str  # as written: "first-server/main.rs" or "first-server/main.rs#dispatch"
    begin: str
    body: list[str]
    end: str

    @property
    def path(self) -> str:
        return self.target.split("#", 1)[0]

    @property
    def region(self) -> str | None:
        return self.target.split("#", 1)[1] if "#" in self.target else None


Segment = str | Block


def parse(text: str, page: str) -> list[Segment]:
    lines = text.splitlines(keepends=True)
    segments: list[Segment] = []
    fence: str | None = None
    fence_line = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        if fence is not None:
            if _closes(line, fence):
                fence = None
            segments.append(line)
            i += 1
            continue
        opened = FENCE.match(line)
        if opened:
            fence, fence_line = opened.group("fence"), i + 1
            segments.append(line)
            i += 1
            continue
        if MARKED not in line:
            segments.append(line)
            i += 1
            continue
        if END.match(line):
            raise PageError("example-end without an example-begin above it", file=page, line=i + 1)
        begin = BEGIN.match(line)
        if not begin:
            if LOOSE.search(line):
                raise PageError("malformed marker; write <!-- example-begin: NAME/FILE --> or "
                                "<!-- example-begin: NAME/FILE#region --> alone on its line, "
                                "and <!-- example-end --> alone on its line", file=page, line=i + 1)
            segments.append(line)
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not (MARKED in lines[j] and END.match(lines[j])):
            if MARKED in lines[j] and BEGIN.match(lines[j]):
                _unclosed(lines, i, j, begin.group("target"), page)
                raise PageError(f"example-begin inside the block opened on line {i + 1}; markers do not nest",
                                file=page, line=j + 1)
            j += 1
        if j == len(lines):
            _unclosed(lines, i, j, begin.group("target"), page)
            raise PageError("example-begin has no example-end below it", file=page, line=i + 1)
        end = lines[j]
        if not end.endswith("\n"):
            end += "\n"
        segments.append(Block(i + 1, begin.group("indent"), begin.group("target"), line, lines[i + 1:j], end))
        i = j + 1
    if fence is not None:  # everything below it would be code, markers too: a stale pair would pass unseen
        raise PageError(f"the fenced code block opened here ({fence}) never closes; close it with a line of "
                        f"{fence}", file=page, line=fence_line)
    return segments


def loose_captions(segments: list[Segment]) -> list[tuple[int, str]]:
    """Each caption attribute line outside every block and fence, with the caption text above it: (line, text).
    Only the tool writes these, so one outside markers is pasted text left behind (a stale copy after a repair)."""
    found: list[tuple[int, str]] = []
    fence: str | None = None
    number, above = 0, ""
    for segment in segments:
        if isinstance(segment, Block):
            number += 2 + len(segment.body)
            above = ""
            continue
        number += 1
        if fence is not None:
            fence = None if _closes(segment, fence) else fence
        elif opened := FENCE.match(segment):
            fence = opened.group("fence")
        elif segment.strip() == CAPTION:
            found.append((number, above))
        above = segment.strip()
    return found


def _unclosed(lines: list[str], opened: int, stop: int, target: str, page: str) -> None:
    """A block whose example-end was deleted: every body the tool pastes ends with its caption's attribute line and
    a blank line, so the first such line below the begin marker (and above `stop`, the next begin or the page's end)
    is where the end marker belongs. Raises naming the block; returns when no pasted text is there to find."""
    for k in range(opened + 1, stop):
        if lines[k].strip() == CAPTION:
            last = k + 2 if k + 1 < stop and not lines[k + 1].strip() else k + 1
            raise PageError(f"the block opened on line {opened + 1} ({target}) has no example-end; its pasted text "
                            f"ends at line {last}: put the example-end marker on the line after it", file=page,
                            line=opened + 1)


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    return len(stripped) >= len(fence) and set(stripped) == {fence[0]}


def render(segments: list[Segment], bodies: dict[int, list[str]]) -> str:
    """Join the page back together, with new bodies for the blocks whose begin line is in `bodies`."""
    out: list[str] = []
    for segment in segments:
        if isinstance(segment, str):
            out.append(segment)
        else:
            out.append(segment.begin if segment.begin.endswith("\n") else segment.begin + "\n")
            out.extend(bodies.get(segment.line, segment.body))
            out.append(segment.end)
    return "".join(out)


def extract_region(source: str, region: str | None, source_rel: str) -> str:
    """The file, or one named region of it, with every anchor line removed."""
    kept: list[str] = []
    open_regions: dict[str, int] = {}
    found = region is None
    inside = region is None
    for number, line in enumerate(source.splitlines(keepends=True), start=1):
        anchor = ANCHOR.match(line)
        if anchor:
            name = anchor.group("name")
            if anchor.group("end"):
                if name not in open_regions:
                    raise PageError(f"ANCHOR_END: {name} without ANCHOR: {name} above it", file=source_rel,
                                    line=number)
                del open_regions[name]
                if name == region:
                    inside = False
            else:
                if name in open_regions:
                    raise PageError(f"ANCHOR: {name} opened twice", file=source_rel, line=number)
                open_regions[name] = number
                if name == region:
                    if found:
                        raise PageError(f"region {name!r} is defined twice", file=source_rel, line=number)
                    found = inside = True
            continue
        if inside:
            kept.append(line)
    if open_regions:
        name, number = next(iter(open_regions.items()))
        raise PageError(f"ANCHOR: {name} is never closed with ANCHOR_END: {name}", file=source_rel, line=number)
    if not found:
        raise LookupError(region)
    text = "".join(kept)
    return text if text.endswith("\n") or not text else text + "\n"


def region_lines(source: str, region: str) -> tuple[int, int]:
    """First and last line (1-based, in the file as it is, anchor lines counted) of a region's shown lines."""
    numbers: list[int] = []
    inside = False
    for number, line in enumerate(source.splitlines(), start=1):
        anchor = ANCHOR.match(line)
        if anchor:
            if anchor.group("name") == region:
                inside = not anchor.group("end")
            continue
        if inside:
            numbers.append(number)
    if not numbers:  # an empty region: point at its ANCHOR line
        opening = next(n for n, l in enumerate(source.splitlines(), start=1)
                       if (m := ANCHOR.match(l)) and m.group("name") == region)
        return opening, opening
    return numbers[0], numbers[-1]


def regions_of(source: str) -> list[str]:
    return [m.group("name") for m in map(ANCHOR.match, source.splitlines()) if m and not m.group("end")]


def fenced(content: str, lang: str, title: str, caption: str, indent: str, line_numbers: bool = False) -> list[str]:
    """The block the tool owns: a blank line, the fence, a caption paragraph, a blank line.

    Whole files get line numbers (the CSS gives them a maximum height and their own scroll); regions carry their
    line range in the title instead."""
    longest = max((len(m.group(1)) for m in re.finditer(r"^[ \t]*(`{3,})", content, re.M)), default=0)
    fence = "`" * max(3, longest + 1)
    numbers = ' linenums="1"' if line_numbers else ""
    lines = [f"{fence}{lang} title=\"{title}\"{numbers}\n"]
    lines += content.splitlines(keepends=True)
    lines.append(f"{fence}\n")
    lines += ["\n", f"{caption}\n", f"{CAPTION}\n"]
    shown = ["\n"] + [f"{indent}{line}" if line.strip() else "\n" for line in lines] + ["\n"]
    return shown
