"""The gate trusts nothing it ran, and fails closed: no sandbox, no run (unless a contributor says --unsandboxed)."""

from __future__ import annotations

import json
import shutil
import stat
from pathlib import Path

import pytest

from runex import sandboxing

from support.tool_repos import (ROOT, invoke, jsonl, make_repo, req, run_tool, server, skip_or_fail, snapshot)

KEY = "examples/srv/answer_key.jsonl"


def rewriting_server(target: str) -> str:
    """A server that, run without the sandbox, rewrites one input of the run while it runs."""
    return server(f'''
from pathlib import Path
victim = Path(__file__).resolve().parent.parent.parent / "{target}"
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        if victim.exists() and msg["id"] == 2:
            victim.write_text(victim.read_text() + "tampered\\n")
        answer(msg)
''')


@pytest.mark.parametrize("target", ["examples/srv/answer_key.jsonl", "docs/index.md", "examples/srv/transcript.jsonl"])
def test_an_input_changed_during_the_run_is_its_own_failure(tmp_path, target):
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    (root / "docs/index.md").write_text("# Home\n")
    assert invoke(root).returncode == 0
    (root / "examples/srv/server.py").write_text(rewriting_server(target))
    assert invoke(root).returncode == 0  # the sandbox: the server cannot reach `target`, the run is clean
    before = (root / target).read_bytes()
    proc = invoke(root, "--check", "--unsandboxed", env={"CI": ""})
    assert (root / target).read_bytes() != before, "without the sandbox the server did rewrite it"
    assert proc.returncode == 3, proc.out
    assert f"changed during the run: {target}" in proc.out
    assert "nothing was written" in proc.out


def test_a_regenerate_whose_inputs_changed_writes_nothing(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    (root / "docs/index.md").write_text("# Home\n")
    assert invoke(root).returncode == 0
    (root / "examples/srv/server.py").write_text(rewriting_server("docs/index.md"))
    (root / "examples/srv/transcript.jsonl").write_text(jsonl(req(1), req(2), req(3)))
    key_before = (root / KEY).read_bytes()
    page_before = (root / "docs/examples.md").read_bytes()
    proc = invoke(root, "--unsandboxed", env={"CI": ""})
    assert proc.returncode == 3, proc.out
    assert "changed during the run: docs/index.md" in proc.out
    assert (root / KEY).read_bytes() == key_before
    assert (root / "docs/examples.md").read_bytes() == page_before


def test_unsandboxed_is_refused_in_ci(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    before = snapshot(root)
    proc = invoke(root, "--check", "--unsandboxed", env={"CI": "true"})
    assert proc.returncode == 2, proc.out
    assert "--unsandboxed is refused when CI=true" in proc.out
    assert snapshot(root) == before


def test_unsandboxed_warns_on_every_run(tmp_path):
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    for args in ([], ["--check"], ["serve", "srv"]):
        if args[:1] == ["serve"]:
            proc = run_tool(*args, "--unsandboxed", root=root, env={"CI": ""}, input=b"")
            out = proc.stderr.decode()
        else:
            out = invoke(root, *args, "--unsandboxed", env={"CI": ""}).out
        assert "WARNING: --unsandboxed" in out, (args, out)


def test_without_bwrap_the_tool_says_how_to_install_it_and_runs_nothing(tmp_path, monkeypatch):
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    monkeypatch.setattr(sandboxing, "BWRAP", "bwrap-is-not-installed-here")
    before = snapshot(root)
    proc = invoke(root)
    assert proc.returncode == 6, proc.out
    assert "bubblewrap (`bwrap`) is not installed" in proc.out
    assert "sudo apt-get install bubblewrap" in proc.out
    assert "kernel.apparmor_restrict_unprivileged_userns=0" in proc.out
    assert snapshot(root) == before


def test_a_bwrap_that_cannot_make_namespaces_fails_closed(tmp_path, monkeypatch):
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    root = make_repo(tmp_path, {"srv": {"server.py": server()}})
    monkeypatch.setattr(sandboxing, "BWRAP", str(fake))
    proc = invoke(root, "--check")
    assert proc.returncode == 6, proc.out
    assert "bubblewrap cannot create a sandbox here" in proc.out
    assert "setting up uid map: Permission denied" in proc.out
    assert "apparmor_restrict_unprivileged_userns" in proc.out


def test_serve_runs_the_server_in_the_same_sandbox(tmp_path):
    if shutil.which("bwrap") is None:
        skip_or_fail("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")
    body = '''
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        answer(msg, seen={"file": __file__, "pids": len([p for p in os.listdir("/proc") if p.isdigit()]),
                          "secret": "hunter2" in open("/proc/1/environ", "rb").read().decode(errors="replace")
                          if os.access("/proc/1/environ", os.R_OK) else False})
'''
    root = make_repo(tmp_path, {"srv": {"server.py": server(body)}})
    proc = run_tool("serve", "srv", root=root, env={"RUNEX_TEST_SECRET": "hunter2"},
                    input=(req(1) + "\n").encode())
    assert proc.returncode == 0, proc.stderr
    reply = json.loads(proc.stdout.decode())
    assert reply["id"] == 1
    assert reply["result"]["seen"] == {"file": "/example/server.py", "pids": reply["result"]["seen"]["pids"],
                                       "secret": False}
    assert reply["result"]["seen"]["pids"] <= 4


def test_the_cache_is_never_mounted_into_a_sandbox():
    """The cache's hashes vouch for its entries because no sandbox can write them: a server gets its one binary,
    bound read-only, and a build gets only its own fresh output folder (and, for cargo, its own target folder)."""
    from runex.builds import native

    launch = native.binary_launch(Path("/repo/.cache/run_examples/builds/KEY/server"), False, 0.0)
    spec = launch.spec(True, "/tmp")
    args = sandboxing.argv(spec, userns_fd=None)
    assert ["--ro-bind", "/repo/.cache/run_examples/builds/KEY/server", "/example/server"] == \
        args[args.index("/repo/.cache/run_examples/builds/KEY/server") - 1:][:3]
    assert not [a for a in args if a.startswith("/repo") and a != "/repo/.cache/run_examples/builds/KEY/server"]
    assert "--bind" not in args, "nothing writable but the sandbox's own tmpfs"


def test_every_run_gets_its_own_namespaces_and_dies_with_the_tool():
    args = sandboxing.argv(sandboxing.Spec(["/example/server"]), userns_fd=None)
    for flag in ("--unshare-all", "--die-with-parent", "--new-session", "--clearenv"):
        assert flag in args
    assert args[args.index("--tmpfs") - 1] == str(sandboxing.TMP_SIZE_BYTES)
    as_root = sandboxing.argv(sandboxing.Spec(["/example/server"]), userns_fd=7)
    for flag in ("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--userns"):
        assert flag in as_root
    assert f"--reuid={sandboxing.SANDBOX_UID}" in as_root and "--bounding-set=-all" in as_root
    assert f"--nproc={sandboxing.SERVER_LIMITS.processes}" in as_root


def test_publishing_builds_the_site_from_the_verified_tree_only():
    workflow = (ROOT / ".github/workflows/pages.yml").read_text()
    steps = workflow.split("- name:")
    checked = next(i for i, s in enumerate(steps) if "run_examples.py --check" in s or "make site" in s)
    built = next(i for i, s in enumerate(steps) if "mkdocs build" in s or "make site" in s)
    assert checked <= built
    assert "git status --porcelain" in workflow, "the tree is proven unchanged before it is published"
    assert "bubblewrap" in workflow


def test_the_workflows_install_bubblewrap():
    for name in ("ci.yml", "pages.yml", "examples-sharded.yml"):
        text = (ROOT / ".github/workflows" / name).read_text()
        assert "bubblewrap" in text or ".ci/run" in text, name
    assert "bubblewrap" in (ROOT / ".ci/run").read_text()

