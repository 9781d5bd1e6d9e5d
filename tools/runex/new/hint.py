"""What `new` prints once the example verified: what it wrote, and the next steps with the fast checks that hold the
rules the full suite holds (the table "Rules the suite holds" on docs/contributing/adding-an-example.md)."""

from __future__ import annotations

import shlex
from pathlib import Path

from ..report.text import fix_command
from ..examples import model
from . import page_stub, scaffold


def text(root: Path, folder: Path, lang: str, page: Path | None) -> str:
    name = folder.name
    files = sorted(scaffold.FILES[lang].values())
    joined = " (and added it to the workspace's members in examples/Cargo.toml)" if "Cargo.toml" in files and \
        (root / "examples/Cargo.toml").is_file() else ""
    tool = fix_command([], root)
    python = shlex.split(tool)[0]
    lines = [f"created {folder.relative_to(root)}/ with {', '.join(files)}, {model.TRANSCRIPT} and "
             f"{model.ANSWER_KEY}{joined}."]
    if page is not None:
        stub = page.relative_to(root)
        lines.append(f"created {stub} (the example pasted into it) and listed it in mkdocs.yml, docs/levels.md and "
                     f"docs/index.md; write every {' and '.join(page_stub.PLACEHOLDERS)} placeholder in them "
                     f"(tests/site/test_placeholders.py fails until you have).")
    twins = " (both twins alike: they share one answer key)" if lang == "both" else ""
    lines += ["Next:", f"  1. Change the server{twins} and {model.TRANSCRIPT}, then run: {fix_command([name], root)}"]
    if page is None:
        lines.append("  2. Paste it into a page under docs/, the conversation marker and the sources (a new page is "
                     "listed in mkdocs.yml, docs/levels.md and docs/index.md):")
        markers = ["conversation", *(entry for _, entry in scaffold.ENTRIES[lang])]
        lines += [f"       <!-- example-begin: {name}/{marker} -->\n       <!-- example-end -->" for marker in markers]
    else:
        lines.append(f"  2. Write the page {page.relative_to(root)}; it already pastes the conversation "
                     f"(<!-- example-begin: {name}/conversation -->) and the sources.")
    page_arg = f" PAGE={Path(page).stem}" if page is not None else " PAGE=<your page, no .md>"
    lines.append("  3. The fast loop: every rule the full suite holds for an example and its page, in seconds (each "
                 "alone: \"Rules the suite holds\" in docs/contributing/adding-an-example.md):")
    checks = [f"make example NAME={name}{page_arg}"]
    if lang in ("both", "cargo"):
        checks.append("cargo fmt --all   # in examples/, if rustfmt is what fails")
    if lang == "rust":
        checks.append(f"{python} -m pytest tests/test_rust_examples.py   # lists the std-only lessons: add {name}")
    if page is not None:
        checks.append(f"{python} -m pytest tests/site/test_placeholders.py   # fails until the page is written")
    lines += [f"       {check}" for check in checks]
    return "\n".join(lines)
