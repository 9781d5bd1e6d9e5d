"""The HTTP side of a run, inside the sandbox: start the server, wait until it listens, send each request, report.

The sandbox has no network but its own loopback, so the client must run in there beside the server: this file is
bound into the sandbox alone and run on the tool's interpreter, so it imports the standard library only. It knows
nothing of MCP. run/http.py hands it, as one JSON document on stdin, the server's command, an address and the
requests (bytes and headers, already derived from each body), and reads back one JSON object per line on stdout:

  {"event": "listening", "bound": [...]}      the server accepted a connection; where its socket listens
  {"event": "exchange", "index": I, ...}      request I: status, headers (lower-case names) and body (base64)
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


def exchange(host, port, request, timeout, max_output):
    """One request on its own connection; the whole response, read to its end (at most `max_output` bytes)."""
    conn = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        body = base64.b64decode(request["body"])
        own_host = any(name.lower() == "host" for name, _ in request["headers"])  # a deliberate foreign Host
        conn.putrequest(request["method"], request["path"], skip_host=own_host, skip_accept_encoding=True)
        for name, value in request["headers"]:
            conn.putheader(name, value.encode("utf-8"))
        if request["method"] == "POST":
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body if request["method"] == "POST" else None)
        sock = conn.sock  # getresponse drops conn.sock when the server closes the connection after this response
        response = conn.getresponse()
        try:
            data = read_whole(sock, response, time.monotonic() + timeout, max_output + 1)
        except TimeoutError:
            raise Unended(f"the response to request {request['index'] + 1} began (status {response.status}, "
                          f"{response.getheader('Content-Type')}) but did not end within {timeout:g} s; the final "
                          f"JSON-RPC response SHOULD end its stream (streamable-http.mdx, \"Sending Messages to "
                          f"the Server\")") from None
        if len(data) > max_output:
            raise Flood(f"flood: the response to request {request['index'] + 1} is over {max_output} bytes")
        headers = [[k.lower(), v] for k, v in response.getheaders()]
        return {"status": response.status, "headers": headers, "body": base64.b64encode(data).decode("ascii")}
    finally:
        conn.close()


def read_whole(sock, response, deadline, limit):
    """The body to its end, at most `limit` bytes; TimeoutError at `deadline`, even for a stream that keeps
    sending a little (an SSE keep-alive every second never lets one read time out)."""
    data = bytearray()
    while len(data) < limit:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = response.read1(min(65536, limit - len(data)))
        if not chunk:
            break
        data += chunk
    return bytes(data)


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
    for index, request in enumerate(requests):
        try:
            emit("exchange", index=index, **exchange(host, port, dict(request, index=index), timeout, max_output))
        except (Flood, Unended) as exc:
            emit("failure", message=str(exc), index=index)
            return
        except (OSError, http.client.HTTPException) as exc:
            why = "no complete response" if not isinstance(exc, TimeoutError) else f"no response within {timeout:g} s"
            emit("failure", message=f"{why} to request {index + 1} ({type(exc).__name__}: {exc})", index=index)
            return


if __name__ == "__main__":
    main()
