"""No page keeps a placeholder of the stub `run_examples.py new NAME --page LEVEL` writes: the stub has every part
a page needs, so the shape tests pass on it, and this test names each sentence still to be written."""

from __future__ import annotations

import re

from support.repo import ROOT

from runex.new.page_stub import PLACEHOLDERS

CODE_SPAN = re.compile(r"`[^`\n]*`")  # a page may name a placeholder in code, as the contributor page does


def placeholders_in(text: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), 1)
            if any(mark in CODE_SPAN.sub("", line) for mark in PLACEHOLDERS)]


def test_no_page_keeps_a_placeholder_of_the_page_stub():
    left = [f"docs/{page.relative_to(ROOT / 'docs')}:{number}" for page in sorted((ROOT / "docs").rglob("*.md"))
            for number in placeholders_in(page.read_text(encoding="utf-8"))]
    assert not left, (f"write these lines ({' or '.join(PLACEHOLDERS)} marks what `new --page` left to you), then "
                      f"run .venv/bin/python tools/run_examples.py:\n  " + "\n  ".join(left))


def test_the_stub_is_caught_and_a_named_placeholder_is_not():
    from runex.new.page_stub import page_text

    stub = page_text("demo", "201", [("Python", "server.py")])
    assert len(placeholders_in(stub)) >= 7, "every part left to write is marked"
    assert placeholders_in("Sentences starting with `REPLACE:` are yours.\n") == []
