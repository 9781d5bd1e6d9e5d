"""`new NAME --lang ...`: a new example folder that starts green (a working server, a transcript, its answer key)."""

from __future__ import annotations

from pathlib import Path

from .errors import UsageError
from .fsutil import write_atomic
from .model import IMPLEMENTATION_FILES, NAME_PATTERN, TRANSCRIPT

TEMPLATES = Path(__file__).resolve().parent / "templates"
RESERVED = {"serve", "new"}


def create(root: Path, name: str, lang: str) -> Path:
    if not NAME_PATTERN.match(name) or name in RESERVED:
        raise UsageError(f"example names use lowercase letters, digits and hyphens (and not {', '.join(RESERVED)}),"
                         f" got {name!r}")
    folder = root / "examples" / name
    if folder.exists():
        raise UsageError(f"examples/{name} already exists; choose another name or edit it in place")
    entry = IMPLEMENTATION_FILES[lang]
    template = (TEMPLATES / ("main.rs" if lang == "rust" else "server.py")).read_text(encoding="utf-8")
    transcript = (TEMPLATES / TRANSCRIPT).read_text(encoding="utf-8")
    folder.mkdir(parents=True)
    write_atomic(folder / entry, template.replace("EXAMPLE_NAME", name).encode("utf-8"))
    write_atomic(folder / TRANSCRIPT, transcript.encode("utf-8"))
    return folder
