"""Remember what the strict schema said about each message, so an unchanged site never imports the schema.

Importing the official validators costs about half a second per run, more than verifying a warm site. The findings
for a message depend on the message and on the code that judges it, so they are kept in one file per judge, named
by a hash of KEY_PARTS below (the judge's code and the versions of what it runs on); any change to one of them is
another file, and a message not in the file loads the real validator. The file is written whole or not at all.

Who reads it: a local run. `--fresh`, `--repeat N`, `-v` and CI=true ask the real validator about every message,
as they run every example (they may still record what it said), so CI never trusts a finding it did not make.
"""

from __future__ import annotations

import json
import sys
import threading
from importlib import metadata
from pathlib import Path
from typing import Callable

from ..fsutil import sha256_bytes, sha256_file, write_atomic
from ..wire.check import MessageValidator

FORMAT = 1  # bump when the file's layout or the meaning of a finding changes
RUNEX = Path(__file__).resolve().parent.parent
FOLDER = "schema-findings"  # under .cache/run_examples/: one small file per judge, kept (cache_gc.py leaves it)
# The judge's own code: the schema package and the protocol facts it reads.
SOURCES = (*sorted((RUNEX / "schema").glob("*.py")), RUNEX / "wire" / "protocol.py")
# What the validator runs on: the schema's package and the library that validates with it.
DISTRIBUTIONS = ("mcp-types", "pydantic", "pydantic-core")


def _version(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "missing"


# The key, in order: (name, what it covers, how it is computed). Add to this list, never around it.
KEY_PARTS: tuple[tuple[str, str, Callable[[], object]], ...] = (
    ("format", "the file's layout (FORMAT)", lambda: FORMAT),
    ("judge", "every file of schema/ and wire/protocol.py",
     lambda: [[f"{p.parent.name}/{p.name}", sha256_file(p)] for p in SOURCES]),
    ("packages", "the installed mcp-types, pydantic and pydantic-core",
     lambda: [[d, _version(d)] for d in DISTRIBUTIONS]),
    ("interpreter", "sys.version", lambda: sys.version),
)


def fingerprint() -> str:
    return sha256_bytes(json.dumps([[name, compute()] for name, _, compute in KEY_PARTS]).encode())[:16]


class CachedValidator:
    """A MessageValidator that asks the real one only about messages it has not seen (with `read`)."""

    def __init__(self, cache_dir: Path, load: Callable[[], MessageValidator], *, read: bool = True):
        self._load = load
        self._real: MessageValidator | None = None
        self._lock = threading.Lock()
        self._path = cache_dir / FOLDER / f"{fingerprint()}.json"
        self._findings: dict[str, list[str]] = self._read() if read else {}
        self._dirty = False

    def _read(self) -> dict[str, list[str]]:
        try:
            found = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}  # none yet, or damaged: ask the real validator
        return found if isinstance(found, dict) else {}

    def _ask(self, kind: str, method: str | None, body: object, question: Callable[[MessageValidator], list[str]]):
        # surrogatepass: a lone surrogate ("\ud800") in a message must not crash the hash of it.
        text = json.dumps([kind, method, body], sort_keys=True, ensure_ascii=False)
        key = sha256_bytes(text.encode("utf-8", "surrogatepass"))
        with self._lock:
            known = self._findings.get(key)
            if isinstance(known, list) and all(isinstance(f, str) for f in known):
                return list(known)
            if self._real is None:
                self._real = self._load()
        findings = question(self._real)
        with self._lock:
            self._findings[key] = list(findings)
            self._dirty = True
        return findings

    def check_request(self, method: str, params: object) -> list[str]:
        return self._ask("request", method, params, lambda v: v.check_request(method, params))

    def check_result(self, method: str, result: object) -> list[str]:
        return self._ask("result", method, result, lambda v: v.check_result(method, result))

    def check_error(self, error: object) -> list[str]:
        return self._ask("error", None, error, lambda v: v.check_error(error))

    def check_notification(self, method: str, params: object) -> list[str]:
        return self._ask("notification", method, params, lambda v: v.check_notification(method, params))

    @property
    def loaded(self) -> bool:
        return self._real is not None

    def save(self) -> None:
        """Write the findings whole (or not at all); a lost write only costs the next run one import."""
        with self._lock:
            if not self._dirty:
                return
            try:
                self._path.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(self._path, json.dumps(self._findings, sort_keys=True).encode("utf-8"))
            except OSError:
                return
            self._dirty = False
