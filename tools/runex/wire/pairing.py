"""Which reply answers which line of the transcript: the one rule, used by the wire check and the conversation view.

Every line that expects a reply owes exactly one. A reply with an id answers the first line with that id (by type
and value, protocol.id_key) that has no reply yet; a reply with a null id answers the first malformed line whose
id cannot be read, and otherwise a request whose lone surrogate may make a strict parser refuse it (answered with
a null id, or under its own id, never both). Anything else answers no line.

The ledger takes lines of any type (the check's TranscriptLine, the view's Line) with what it needs to know of
each: its id key (None when unreadable) and whether a null id may answer it. What transcripts that do not wait for
each reply add (a request cancelled in flight owes nothing; progress and listen streams belong to a request) is
accounting.py's, read by the runner, the check and the view alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from .protocol import IdKey, id_key

Line = TypeVar("Line")


@dataclass(frozen=True)
class Answered(Generic[Line]):
    """A reply matched to `line`; `duplicate` when every line with its id was answered already (`earlier` is what
    answered the last of them): the reply is one too many."""

    line: Line
    duplicate: bool = False
    earlier: object = None


class Ledger(Generic[Line]):
    def __init__(self) -> None:
        self._by_id: dict[IdKey, list[Line]] = {}
        self._null_owed: list[Line] = []  # malformed lines whose id cannot be read, in order
        self._null_allowed: list[Line] = []  # requests a null id may answer instead of their own
        self._owed: list[Line] = []  # every line with a readable id, in transcript order
        self._answers: dict[int, object] = {}  # id(line) -> what answered it

    def owe(self, line: Line, key: IdKey | None, *, null_allowed: bool = False) -> None:
        """`line` expects one reply: under `key`, or (key None) with a null id."""
        if key is None:
            self._null_owed.append(line)
            return
        self._by_id.setdefault(key, []).append(line)
        self._owed.append(line)
        if null_allowed:
            self._null_allowed.append(line)

    def answer(self, reply_id: object, answer: object = None) -> Answered[Line] | None:
        """The line this reply (id `reply_id`, recorded as `answer`) answers; a duplicate Answered when every line
        with that id is answered already; None when it answers no line."""
        if reply_id is None:
            if self._null_owed:
                return Answered(self._null_owed.pop(0))
            line = next((l for l in self._null_allowed if id(l) not in self._answers), None)
            return None if line is None else self._mark(line, answer)
        candidates = self._by_id.get(id_key(reply_id), [])
        line = next((l for l in candidates if id(l) not in self._answers), None)
        if line is not None:
            return self._mark(line, answer)
        if candidates:
            return Answered(candidates[-1], duplicate=True, earlier=self._answers[id(candidates[-1])])
        return None

    def _mark(self, line: Line, answer: object) -> Answered[Line]:
        self._answers[id(line)] = answer
        return Answered(line)

    def unanswered(self) -> list[Line]:
        """Lines still owed a reply: those with an id in transcript order, then the malformed ones."""
        return [l for l in self._owed if id(l) not in self._answers] + list(self._null_owed)
