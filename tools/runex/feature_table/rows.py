"""The builds the table has a row for: each names an existing example crate and what CI does with it. A row's
features are the ones its Cargo.toml declares for rmcp; minimise.py finds which of them the build needs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    key: str  # the record's name for the row
    label: str  # what the table calls it
    crate: str  # a member of the examples' workspace
    step: str  # "stdio": build the binary and run its transcript; "test": cargo test; "lib": build the library
    target: str = ""  # a --target for cargo, or "" for the host
    excluded: tuple[str, ...] = ()  # declared features the build leaves out; the record says what each breaks


ROWS = (
    Row("stdio-server", "A stdio server", "rmcp-server", "stdio"),
    Row("http-server", "A Streamable HTTP server (and stdio)", "streamable-http", "stdio"),
    Row("test-client", "A client in `cargo test`", "testing-rust", "test"),
    Row("no-macros", "A server without the `#[tool]` macros", "conformance-reference", "stdio"),
    Row("wasm32-wasip1", "The handler, for wasm32-wasip1", "testing-rust", "lib", "wasm32-wasip1",
        ("transport-io",)),
)


def command(row: Row) -> str:
    """The cargo command the row runs, as the table shows it."""
    target = f" --target {row.target}" if row.target else ""
    if row.step == "test":
        return f"cargo test -p {row.crate} --test '*'{target}"
    if row.step == "lib":
        return f"cargo build -p {row.crate} --lib{target}"
    return f"cargo build -p {row.crate} --bins{target}"


def then(row: Row) -> str:
    """What shows that the build works, beyond compiling."""
    return {"stdio": "then its transcript, a line at a time, gets its answer key",
            "test": "and its tests pass", "lib": "a library: built, not run"}[row.step]
