"""`serve NAME --http ADDR`: an HTTP server in the sandbox, reachable from this machine, with still no route out.

The sandbox has its own network namespace (no network at all), so nothing outside can reach a server listening
in there. A socket made in that namespace can (loopback.py): this module accepts TCP connections on ADDR and relays
each one, byte for byte, to a connection made on the sandbox's loopback. The server can answer what it is asked
and reach nothing.
"""

from __future__ import annotations

import socket
import threading

from .http_stream import Address


def pump(source: socket.socket, sink: socket.socket) -> None:
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


def join(a: socket.socket, b: socket.socket) -> None:
    """Relay two connected sockets both ways, each on its own thread; close both when both directions end."""
    def run():
        back = threading.Thread(target=pump, args=(b, a), daemon=True)
        back.start()
        pump(a, b)
        back.join()
        a.close()
        b.close()
    threading.Thread(target=run, daemon=True).start()


def listen(address: str) -> socket.socket:
    host, port = address.rsplit(":", 1)
    return socket.create_server((host.strip("[]"), int(port)))


def relay(listener: socket.socket, inside: Address) -> None:
    """From now on, each connection to `listener` joined to a new one to the server at `inside`."""
    def accept_forever():
        while True:
            try:
                client, _ = listener.accept()
            except OSError:  # the listener was closed: serve is ending
                return
            try:
                upstream = inside.connect(None)
            except OSError:
                client.close()
                continue
            join(client, upstream)
    threading.Thread(target=accept_forever, daemon=True).start()
