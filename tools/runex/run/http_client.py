"""The HTTP side of a run, inside the sandbox: start the server, wait until it listens, send each request, report.

The sandbox has no network but its own loopback, so the client must run in there beside the server: this file is
bound into the sandbox with run/http_stream.py alone and run on the tool's interpreter (with -E -s -S), so it imports
the standard library only, and of that only C modules and ctypes: its start is most of what an HTTP run costs beyond
a stdio one (benchmarks/LOG.md), and http.client, json, subprocess and socket import a few dozen modules between
them. So it speaks HTTP/1.1 itself (http_stream.py). Of MCP it knows only what a gate needs: the method of each SSE
event (http_stream._kind).
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
import _thread
import marshal
import os
import sys
import time

from http_stream import Changed, Failed, Stream, b64, connect  # bound beside this file, whose folder starts the path

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


def emit(event, **fields):
    sys.stdout.write(to_json(dict(event=event, **fields)) + "\n")
    sys.stdout.flush()


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
