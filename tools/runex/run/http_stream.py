"""One HTTP/1.1 exchange of the HTTP client (run/http_client.py). A request goes on a connection of its own; the
response is a status line, headers and a body framed by Content-Length, chunked or the close (RFC 9112, 6.3); an SSE
body is read event by event, so a gate can wait for one; the client may close the stream first, which over
Streamable HTTP cancels the request. Connections are opened on sockets from a Loopback (loopback.py): made inside
the server's sandbox, used from the tool."""

import json
import socket
import time
from dataclasses import dataclass

from ..loopback import Loopback


@dataclass(frozen=True)
class Address:
    """Where the server listens, and the Loopback whose sockets reach it."""

    loopback: Loopback
    host: str
    port: int

    def connect(self, timeout: float) -> socket.socket:
        sock = self.loopback.socket()
        sock.settimeout(timeout)
        try:
            sock.connect((self.host, self.port))
        except BaseException:
            sock.close()
            raise
        return sock


class Flood(Exception):
    pass


class Unended(Exception):
    """The response began (status and headers came) but its body did not end in time."""


class Failed(Exception):
    """No complete response: the connection failed or timed out before the response came whole."""


class BadResponse(Exception):
    """Bytes that are not an HTTP/1.1 response."""


class Stream:
    """One request on its own connection: written by the caller, its response read by `read` (on a thread of its
    own when other requests go meanwhile). An SSE body is read event by event, so a gate can wait for one; the
    client may close the stream before it ends (`close`), which over Streamable HTTP cancels the request."""

    def __init__(self, address, request, timeout, max_output, changed, order):
        self.address, self.request, self.timeout, self.max_output = address, request, timeout, max_output
        self.changed = changed  # a threading.Condition: notified on every event and at the end
        self.order = order  # the conversation's count of ended responses (itertools.count)
        self.status, self.headers, self.data = None, [], bytearray()
        self.events = []  # each SSE event's kind: "response", or a notification's method
        self.done = False  # the response ended, or the stream was closed, or reading it failed
        self.ended = None  # the how-manieth response to end (answered_before compares them)
        self.closed = False  # closed by the client before the response ended
        self.failure = None
        self.sock, self.buffer = None, bytearray()

    def send(self):
        request = self.request
        lines = [f"{request['method']} {request['path']} HTTP/1.1".encode("ascii")]
        if not any(name.lower() == "host" for name, _ in request["headers"]):  # else a deliberate foreign Host
            lines.append(f"Host: {self.address.host}:{self.address.port}".encode("ascii"))
        lines += [name.encode("ascii") + b": " + value.encode("utf-8") for name, value in request["headers"]]
        body = request["body"]
        if request["method"] == "POST":
            lines.append(f"Content-Length: {len(body)}".encode("ascii"))
        # The whole response within `timeout`: a stream that keeps sending a little (an SSE keep-alive every
        # second) must not outlive it by never letting one read time out.
        self.deadline = time.monotonic() + self.timeout
        self.sock = self.address.connect(self.timeout)
        self.sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + body)

    def read(self):
        try:
            self._read_head()
            sse = dict(self.headers).get("content-type", "").split(";")[0].strip().lower() == "text/event-stream"
            pending = bytearray()
            for piece in self._body():
                self.data += piece
                if len(self.data) > self.max_output:
                    raise Flood(f"flood: the response to request {self.request['index'] + 1} is over "
                                f"{self.max_output} bytes")
                if sse:
                    pending = self._events(pending + piece)
        except Exception as exc:  # noqa: BLE001 - whatever ended the read, the report says it
            if not self.closed:
                self.failure = self._why(exc)
        finally:
            self.sock.close()
            with self.changed:
                self.done = True
                self.ended = next(self.order)
                self.changed.notify_all()

    def _recv(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("timed out")
        self.sock.settimeout(left)
        piece = self.sock.recv(65536)
        if not piece:
            raise EOFError("the connection closed")
        self.buffer += piece

    def _line(self):
        while b"\n" not in self.buffer:
            if len(self.buffer) > 65536:
                raise BadResponse("a header line over 64 KiB")
            self._recv()
        end = self.buffer.index(b"\n") + 1
        line, self.buffer[:end] = bytes(self.buffer[:end]), b""
        return line.rstrip(b"\r\n")

    def _exactly(self, count):
        while len(self.buffer) < count:
            self._recv()
        data, self.buffer[:count] = bytes(self.buffer[:count]), b""
        return data

    def _read_head(self):
        status = self._line()
        while True:
            parts = status.split(None, 2)
            if len(parts) < 2 or not parts[0].startswith(b"HTTP/") or not parts[1].isdigit():
                raise BadResponse(f"not an HTTP status line: {status[:60]!r}")
            headers = []
            for line in iter(self._line, b""):
                name, colon, value = line.partition(b":")
                if not colon:
                    raise BadResponse(f"not a header line: {line[:60]!r}")
                headers.append([name.strip().decode("latin-1").lower(), value.strip().decode("latin-1")])
            if not 100 <= int(parts[1]) < 200:  # an interim response: the real one follows
                self.status, self.headers = int(parts[1]), headers
                return
            status = self._line()

    def _body(self):
        """The body's bytes as they arrive, framed as HTTP/1.1 says (RFC 9112, 6.3)."""
        framing = dict(self.headers)
        if self.request["method"] == "HEAD" or self.status in (204, 304):
            return
        if "chunked" in framing.get("transfer-encoding", "").lower():
            while True:
                size = int(self._line().split(b";")[0].strip() or b"x", 16)
                if size == 0:
                    return
                yield self._exactly(size)
                self._exactly(2)
        elif "content-length" in framing:
            left = int(framing["content-length"])
            while left > 0:
                if not self.buffer:
                    self._recv()
                piece = self._exactly(min(left, len(self.buffer)))
                left -= len(piece)
                yield piece
        else:
            while True:
                if self.buffer:
                    yield self._exactly(len(self.buffer))
                try:
                    self._recv()
                except EOFError:
                    return

    def _events(self, pending):
        """Each complete SSE event in `pending` noted by its kind; the incomplete rest returned."""
        text = pending.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        *complete, rest = text.split(b"\n\n")
        for event in complete:
            data = [line[6:] if line.startswith(b"data: ") else line[5:]
                    for line in event.split(b"\n") if line.startswith(b"data:")]
            if data:
                with self.changed:
                    self.events.append(_kind(b"\n".join(data)))
                    self.changed.notify_all()
        return bytearray(rest)

    def _why(self, exc):
        if isinstance(exc, Flood):
            return exc
        if isinstance(exc, TimeoutError) and self.status is not None:
            return Unended(f"the response to request {self.request['index'] + 1} began (status {self.status}, "
                           f"{dict(self.headers).get('content-type')}) but did not end within {self.timeout:g} s; "
                           f"the final JSON-RPC response SHOULD end its stream (streamable-http.mdx, \"Sending "
                           f"Messages to the Server\")")
        why = "no complete response" if not isinstance(exc, TimeoutError) else f"no response within {self.timeout:g} s"
        return Failed(f"{why} to request {self.request['index'] + 1} ({type(exc).__name__}: {exc})")

    def close(self):
        """Close the stream from the client's side; True when its response had already ended (nothing to cancel)."""
        with self.changed:
            if self.done:
                return True
            self.closed = True
        try:
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the thread reading it, and the server sees the close
        except OSError:
            pass  # already closed by the server: nothing left to cancel
        return False

    def report(self):
        fields = {"status": self.status, "headers": self.headers, "body": bytes(self.data), "ended": self.ended}
        if self.closed:
            fields["closed"] = True
        return fields


def _kind(data):
    """What an SSE event carries, as a gate names it: a notification's method, or "response"."""
    try:
        message = json.loads(data.decode("utf-8"))
    except ValueError:
        return "not JSON"
    if isinstance(message, dict) and isinstance(message.get("method"), str):
        return message["method"] if "id" not in message else "request " + message["method"]
    return "response"
