"""Sockets on a sandbox's own loopback, made from outside it: how the tool talks HTTP to a sandboxed server.

A sandbox has a network namespace of its own with nothing but a loopback, so a server in it is out of the tool's
reach. A socket belongs to the network namespace it was created in, wherever it is used afterwards: so a helper
forked from the tool joins the sandbox's namespace (setns(2)) and does only this, create unconnected TCP sockets and
hand them back over a Unix socket (SCM_RIGHTS); the tool connects and talks on them. No interpreter starts and no
code of the tool runs inside the sandbox: the helper is in neither its mount nor its PID namespace, so the server
cannot name it, and it holds nothing but the sockets it makes.

Joining takes CAP_SYS_ADMIN over the namespace's owning user namespace: root has it over every namespace; an
unprivileged tool first joins the user namespace bwrap made (its owner, so it holds every capability in it)."""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket

CLONE_NEWUSER, CLONE_NEWNET = 0x10000000, 0x40000000
NS_GET_USERNS = 0xB701  # ioctl(2) on a namespace fd: the user namespace that owns it (ioctl_ns(2))
PR_SET_DUMPABLE = 4
_libc = ctypes.CDLL(None, use_errno=True)


class LoopbackError(Exception):
    pass


class Loopback:
    """Sockets for one run: `here()` makes them in the tool's own namespace (unsandboxed), `inside(pid)` in the
    network namespace of process `pid`."""

    def __init__(self, channel: socket.socket | None = None, helper: int | None = None):
        self._channel, self._helper = channel, helper

    @classmethod
    def here(cls) -> Loopback:
        return cls()

    @classmethod
    def inside(cls, pid: int) -> Loopback:
        namespace = os.open(f"/proc/{pid}/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            helper = os.fork()
            if helper == 0:  # the child: no return from here, and nothing but system calls
                ours.close()
                _serve(namespace, theirs)
            theirs.close()
            loopback = cls(ours, helper)
            loopback._expect_joined()
            return loopback
        finally:
            os.close(namespace)

    def socket(self) -> socket.socket:
        """A new TCP socket, not yet connected, in the namespace this Loopback serves."""
        if self._channel is None:
            return socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._channel.sendall(b"s")
        _, fds, _, _ = socket.recv_fds(self._channel, 1, 1)
        if not fds:
            raise LoopbackError("the helper in the sandbox's network namespace has stopped")
        return socket.socket(fileno=fds[0])

    def listening(self, port: int) -> list[str]:
        """Where sockets listen on `port` in the namespace: "loopback", or "all interfaces" for 0.0.0.0 or ::
        (from its /proc/net/tcp and tcp6, state 0A)."""
        if self._channel is None:
            return _listening(port)
        self._channel.sendall(b"t" + port.to_bytes(2, "big"))
        reply = self._channel.recv(4096).decode()
        return reply.split(",") if reply != "-" else []

    def close(self) -> None:
        if self._channel is not None:
            self._channel.close()  # the helper reads EOF and exits
            os.waitpid(self._helper, 0)
            self._channel = None

    def _expect_joined(self) -> None:
        answer = self._channel.recv(256)
        if answer != b"ok":
            self.close()
            raise LoopbackError(f"could not enter the sandbox's network namespace: {answer.decode() or 'no answer'}")


def _serve(namespace: int, channel: socket.socket) -> None:
    """The helper's whole life: join, say so, then answer each request until the tool closes the channel."""
    status = 0
    try:
        _keep_only(namespace, channel.fileno())
        _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
        why = _join(namespace)
        channel.sendall(b"ok" if why is None else why.encode())
        while why is None:
            ask = channel.recv(3)
            if not ask:
                break
            if ask[:1] == b"s":
                made = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                socket.send_fds(channel, [b"s"], [made.fileno()])
                made.close()
            else:
                found = _listening(int.from_bytes(ask[1:3], "big"))
                channel.sendall((",".join(found) or "-").encode())
    except BaseException:  # noqa: BLE001 - the tool sees the channel close and says so
        status = 1
    finally:
        os._exit(status)


def _keep_only(*keep: int) -> None:
    """Close every file the fork copied from the tool but `keep` (fds 0 to 2 on /dev/null): a fork never execs, so
    close-on-exec closes nothing, and a copy of the write end of another server's stdin would keep that server from
    ever reading its end while this helper lives."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in range(3):
        os.dup2(null, fd)
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:  # the listing's own fd, closed by now
                pass


def _join(namespace: int) -> str | None:
    if _libc.setns(namespace, CLONE_NEWNET) == 0:
        return None
    if ctypes.get_errno() != 1:  # EPERM: not privileged over its owner yet
        return os.strerror(ctypes.get_errno())
    try:
        owner = fcntl.ioctl(namespace, NS_GET_USERNS)
    except OSError as exc:
        return f"ioctl NS_GET_USERNS: {exc.strerror}"
    if _libc.setns(owner, CLONE_NEWUSER) != 0 or _libc.setns(namespace, CLONE_NEWNET) != 0:
        return f"setns: {os.strerror(ctypes.get_errno())}"
    return None


def _listening(port: int) -> list[str]:
    found = []
    for name in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
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
