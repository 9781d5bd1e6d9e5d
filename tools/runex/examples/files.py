"""The example files one run's paste stage reads, each from disk at most once: the examples planning loaded, and
every file a page pastes or a view renders, with what the run is about to write standing in for the file on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..wire import transcript as transcript_reader
from ..wire.transcript import TranscriptLine
from . import model


class ExampleFiles:
    def __init__(self, root: Path, loaded: Iterable[model.Example] = (), pending: dict[Path, bytes] | None = None):
        self.root = root
        self.pending = {path.resolve(): data for path, data in (pending or {}).items()}  # what the run will write
        self._examples: dict[str, model.Example | None] = {e.name: e for e in loaded}
        self._configs: dict[str, model.Config] = {e.name: e.config for e in loaded}
        self._bytes: dict[Path, bytes | None] = {}
        self._lines: dict[Path, list[TranscriptLine]] = {}

    def example(self, name: str) -> model.Example | None:
        """Example NAME as planning loaded it, else loaded now (once); None when no folder has that name."""
        if name not in self._examples:
            self._examples[name] = model.load_one(self.root, name)
        return self._examples[name]

    def config(self, name: str) -> model.Config:
        """NAME's example.toml: from the loaded example, else read now (once); ConfigError as load_config raises."""
        if name not in self._configs:
            self._configs[name] = model.load_config(self.root / "examples" / name / model.CONFIG,
                                                    f"examples/{name}/{model.CONFIG}")
        return self._configs[name]

    def read(self, path: Path) -> bytes | None:
        """What this run is about to write to `path`, else the file as checked in (read once), else None."""
        key = path.resolve()
        if key in self.pending:
            return self.pending[key]
        if key not in self._bytes:
            self._bytes[key] = path.read_bytes() if path.is_file() else None
        return self._bytes[key]

    def is_pending(self, path: Path) -> bool:
        return path.resolve() in self.pending

    def http_records(self, example: model.Example) -> dict[str, bytes | None]:
        """Each implementation that serves HTTP: its http.<impl>.jsonl (about to be written, else checked in)."""
        return {i.name.value: self.read(example.http_file(i.name))
                for i in example.implementations if example.serves_http(i.name)}

    def transcript_lines(self, example: model.Example) -> list[TranscriptLine]:
        """The example's transcript as lines, parsed once however many views show it."""
        if example.transcript not in self._lines:
            rel = str(example.transcript.relative_to(self.root))
            self._lines[example.transcript] = transcript_reader.parse(self.read(example.transcript) or b"", rel)[0]
        return self._lines[example.transcript]
