"""Which implementations the card covers, and what the suite finds in one of them."""

from __future__ import annotations

import tempfile
from pathlib import Path

from . import serve, suite

ROOT = Path(__file__).resolve().parents[3]


def http_implementations(root: Path = ROOT) -> list[tuple[str, str]]:
    """(example, implementation) for every implementation that serves Streamable HTTP, found without building
    (the tool's own discovery, which reads example.toml's `http`)."""
    from ..examples import model

    examples, _ = model.discover(root)
    return [(e.name, i.name.value) for e in examples for i in e.implementations if e.serves_http(i.name.value)]


def source_digests(cases: list[tuple[str, str]], root: Path = ROOT) -> dict[str, str]:
    """Each implementation's source digest (gate.source_digest), which the record's header keeps."""
    from ..examples import model

    from .gate import source_digest

    examples = {e.name: e for e in model.discover(root)[0]}
    return {key(name, impl): source_digest(examples[name].implementation(impl)) for name, impl in cases}


def key(example: str, impl: str) -> str:
    return f"{example}/{impl}"


def measure(command: list[str], cwd: Path, what: str) -> dict[str, dict[str, dict]]:
    """scenario -> check id -> outcome, for every scenario the suite ran against this server."""
    with tempfile.TemporaryDirectory(prefix="conformance-") as scratch:
        with serve.serving(command, cwd, what) as url:
            done = suite.run(url, Path(scratch))
        found = suite.read_checks(Path(scratch))
    if not found:
        raise suite.SuiteMissing(f"the suite wrote no checks for {what} (exit {done.returncode}):\n"
                                 f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return {scenario: suite.outcomes(checks) for scenario, checks in found.items()}
