"""Where a pasted block's text comes from, and the first page line where it differs: what a drift message names.

A block that differs from its file was changed in one of two places: the example's file (the page is merely out of
date) or the page itself, by hand (and regenerating drops that edit). The tool cannot tell which, so the message
names both: the file and region the text is copied from, where an edit belongs, and the page line that differs.
"""

from __future__ import annotations

from pathlib import Path

from . import markers

WRITTEN_BY_THE_TOOL = {"answer_key.jsonl", "stderr.txt"}  # and http.<impl>.jsonl: records of a run, never edited


def described(root: Path, block: markers.Block) -> str:
    """`examples/NAME/FILE`, with the region and its lines in the file when the block shows a region."""
    rel = f"examples/{block.path}"
    if block.region is None:
        return rel
    try:
        first, last = markers.region_lines((root / rel).read_text(encoding="utf-8"), block.region)
    except (OSError, UnicodeDecodeError, StopIteration):
        return f"{rel} (region {block.region})"
    lines = f"line {first}" if first == last else f"lines {first}\u2013{last}"
    return f"{rel} (region {block.region}, {lines})"


def first_changed_line(old: str, new: str, page: str, block: markers.Block) -> int:
    """The page line (in `old`, the page as checked in) where `block`'s text first differs from what the tool pastes
    now; blocks are matched by their order on the page, which pasting never changes."""
    old_blocks = [s for s in markers.parse(old, page) if isinstance(s, markers.Block)]
    new_blocks = [s for s in markers.parse(new, page) if isinstance(s, markers.Block)]
    index = next(i for i, b in enumerate(old_blocks) if b.line == block.line)
    fresh = new_blocks[index].body if index < len(new_blocks) else []
    for offset, (was, now) in enumerate(zip(block.body, fresh)):
        if was != now:
            return block.line + 1 + offset
    return block.line + 1 + min(len(block.body), len(fresh))


def hand_edit_note(root: Path, old: str, new: str, page: str, block: markers.Block) -> str:
    """The sentences under a drifted pasted block: where the text comes from, and where an edit belongs."""
    source = described(root, block)
    line = first_changed_line(old, new, page, block)
    name = block.path.rsplit("/", 1)[-1]
    if name in WRITTEN_BY_THE_TOOL or (name.startswith("http.") and name.endswith(".jsonl")):
        where = (f"{source.split(' ', 1)[0]} is written by the tool from what the server wrote: an edit made on the "
                 f"page belongs in the server (or the transcript), never in that file")
    else:
        where = f"an edit made on the page belongs in {source.split(' ', 1)[0]}: make it there"
    return (f"{page}:{line} is the first line that differs. The text between these markers is copied from {source}; "
            f"{where}, then run the command below, which pastes the file's text here again (and drops any edit made "
            f"on the page).")
