"""The HTTP side of a run, inside the sandbox: start the server, wait until it listens, send each request, report.

The sandbox has no network but its own loopback, so the client must run in there beside the server: this file is
bound into the sandbox alone and run on the tool's interpreter, so it imports the standard library only. Of MCP it
knows only what a gate needs: the method of each SSE event (Conversation). run/http.py hands it, as one JSON document
on stdin, the server's command, an address and the requests (bytes and headers, already derived from each body, each
with its gate), and reads back one JSON object per line on stdout:

  {"event": "listening", "bound": [...]}      the server accepted a connection; where its socket listens
  {"event": "exchange", "index": I, ...}      request I: status, headers (lower-case names) and body (base64);
                                              "closed": true when the client closed it first; for a CLOSE entry,
                                              "closes" (the request) and "ended_first" (its response had ended)
  {"event": "failure", "message": "..."}      the conversation could not go on (the last line before "exit")
  {"event": "exit", "status": N, "stdout": "<base64>"}   after SIGTERM; N is -15 for a death by SIGTERM
"""

import base64
import ctypes
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

PR_GET_DUMPABLE, PR_SET_DUMPABLE = 3, 4


def guard_from_the_server():
    """Make this process non-dumpable before anything else: the server it starts runs as the same user, and without
    this it could open /proc/<this pid>/mem or /proc/<this pid>/fd/1 and write this report itself (ptrace access
    checks refuse both for a non-dumpable process). The server's exec makes it dumpable again, so this guards the
    client alone. Refuses to go on when the guard does not hold."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0 or libc.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0:
        sys.stderr.write(f"http_client: could not make itself non-dumpable (errno {ctypes.get_errno()})\n")
        sys.exit(70)


def emit(event, **fields):
    sys.stdout.write(json.dumps(dict(event=event, **fields), sort_keys=True) + "\n")
    sys.stdout.flush()


def wait_listening(server, host, port, timeout):
    """True once a TCP connection to host:port succeeds; a message when the server exits or time runs out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return f"the server exited (status {server.returncode}) before it listened on {host}:{port}"
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.02)
    return f"the server did not listen on {host}:{port} within {timeout:g} s (does it read MCP_HTTP_ADDR?)"


class Flood(Exception):
    pass


class Unended(Exception):
    """The response began (status and headers came) but its body did not end in time."""


class Failed(Exception):
    """No complete response: the connection failed or timed out before the response came whole."""


class Stream:
    """One request on its own connection: written by the caller, its response read by `read` (on a thread of its
    own when other requests go meanwhile). An SSE body is read event by event, so a gate can wait for one; the
    client may close the stream before it ends (`close`), which over Streamable HTTP cancels the request."""

    ended_so_far = 0

    def __init__(self, host, port, request, timeout, max_output, changed):
        self.request, self.timeout, self.max_output, self.changed = request, timeout, max_output, changed
        self.conn = http.client.HTTPConnection(host, port, timeout=timeout)
        self.status, self.headers, self.data = None, [], bytearray()
        self.events = []  # each SSE event's kind: "response", or a notification's method
        self.done = False  # the response ended, or the stream was closed, or reading it failed
        self.ended = None  # the how-manieth response to end (answered_before compares them)
        self.closed = False  # closed by the client before the response ended
        self.failure = None
        self.sock = None

    def send(self):
        body = base64.b64decode(self.request["body"])
        own_host = any(name.lower() == "host" for name, _ in self.request["headers"])  # a deliberate foreign Host
        self.conn.putrequest(self.request["method"], self.request["path"], skip_host=own_host,
                             skip_accept_encoding=True)
        for name, value in self.request["headers"]:
            self.conn.putheader(name, value.encode("utf-8"))
        if self.request["method"] == "POST":
            self.conn.putheader("Content-Length", str(len(body)))
        self.conn.endheaders(body if self.request["method"] == "POST" else None)
        self.sock = self.conn.sock  # http.client lets go of it once a response says it will close

    def read(self):
        try:
            response = self.conn.getresponse()
            self.status = response.status
            self.headers = [[k.lower(), v] for k, v in response.getheaders()]
            if (response.getheader("Content-Type") or "").split(";")[0].strip().lower() == "text/event-stream":
                self._read_events(response)
            else:
                self.data += response.read(self.max_output + 1)
            self._check_size()
        except Exception as exc:  # noqa: BLE001 - whatever ended the read, the report says it
            if not self.closed:
                self.failure = self._why(exc)
        finally:
            self.conn.close()
            with self.changed:
                self.done = True
                Stream.ended_so_far += 1
                self.ended = Stream.ended_so_far
                self.changed.notify_all()

    def _read_events(self, response):
        data_lines = []
        while True:
            line = response.readline(self.max_output + 1 - len(self.data))
            if not line:
                return
            self.data += line
            self._check_size()
            text = line.rstrip(b"\r\n")
            if text.startswith(b"data:"):
                data_lines.append(text[6:] if text.startswith(b"data: ") else text[5:])
            elif not text and data_lines:
                with self.changed:
                    self.events.append(_kind(b"\n".join(data_lines)))
                    self.changed.notify_all()
                data_lines = []

    def _check_size(self):
        if len(self.data) > self.max_output:
            raise Flood(f"flood: the response to request {self.request['index'] + 1} is over {self.max_output} "
                        f"bytes")

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
        fields = {"status": self.status, "headers": self.headers, "body": base64.b64encode(bytes(self.data)).decode(),
                  "ended": self.ended}
        if self.closed:
            fields["closed"] = True
        return fields


def _kind(data):
    """What an SSE event carries, as a gate names it: a notification's method, or "response"."""
    try:
        message = json.loads(data)
    except ValueError:
        return "not JSON"
    if isinstance(message, dict) and isinstance(message.get("method"), str):
        return message["method"] if "id" not in message else "request " + message["method"]
    return "response"


def stop(server, grace):
    """SIGTERM, then SIGKILL after `grace` seconds; the exit status with a signal as -N."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    return server.returncode


class Drain:
    """What the server writes to stdout, read from a pipe (a file it could truncate afterwards): the first
    `limit` bytes kept, the rest read and dropped so the server never blocks on a full pipe."""

    def __init__(self, pipe, limit):
        self.pipe, self.limit, self.kept = pipe, limit, bytearray()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for chunk in iter(lambda: self.pipe.read1(65536), b""):
            self.kept += chunk[:max(0, self.limit - len(self.kept))]

    def written(self, grace):
        self.thread.join(grace)
        return bytes(self.kept)


def main():
    guard_from_the_server()
    job = json.load(sys.stdin)
    host, port, timeout = job["host"], job["port"], job["timeout"]
    env = dict(job["env"], MCP_HTTP_ADDR=f"{host}:{port}")
    server = subprocess.Popen(job["argv"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=None, env=env)
    server_stdout = Drain(server.stdout, job["max_output"])
    try:
        converse(server, host, port, job["requests"], timeout, job["max_output"])
    finally:
        status = stop(server, job["grace"])
        written = server_stdout.written(job["grace"])
        emit("exit", status=status, stdout=base64.b64encode(written).decode("ascii"))


def listening_addresses(port):
    """The local addresses of the sockets listening on `port`, from this network namespace's /proc/net/tcp and
    tcp6 (state 0A is LISTEN): 0.0.0.0 or :: means every interface."""
    found = []
    for name, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        try:
            rows = open(name).read().splitlines()[1:]
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
        self.changed = threading.Condition()
        self.streams = []  # per request: a Stream, or for a CLOSE entry a dict
        self.threads = []

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
            except (OSError, http.client.HTTPException) as exc:
                return stream._why(exc), index
            thread = threading.Thread(target=stream.read, daemon=True)
            thread.start()
            self.threads.append(thread)
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
        for thread in self.threads:
            thread.join(self.timeout)

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


def _waited(gate):
    if gate["kind"] == "all":
        return "not every response ended"
    if gate["kind"] == "ended":
        return f"the response to request {gate['of'] + 1} did not end"
    return f"request {gate['of'] + 1}'s stream carried no {gate['method']}"


if __name__ == "__main__":
    main()
