"""A failed example changes no page: its pasted blocks are put back as they were, block by block."""

from __future__ import annotations

from ..errors import PageError
from . import markers, pages


def rebodied(old_text: str, new_text: str, rel: str, keep_old) -> str | None:
    """`old_text` with each block's body taken from `new_text`, except the blocks `keep_old(block)` keeps as they
    are; None when the two pages do not hold the same markers."""
    old_segments = markers.parse(old_text, rel)
    old_blocks = [s for s in old_segments if isinstance(s, markers.Block)]
    new_blocks = [s for s in markers.parse(new_text, rel) if isinstance(s, markers.Block)]
    if [b.target for b in old_blocks] != [b.target for b in new_blocks]:
        return None
    bodies = {old.line: (old.body if keep_old(old) else new.body) for old, new in zip(old_blocks, new_blocks)}
    return markers.render(old_segments, bodies)


def pasted_from(original: bytes | None, result: pages.PageResult) -> bytes | None:
    """What this run writes to a page, pasted into the page as it was before the run (not as it is now)."""
    if original is None:
        return b""  # did not exist then: any content now is someone else's
    try:
        pasted = rebodied(original.decode("utf-8"), result.new, result.rel, lambda block: False)
    except (UnicodeDecodeError, PageError):
        return original
    return original if pasted is None else pasted.encode("utf-8")


def keep_blocks_of(result: pages.PageResult, names: set[str]) -> pages.PageResult:
    """The page as pasted, but with the blocks of the examples in `names` kept exactly as they were."""
    def example_of(block: markers.Block) -> str:
        return block.path.split("/", 1)[0]

    if not names or not result.examples & names:
        return result
    # result.new was pasted from result.old, so both hold the same markers.
    new = rebodied(result.old, result.new, result.rel, lambda block: example_of(block) in names)
    stale = [b for b in result.stale if example_of(b) not in names]
    return pages.PageResult(result.path, result.rel, result.old, new, result.blocks, stale)
