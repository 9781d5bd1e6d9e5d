"""Remember what the strict schema said about each message, so an unchanged site never imports the schema.

Importing the official validators costs about half a second per run, more than verifying a warm site. A verdict
depends only on the message, the mcp-types version and the validator's own code, so it is cached under a hash of
all three; any change to one of them is a miss, and a miss loads the real validator.
"""

from __future__ import annotations

import hashlib
import json
import threading
from importlib import metadata
from pathlib import Path
from typing import Callable

from ..fsutil import write_atomic
from ..wire.check import MessageValidator

SCHEMA_SOURCE = Path(__file__).resolve().parent.parent / "schema" / "validator.py"


def _fingerprint() -> str:
    try:
        version = metadata.version("mcp-types")
    except metadata.PackageNotFoundError:
        version = "missing"
    return hashlib.sha256(version.encode() + b"\0" + SCHEMA_SOURCE.read_bytes()).hexdigest()[:16]


class CachedValidator:
    """A MessageValidator that asks the real one only about messages it has not seen."""

    def __init__(self, cache_dir: Path, load: Callable[[], MessageValidator], *, read: bool = True):
        self._load = load
        self._real: MessageValidator | None = None
        self._lock = threading.Lock()
        self._path = cache_dir / f"schema-verdicts-{_fingerprint()}.json"
        self._verdicts: dict[str, list[str]] = {}
        try:  # --fresh, --repeat, -v and CI=true ask the real validator about every message (and record it)
            if read:
                self._verdicts = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self._verdicts = {}
        if not isinstance(self._verdicts, dict):
            self._verdicts = {}
        self._dirty = False

    def _ask(self, kind: str, method: str | None, body: object, question: Callable[[MessageValidator], list[str]]):
        # surrogatepass: a lone surrogate ("\ud800") in a message must not crash the hash of it.
        text = json.dumps([kind, method, body], sort_keys=True, ensure_ascii=False)
        key = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        with self._lock:
            known = self._verdicts.get(key)
            if isinstance(known, list):
                return list(known)
            if self._real is None:
                self._real = self._load()
        findings = question(self._real)
        with self._lock:
            self._verdicts[key] = list(findings)
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
        """Write the verdicts whole (or not at all); a lost write only costs the next run one import."""
        with self._lock:
            if not self._dirty:
                return
            self._path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self._path, json.dumps(self._verdicts, sort_keys=True).encode("utf-8"))
            self._dirty = False
