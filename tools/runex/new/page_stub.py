"""`new NAME --page LEVEL`: a page stub docs/mcp/NAME.md in the shape every page keeps, and its three listings
(mkdocs.yml's nav, docs/levels.md, docs/index.md). Every file is planned before any is written, so a listing that
cannot be found leaves the repository as it was."""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import UsageError
from ..fsutil import write_atomic

LEVELS = ("101", "201", "301")
# Every placeholder starts with one of these; tests/site/test_placeholders.py fails on a page that keeps one.
REPLACE_EN, REPLACE_PL = "REPLACE:", "DO ZASTĄPIENIA:"
PLACEHOLDERS = (REPLACE_EN, REPLACE_PL)

SPEC = "https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/docs/specification/2026-07-28"


def title_of(name: str) -> str:
    return name.replace("-", " ").capitalize()


def page_text(name: str, level: str, sources: list[tuple[str, str]]) -> str:
    """The stub: the conversation and every source pasted by markers, the rest placeholders to replace."""
    title = title_of(name)
    tabs = "".join(f'    === "{label}"\n\n        <!-- example-begin: {name}/{entry} -->\n'
                   f"        <!-- example-end -->\n\n" for label, entry in sources)
    return f"""---
title: {title}
description: "{REPLACE_EN} one sentence on what this page teaches, the same as In short."
tags:
  - Level {level}
---

# {title}

!!! abstract "In short"
    {REPLACE_EN} one or two sentences on what this page teaches and what the reader can do afterwards.

{REPLACE_EN} say whom the page is for and which page it builds on. The conversation below is the example
`examples/{name}/` talking to a client: what the client wrote, and what the server answered.

<!-- example-begin: {name}/conversation -->
<!-- example-end -->

??? example "The whole server"

{tabs.rstrip()}

## Sources

- [MCP 2026-07-28, tools]({SPEC}/server/tools.mdx) (external): {REPLACE_EN} the spec sections this page relies on.

<div lang="pl" markdown>

## Po polsku

{REPLACE_PL} w tym akapicie opisz po polsku, czego uczy ta strona i dla kogo jest przeznaczona. Wystarczą dwa
lub trzy zdania, które streszczają sekcję „In short”.

{REPLACE_PL} tu wyjaśnij, co robi przykład `{name}`: jakie narzędzie udostępnia serwer, o co klient pyta w
transkrypcie i co serwer mu odpowiada.

{REPLACE_PL} na koniec wskaż, na co czytelnik powinien uważać, i odeślij go do strony, która omawia temat
dokładniej. Pojęcia nazywaj tak jak w słowniczku na stronie o dodawaniu przykładów.

**Szukaj po polsku:** {REPLACE_PL} słowa kluczowe po polsku i po angielsku, na przykład narzędzie tool

</div>
"""


def plan(root: Path, name: str, level: str, sources: list[tuple[str, str]], rerun: str) -> dict[Path, bytes]:
    """Every file `--page` writes, with its new content; a UsageError naming the file and line to edit by hand when
    a listing cannot be found, ending with `rerun`. Nothing is written here."""
    page = root / "docs" / "mcp" / f"{name}.md"
    if page.exists():
        raise UsageError(f"already exists; leave out --page, or choose another name: {rerun}",
                         file=f"docs/mcp/{name}.md")
    rel = f"mcp/{name}.md"
    title = title_of(name)
    return {
        page: page_text(name, level, sources).encode("utf-8"),
        root / "mkdocs.yml": _nav(root, rel, level, rerun).encode("utf-8"),
        root / "docs" / "levels.md": _listed(root, "docs/levels.md", level, f"[{title}]({rel})", rerun, numbered=True),
        root / "docs" / "index.md": _listed(root, "docs/index.md", level,
                                            f"[{title}]({rel}): {REPLACE_EN} one line about the page.", rerun,
                                            numbered=False),
    }


def _nav(root: Path, rel: str, level: str, rerun: str) -> str:
    """mkdocs.yml with `rel` last in the nav section of `level` (levels never go down along the track)."""
    lines = (root / "mkdocs.yml").read_text(encoding="utf-8").splitlines(keepends=True)
    section = _find(lines, re.compile(rf"^(\s*)- {level} · .*:\s*$"), "mkdocs.yml",
                    f"the nav section `  - {level} · ...:`", rel, rerun)
    indent = len(lines[section]) - len(lines[section].lstrip())
    end = section + 1
    while end < len(lines) and re.match(rf"^\s{{{indent + 1},}}- ", lines[end]):
        end += 1
    if end == section + 1:
        raise _by_hand("mkdocs.yml", section + 1, f"the nav section for {level} lists no page to follow", rel, rerun)
    item = lines[end - 1]
    return "".join(lines[:end]) + item[:len(item) - len(item.lstrip())] + f"- {rel}\n" + "".join(lines[end:])


def _listed(root: Path, file: str, level: str, link: str, rerun: str, numbered: bool) -> bytes:
    """`file` with `link` appended to the list under its heading `### LEVEL · ...`."""
    lines = (root / file).read_text(encoding="utf-8").splitlines(keepends=True)
    heading = _find(lines, re.compile(rf"^### {level} · "), file, f"the heading `### {level} · ...`", link, rerun)
    start = heading + 1
    while start < len(lines) and not lines[start].strip():
        start += 1
    end, count = start, 0
    while end < len(lines) and lines[end].strip() and not lines[end].startswith("#"):
        count += bool(re.match(r"^(\d+\.|-) ", lines[end]))
        end += 1
    if count == 0:
        raise _by_hand(file, heading + 1, f"no list under `### {level} · ...`", link, rerun)
    item = f"{count + 1}. {link}\n" if numbered else f"- {link}\n"
    return ("".join(lines[:end]) + item + "".join(lines[end:])).encode("utf-8")


def _find(lines: list[str], pattern: re.Pattern, file: str, what: str, entry: str, rerun: str) -> int:
    for number, line in enumerate(lines):
        if pattern.match(line):
            return number
    raise _by_hand(file, None, f"cannot find {what}", entry, rerun)


def _by_hand(file: str, line: int | None, why: str, entry: str, rerun: str) -> UsageError:
    return UsageError(f"{why}, where {entry} is to be listed; nothing was written. Restore that place in the "
                      f"file, then run: {rerun}", file=file, line=line)


def write_all(files: dict[Path, bytes]) -> None:
    """Write every file or, if one write fails, put back the ones already written."""
    old = {path: path.read_bytes() if path.exists() else None for path in files}
    done = []
    try:
        for path, data in files.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, data)
            done.append(path)
    except BaseException:
        for path in done:
            if old[path] is None:
                path.unlink(missing_ok=True)
            else:
                write_atomic(path, old[path])
        raise
