"""What the conversation view says about requests in flight: lines sent without waiting ([[send]] in example.toml),
requests cancelled while they ran, the arrival order an example declares, and each request's own notifications
(progress, its listen stream) drawn in the reply column above the reply they came before.

The answer key records a request's messages in the order the server wrote them (run/paced.py), so "above the
reply" is what happened. Arrival order between requests is not in the answer key; the view shows the one
example.toml declares with `answered_before`, which the runner checked on every run.
"""

from __future__ import annotations

import html

from ..wire import accounting


def annotate(rows, transcript_lines, sends: tuple[accounting.Send, ...]) -> None:
    """Mark each row with its [[send]], the cancel that stopped it in flight, and its declared arrival rank."""
    walked = accounting.plan(transcript_lines, sends)
    paced = accounting.by_line(sends)
    ranks = _ranks(sends)
    for row in rows:
        if row.request is None:
            continue
        number = row.request.number
        row.send = paced.get(number)
        row.cancelled_by = walked.cancelled.get(number)
        row.cancels = next((r for r, c in walked.cancelled.items() if c == number), None)
        if row.cancelled_by is not None and row.kind == "unanswered":
            row.kind = "cancelled"
        row.arrival = ranks.get(number)


def _ranks(sends: tuple[accounting.Send, ...]) -> dict[int, int]:
    """line -> its reply's place among the replies example.toml orders: 1 + how many are declared to come first."""
    pairs = [(s.line, s.answered_before) for s in sends if s.answered_before is not None]
    named = {n for pair in pairs for n in pair}
    return {n: 1 + sum(1 for first, second in pairs if second == n) for n in named}


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def heading_parts(row) -> list[str]:
    """Words for the row's heading: how its line was sent, and what it cancelled or what cancelled it."""
    parts = []
    send = getattr(row, "send", None)
    if send is not None and send.no_wait:
        parts.append(f"sent without waiting for line {row.request.number - 1}")
    elif send is not None and send.wait_for == accounting.REPLY:
        parts.append(f"sent once line {send.of_line} was answered")
    elif send is not None:
        parts.append(f"sent once line {send.of_line}'s <code>{html.escape(send.wait_for)}</code> came")
    if getattr(row, "cancels", None) is not None:
        parts.append(f"cancels line {row.cancels} in flight")
    if getattr(row, "cancelled_by", None) is not None:
        parts.append(f"cancelled in flight by line {row.cancelled_by}")
    return parts


def reply_title(row, title: str) -> str:
    """The reply's label, with its declared arrival rank ("arrived 2nd")."""
    rank = getattr(row, "arrival", None)
    if rank is None:
        return html.escape(title)
    return (f'{html.escape(title)} <span class="exchange-arrival" title="among the replies example.toml orders with '
            f'answered_before, checked on every run">arrived {_ordinal(rank)}</span>')


def reason_note(row) -> list[str]:
    send = getattr(row, "send", None)
    if send is None or not send.reason:
        return []
    return [f'<p class="exchange-note exchange-declared">Not waiting, on purpose: {html.escape(send.reason)}</p>\n',
            "\n"]


def column(row, side, reply_title_html: str) -> list[str]:
    """The reply column of a row with notifications of its own: each above the reply it came before, then the
    reply (or why there is none). `side(line, role, title)` draws one message (conversation_view._side)."""
    out = ['<div class="exchange-column" markdown>\n', "\n"]
    for line in row.related:
        title = "Notification" + (" (progress)" if line.method == accounting.PROGRESS else "")
        out += side(line, "reply exchange-related", title)
    if row.reply is not None:
        out += side(row.reply, "reply", reply_title_html)
    else:
        out += [missing_note(row), "\n"]
    return out + ["</div>\n", "\n"]


def missing_note(row) -> str:
    if getattr(row, "cancelled_by", None) is not None:
        return (f'<p class="exchange-note">No reply: line {row.cancelled_by} cancelled it, and after a cancel the '
                f'server must not send anything more for it.</p>\n')
    return '<p class="exchange-note exchange-missing">No reply on stdout.</p>\n'
