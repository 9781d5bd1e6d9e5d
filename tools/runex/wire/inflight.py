"""The wire rules of what belongs to a request in flight: its progress, its listen stream, nothing after its cancel.

Read over the answer key's order (stdout as it came in lockstep; grouped by transcript line when paced, see
run/paced.py), which keeps each request's own messages in the order the server wrote them. Each rule cites its
sentence in docs/specification/2026-07-28/ of the specification repository.

What stdio cannot tell: a cancel and a reply cross on the pipes, and the spec allows that race
(basic/patterns/cancellation.mdx, "Timing Considerations"). The runner fails a run in which the reply reached it
before the cancel was written (run/paced.py: the example cannot show a cancel that way); a reply it reads after
writing the cancel is held against the server. An example makes the race impossible by cancelling a call that waits
until it is cancelled. Progress written after the cancel is not a rule for the same reason: a server cannot have read
the cancel before it wrote what was already on the pipe.
"""

from __future__ import annotations

import json

from . import accounting
from .protocol import IdKey, id_key

Found = list[tuple[str, str]]  # (rule, message) for one stdout line


class InFlight:
    def __init__(self, lines, sends: tuple[accounting.Send, ...]):
        self.plan = accounting.plan(lines, sends)
        self.streams = accounting.Streams()
        self.cancelled: dict[IdKey, tuple[int, int]] = {}  # id -> (request line, cancel line)
        for line in lines:
            if line.expects_reply:
                self.streams.open(line, line.message)
            if line.number in self.plan.cancelled and line.reply_id is not None:
                self.cancelled[id_key(line.reply_id)] = (line.number, self.plan.cancelled[line.number])
        self.last_progress: dict[int, float] = {}  # id(request line) -> its last progress
        self.stream_started: set[int] = set()  # id(listen line) whose acknowledgement came

    def answered(self, line) -> None:
        self.streams.close(line)

    def stray_reply(self, reply_id: object) -> Found:
        """A reply that answers no owed line: one to a request cancelled in flight breaks a MUST NOT."""
        hit = self.cancelled.get(id_key(reply_id))
        if hit is None:
            return []
        request, cancel = hit
        # "the server ... MUST NOT send any further messages for that request" (basic/transports/stdio.mdx,
        # Cancellation)
        # The runner cannot tell which side of the cancel the reply was written on: say both, and how to pace.
        return [("stdout-reply-after-cancel",
                 f"id {json.dumps(reply_id)} (transcript line {request}) was answered after line {cancel} cancelled "
                 f"it. Either the server wrote the reply after reading the cancel, which breaks a MUST NOT (\"the "
                 f"server ... MUST NOT send any further messages for that request\", basic/transports/stdio.mdx, "
                 f"Cancellation), or the reply was already on its way when the cancel was written: a race the spec "
                 f"allows (basic/patterns/cancellation.mdx, \"Timing Considerations\"). To show a cancel, cancel "
                 f"a call that is certainly still working: in example.toml give line {cancel} a [[send]] with "
                 f"wait_for = \"notifications/progress\" and of_line = {request} (a call that reports progress "
                 f"first), or cancel a call that waits until it is cancelled")]

    def notification(self, message: dict) -> Found:
        method = message.get("method")
        if method == accounting.PROGRESS:
            return self._progress(message.get("params"))
        if method in accounting.STREAM_METHODS:
            return self._stream(message, method)
        return []

    def _progress(self, params: object) -> Found:
        if not isinstance(params, dict):
            return []  # the schema says what is missing
        token, progress = params.get("progressToken"), params.get("progress")
        key = id_key(token) if isinstance(token, (str, int)) and not isinstance(token, bool) else None
        if key is None:
            return []
        if not self.streams.carried(key):
            # "Progress notifications MUST only reference tokens that: Were provided in an active request"
            # (basic/patterns/progress.mdx, Behavior Requirements)
            return [("stdout-progress-unknown-token",
                     f"progress for token {json.dumps(token)}, which no request sent in params._meta.progressToken; "
                     f"progress notifications MUST only reference tokens provided in an active request (MCP "
                     f"2026-07-28, basic/patterns/progress.mdx)")]
        owner = self.streams.progress_owner(key)
        if owner is None:
            # "Progress notifications MUST stop after completion" (progress.mdx, Implementation Notes)
            return [("stdout-progress-after-reply",
                     f"progress for token {json.dumps(token)} after its request was answered; progress "
                     f"notifications MUST stop after completion (MCP 2026-07-28, basic/patterns/progress.mdx)")]
        if not isinstance(progress, (int, float)) or isinstance(progress, bool):
            return []
        last = self.last_progress.get(id(owner))
        self.last_progress[id(owner)] = progress
        if last is not None and progress <= last:
            # "The progress value MUST increase with each notification, even if the total is unknown"
            # (progress.mdx, Progress Flow)
            return [("stdout-progress-not-increasing",
                     f"progress {json.dumps(progress)} for token {json.dumps(token)} (transcript line "
                     f"{owner.number}) does not exceed the {json.dumps(last)} before it; the progress value MUST "
                     f"increase with each notification (MCP 2026-07-28, basic/patterns/progress.mdx)")]
        return []

    def _stream(self, message: dict, method: str) -> Found:
        sub = accounting.subscription_id(message)
        if sub is None:
            # "All notifications delivered on the stream carry io.modelcontextprotocol/subscriptionId in _meta";
            # on stdio "clients MUST use this field to correlate notifications" (basic/patterns/subscriptions.mdx,
            # Receiving Notifications)
            return [("stdout-listen-no-subscription-id",
                     f"{method} carries no params._meta[\"{accounting.SUBSCRIPTION_ID_KEY}\"]; every notification "
                     f"of a subscriptions/listen stream carries it, and on stdio clients MUST use it to correlate "
                     f"(MCP 2026-07-28, basic/patterns/subscriptions.mdx)")]
        owner = self.streams.listen_owner(sub)
        if owner is None:
            return [("stdout-listen-unknown-subscription",
                     f"{method} names subscription {json.dumps(sub[1])}, the id of no subscriptions/listen request; "
                     f"the subscription id is the listen request's id (MCP 2026-07-28, "
                     f"basic/patterns/subscriptions.mdx)")]
        if id(owner) not in self.stream_started and method != accounting.ACKNOWLEDGED:
            # "The server MUST send notifications/subscriptions/acknowledged as the first message carrying the
            # subscription's ID ... and MUST NOT send any notification on the subscription before it"
            # (subscriptions.mdx, Acknowledgment)
            self.stream_started.add(id(owner))
            return [("stdout-listen-not-acknowledged-first",
                     f"{method} on the stream of transcript line {owner.number} before "
                     f"{accounting.ACKNOWLEDGED}; the server MUST acknowledge a subscription first (MCP 2026-07-28, "
                     f"basic/patterns/subscriptions.mdx)")]
        self.stream_started.add(id(owner))
        return []
