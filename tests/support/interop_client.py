"""Drive one example server with the official Python SDK client (`mcp.Client` over stdio) and record the wire.

The client is the judge. It starts the server with the command `run_examples.py serve` uses and negotiates: mode
"auto" probes with server/discover, mode "2026-07-28" sends the first real request straight away. Then it replays
the transcript's requests through its own API (list_tools, call_tool, read_resource, get_prompt, ...), in order,
in one process, so state that spans calls (handles) comes out as in the answer key. Everything the client
complains about is collected as a *fault*, in the client's own words:

* an exception it raises: a result it rejects (pydantic ValidationError), a timeout, a closed connection;
* a stdout line its stdio reader cannot parse. mcp 2.3.0 does not abort on such a line: it hands the parse error
  to the session's message handler and reads on. We collect the exception object from the stream;
* a warning or error it logs, and any response it drops because none of its requests has that id (it logs that
  at debug level: "dropping response for unknown/late request id ...").

The raw messages in both directions are recorded as JSON (deep copies, before the client touches them), so each
reply can be compared with the answer key as a JSON value.

Which transcript lines are replayed (see `plan`): requests the client's API can send, whose `_meta` is what this
client sends (2026-07-28, clientCapabilities {}, the transcript's clientInfo, no other keys), whose arguments the
client writes with the same bytes, and that the example does not declare deliberately bad. tools/call goes only to
tools that tools/list listed: a real client calls nothing else.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import tempfile
import threading
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


import anyio
from runex.wire.protocol import (CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION, PROTOCOL_VERSION_KEY,
                                 id_key)

CLIENT_TIMEOUT = 20.0  # seconds for the whole interaction with one server
META_VERSION, META_CAPS, META_INFO = PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY
CLIENT_META_KEYS = {META_VERSION, META_CAPS, META_INFO}
# The transcript rules that mark a line as deliberately bad; the client never sends such a line.
TRANSCRIPT_RULES_PREFIX = "transcript-"
# Variables `serve` needs to find a Rust toolchain for its cache check, passed on when set.
PASSED_THROUGH = ("RUSTUP_HOME", "CARGO_HOME", "RUSTUP_TOOLCHAIN", "RUSTUP_AUTO_INSTALL", "CARGO_TARGET_DIR")
REPLAYABLE = ("server/discover", "tools/list", "tools/call", "resources/list", "resources/templates/list",
              "resources/read", "prompts/list", "prompts/get")


@dataclass
class Step:
    """One transcript line the client replays: a request through the client's API, or a notification."""

    line: int
    message: dict  # the transcript's message
    raw: bytes  # the transcript line as written
    expected: dict | None = None  # the answer key's reply: {"result": ...} or {"error": ...}
    sent: dict | None = None  # what the client wrote for it
    got: dict | None = None  # the raw reply the client received: {"result": ...} or {"error": ...}
    raised: str | None = None  # a JSON-RPC error the client raised for it (expected when the reply is an error)

    @property
    def method(self) -> str:
        return self.message["method"]

    @property
    def params(self) -> dict:
        params = self.message.get("params")
        return params if isinstance(params, dict) else {}

    @property
    def label(self) -> str:
        name = self.params.get("name") or self.params.get("uri")
        return f"transcript line {self.line} ({self.method}{' ' + name if isinstance(name, str) else ''})"


@dataclass
class Session:
    mode: str
    protocol_version: str | None = None
    probe: dict | None = None  # mode "auto": the raw reply to the client's own server/discover probe
    steps: list[Step] = field(default_factory=list)  # replayed, in order
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (transcript line, why not replayed)
    sent: list[dict] = field(default_factory=list)  # every message the client wrote
    received: list[dict] = field(default_factory=list)  # every message the server wrote (as the client read it)
    faults: list[str] = field(default_factory=list)  # the client's complaints, in its own words
    stderr: str = ""


# ---- the plan: which lines, and what the answer key says to each ---------------------------------------------


def read_jsonl(path: Path) -> list[tuple[int, bytes, Any]]:
    out = []
    data = path.read_bytes() if path.exists() else b""
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if not raw.strip():
            continue
        try:
            out.append((number, raw, json.loads(raw.decode("utf-8"))))
        except (UnicodeDecodeError, ValueError):
            out.append((number, raw, None))
    return out


def _key(value: Any) -> tuple[str, Any]:
    return id_key(value)


def _meta_of(message: dict) -> dict | None:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict):
        meta = message.get("_meta")  # misplaced beside params: still a request the author meant the client to send
    return meta if isinstance(meta, dict) else None


def _client_writes(value: Any) -> str:
    """The bytes mcp.Client writes for a JSON value (pydantic's serializer: compact, UTF-8 unescaped)."""
    import pydantic_core

    return pydantic_core.to_json(value).decode("utf-8")


def plan(example: dict, root: Path) -> tuple[dict | None, list[Step], list[tuple[int, str]]]:
    """(the clientInfo to use, the steps to replay, the lines skipped with the reason)."""
    declared = {v["line"] for v in example["expected_violations"] if v["rule"].startswith(TRANSCRIPT_RULES_PREFIX)}
    replies = {}
    for _, _, message in read_jsonl(root / example["answer_key"]):
        if isinstance(message, dict) and message.get("id") is not None:
            replies.setdefault(_key(message["id"]), {k: message[k] for k in ("result", "error") if k in message})
    lines = read_jsonl(root / example["transcript"])
    client_info = None
    for number, _, message in lines:
        meta = _meta_of(message) if isinstance(message, dict) else None
        if number not in declared and meta and isinstance(meta.get(META_INFO), dict):
            client_info = meta[META_INFO]
            break

    steps, skipped = [], []
    for number, raw, message in lines:
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            continue
        if number in declared:
            skipped.append((number, "declared deliberately bad in example.toml"))
            continue
        step = Step(number, message, raw)
        if "id" not in message:
            steps.append(step)  # a notification: the client sends it as it is
            continue
        meta = _meta_of(message) or {}
        why = None
        if step.method not in REPLAYABLE:
            why = f"{step.method} is not a request mcp.Client's API sends"
        elif meta.get(META_VERSION) != PROTOCOL_VERSION:
            why = f"asks for protocol version {meta.get(META_VERSION)!r}"
        elif meta.get(META_CAPS) != {}:
            why = f"declares clientCapabilities {json.dumps(meta.get(META_CAPS))}; mcp.Client declares {{}}"
        elif meta.get(META_INFO) != client_info:
            why = f"names another client ({json.dumps(meta.get(META_INFO))})"
        elif set(meta) - CLIENT_META_KEYS:
            why = f"carries _meta keys this client does not send: {sorted(set(meta) - CLIENT_META_KEYS)}"
        elif step.method in ("tools/call", "prompts/get") and not isinstance(step.params.get("name"), str):
            why = "names no tool or prompt"
        elif step.method == "resources/read" and not isinstance(step.params.get("uri"), str):
            why = "names no uri"
        elif "arguments" in step.params and f'"arguments":{_client_writes(step.params["arguments"])}' \
                not in raw.decode("utf-8", "replace"):
            # The answer key holds the reply to the transcript's bytes (escapes, spacing); the client writes
            # its own, so a server that reads bytes differently may rightly answer differently.
            why = "writes its arguments with other bytes than mcp.Client does (escapes or spacing)"
        if why:
            skipped.append((number, why))
            continue
        step.expected = replies.get(_key(message["id"]))
        steps.append(step)
    return client_info, steps, skipped


# ---- the wire recorder ------------------------------------------------------------------------------------------


class _ClientLog(logging.Handler):
    """Collects what the mcp client logs about this server: warnings and errors, and dropped responses."""

    def __init__(self, faults: list[str]):
        super().__init__(logging.DEBUG)
        self.faults = faults

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text.startswith("Failed to parse JSONRPC message"):
            return  # the same parse error reaches us on the stream, as the exception object itself
        if record.levelno >= logging.WARNING or "dropping response" in text:
            if record.exc_info and record.exc_info[1] is not None:
                text += f": {record.exc_info[1]}"
            self.faults.append(f"mcp client logged ({record.name}, {record.levelname}): {text}")


def _dump(message) -> dict:
    data = message.model_dump(by_alias=True, exclude_unset=True, mode="json")
    if isinstance(getattr(message, "result", None), dict):
        data["result"] = copy.deepcopy(message.result)  # the raw dict, before the client coerces anything
    return data


@asynccontextmanager
async def recording_stdio(params, session: Session, errlog):
    """stdio_client(params), with every message in both directions copied into `session` as it passes."""
    from mcp.client.stdio import stdio_client

    async with stdio_client(params, errlog=errlog) as (read, write):
        async with _recording(read, write, session) as streams:
            yield streams


@asynccontextmanager
async def recording_http(url: str, session: Session, headers: dict[str, str] | None = None):
    """streamable_http_client(url), recorded like recording_stdio; `headers` (example.toml's http_headers, such as
    a test token) go on every request, as a configured client sends them."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers=headers) as http_client, \
            streamable_http_client(url, http_client=http_client, terminate_on_close=False) as (read, write):
        async with _recording(read, write, session) as streams:
            yield streams


@asynccontextmanager
async def _recording(read, write, session: Session):
    to_session_send, to_session_recv = anyio.create_memory_object_stream(0)
    from_session_send, from_session_recv = anyio.create_memory_object_stream(0)

    async def inbound():
        async with to_session_send:
            async for item in read:
                if isinstance(item, Exception):
                    session.faults.append(f"mcp client could not read a stdout line: {describe(item)}")
                else:
                    message = _dump(item.message)
                    session.received.append(message)
                    if "method" in message and "id" in message:
                        session.faults.append(f"the server sent a request ({message['method']}); "
                                              f"in 2026-07-28 servers never do")
                await to_session_send.send(item)

    async def outbound():
        async with from_session_recv:
            async for item in from_session_recv:
                session.sent.append(_dump(item.message))
                await write.send(item)

    async with anyio.create_task_group() as group:
        group.start_soon(inbound)
        group.start_soon(outbound)
        try:
            yield to_session_recv, from_session_send
        finally:
            group.cancel_scope.cancel()


def _reply_to(session: Session, sent: dict | None) -> dict | None:
    if sent is None:
        return None
    for message in session.received:
        if "method" not in message and _key(message.get("id")) == _key(sent.get("id")):
            return {k: message[k] for k in ("result", "error") if k in message}
    return None


# ---- the interaction -------------------------------------------------------------------------------------------


async def _perform(client, step: Step):
    """The client API call for this transcript line; returns what the API returns."""
    p = step.params
    cursor = p.get("cursor")
    if step.method == "server/discover":
        return await client.session.send_discover(PROTOCOL_VERSION)
    if step.method == "tools/list":
        return await client.list_tools(cursor=cursor, cache_mode="bypass")
    if step.method == "tools/call":
        return await client.call_tool(p["name"], p.get("arguments"))
    if step.method == "resources/list":
        return await client.list_resources(cursor=cursor, cache_mode="bypass")
    if step.method == "resources/templates/list":
        return await client.list_resource_templates(cursor=cursor, cache_mode="bypass")
    if step.method == "resources/read":
        return await client.read_resource(p["uri"], cache_mode="bypass")
    if step.method == "prompts/list":
        return await client.list_prompts(cursor=cursor, cache_mode="bypass")
    if step.method == "prompts/get":
        return await client.get_prompt(p["name"], p.get("arguments"))
    else:  # pragma: no cover - plan() keeps to REPLAYABLE
        raise AssertionError(step.method)


async def _drive(serve_command: list[str], example: dict, root: Path, mode: str, session: Session,
                 http_url: str | None = None, http_headers: dict[str, str] | None = None) -> None:
    import mcp
    from mcp import Client, StdioServerParameters
    from mcp.shared.exceptions import MCPError

    client_info, steps, skipped = plan(example, root)
    session.skipped = skipped
    with tempfile.TemporaryDirectory(prefix="interop-") as home, \
            tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        # What an editor gives a server: the stdio client's own few variables (HOME, PATH, USER, ...), what
        # `serve` needs to find a Rust toolchain, and a fixed locale and time zone.
        env = {key: os.environ[key] for key in PASSED_THROUGH if key in os.environ}
        env.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC", "TMPDIR": home,
                    "PYTHONDONTWRITEBYTECODE": "1"})
        info = mcp.Implementation(**client_info) if client_info else None
        if http_url:
            transport = recording_http(http_url, session, http_headers)
        else:
            params = StdioServerParameters(command=serve_command[0], args=serve_command[1:], env=env, cwd=home)
            transport = recording_stdio(params, session, errlog)
        client = Client(transport, mode=mode, client_info=info,
                        read_timeout_seconds=min(CLIENT_TIMEOUT, 2 * float(example.get("timeout") or 5.0)))
        listed: set[str] | None = None  # the tool names of the last tools/list
        try:
            async with client:
                session.protocol_version = client.protocol_version
                if mode == "auto":
                    probe = next((m for m in session.sent if m.get("method") == "server/discover"), None)
                    session.probe = _reply_to(session, probe)
                pending_notification = False
                for step in steps:
                    if "id" not in step.message:
                        await client.session.send_notification(notification_model(step.message))
                        session.steps.append(step)
                        pending_notification = True
                        continue
                    if step.method == "tools/call":
                        if listed is None:  # a real client lists the tools before it calls one
                            listed = {tool.name for tool in (await client.list_tools()).tools}
                        if step.params["name"] not in listed:
                            session.skipped.append((step.line, f"tool {step.params['name']!r} is not in "
                                                               f"tools/list; a real client calls only listed tools"))
                            continue
                    before = len(session.sent)
                    try:
                        answer = await _perform(client, step)
                        if step.method == "tools/list":
                            listed = {tool.name for tool in answer.tools}
                    except MCPError as exc:
                        step.raised = f"MCPError {exc.error.code}: {exc.error.message}"
                    step.sent = next((m for m in session.sent[before:] if m.get("method") == step.method), None)
                    step.got = _reply_to(session, step.sent)
                    session.steps.append(step)
                    pending_notification = False
                if pending_notification:
                    # One more request, so anything the server wrongly writes back to a notification reaches the
                    # client before we stop. server/discover is one every server must answer.
                    await client.session.send_discover(PROTOCOL_VERSION)
        finally:
            errlog.seek(0)
            session.stderr = errlog.read()[-4000:]


def notification_model(note: dict):
    """The SDK's typed notification for a transcript line (ClientNotification is a union: validate through it)."""
    from pydantic import TypeAdapter

    import mcp

    body = {k: note[k] for k in ("method", "params") if k in note}
    return TypeAdapter(mcp.types.ClientNotification).validate_python(body, by_name=False)


def drive(serve_command: list[str], example: dict, root: Path, mode: str, http_url: str | None = None,
          http_headers: dict[str, str] | None = None) -> Session:
    """Run the whole interaction (time-boxed); every complaint of the client ends up in session.faults. With
    `http_url` the client talks Streamable HTTP to a server already serving there (serve_command unused)."""
    session = Session(mode)
    handler = _ClientLog(session.faults)
    logger = logging.getLogger("mcp")
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False  # the client's debug chatter stays out of pytest's log report

    async def main():
        with anyio.fail_after(CLIENT_TIMEOUT):
            await _drive(serve_command, example, root, mode, session, http_url, http_headers)

    # A thread of its own: an event loop left running in this thread (playwright's sync API keeps one) must not
    # stop the client from starting its own.
    errors: list[BaseException] = []

    def in_thread():
        try:
            anyio.run(main)
        except Exception as exc:  # noqa: BLE001 - the client's own error is the verdict
            errors.append(exc)

    try:
        worker = threading.Thread(target=in_thread, name="mcp-client")
        worker.start()
        worker.join()
        for exc in errors:
            session.faults.append(f"mcp client raised {describe(exc)}")
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]
    return session


def describe(exc: BaseException) -> str:
    """The client's exception in one paragraph, unwrapped from task-group exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        return "; ".join(describe(e) for e in exc.exceptions)
    if isinstance(exc, TimeoutError):
        return f"TimeoutError: no answer within {CLIENT_TIMEOUT:.0f} s"
    text = "\n".join(line for line in str(exc).splitlines() if "errors.pydantic.dev" not in line)
    return f"{type(exc).__name__}: {text}"


def must_fail(example: dict, root: Path, steps: list[Step] | None = None) -> list[dict]:
    """The declared violations a real client is bound to notice: the server breaks the wire while it still talks.

    A stdout-* violation on a line before the last reply in the answer key happens in the middle of the
    conversation, so the client reads it. One after the last reply (output at exit) happens after the client has
    closed stdin and stopped reading, so no client can be expected to see it; the tool's own check catches it.
    A missing reply (stdout-missing-reply, numbered by transcript line) counts when the client replays that line.
    """
    answer = read_jsonl(root / example["answer_key"])
    replies = [n for n, _, m in answer if isinstance(m, dict) and ("result" in m or "error" in m)]
    last_reply = max(replies, default=0)
    replayed = {s.line for s in (steps if steps is not None else plan(example, root)[1])}
    out = []
    for violation in example["expected_violations"]:
        rule, line = violation["rule"], violation["line"]
        if rule == "stdout-missing-reply":
            if line in replayed:
                out.append(violation)
        elif rule.startswith("stdout-") and line < last_reply:
            out.append(violation)
    return out


# What the client's complaint looks like for each wire rule (None: any complaint will do).
CLIENT_SIGNATURE = {
    "stdout-not-a-message": "could not read a stdout line",
    "stdout-not-jsonrpc": "could not read a stdout line",
    "stdout-reply-without-request": "dropping response for unknown/late request id",
    "stdout-duplicate-reply": "dropping response for unknown/late request id",
    "stdout-server-request": "the server sent a request",
}


# ---- the verdict ------------------------------------------------------------------------------------------------


def verdict(session: Session, example: dict, root: Path) -> list[str]:
    """Everything wrong with this interaction: the client's faults, then each reply against the answer key."""
    problems = list(session.faults)
    if session.protocol_version not in (None, PROTOCOL_VERSION):
        problems.append(f"mcp.Client fell back to protocol {session.protocol_version} (the legacy handshake) "
                        f"instead of {PROTOCOL_VERSION}: it did not accept the server/discover result "
                        f"{_show(session.probe)}")
    if session.probe is not None:
        first = next((s for s in session.steps if s.method == "server/discover" and "id" in s.message), None)
        if first is not None and first.expected is not None and session.probe != first.expected:
            problems.append(f"the reply to mcp.Client's server/discover probe differs from the answer key's "
                            f"reply to {first.label}: got {_show(session.probe)}, want {_show(first.expected)}")
    for step in session.steps:
        if "id" not in step.message:
            continue
        if step.expected is None:
            problems.append(f"{step.label}: the answer key has no reply to it")
        elif step.got != step.expected:
            problems.append(f"{step.label}: mcp.Client received {_show(step.got)}, the answer key has "
                            f"{_show(step.expected)}")
        elif step.raised is not None and "error" not in step.expected:
            problems.append(f"{step.label}: mcp.Client raised {step.raised}")
        problems += shape_problems(step)
    return problems


def shape_problems(step: Step) -> list[str]:
    """The transcript line must be shaped like the request the real client wrote for the same call."""
    if step.sent is None:
        return []
    want, have = step.sent, step.message
    problems = []
    extra, missing = sorted(set(have) - set(want)), sorted(set(want) - set(have))
    if "_meta" in extra:
        problems.append(f"{step.label}: _meta sits beside params; mcp.Client puts it inside them, as params._meta")
        extra.remove("_meta")
    if extra:
        problems.append(f"{step.label}: members mcp.Client never writes: {', '.join(extra)}")
    if missing:
        problems.append(f"{step.label}: lacks {', '.join(missing)}, which mcp.Client writes")
    have_params = have.get("params") if isinstance(have.get("params"), dict) else {}
    want_params = want.get("params") if isinstance(want.get("params"), dict) else {}
    if "_meta" in want_params and "_meta" not in have_params:
        problems.append(f"{step.label}: params._meta is missing; mcp.Client sends "
                        f"{_show(want_params['_meta'])}")
    return problems


def _show(value: Any, limit: int = 600) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit - 3] + "..."
