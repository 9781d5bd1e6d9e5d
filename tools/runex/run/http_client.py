"""The client side of an HTTP run, in the tool's own process: wait until the server listens, send each request,
report what came back.

The server listens on its sandbox's loopback, which the tool reaches through sockets made in that network namespace
(loopback.py). run/http.py starts and stops the server; this module talks to it and returns its report as a list of
events, which run/http.py reads into a RunResult:

  {"event": "listening", "bound": [...]}      the server accepted a connection; where its socket listens
  {"event": "exchange", "index": I, ...}      request I: status, headers (lower-case names) and body (bytes);
                                              "closed": true when the client closed it first; for a CLOSE entry,
                                              "closes" (the request) and "ended_first" (its response had ended)
  {"event": "failure", "message": "...", "index": I}   the conversation could not go on (the last event)

Of MCP it knows only what a gate needs: the method of each SSE event (http_stream._kind).
"""

from __future__ import annotations

import itertools
import threading
import time
from typing import Callable

from .http_stream import Address, Failed, Stream


def converse(address: Address, exited: Callable[[], int | None], requests: list[dict], timeout: float,
             max_output: int) -> list[dict]:
    """The report of one conversation with the server at `address`; `exited` is its exit status once it has one."""
    listening = wait_listening(address, exited, timeout)
    if listening is not True:
        return [{"event": "failure", "message": listening}]
    events = [{"event": "listening", "bound": address.loopback.listening(address.port)}]
    talk = Conversation(address, timeout, max_output)
    try:
        failure = talk.run(requests)
    finally:
        talk.close_all()
    return events + talk.report(failure)


def wait_listening(address: Address, exited: Callable[[], int | None], timeout: float) -> bool | str:
    """True once a TCP connection to the address succeeds; a message when the server exits or time runs out. Polls
    every 2 ms: a Rust server listens within a few milliseconds of its start."""
    where = f"{address.host}:{address.port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = exited()
        if status is not None:
            return f"the server exited (status {status}) before it listened on {where}"
        try:
            address.connect(0.5).close()
            return True
        except OSError:
            time.sleep(0.002)
    return f"the server did not listen on {where} within {timeout:g} s (does it read MCP_HTTP_ADDR?)"


class Conversation:
    """Each request on its own connection, written when its gate opens (run/http.py plans them):
    "all" once every earlier response has ended; "sent" at once; "ended" once request `of`'s response has ended;
    "event" once request `of`'s stream has carried an event of kind `method`. A "CLOSE" entry writes nothing: it
    closes request `closes`'s stream, the cancel over Streamable HTTP."""

    def __init__(self, address, timeout, max_output):
        self.address, self.timeout, self.max_output = address, timeout, max_output
        self.changed = threading.Condition()
        self.order = itertools.count(1)  # the how-manieth response to end
        self.streams = []  # per request: a Stream, or for a CLOSE entry a dict

    def run(self, requests):
        for index, request in enumerate(requests):
            failure = self._gate(index, request.get("gate", {"kind": "all"}))
            if failure is not None:
                return failure
            if request["method"] == "CLOSE":
                self.streams.append({"closes": request["closes"],
                                     "ended_first": self.streams[request["closes"]].close()})
                continue
            stream = Stream(self.address, dict(request, index=index), self.timeout, self.max_output, self.changed,
                            self.order)
            self.streams.append(stream)
            try:
                stream.send()
            except OSError as exc:
                stream.done = True
                return stream._why(exc), index
            if _read_inline(requests, index):
                stream.read()
            else:
                threading.Thread(target=stream.read, daemon=True).start()
        return self._gate(len(requests), {"kind": "all"})

    def _open(self):
        return [s for s in self.streams if isinstance(s, Stream) and not s.done]

    def _failed(self):
        return next(((s.failure, s.request["index"]) for s in self.streams
                     if isinstance(s, Stream) and s.failure is not None), None)

    def _gate(self, index, gate):
        """Wait until the gate opens; (failure, index) when a stream failed or time ran out."""
        kind = gate["kind"]
        if kind == "sent":
            return self._failed()
        if kind == "all":
            ready = lambda: not self._open()
        elif kind == "ended":
            ready = lambda: self.streams[gate["of"]].done
        else:
            ready = lambda: gate["method"] in self.streams[gate["of"]].events
        deadline = time.monotonic() + self.timeout + 1  # a stream's own timeout, when it has one, speaks first
        with self.changed:
            while not ready():
                if self._failed() is not None:
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    return Failed(f"hang: {_waited(gate)} within {self.timeout:g} s"), index
                self.changed.wait(left)
        return self._failed()

    def close_all(self):
        for stream in self._open():
            stream.close()
        deadline = time.monotonic() + self.timeout
        with self.changed:
            while self._open() and time.monotonic() < deadline:
                self.changed.wait(deadline - time.monotonic())

    def report(self, failure):
        events = []
        for index, stream in enumerate(self.streams):
            if failure is not None and index >= failure[1]:
                break
            fields = stream if isinstance(stream, dict) else stream.report()
            events.append(dict(fields, event="exchange", index=index))
        if failure is not None:
            events.append({"event": "failure", "message": str(failure[0]), "index": failure[1]})
        return events


def _read_inline(requests, index):
    """True when nothing goes before this request's response ends (the next line waits for every response, and no
    CLOSE names it): then the main thread reads it, with no thread to start and hand over to."""
    following = requests[index + 1] if index + 1 < len(requests) else None
    return following is None or (following.get("gate", {"kind": "all"})["kind"] == "all"
                                 and following["method"] != "CLOSE")


def _waited(gate):
    if gate["kind"] == "all":
        return "not every response ended"
    if gate["kind"] == "ended":
        return f"the response to request {gate['of'] + 1} did not end"
    return f"request {gate['of'] + 1}'s stream carried no {gate['method']}"

