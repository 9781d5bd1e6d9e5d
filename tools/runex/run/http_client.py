"""The HTTP side of a run, inside the sandbox: start the server, wait until it listens, send each request, report.

The sandbox has no network but its own loopback, so the client must run in there beside the server: this file is
bound into the sandbox alone and run on the tool's interpreter (with -I -S), so it imports the standard library only,
and of that only C modules and ctypes: its start is most of what an HTTP run costs beyond a stdio one
(benchmarks/LOG.md), and http.client, json, subprocess and socket import a few dozen modules between them. So it
speaks HTTP/1.1 itself (one request per connection: a status line, headers, a body framed by Content-Length,
chunked or the close). Of MCP it knows only what a gate needs: the method of each SSE event (Conversation).
run/http.py hands it, as one marshal document on stdin, the server's command, an address and the requests (bytes and
headers, already derived from each body, each with its gate), and reads back one JSON object per line on stdout:

  {"event": "listening", "bound": [...]}      the server accepted a connection; where its socket listens
  {"event": "exchange", "index": I, ...}      request I: status, headers (lower-case names) and body (base64);
                                              "closed": true when the client closed it first; for a CLOSE entry,
                                              "closes" (the request) and "ended_first" (its response had ended)
  {"event": "failure", "message": "..."}      the conversation could not go on (the last line before "exit")
  {"event": "exit", "status": N, "stdout": "<base64>"}   after SIGTERM; N is -15 for a death by SIGTERM
"""

import _json
import _socket
import _thread
import binascii
import marshal
import os
import sys
import time

PR_GET_DUMPABLE, PR_SET_DUMPABLE = 3, 4
SIGTERM, SIGKILL = 15, 9


def guard_from_the_server():
    """Make this process non-dumpable before anything else: the server it starts runs as the same user, and without
    this it could open /proc/<this pid>/mem or /proc/<this pid>/fd/1 and write this report itself (ptrace access
    checks refuse both for a non-dumpable process). The server's exec makes it dumpable again, so this guards the
    client alone. Refuses to go on when the guard does not hold."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 or libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0:
        sys.stderr.write(f"http_client: could not make itself non-dumpable (errno {ctypes.get_errno()})\n")
        sys.exit(70)


def to_json(value):
    """JSON for the report's values (dicts with string keys, lists, strings, numbers, booleans, None)."""
    if value is None or value is True or value is False:
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return _json.encode_basestring_ascii(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{to_json(k)}: {to_json(value[k])}" for k in sorted(value)) + "}"
    return "[" + ", ".join(to_json(v) for v in value) + "]"


class _Strict:
    strict, object_hook, object_pairs_hook, memo = True, None, None, {}
    parse_float, parse_int, parse_constant = float, int, float


_scan = _json.make_scanner(_Strict())


def emit(event, **fields):
    sys.stdout.write(to_json(dict(event=event, **fields)) + "\n")
    sys.stdout.flush()


def b64(data):
    return binascii.b2a_base64(bytes(data), newline=False).decode("ascii")


def connect(host, port, timeout):
    sock = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect((host, port))
    except BaseException:
        sock.close()
        raise
    return sock


class Server:
    """The server process: spawned with stdin on /dev/null, stdout a pipe (read by Drain), stderr shared."""

    def __init__(self, argv, env):
        read, write = os.pipe()
        actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0), (os.POSIX_SPAWN_DUP2, write, 1)]
        self.pid = os.posix_spawn(_resolve(argv[0], env), argv, env, file_actions=actions)
        os.close(write)
        self.stdout, self.returncode = read, None

    def poll(self):
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout):
        deadline = time.monotonic() + timeout
        while self.poll() is None and time.monotonic() < deadline:
            time.sleep(0.002)
        return self.returncode

    def signal(self, number):
        if self.poll() is None:
            os.kill(self.pid, number)


def _resolve(program, env):
    if "/" in program:
        return program
    for folder in env.get("PATH", os.defpath).split(os.pathsep):
        candidate = os.path.join(folder, program)
        if os.access(candidate, os.X_OK):
            return candidate
    return program


def wait_listening(server, host, port, timeout):
    """True once a TCP connection to host:port succeeds; a message when the server exits or time runs out. Polls
    every 2 ms: a Rust server listens within a few milliseconds of its start."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return f"the server exited (status {server.returncode}) before it listened on {host}:{port}"
        try:
            connect(host, port, 0.5).close()
            return True
        except OSError:
            time.sleep(0.002)
    return f"the server did not listen on {host}:{port} within {timeout:g} s (does it read MCP_HTTP_ADDR?)"


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

    ended_so_far = 0

    def __init__(self, host, port, request, timeout, max_output, changed):
        self.host, self.port, self.request, self.timeout, self.max_output = host, port, request, timeout, max_output
        self.changed = changed  # Changed: notified on every event and at the end
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
            lines.append(f"Host: {self.host}:{self.port}".encode("ascii"))
        lines += [name.encode("ascii") + b": " + value.encode("utf-8") for name, value in request["headers"]]
        body = request["body"]
        if request["method"] == "POST":
            lines.append(f"Content-Length: {len(body)}".encode("ascii"))
        self.sock = connect(self.host, self.port, self.timeout)
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
                Stream.ended_so_far += 1
                self.ended = Stream.ended_so_far
                self.changed.notify_all()

    def _recv(self):
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
            self.sock.shutdown(_socket.SHUT_RDWR)  # wakes the thread reading it, and the server sees the close
        except OSError:
            pass  # already closed by the server: nothing left to cancel
        return False

    def report(self):
        fields = {"status": self.status, "headers": self.headers, "body": b64(self.data), "ended": self.ended}
        if self.closed:
            fields["closed"] = True
        return fields


def _kind(data):
    """What an SSE event carries, as a gate names it: a notification's method, or "response"."""
    try:
        message, end = _scan(data.decode("utf-8"), 0)
    except (ValueError, StopIteration):
        return "not JSON"
    if isinstance(message, dict) and isinstance(message.get("method"), str):
        return message["method"] if "id" not in message else "request " + message["method"]
    return "response"


class Changed:
    """threading.Condition's part this client needs, on _thread's lock: wait until notified or `timeout`."""

    def __init__(self):
        self.lock, self.waiters = _thread.allocate_lock(), []

    def __enter__(self):
        self.lock.acquire()

    def __exit__(self, *exc):
        self.lock.release()

    def wait(self, timeout):
        waiter = _thread.allocate_lock()
        waiter.acquire()
        self.waiters.append(waiter)
        self.lock.release()
        try:
            waiter.acquire(True, max(timeout, 0))
        finally:
            self.lock.acquire()
            if waiter in self.waiters:
                self.waiters.remove(waiter)

    def notify_all(self):
        for waiter in self.waiters:
            if waiter.locked():
                waiter.release()
        self.waiters = []


def stop(server, grace):
    """SIGTERM, then SIGKILL after `grace` seconds; the exit status with a signal as -N."""
    server.signal(SIGTERM)
    if server.wait(grace) is None:
        server.signal(SIGKILL)
        while server.wait(1) is None:
            pass
    return server.returncode


class Drain:
    """What the server writes to stdout, read from a pipe (a file it could truncate afterwards): the first
    `limit` bytes kept, the rest read and dropped so the server never blocks on a full pipe."""

    def __init__(self, fd, limit):
        self.fd, self.limit, self.kept = fd, limit, bytearray()
        self.finished = _thread.allocate_lock()
        self.finished.acquire()
        _thread.start_new_thread(self._read, ())

    def _read(self):
        try:
            for chunk in iter(lambda: os.read(self.fd, 65536), b""):
                self.kept += chunk[:max(0, self.limit - len(self.kept))]
        finally:
            self.finished.release()

    def written(self, grace):
        self.finished.acquire(True, grace)
        return bytes(self.kept)


def main():
    guard_from_the_server()
    job = marshal.loads(sys.stdin.buffer.read())
    host, port, timeout = job["host"], job["port"], job["timeout"]
    env = dict(job["env"], MCP_HTTP_ADDR=f"{host}:{port}")
    server = Server(job["argv"], env)
    server_stdout = Drain(server.stdout, job["max_output"])
    try:
        converse(server, host, port, job["requests"], timeout, job["max_output"])
    finally:
        status = stop(server, job["grace"])
        written = server_stdout.written(job["grace"])
        emit("exit", status=status, stdout=b64(written))


def listening_addresses(port):
    """The local addresses of the sockets listening on `port`, from this network namespace's /proc/net/tcp and
    tcp6 (state 0A is LISTEN): 0.0.0.0 or :: means every interface."""
    found = []
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as table:
                rows = table.read().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            address, _, hex_port = fields[1].partition(":")
            if fields[3] == "0A" and int(hex_port, 16) == port:
                found.append("all interfaces" if set(address) == {"0"} else "loopback")
    return found


def converse(server, host, port, requests, timeout, max_output):
    listening = wait_listening(server, host, port, timeout)
    if listening is not True:
        emit("failure", message=listening)
        return
    emit("listening", bound=listening_addresses(port))
    talk = Conversation(host, port, timeout, max_output)
    try:
        failure = talk.run(requests)
    finally:
        talk.close_all()
    talk.report(failure)


class Conversation:
    """Each request on its own connection, written when its gate opens (run/http.py plans them):
    "all" once every earlier response has ended; "sent" at once; "ended" once request `of`'s response has ended;
    "event" once request `of`'s stream has carried an event of kind `method`. A "CLOSE" entry writes nothing: it
    closes request `closes`'s stream, the cancel over Streamable HTTP."""

    def __init__(self, host, port, timeout, max_output):
        self.host, self.port, self.timeout, self.max_output = host, port, timeout, max_output
        self.changed = Changed()
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
            stream = Stream(self.host, self.port, dict(request, index=index), self.timeout, self.max_output,
                            self.changed)
            self.streams.append(stream)
            try:
                stream.send()
            except OSError as exc:
                stream.done = True
                return stream._why(exc), index
            if _read_inline(requests, index):
                stream.read()
            else:
                _thread.start_new_thread(stream.read, ())
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
        for index, stream in enumerate(self.streams):
            if failure is not None and index >= failure[1]:
                break
            if isinstance(stream, dict):
                emit("exchange", index=index, **stream)
            else:
                emit("exchange", index=index, **stream.report())
        if failure is not None:
            emit("failure", message=str(failure[0]), index=failure[1])


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


if __name__ == "__main__":
    main()
