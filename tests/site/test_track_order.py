"""The track's order follows what each page needs (issue 34), checked from the sources without a browser.

mkdocs.yml's nav is the reading order. A page may not build on a page that comes after it (its "Builds on" links),
and the code it pastes may not use a Rust crate or a Python package that only a later page explains. Which page
explains which crate is the small table below: a new crate in an example fails here until someone names the page
that teaches it (and that page's prose mentions it), so the order is decided on purpose, not by accident.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from pathlib import Path

import pytest

from runex.paste import markers
from support.nav import track
from support.repo import ROOT

DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"
TRACK_PAGES = [page for page, _ in track()]

# Rust crates: the one page whose prose explains each. A dependency in Cargo.toml and a `use` or `extern crate`
# line both count as using the crate.
CRATE_HOME = {
    "serde": "mcp/serde-json.md",
    "serde_json": "mcp/serde-json.md",
    "rmcp": "mcp/rmcp.md",
    "tokio": "mcp/rmcp.md",
    "tracing": "mcp/rmcp.md",
    "tracing_subscriber": "mcp/rmcp.md",
    "axum": "mcp/streamable-http.md",
    "hmac": "mcp/input-required.md",
    "sha2": "mcp/input-required.md",
    "base64": "mcp/pagination.md",
}
# Python packages outside the standard library: the official SDK and the models its API is made of.
PACKAGE_HOME = {
    "mcp": "mcp/python-mcp-package.md",
    "mcp_types": "mcp/python-mcp-package.md",
    "pydantic": "mcp/python-mcp-package.md",
    "pytest": "mcp/testing-your-server.md",
}
# Libraries the Python twins call without any page teaching them: the order does not hold them.
NOT_TAUGHT = {"anyio", "uvicorn", "jsonschema"}
RUST_BUILTINS = {"std", "core", "alloc", "crate", "self", "super"}
USE_LINE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:use\s+(?:::)?|extern\s+crate\s+)(\w+)", re.M)
MOD_LINE = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)", re.M)
BUILDS_ON = re.compile(r"^Builds on\b.*?(?=\n\s*\n|\Z)", re.M | re.S)
LINK = re.compile(r"\]\(([^)#\s]+\.md)(?:#[^)]*)?\)")


def crate_name(name: str) -> str:
    return name.replace("-", "_")


def cargo_dependencies(example: Path) -> set[str]:
    manifest = example / "Cargo.toml"
    if not manifest.is_file():
        return set()
    return {crate_name(n) for n in tomllib.loads(manifest.read_text(encoding="utf-8")).get("dependencies", {})}


def rust_crates(example: Path, source: Path) -> set[str]:
    """The crates a Rust file depends on: its example's Cargo.toml and the crates its `use` lines name."""
    local_modules = set()
    for rust_file in example.rglob("*.rs"):
        local_modules |= set(MOD_LINE.findall(rust_file.read_text(encoding="utf-8")))
    named = set(USE_LINE.findall(source.read_text(encoding="utf-8"))) - RUST_BUILTINS - local_modules
    return (cargo_dependencies(example) | named) - {own_crate(example)}


def own_crate(example: Path) -> str | None:
    """The example's own package (a test in tests/ uses its library by that name): nothing to teach."""
    manifest = example / "Cargo.toml"
    if not manifest.is_file():
        return None
    return crate_name(tomllib.loads(manifest.read_text(encoding="utf-8")).get("package", {}).get("name", ""))


def python_packages(source: Path) -> set[str]:
    """Top-level packages a Python file imports from outside the standard library."""
    found = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    local = {p.stem for p in source.parent.glob("*.py")}  # a test imports the server beside it
    return found - set(sys.stdlib_module_names) - local


def pasted_files(page: str) -> list[tuple[int, str]]:
    """(line of the begin marker, example path such as "serde-json/src/main.rs") for every block the page pastes."""
    segments = markers.parse((DOCS / page).read_text(encoding="utf-8"), page)
    return [(s.line, s.path) for s in segments if isinstance(s, markers.Block)]


def uses(page: str) -> dict[str, str]:
    """What the page's pasted code uses: {crate or package: "docs/PAGE:LINE (example file)"}, first place only."""
    found: dict[str, str] = {}
    for line, path in pasted_files(page):
        example_name, _, file = path.partition("/")
        example, source = EXAMPLES / example_name, EXAMPLES / path
        if file == "Cargo.toml":
            names = cargo_dependencies(example)
        elif file.endswith(".rs"):
            names = rust_crates(example, source)
        elif file.endswith(".py"):
            names = python_packages(source)
        else:
            continue  # a transcript, an answer key, a conversation: JSON, no code
        for name in sorted(names):
            found.setdefault(name, f"docs/{page}:{line} (examples/{path})")
    return found


def home_of(name: str) -> str | None:
    return CRATE_HOME.get(name) or PACKAGE_HOME.get(name)


def builds_on(page: str) -> list[str]:
    """The track pages named in the page's "Builds on" paragraphs, as nav paths."""
    base = Path(page).parent
    found = []
    for paragraph in BUILDS_ON.findall((DOCS / page).read_text(encoding="utf-8")):
        for target in LINK.findall(paragraph):
            resolved = re.sub(r"^\./", "", str(base / target).replace("\\", "/"))
            if resolved in TRACK_PAGES and resolved not in found:
                found.append(resolved)
    return found


def later_foundations(order: list[str], needs: dict[str, list[tuple[str, str]]]) -> list[str]:
    """Every (page needs foundation) where the foundation comes after the page, or is missing from the order."""
    position = {page: index for index, page in enumerate(order)}
    problems = []
    for page, wanted in needs.items():
        for foundation, why in wanted:
            if position.get(foundation, len(order)) >= position[page]:
                problems.append(f"{why} docs/{foundation}, which comes after docs/{page} in the nav (or is not on it)")
    return problems


def test_no_page_builds_on_a_later_page():
    needs = {page: [(f, f"docs/{page} says it builds on") for f in builds_on(page)] for page in TRACK_PAGES}
    problems = later_foundations(TRACK_PAGES, needs)
    assert not problems, ("\n".join(problems) + "\nMove the page in mkdocs.yml (and levels.md, index.md), or turn "
                          "the link into a forward reference outside the 'Builds on' paragraph.")


def test_every_crate_and_package_the_pages_paste_has_a_home():
    unknown = [f"{where} uses {name}" for page in TRACK_PAGES for name, where in uses(page).items()
               if home_of(name) is None and name not in NOT_TAUGHT]
    assert not unknown, ("\n".join(unknown) + "\nName the page that explains it in CRATE_HOME or PACKAGE_HOME of "
                         "tests/site/test_track_order.py (or NOT_TAUGHT, for a Python helper no page teaches).")


def test_no_page_uses_a_crate_before_the_page_that_explains_it():
    needs = {page: [(home_of(name), f"{where} uses {name}, explained on")
                    for name, where in uses(page).items() if home_of(name) and home_of(name) != page]
             for page in TRACK_PAGES}
    problems = later_foundations(TRACK_PAGES, needs)
    assert not problems, ("\n".join(problems) + "\nMove the explaining page earlier in mkdocs.yml (and levels.md, "
                          "index.md), or show this page's example without the crate.")


@pytest.mark.parametrize("name,home", sorted({**CRATE_HOME, **PACKAGE_HOME}.items()))
def test_the_home_page_is_on_the_track_and_its_prose_names_what_it_explains(name, home):
    assert home in TRACK_PAGES, f"{name}: its home docs/{home} is not a track page in mkdocs.yml's nav"
    prose = [seg for seg in markers.parse((DOCS / home).read_text(encoding="utf-8"), home) if isinstance(seg, str)]
    spellings = {name, name.replace("_", "-")}
    assert any(s in "".join(prose) for s in spellings), \
        f"docs/{home} is named as the page that explains {name}, but its prose never mentions it"


def test_later_foundations_reports_a_later_or_missing_page():
    """The checker itself can fail: a foundation after the page, or off the nav, is reported; an earlier one is not."""
    order = ["a.md", "b.md", "c.md"]
    needs = {"a.md": [("b.md", "a needs")], "b.md": [("a.md", "b needs")], "c.md": [("z.md", "c needs")]}
    assert later_foundations(order, needs) == [
        "a needs docs/b.md, which comes after docs/a.md in the nav (or is not on it)",
        "c needs docs/z.md, which comes after docs/c.md in the nav (or is not on it)"]


def test_use_lines_name_crates_and_skip_local_modules(tmp_path):
    example = tmp_path / "demo"
    (example / "src").mkdir(parents=True)
    (example / "Cargo.toml").write_text('[package]\nname = "demo"\n[dependencies]\nserde-json = "1"\n')
    main = example / "src" / "main.rs"
    main.write_text("mod shop;\nuse std::io;\nuse shop::Cart;\npub use rmcp::model;\nextern crate tokio;\n")
    assert rust_crates(example, main) == {"serde_json", "rmcp", "tokio"}
