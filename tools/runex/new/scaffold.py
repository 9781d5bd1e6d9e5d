"""`new NAME [--lang ...]`: a new example folder that starts green (working servers, a transcript, its answer key).

By default both twins: a cargo workspace member and a Python server with the same replies, byte for byte."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from ..errors import UsageError
from ..fsutil import write_atomic
from ..examples.model import NAME_PATTERN, TRANSCRIPT

TEMPLATES = Path(__file__).resolve().parent / "templates"
RESERVED = {"serve", "new", "target"}

# What each language starts from: template file -> file in the new example's folder.
FILES = {
    "rust": {"main.rs": "main.rs"},  # one file, std only: for a lesson that is about having no crates
    "cargo": {"cargo/Cargo.toml": "Cargo.toml", "cargo/main.rs": "src/main.rs"},  # a member of the workspace
    "python": {"server.py": "server.py"},
}
FILES["both"] = {**FILES["cargo"], **FILES["python"]}  # the default: twins sharing one transcript and answer key
LANGS = ("both", "cargo", "rust", "python")
# The files to paste on a page, with the label of each one's tab.
ENTRIES = {"both": [("Rust", "src/main.rs"), ("Python", "server.py")], "cargo": [("Rust", "src/main.rs")],
           "rust": [("Rust", "main.rs")], "python": [("Python", "server.py")]}

MEMBERS = re.compile(r"^members\s*=\s*\[(?P<body>[^\]]*)\]", re.M)


def check_name(root: Path, name: str) -> None:
    if not NAME_PATTERN.match(name) or name in RESERVED:
        raise UsageError(f"example names use lowercase letters, digits and hyphens (and not {', '.join(RESERVED)}),"
                         f" got {name!r}")
    if (root / "examples" / name).exists():
        raise UsageError(f"examples/{name} already exists; choose another name or edit it in place")


def create(root: Path, name: str, lang: str) -> Path:
    check_name(root, name)
    folder = root / "examples" / name
    workspace = root / "examples" / "Cargo.toml"
    joined = _with_member(workspace, name) if "Cargo.toml" in FILES[lang].values() and workspace.is_file() else None
    transcript = (TEMPLATES / TRANSCRIPT).read_text(encoding="utf-8")
    for template, target in FILES[lang].items():
        text = (TEMPLATES / template).read_text(encoding="utf-8").replace("EXAMPLE_NAME", name)
        (folder / target).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / target, text.encode("utf-8"))
    write_atomic(folder / TRANSCRIPT, transcript.encode("utf-8"))
    if joined is not None:
        write_atomic(workspace, joined.encode("utf-8"))
    return folder


def _with_member(manifest: Path, name: str) -> str:
    """The workspace's manifest with `name` added to `members` (kept sorted), or a clear error to do it by hand."""
    text = manifest.read_text(encoding="utf-8")
    found = MEMBERS.search(text)
    try:
        members = tomllib.loads(text)["workspace"]["members"]
    except (tomllib.TOMLDecodeError, KeyError, TypeError):
        members = None
    if found is None or not isinstance(members, list):
        raise UsageError(f"cannot find `members = [...]` under [workspace] in {manifest.name}: add \"{name}\" to it "
                         f"by hand, then run the same `new` command again", file="examples/Cargo.toml")
    listed = sorted({*members, name})
    body = "".join(f'\n    "{member}",' for member in listed) + "\n"
    return text[:found.start("body")] + body + text[found.end("body"):]
