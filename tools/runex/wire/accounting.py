"""What each request may and must get when the transcript does not wait for every reply (example.toml's [[send]]).

A transcript is written in lockstep by default: before each line, the client waits for every reply it is owed. A
[[send]] table changes that for one line: `no_wait` writes it right after the line before; `wait_for = METHOD,
of_line = M` writes it once the server has written that message related to line M ("reply": line M's reply). From
that plan alone (never from timing) follow which requests are in flight when each line is written, and so which
`notifications/cancelled` lines cancel a request in flight. The runner (run/paced.py), the wire check and the
conversation view all read it here.

Which request a server message belongs to (`Streams`), per the 2026-07-28 specification
(docs/specification/2026-07-28/):
- a reply, by its id (pairing.py);
- `notifications/progress`, by `params.progressToken`: the token a request sent in `params._meta.progressToken`
  (basic/patterns/progress.mdx: "Progress notifications MUST only reference tokens that ... are associated with an
  in-progress operation");
- a notification of a `subscriptions/listen` stream, by `params._meta["io.modelcontextprotocol/subscriptionId"]`,
  the listen request's id (basic/patterns/subscriptions.mdx: every notification on the stream MUST carry it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .protocol import CANCELLED, META_PREFIX, IdKey, id_key, valid_id

# Imports nothing heavier than dataclasses: examples/model.py needs `Send` on the warm path (no `typing` there).

REPLY = "reply"
PROGRESS = "notifications/progress"
LISTEN = "subscriptions/listen"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
SUBSCRIPTION_ID_KEY = META_PREFIX + "subscriptionId"
# What a listen stream carries (schema/2026-07-28: SubscriptionFilter and the notifications that name it).
STREAM_METHODS = frozenset({ACKNOWLEDGED, "notifications/tools/list_changed", "notifications/prompts/list_changed",
                            "notifications/resources/list_changed", "notifications/resources/updated"})
WAITABLE = frozenset({REPLY, PROGRESS}) | STREAM_METHODS


@dataclass(frozen=True)
class Send:
    """One [[send]] table: how transcript line `line` is paced; `at` is its header's line in example.toml."""

    line: int
    no_wait: bool = False
    wait_for: str | None = None  # REPLY or a notification method
    of_line: int | None = None
    answered_before: int | None = None  # the reply to `line` must reach the client before the reply to this line
    reason: str | None = None
    at: int | None = None


def progress_token(message: object) -> IdKey | None:
    """The key of the progress token a request carries in params._meta.progressToken (None: it asks for none)."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    token = meta.get("progressToken") if isinstance(meta, dict) else None
    return id_key(token) if valid_id(token) else None


def subscription_id(message: object) -> IdKey | None:
    """The listen id a server notification names in params._meta (None: it names none)."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    value = meta.get(SUBSCRIPTION_ID_KEY) if isinstance(meta, dict) else None
    return id_key(value) if valid_id(value) else None


def cancel_target(message: object) -> object:
    """The requestId a client's notifications/cancelled names, or None."""
    if not isinstance(message, dict) or message.get("method") != CANCELLED or "id" in message:
        return None
    params = message.get("params")
    target = params.get("requestId") if isinstance(params, dict) else None
    return target if valid_id(target) else None


# ---------------------------------------------------------------- the plan: what is in flight when each line is written

@dataclass
class InFlight:
    outstanding: dict[int, frozenset[int]] = field(default_factory=dict)  # line -> owed lines unanswered as it goes
    cancelled: dict[int, int] = field(default_factory=dict)  # request line -> the line that cancels it in flight
    late_cancels: list[tuple[int, int]] = field(default_factory=list)  # (cancel line, request line answered before)


def by_line(sends: tuple[Send, ...]) -> dict[int, Send]:
    return {send.line: send for send in sends}


def plan(lines, sends: tuple[Send, ...] = ()) -> InFlight:
    """Walk the transcript as the runner writes it. Before a line without [[send]], every owed reply has come; a
    `wait_for = "reply"` gate has line `of_line`'s; other gates promise no reply. A cancel naming a request written
    above is in flight (its reply not yet awaited) or late (already answered)."""
    paced = by_line(sends)
    result = InFlight()
    asked: dict[IdKey, int] = {}
    outstanding: set[int] = set()
    for line in lines:
        send = paced.get(line.number)
        if send is None:
            outstanding.clear()
        elif send.wait_for == REPLY:
            outstanding.discard(send.of_line)
        result.outstanding[line.number] = frozenset(outstanding)
        target = cancel_target(line.message) if line.kind == "notification" else None
        earlier = asked.get(id_key(target)) if target is not None else None
        if earlier is not None and earlier in outstanding:
            result.cancelled.setdefault(earlier, line.number)
            outstanding.discard(earlier)
        elif earlier is not None:
            result.late_cancels.append((line.number, earlier))
        if line.kind == "request" or (line.kind == "invalid" and line.reply_id is not None):
            asked.setdefault(id_key(line.reply_id), line.number)
        if line.expects_reply:
            outstanding.add(line.number)
    return result


def problems(lines, sends: tuple[Send, ...]) -> list[tuple[str, int | None]]:
    """What is wrong with the [[send]] tables for this transcript: (message, example.toml line) each."""
    found = []
    count = len(lines)
    walked = plan(lines, sends)
    for send in sends:
        def bad(text: str, send: Send = send) -> None:
            found.append((f"[[send]] for transcript line {send.line}: {text}", send.at))

        named = [(key, other) for key, other in (("line", send.line), ("of_line", send.of_line),
                                                 ("answered_before", send.answered_before))
                 if other is not None and not 1 <= other <= count]
        if named:
            key, other = named[0]
            bad(f"{key} = {other}, but transcript.jsonl has {count} line{'s' if count != 1 else ''}")
            continue
        if send.line == 1:
            bad("line 1 is written first: nothing comes before it to wait for or not")
            continue
        if send.wait_for is not None:
            _check_wait(lines[send.of_line - 1], send, bad)
        if send.answered_before is not None:
            _check_order(lines, send, walked, bad)
    return found


def _check_wait(target, send: Send, bad) -> None:
    if send.of_line >= send.line:
        bad(f"of_line = {send.of_line} is not above line {send.line}: a line can wait only for what an earlier "
            f"line caused")
    elif send.wait_for == REPLY and not target.expects_reply:
        bad(f"line {send.of_line} is a notification: it gets no reply to wait for")
    elif send.wait_for == PROGRESS and (target.kind != "request" or progress_token(target.message) is None):
        bad(f"line {send.of_line} sends no params._meta.progressToken, so no progress notification can belong to "
            f"it; add one to that request, or wait for something else")
    elif send.wait_for in STREAM_METHODS and (target.kind != "request" or target.method != LISTEN):
        bad(f"{send.wait_for} comes on a subscriptions/listen stream, and line {send.of_line} is no "
            f"subscriptions/listen request")


def _check_order(lines, send: Send, walked: InFlight, bad) -> None:
    other = send.answered_before
    silent = [n for n in (send.line, other) if not lines[n - 1].expects_reply]
    if silent:
        bad(f"answered_before = {other} compares two replies, and line {silent[0]} gets none")
    elif other >= send.line or other not in walked.outstanding.get(send.line, ()):
        bad(f"answered_before = {other}: line {other} must be written above line {send.line} and its reply not "
            f"awaited before line {send.line} is written (no_wait or wait_for), or it cannot come second")
    elif other in walked.cancelled:
        bad(f"answered_before = {other}: line {other} is cancelled (line {walked.cancelled[other]}) and gets no reply")


# ---------------------------------------------------------------- which request a server message belongs to

class Streams:
    """The requests whose notifications may come: progress by token, listen streams by subscription id."""

    def __init__(self) -> None:
        self._tokens: dict[IdKey, list] = {}
        self._listens: dict[IdKey, object] = {}
        self._closed: set[int] = set()

    def open(self, line, message: object) -> None:
        """`line` (its parsed `message`) is written: it may now get progress, or a stream."""
        token = progress_token(message)
        if token is not None:
            self._tokens.setdefault(token, []).append(line)
        if isinstance(message, dict) and message.get("method") == LISTEN and valid_id(message.get("id")):
            self._listens.setdefault(id_key(message["id"]), line)

    def close(self, line) -> None:
        """`line` is answered: no more progress belongs to it."""
        self._closed.add(id(line))

    def carried(self, token: IdKey) -> bool:
        return token in self._tokens

    def progress_owner(self, token: IdKey) -> object:
        return next((l for l in self._tokens.get(token, []) if id(l) not in self._closed), None)

    def listen_owner(self, sub: IdKey | None) -> object:
        return self._listens.get(sub) if sub is not None else None

    def owner(self, message: object) -> object:
        """The request a server notification belongs to, or None."""
        if not isinstance(message, dict) or "id" in message:
            return None
        method = message.get("method")
        if method == PROGRESS:
            params = message.get("params")
            token = params.get("progressToken") if isinstance(params, dict) else None
            return self.progress_owner(id_key(token)) if valid_id(token) else None
        if method in STREAM_METHODS:
            return self.listen_owner(subscription_id(message))
        return None
