"""Whether the conformance record still matches the examples it is about, checked on every run of
`run_examples.py` (and with --check) without running the suite: every HTTP implementation has rows and no other
does, the record was made with the pinned suite from the sources as they are now, and every failing check has a
reason in tests/interop/conformance/<example>.yaml while every reason there still fails. Each finding names the
file and line to change and ends with the command that fixes it; nothing here writes.

A checkout whose package.json does not pin the suite keeps no record, and nothing is checked.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ..errors import PageError
from ..examples import model

from . import record, suite

DATA = Path("tests") / "interop" / "conformance"
RECHECK = ".venv/bin/python tools/run_examples.py --check"
PAGES_FILE = "pages.yaml"  # the scenario-to-page map beside the reasons
MEMO = Path(".cache") / "run_examples" / "conformance-record.ok"  # the inputs of the last check that found nothing
# Files in an implementation's folder that the tool writes: records of a run, not what the server is made of.
WRITTEN = (model.HTTP_RECORDS.format(impl="*"), "tests.*.txt")


class StaleRecord(PageError):
    """The record (or a reason file beside it) no longer matches the examples: the report card would be wrong."""


@dataclass(frozen=True)
class Row:
    line: int
    scenario: str
    check: str
    results: dict[str, str]


@dataclass(frozen=True)
class Reason:
    line: int
    scenario: str
    check: str | None  # None: every check of the scenario
    implementations: tuple[str, ...] | None  # None: every implementation of the example
    reason: str

    def covers(self, impl: str, scenario: str, check: str) -> bool:
        return ((self.implementations is None or impl in self.implementations)
                and self.scenario in ("*", scenario) and self.check in (None, check))

    def what(self) -> str:
        return f"{self.scenario} {self.check or '(every check)'}"


def source_digest(impl: model.Implementation) -> str:
    """sha256 over the files the build cache keys this implementation by (build.source_files), in its own folder
    (not the workspace's manifest and lock, which every cargo example shares), without the tool's records."""
    from ..builds.native import source_files

    digest = hashlib.sha256()
    for path in source_files(impl):
        rel = path.relative_to(impl.source_dir) if path.is_relative_to(impl.source_dir) else None
        if rel is None or any(fnmatch.fnmatch(path.name, pattern) for pattern in WRITTEN):
            continue
        digest.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def check(root: Path, examples: list[model.Example], scope: set[str] | None = None,
          skip: set[str] = frozenset(), remembered: bool = True) -> list[StaleRecord]:
    """Every way the record at `root` no longer matches `examples`. scope: only these examples' rows and reasons
    (None: the whole record, rows of examples that are gone included); skip: examples that did not load;
    remembered: whether the last clean verdict may stand in (not in CI, nor with --fresh, like the tool's caches)."""
    version = suite.pinned(root)
    if version is None:
        return []
    path = root / DATA / "record.jsonl"
    rel = path.relative_to(root).as_posix()
    if not path.is_file():
        return [StaleRecord(f"no conformance record; run: {record.WRITE}", file=rel)]
    header, rows, broken = _read(path, rel)
    if broken:
        return broken
    served = {f"{e.name}/{i.name.value}": (e, i) for e in examples if e.name not in skip
              for i in e.implementations if e.serves_http(i.name.value)}
    if scope is not None:
        served = {key: pair for key, pair in served.items() if pair[0].name in scope}
    digests = {key: source_digest(impl) for key, (_, impl) in served.items()}
    memo = _memo_key(root, version, digests, scope, skip)
    if remembered and _read_memo(root) == memo:  # nothing the verdict reads has changed since a check found nothing
        return []
    found = _header(root, header, rel, version, served, digests)
    found += _coverage(root, rows, rel, served, scope, skip)
    for name in sorted({e.name for e, _ in served.values()}):
        found += _reasons(root, name, [key for key in served if key.startswith(f"{name}/")], rows)
    found += _orphan_reasons(root, {e.name for e, _ in served.values()}, scope, skip)
    if not found:
        _write_memo(root, memo)
    return found


def _memo_key(root: Path, version: str, digests: dict[str, str], scope: set[str] | None, skip: set[str]) -> str:
    """Everything the verdict reads: this module, the record and its reason files, the pinned version, which
    implementations serve HTTP and their sources, the scope."""
    digest = hashlib.sha256(json.dumps([version, sorted(digests.items()), sorted(scope) if scope is not None else None,
                                        sorted(skip)]).encode())
    for path in [Path(__file__), *sorted((root / DATA).glob("*"))]:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _read_memo(root: Path) -> str | None:
    try:
        return (root / MEMO).read_text(encoding="utf-8")
    except OSError:
        return None


def _write_memo(root: Path, memo: str) -> None:
    """A cache under .cache/, like the tool's others (--check writes them too); one file, overwritten."""
    from ..fsutil import write_atomic

    try:
        (root / MEMO).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(root / MEMO, memo.encode())
    except OSError:
        pass  # a read-only checkout checks every time


def _read(path: Path, rel: str) -> tuple[tuple[int, dict] | None, list[Row], list[StaleRecord]]:
    header, rows = None, []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        try:
            data = json.loads(text)
            if record.HEADER in data:
                header = (number, data[record.HEADER])
            else:
                rows.append(Row(number, data["scenario"], data["check"], dict(data["results"])))
        except (ValueError, KeyError, TypeError) as exc:
            return None, [], [StaleRecord(f"not a record line ({exc}); run: {record.WRITE}", file=rel, line=number)]
    return header, rows, []


def _header(root: Path, header: tuple[int, dict] | None, rel: str, version: str,
            served: dict[str, tuple[model.Example, model.Implementation]], digests: dict[str, str]
            ) -> list[StaleRecord]:
    if header is None:
        return [StaleRecord(f"has no {record.HEADER} line (the suite's version and the sources the rows were made "
                            f"from); run: {record.WRITE}", file=rel, line=1)]
    line, made = header
    found = []
    if made.get("suite") != version:
        found.append(StaleRecord(f"made with {suite.NAME} {made.get('suite')}, but package-lock.json pins "
                                 f"{version}; run: {record.WRITE}", file=rel, line=line))
    sources = made.get("sources", {})
    for key, (_, impl) in sorted(served.items()):
        if key in sources and sources[key] != digests[key]:
            entry = impl.entry.relative_to(root).as_posix()
            found.append(StaleRecord(f"{key}'s sources ({entry} and its folder) changed since the record was made; "
                                     f"run: {record.WRITE}", file=rel, line=line))
    return found


def _coverage(root: Path, rows: list[Row], rel: str, served: dict[str, tuple[model.Example, model.Implementation]],
              scope: set[str] | None, skip: set[str]) -> list[StaleRecord]:
    """HTTP implementations without rows, and rows of implementations that no longer serve HTTP."""
    first: dict[str, int] = {}
    for row in rows:
        for key in row.results:
            first.setdefault(key, row.line)
    found = []
    for key, (example, _) in sorted(served.items()):
        if key not in first:
            toml = example.dir / model.CONFIG
            found.append(StaleRecord(f"{key} serves Streamable HTTP (`http` here), but {rel} has no rows for it; "
                                     f"run: {record.WRITE}", file=toml.relative_to(root).as_posix(),
                                     line=model._key_line(example.dir, "http")))
    for key, line in sorted(first.items(), key=lambda item: item[1]):
        name = key.split("/")[0]
        if key in served or name in skip or (scope is not None and name not in scope):
            continue
        found.append(StaleRecord(f"rows for {key}, which no longer serves Streamable HTTP (examples/{name}/"
                                 f"{model.CONFIG} names no `http` for it); run: {record.WRITE}", file=rel, line=line))
    return found


def _orphan_reasons(root: Path, serving: set[str], scope: set[str] | None, skip: set[str]) -> list[StaleRecord]:
    """Reason files of examples that serve no HTTP (pages.yaml is the card's map, not reasons)."""
    found = []
    for path in sorted((root / DATA).glob("*.yaml")):
        name = path.stem
        if path.name == PAGES_FILE or name in serving or name in skip or (scope is not None and name not in scope):
            continue
        found.append(StaleRecord(f"reasons for {name}, which has no implementation serving Streamable HTTP; delete "
                                 f"this file, then run: {RECHECK}", file=path.relative_to(root).as_posix(), line=1))
    return found


def _reasons(root: Path, name: str, keys: list[str], rows: list[Row]) -> list[StaleRecord]:
    """Every failing check of this example's implementations has a reason, and every reason still fails."""
    path = root / DATA / f"{name}.yaml"
    rel = path.relative_to(root).as_posix()
    reasons, at, found = read_reasons(path, rel)
    failing = [(key, row) for row in rows for key in keys if row.results.get(key) == "fail"]
    for key, row in failing:
        impl = key.split("/")[1]
        if not any(reason.covers(impl, row.scenario, row.check) for reason in reasons):
            found.append(StaleRecord(
                f"{key} fails {row.scenario} {row.check} (record.jsonl:{row.line}) with no reason here; add an "
                f"entry under expected_failures with its reason, then run: {RECHECK}", file=rel, line=at))
    for reason in reasons:
        if not any(reason.covers(key.split("/")[1], row.scenario, row.check) for key, row in failing):
            found.append(StaleRecord(f"expects {reason.what()} to fail, but the record shows no such failure of "
                                     f"{name}; remove this entry, then run: {RECHECK}", file=rel, line=reason.line))
    return found


def read_reasons(path: Path, rel: str) -> tuple[list[Reason], int, list[StaleRecord]]:
    """The entries of expected_failures, each with its line; the line of `expected_failures:` (1 without one)."""
    if not path.is_file():
        return [], 1, []
    import yaml  # here: only a checkout with a record reads reasons

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when present: this runs every run
    document = yaml.compose(path.read_text(encoding="utf-8"), Loader=loader)
    data = loader("").construct_document(document) if document is not None else None
    entries = data.get("expected_failures") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return [], 1, [StaleRecord(f"needs a list `expected_failures:`; then run: {RECHECK}", file=rel, line=1)]
    key, items = next((k, v) for k, v in document.value if k.value == "expected_failures")
    reasons, found = [], []
    for item, node in zip(entries, items.value):
        line = node.start_mark.line + 1
        if not isinstance(item, dict) or not item.get("scenario") or not item.get("reason"):
            found.append(StaleRecord(f"an entry needs a scenario and a reason; then run: {RECHECK}", file=rel,
                                     line=line))
            continue
        impls = item.get("implementations")
        reasons.append(Reason(line, str(item["scenario"]), item.get("check"),
                              tuple(impls) if impls is not None else None, str(item["reason"])))
    return reasons, key.start_mark.line + 1, found
