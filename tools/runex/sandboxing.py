"""Every build and every server run happens inside bubblewrap (`bwrap`), Debian's unprivileged sandbox.

One function, `argv()`, turns a `Spec` (the command, what it may read, where it may write, its limits) into a bwrap
command line. Each run gets new user, PID, network, IPC, UTS and cgroup namespaces: no network at all (only a
loopback device nobody listens on), a /proc that shows only the sandbox's own processes, and every descendant killed
with the sandbox (`--die-with-parent`: bwrap is PID 1 of the sandbox, and when it dies the kernel kills the rest of
the namespace, detached or not). The file system is a fresh tmpfs holding a read-only view of the system (/usr and
the few /etc files a compiler needs), the read-only paths the spec names, and a writable /tmp; nothing of the
repository or the build cache, unless a spec binds one file of it read-only.

The process limit. RLIMIT_NPROC counts processes per user and the kernel exempts root from it, and a user namespace
made by bwrap maps the sandbox's user to the caller's, so when the tool runs as root (containers, CI images) the
limit would not hold. As root the tool therefore prepares each sandbox's user namespace itself: uid 0 maps to root
(so bwrap can still read root-only paths such as /root/.pyenv while it mounts them) and uid 1000 maps to the
unprivileged `nobody` (65534). bwrap mounts as 0 and the command then drops to 1000 with every capability gone
(`setpriv`), under limits set by `prlimit`; RLIMIT_NPROC then holds, counted in that namespace only. Run as any other
user, plain `bwrap --unshare-all` already gives a non-root user and the same `prlimit` applies.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from .errors import SandboxError

BWRAP = "bwrap"
SANDBOX_UID = 1000  # the user a sandboxed command runs as, inside its namespace
NOBODY = 65534  # who that user is outside, when the tool runs as root
SCRUBBED_PATH = "/usr/local/bin:/usr/bin:/bin"
TMP_SIZE_BYTES = 256 << 20  # the sandbox's writable /tmp (a tmpfs, so this is memory)

INSTALL_HINT = (
    "Install bubblewrap (Debian/Ubuntu: `sudo apt-get install bubblewrap`). On Ubuntu 23.10 and later AppArmor "
    "restricts unprivileged user namespaces: allow them with `sudo sysctl -w "
    "kernel.apparmor_restrict_unprivileged_userns=0` (or install an AppArmor profile for bwrap). On a machine "
    "without bubblewrap (macOS), `--unsandboxed` runs examples without isolation, with a warning; CI never may.")


@dataclass(frozen=True)
class Limits:
    """Generous for a small example, tight enough to stop a runaway."""

    cpu_seconds: int = 60
    address_space: int = 8 << 30
    file_size: int = 64 << 20
    processes: int = 64


SERVER_LIMITS = Limits()
# A compiler forks its linker and, under cargo, one rustc per crate, and mmaps a lot: more of everything.
BUILD_LIMITS = Limits(cpu_seconds=900, address_space=16 << 30, file_size=1 << 30, processes=256)


@dataclass(frozen=True)
class Spec:
    argv: list[str]
    read_only: tuple[tuple[str, str], ...] = ()  # (host path, path inside the sandbox)
    writable: tuple[tuple[str, str], ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    chdir: str = "/tmp"
    limits: Limits = SERVER_LIMITS

    def with_env(self, extra: dict[str, str]) -> Spec:
        """The same command with `extra` added to its environment (example.toml's http_env, say)."""
        return replace(self, env={**self.env, **extra}) if extra else self


def base_env(home: str = "/tmp") -> dict[str, str]:
    """The same small environment for every run: nothing inherited, nothing secret."""
    return {"PATH": SCRUBBED_PATH, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC", "HOME": home,
            "TMPDIR": home, "PYTHONDONTWRITEBYTECODE": "1"}


# What every sandbox sees of the system, read-only. /etc is not bound whole (it holds host secrets and
# configuration): only what the dynamic loader and the compilers' `cc` (an /etc/alternatives link) need.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
SYSTEM_ETC = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives")


def _system_mounts() -> list[str]:
    args: list[str] = []
    for path in SYSTEM_DIRS:
        if os.path.islink(path):  # merged /usr: /bin -> usr/bin
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    args += ["--perms", "0755", "--dir", "/etc"]
    for path in SYSTEM_ETC:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    return args


def _parents(dest: str, made: set[str]) -> list[str]:
    """bwrap makes missing parents of a mount point 0700, which the unprivileged sandbox user could not enter."""
    args = []
    parts = Path(dest).parent.parts
    for i in range(2, len(parts) + 1):
        parent = str(Path(*parts[:i]))
        if parent not in made and parent not in ("/tmp",) and not parent.startswith(("/usr", "/proc", "/dev")):
            made.add(parent)
            args += ["--perms", "0755", "--dir", parent]
    return args


def argv(spec: Spec, *, userns_fd: int | None, info_fd: int | None = None) -> list[str]:
    """The bwrap command line for `spec`. With `userns_fd` (the tool runs as root) the sandbox joins that prepared
    user namespace and the command drops to SANDBOX_UID; without it bwrap makes the user namespace itself. With
    `info_fd`, bwrap writes there the PID of the sandbox's first process (JSON, "child-pid")."""
    limits = spec.limits
    if userns_fd is None:
        # --unshare-all: user (if it can), pid, net, ipc, uts, cgroup; --unshare-user makes the user one certain.
        namespaces = ["--unshare-all", "--unshare-user", "--disable-userns"]
    else:
        namespaces = ["--userns", str(userns_fd), "--unshare-pid", "--unshare-net", "--unshare-ipc",
                      "--unshare-uts", "--unshare-cgroup-try"]
    args = [BWRAP, *namespaces, "--die-with-parent", "--new-session", "--clearenv"]
    if info_fd is not None:
        args += ["--info-fd", str(info_fd)]
    for key, value in sorted(spec.env.items()):
        args += ["--setenv", key, value]
    args += _system_mounts()
    args += ["--proc", "/proc", "--dev", "/dev",
             "--perms", "01777", "--size", str(TMP_SIZE_BYTES), "--tmpfs", "/tmp"]
    made: set[str] = set()
    for host, inside in spec.read_only:
        args += _parents(inside, made) + ["--ro-bind", host, inside]
    for host, inside in spec.writable:
        args += _parents(inside, made) + ["--bind", host, inside]
    args += ["--chdir", spec.chdir]
    # Limits and the drop to an unprivileged user happen inside, between bwrap and the command; both programs are
    # util-linux, part of every Debian system, and run before any code of the example.
    args += ["prlimit", f"--cpu={limits.cpu_seconds}", f"--as={limits.address_space}",
             f"--fsize={limits.file_size}", "--core=0", f"--nproc={limits.processes}", "--"]
    if userns_fd is not None:
        args += ["setpriv", f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups",
                 "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    return args + list(spec.argv)


class _UserNamespace:
    """A user namespace made for one sandbox (root only): 0 -> root, SANDBOX_UID -> nobody, no nested user
    namespaces. The file descriptor keeps it alive; the helper process that made it exits at once."""

    def __init__(self):
        helper = subprocess.Popen(["unshare", "--user", "cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, env=base_env())
        try:
            mine = os.readlink("/proc/self/ns/user")
            deadline = time.monotonic() + 5
            while os.readlink(f"/proc/{helper.pid}/ns/user") == mine:
                if helper.poll() is not None or time.monotonic() > deadline:
                    helper.kill()
                    helper.wait()
                    why = helper.stderr.read().decode(errors="replace").strip() or "no answer within 5 s"
                    raise SandboxError(f"could not create a user namespace with `unshare --user`: {why}\n"
                                       f"{INSTALL_HINT}")
                time.sleep(0.0002)
            mapping = f"0 0 1\n{SANDBOX_UID} {NOBODY} 1\n"
            for name in ("uid_map", "gid_map"):
                with open(f"/proc/{helper.pid}/{name}", "w") as handle:
                    handle.write(mapping)
            # What --disable-userns does when bwrap makes the namespace: nothing inside may make another user
            # namespace (in which it would hold every capability again).
            closed = subprocess.run(["nsenter", f"--user=/proc/{helper.pid}/ns/user", "sh", "-c",
                                     "echo 0 > /proc/sys/user/max_user_namespaces"], capture_output=True,
                                    env=base_env())
            if closed.returncode != 0:
                raise SandboxError(f"could not forbid nested user namespaces: "
                                   f"{closed.stderr.decode(errors='replace').strip()}\n{INSTALL_HINT}")
            self.fd = os.open(f"/proc/{helper.pid}/ns/user", os.O_RDONLY)
        except OSError as exc:
            raise SandboxError(f"could not prepare a user namespace: {exc}\n{INSTALL_HINT}") from None
        finally:
            helper.stdin.close()
            helper.wait()
            helper.stderr.close()

    def close(self) -> None:
        os.close(self.fd)


class Sandbox:
    """How this run isolates what it builds and runs. `enabled=False` is --unsandboxed."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.as_root = os.geteuid() == 0
        self._checked = False

    def check(self) -> None:
        """Fail closed: prove once per run that a sandbox can be made, or say why not and how to fix it."""
        if not self.enabled or self._checked:
            return
        if shutil.which(BWRAP) is None:
            raise SandboxError(f"bubblewrap (`bwrap`) is not installed; every build and server runs inside it.\n"
                               f"{INSTALL_HINT}")
        for tool in ("prlimit", "setpriv", "unshare", "nsenter"):
            if shutil.which(tool) is None:
                raise SandboxError(f"`{tool}` (util-linux) is missing; the sandbox needs it. "
                                   f"Install it: `sudo apt-get install util-linux`.")
        proc = self.run(Spec(["true"], env=base_env()), timeout=30)
        if proc.returncode != 0:
            raise SandboxError(f"bubblewrap cannot create a sandbox here (exit {proc.returncode}): "
                               f"{proc.stderr.decode(errors='replace').strip()}\n{INSTALL_HINT}")
        self._checked = True

    def popen(self, spec: Spec, *, host_cwd: str | None = None, extra_fds: tuple[int, ...] = (),
              info_fd: int | None = None, **kwargs) -> subprocess.Popen:
        """Start `spec`; outside the sandbox (--unsandboxed) the old way: scrubbed env, own process group, rlimits
        set from here right after the start. `info_fd`: see argv."""
        if not self.enabled:
            proc = subprocess.Popen(spec.argv, env=dict(spec.env), cwd=host_cwd, process_group=0, **kwargs)
            proc.sandboxed = False
            _limit_from_outside(proc.pid, spec.limits)
            return proc
        userns = _UserNamespace() if self.as_root else None
        try:
            fds = ((userns.fd,) if userns else ()) + extra_fds + ((info_fd,) if info_fd is not None else ())
            # bwrap itself gets the scrubbed environment too: its PID 1 keeps it, and /proc/1/environ is that.
            proc = subprocess.Popen(argv(spec, userns_fd=userns.fd if userns else None, info_fd=info_fd),
                                    env=base_env(), pass_fds=fds, **kwargs)
            proc.sandboxed = True
            return proc
        finally:
            if userns:
                userns.close()

    def popen_pipes(self, spec: Spec, *, host_cwd: str | None = None) -> subprocess.Popen:
        """Start `spec` with pipes on its stdin, stdout and stderr, as Popen(stdin=PIPE, ...) would.

        Sandboxed, stdin and stdout do not reach the command as bwrap's own fds 0 and 1: bwrap's waiting processes
        keep their fds 0-2 open, so a server that closes its stdout would never be seen to (no EOF until bwrap
        exits), nor one that closes its stdin. They travel as two extra fds, which bwrap closes in its own
        processes, and a two-line bash wrapper makes them the command's fds 0 and 1."""
        if not self.enabled:
            return self.popen(spec, host_cwd=host_cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        # `env -u`: bash exports SHLVL (and bwrap PWD); the server's environment stays exactly base_env().
        script = 'exec 0<&"$1" 1>&"$2" && eval "exec $1<&- $2>&-" && shift 2 && exec env -u SHLVL -u PWD "$@"'
        wrapper = ["bash", "-c", script, "stdio", str(stdin_r), str(stdout_w)]
        try:
            proc = self.popen(Spec(wrapper + list(spec.argv), spec.read_only, spec.writable, spec.env, spec.chdir,
                                   spec.limits),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              extra_fds=(stdin_r, stdout_w))
        except BaseException:
            os.close(stdin_w)
            os.close(stdout_r)
            raise
        finally:
            os.close(stdin_r)
            os.close(stdout_w)
        proc.stdin = open(stdin_w, "wb", buffering=0)
        proc.stdout = open(stdout_r, "rb", buffering=0)
        return proc

    def run(self, spec: Spec, *, timeout: float) -> subprocess.CompletedProcess:
        """Run to completion with captured output; past `timeout` the whole sandbox is killed."""
        proc = self.popen(spec, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            kill(proc)
            out, err = proc.communicate()
            return subprocess.CompletedProcess(proc.args, None, out, err)
        return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)

    def exec(self, spec: Spec) -> None:
        """Replace this process with the sandboxed command (serve): stdin and stdout pass straight through."""
        if not self.enabled:
            os.execve(spec.argv[0], spec.argv, dict(spec.env))
        userns = _UserNamespace() if self.as_root else None
        if userns:
            os.set_inheritable(userns.fd, True)
        command = argv(spec, userns_fd=userns.fd if userns else None)
        os.execve(shutil.which(BWRAP), command, base_env())


def _limit_from_outside(pid: int, limits: Limits) -> None:
    """--unsandboxed only: prlimit from the parent, not preexec_fn in the child (preexec_fn is documented as unsafe
    when other threads run, as with -j). Linux only; elsewhere there is nothing to set them with."""
    import resource

    if not hasattr(resource, "prlimit"):
        return
    for limit, value in ((resource.RLIMIT_CPU, limits.cpu_seconds), (resource.RLIMIT_AS, limits.address_space),
                         (resource.RLIMIT_FSIZE, limits.file_size), (resource.RLIMIT_CORE, 0)):
        try:
            resource.prlimit(pid, limit, (value, value))
        except (ProcessLookupError, ValueError):
            return


def kill(proc: subprocess.Popen) -> None:
    """Kill what `popen` started and everything below it. Sandboxed, killing bwrap is enough: its child is PID 1
    of the sandbox's PID namespace and dies with it (--die-with-parent), and when PID 1 dies the kernel kills every
    other process of the namespace, detached or not. Unsandboxed, the process group is the best there is (a
    setsid() grandchild escapes it: one more reason for the sandbox)."""
    try:
        if getattr(proc, "sandboxed", False):
            proc.kill()
        else:
            os.killpg(proc.pid, 9)
    except (ProcessLookupError, PermissionError):
        pass


def warn_unsandboxed() -> None:
    print("run_examples: WARNING: --unsandboxed: examples build and run WITHOUT isolation; a hostile example can "
          "read your files and environment, use the network and rewrite the repository. Use it only on a machine "
          "without bubblewrap, and only on code you trust.", file=sys.stderr)
