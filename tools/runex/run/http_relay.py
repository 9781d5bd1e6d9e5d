"""`serve NAME --http ADDR`: an HTTP server in the sandbox, reachable from this machine, with still no route out.

The sandbox has its own network namespace (no network at all), so nothing outside can reach a server listening
in there. A Unix socket can: it lives in the file system, not in a network namespace. So two byte pumps meet at one
socket file in a directory bound into the sandbox: outside, this module accepts TCP connections on ADDR and
relays each one to the socket; inside, the same file (run with `inside`, standard library only) starts the server
with MCP_HTTP_ADDR set and relays each socket connection to the server's loopback port. The server can answer what
it is asked and reach nothing.
"""

import os
import socket
import subprocess
import sys
import threading
import time

STARTUP_SECONDS = 60.0


def pump(source, sink):
    """Copy bytes until `source` ends, then pass the end on (half-close), so HTTP/1.1 bodies finish cleanly."""
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def join(a, b):
    """Relay two connected sockets both ways, each on its own thread; close both when both directions end."""
    def run():
        back = threading.Thread(target=pump, args=(b, a), daemon=True)
        back.start()
        pump(a, b)
        back.join()
        a.close()
        b.close()
    threading.Thread(target=run, daemon=True).start()


def accept_forever(listener, connect):
    while True:
        client, _ = listener.accept()
        try:
            upstream = connect()
        except OSError:
            client.close()
            continue
        join(client, upstream)


def inside(socket_path, port, argv):
    """In the sandbox: start the server on 127.0.0.1:`port` (the port the reader uses outside, so an Origin the
    server allows names it), wait until it listens, relay the socket to it; exit with it."""
    port = int(port)
    env = dict(os.environ, MCP_HTTP_ADDR=f"127.0.0.1:{port}")
    server = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL)
    while server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.02)
    if server.poll() is not None:  # never listened: no socket, so the outside says so rather than "serving"
        sys.exit(server.returncode or 1)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(socket_path)
    listener.listen()
    threading.Thread(target=accept_forever, daemon=True,
                     args=(listener, lambda: socket.create_connection(("127.0.0.1", port)))).start()
    sys.exit(server.wait())


def outside(address, socket_path):
    """Here: accept TCP on `address` and relay each connection to the sandbox's socket (once it exists)."""
    host, port = address.rsplit(":", 1)
    listener = socket.create_server((host.strip("[]"), int(port)))

    def connect():
        # The socket appears once the server listens: a client that comes earlier waits for it, as for a slow start.
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            upstream = socket.socket(socket.AF_UNIX)
            try:
                upstream.connect(socket_path)
                return upstream
            except OSError:
                upstream.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
    threading.Thread(target=accept_forever, args=(listener, connect), daemon=True).start()
    return listener


if __name__ == "__main__":
    inside(sys.argv[1], sys.argv[2], sys.argv[3:])
