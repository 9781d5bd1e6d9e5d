"""Strict validation of every message against the official 2026-07-28 schema (wire.MessageValidator).

The schema comes from the official Python SDK's `mcp-types` package (pinned with `mcp` 2.3.0): its public
`mcp_types.methods.validate_client_request` and `validate_server_result`, whose models are generated from
`schema/2026-07-28/schema.json`. This module adds only what those functions leave open, and says so where it does:

* Results of `tools/call`, `resources/read` and `prompts/get` are a union (final result | InputRequiredResult).
  The InputRequiredResult arm needs nothing but a string `resultType`, so the plain union accepts any object with
  a `resultType`, even `{"resultType":"complete","content":"oops"}`. We pick the arm by `resultType` (as clients
  do) and pass it to `validate_server_result` through its `surface` argument.
* `resultType` itself is a plain string in the schema; a client must treat values it does not know as invalid, so
  anything but "complete" and "input_required" (the latter only on the three methods above) is a finding.
* The SDK validates in pydantic's lax mode, which turns "300000" into 300000 and 1 into true. After the official
  check passes we validate the same model again in strict mode, so a string where the schema says integer is caught.
* `_meta["io.modelcontextprotocol/serverInfo"]` is typed `Any`; we check it is an Implementation (name, version).
* JSON-RPC errors have no validator in mcp_types: we check the shape (integer code, string message, optional data)
  and the codes the spec allows (see `check_error`).

Methods the schema does not define for 2026-07-28 (`initialize`, `ping`, a typo): a request for one is a
`transcript-schema` finding, so an example that sends one on purpose declares it in example.toml (and is then
exempt from exactly that finding). A *result* for one is a `stdout-schema` finding: the schema defines none, and a
server answers a method it does not know with error -32601. An error reply to it is checked like any error.

In the transcript the `transcript-*` rules (transcript.py) already own "no params", "no params._meta" and "a
required _meta key is missing"; `check_request` leaves those to them, so one fault is one finding and the rule an
example declares exempts it fully. `check_message` (for pages, where those rules do not run) reports everything.

mcp_types is imported once, when `load_validator()` first runs (about 0.4 s), and never by `--list` or `serve`.
"""

from __future__ import annotations

import threading
from types import UnionType
from typing import Any, get_args

from ..errors import EXIT_USAGE, ToolError
from ..wire.protocol import PROTOCOL_VERSION, valid_id
from .findings import all_models, check_server_info, finding, is_int, prune_errors, show, structural

PINNED_MCP_TYPES = "2.3.0"
RESULT_TYPES = ("complete", "input_required")

# Error codes: -32020..-32099 is reserved for the MCP spec, which defines only these three in it.
RESERVED_RANGE = range(-32099, -32019)
DEFINED_IN_RESERVED = {-32020: "HeaderMismatch", -32021: "MissingRequiredClientCapability",
                       -32022: "UnsupportedProtocolVersion"}
RETIRED_CODES = {-32002: "resource not found before 2026-07-28; use -32602",
                 -32042: "URL elicitation required in 2025-11-25; retired"}


class SchemaUnavailable(ToolError):
    """The official schema package cannot be imported, or it is not the pinned version."""

    exit_code = EXIT_USAGE


_lock = threading.Lock()
_validator: SchemaValidator | None = None


def load_validator() -> SchemaValidator:
    """The one validator of this process (built on first use; mcp_types is imported here and only here)."""
    global _validator
    with _lock:
        if _validator is None:
            _validator = SchemaValidator(_import_methods())
        return _validator


def _import_methods():
    setup = ("run the README's setup (`make setup`: it creates .venv and installs requirements.txt) and run the "
             "tool with .venv/bin/python")
    try:
        from mcp_types import methods
    except ImportError as exc:
        raise SchemaUnavailable(f"the strict 2026-07-28 schema check needs the official SDK's mcp-types "
                                f"{PINNED_MCP_TYPES} (installed with mcp), but `import mcp_types` failed ({exc}); "
                                f"{setup}") from None
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mcp-types")
    except PackageNotFoundError:
        found = "unknown"
    if found != PINNED_MCP_TYPES:
        raise SchemaUnavailable(f"the strict schema check is pinned to mcp-types {PINNED_MCP_TYPES}, but this "
                                f"interpreter has {found}; {setup}")
    return methods


class SchemaValidator:
    """wire.MessageValidator on top of mcp_types.methods; every finding names the field ("ttlMs missing")."""

    def __init__(self, methods) -> None:
        import pydantic

        self.methods = methods
        self._validation_error = pydantic.ValidationError
        self._type_adapter = pydantic.TypeAdapter
        self._adapters: dict[object, Any] = {}
        v = PROTOCOL_VERSION
        self.request_methods = sorted(m for (m, ver) in methods.CLIENT_REQUESTS if ver == v)
        self.legacy_methods = {m for (m, ver) in methods.CLIENT_REQUESTS if ver != v} - set(self.request_methods)
        self.client_notifications = {m for (m, ver) in methods.CLIENT_NOTIFICATIONS if ver == v}
        self.server_notifications = {m for (m, ver) in methods.SERVER_NOTIFICATIONS if ver == v}
        # For each result row: the final arm and, for the union rows, the input_required arm.
        self._final: dict[str, type] = {}
        self._interim: dict[str, type] = {}
        for (method, ver), row in methods.SERVER_RESULTS.items():
            if ver != v:
                continue
            arms = get_args(row) if isinstance(row, UnionType) else (row,)
            for arm in arms:
                if arm.__name__ == "InputRequiredResult":
                    self._interim[method] = arm
                else:
                    self._final[method] = arm
        self._class_names = {arm.__name__ for arm in all_models(methods)}

    # ---- wire.MessageValidator -------------------------------------------------------------------------------

    def check_request(self, method: str, params: object) -> list[str]:
        return self._request(method, params, leave_structural=True)

    def check_result(self, method: str, result: object) -> list[str]:
        methods, v = self.methods, PROTOCOL_VERSION
        if method not in self._final:
            return [f"the {v} schema defines no result for {method!r}; a server answers a method it does not "
                    f"know with error -32601 (Method not found)"]
        if not isinstance(result, dict):
            return [f"result must be a JSON object, got {show(result)}"]
        result_type = result.get("resultType")
        if isinstance(result_type, str) and result_type not in RESULT_TYPES:
            return [f"resultType {show(result_type)} is not a {v} result type (\"complete\" or "
                    f"\"input_required\"); a client must treat it as invalid"]
        interim = result_type == "input_required"
        if interim and method not in self._interim:
            return [f"resultType \"input_required\" is allowed only on "
                    f"{', '.join(sorted(self._interim))}, not on {method}"]
        arm = self._interim[method] if interim else self._final[method]
        findings = self._validate(lambda: methods.validate_server_result(method, v, result,
                                                                         surface={(method, v): arm}),
                                  lambda: self._adapter(arm).validate_python(result, strict=True, by_name=False))
        if interim and not findings and "inputRequests" not in result and "requestState" not in result:
            findings.append("an input_required result needs inputRequests or requestState (at least one)")
        findings += check_server_info(result.get("_meta"))
        return findings

    def check_error(self, error: object) -> list[str]:
        """JSON-RPC error object: integer code, string message, optional data; codes the spec allows.

        Rejected: codes in -32020..-32099 other than -32020, -32021, -32022 (reserved for the spec), and the
        retired -32002 and -32042. -32022 needs data.supported (list of strings) and data.requested (string);
        -32021 needs data.requiredCapabilities (an object).
        """
        if not isinstance(error, dict):
            return [f"error must be a JSON object, got {show(error)}"]
        findings = []
        code = error.get("code")
        if "code" not in error:
            findings.append("code missing")
        elif not is_int(code):
            findings.append(f"code must be an integer, got {show(code)}")
        if "message" not in error:
            findings.append("message missing")
        elif not isinstance(error["message"], str):
            findings.append(f"message must be a string, got {show(error['message'])}")
        if not is_int(code):
            return findings
        data = error.get("data")
        if code in RETIRED_CODES:
            findings.append(f"code {code} is retired ({RETIRED_CODES[code]}) and must not be sent")
        elif code in RESERVED_RANGE and code not in DEFINED_IN_RESERVED:
            findings.append(f"code {code} is in -32020..-32099, reserved for the MCP spec, which defines only "
                            f"-32020, -32021 and -32022 there")
        elif code in (-32021, -32022) and "data" in error and not isinstance(data, dict):
            findings.append(f"data must be an object, got {show(data)}")
        elif code == -32022:
            if not isinstance(data, dict):
                findings.append("data missing: -32022 carries data {\"supported\": [...], \"requested\": \"...\"}")
            else:
                supported, requested = data.get("supported"), data.get("requested")
                if "supported" not in data:
                    findings.append("data.supported missing")
                elif not (isinstance(supported, list) and all(isinstance(s, str) for s in supported)):
                    findings.append(f"data.supported must be a list of version strings, got {show(supported)}")
                if "requested" not in data:
                    findings.append("data.requested missing")
                elif not isinstance(requested, str):
                    findings.append(f"data.requested must be a string, got {show(requested)}")
        elif code == -32021:
            if not isinstance(data, dict):
                findings.append("data missing: -32021 carries data {\"requiredCapabilities\": {...}}")
            elif "requiredCapabilities" not in data:
                findings.append("data.requiredCapabilities missing")
            elif not isinstance(data["requiredCapabilities"], dict):
                findings.append(f"data.requiredCapabilities must be an object, "
                                f"got {show(data['requiredCapabilities'])}")
        return findings

    # ---- beyond the protocol: notifications and whole messages (for pages) --------------------------------

    def check_notification(self, method: str, params: object) -> list[str]:
        """A notification either side may send in 2026-07-28 (client first, then server)."""
        methods, v = self.methods, PROTOCOL_VERSION
        sides = []
        if method in self.client_notifications:
            sides.append(lambda: methods.validate_client_notification(method, v, params))
        if method in self.server_notifications:
            sides.append(lambda: methods.parse_server_notification(method, v, params))
        if not sides:
            known = sorted(self.client_notifications | self.server_notifications)
            return [f"{method!r} is not a {v} notification (known: {', '.join(known)})"]
        first: list[str] | None = None
        for side in sides:
            findings = self._validate(side)
            if not findings:
                return []
            first = first if first is not None else findings
        return first or []

    def check_message(self, message: object, request_method: str | None = None) -> list[str]:
        """One whole JSON-RPC message, envelope included; `request_method` names the request a result answers."""
        if not isinstance(message, dict):
            return [f"a message is one JSON object, got {show(message)}"]
        findings = []
        if message.get("jsonrpc") != "2.0":
            findings.append(f"jsonrpc must be \"2.0\", got {show(message.get('jsonrpc'))}")
        if "_meta" in message:
            findings.append("_meta sits beside params; it belongs inside them, as params._meta")
        if "method" in message:
            method = message["method"]
            is_request = "id" in message
            allowed = {"jsonrpc", "id", "method", "params", "_meta"} if is_request else \
                {"jsonrpc", "method", "params", "_meta"}
            findings += [f"unexpected member {key!r} in a {'request' if is_request else 'notification'}"
                         for key in sorted(set(message) - allowed)]
            if not isinstance(method, str):
                return findings + [f"method must be a string, got {show(method)}"]
            if is_request:
                if not valid_id(message["id"]):
                    findings.append(f"id must be a string or an integer, got {show(message['id'])}")
                return findings + [f"{method} request: {f}"
                                   for f in self._request(method, message.get("params"), leave_structural=False)]
            return findings + [f"{method} notification: {f}"
                               for f in self.check_notification(method, message.get("params"))]
        has_result, has_error = "result" in message, "error" in message
        if has_result == has_error:
            return findings + ["a response carries exactly one of result and error" if has_result else
                               "neither a request (method and id), a notification (method) nor a response"]
        findings += [f"unexpected member {key!r} in a response"
                     for key in sorted(set(message) - {"jsonrpc", "id", "result", "error"})]
        reply_id = message.get("id")
        if has_error:
            if not (reply_id is None or valid_id(reply_id)):
                findings.append(f"id must be a string, an integer or null, got {show(reply_id)}")
            return findings + [f"error: {f}" for f in self.check_error(message["error"])]
        if not valid_id(reply_id):
            findings.append(f"a result's id must be the request's string or integer id, got {show(reply_id)}")
        if request_method is None:
            return findings + ["cannot tell which request this result answers"]
        return findings + [f"{request_method} result: {f}" for f in self.check_result(request_method,
                                                                                       message["result"])]

    # ---- internals --------------------------------------------------------------------------------------------

    def _request(self, method: str, params: object, *, leave_structural: bool) -> list[str]:
        methods, v = self.methods, PROTOCOL_VERSION
        if method not in self.request_methods:
            if method in self.legacy_methods:
                why = "a legacy method, removed in this revision"
            else:
                why = f"known: {', '.join(self.request_methods)}"
            hint = ("; if the example sends it on purpose, declare it in example.toml as an expected "
                    "transcript-schema violation") if leave_structural else ""
            return [f"{method!r} is not a request method in {v} ({why}){hint}"]
        surface = methods.CLIENT_REQUESTS[(method, v)]
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": 0, "method": method}
        if params is not None:
            body["params"] = params
        findings = self._validate(lambda: methods.validate_client_request(method, v, params),
                                  lambda: surface.model_validate(body, strict=True, by_name=False),
                                  skip=structural if leave_structural else None)
        return findings

    def _adapter(self, model: type):
        adapter = self._adapters.get(model)
        if adapter is None:
            adapter = self._adapters[model] = self._type_adapter(model)
        return adapter

    def _validate(self, official, strict=None, skip=None) -> list[str]:
        """Run the official (lax) check; when it passes, the same model in strict mode. Findings, never raises."""
        for attempt in (official, strict):
            if attempt is None:
                continue
            try:
                attempt()
            except self._validation_error as exc:
                errors = prune_errors(exc.errors(include_url=False), self._class_names)
                if skip is not None:
                    errors = [e for e in errors if not skip(e)]
                findings = list(dict.fromkeys(finding(e) for e in errors))
                if findings:
                    return findings
                # Only faults another rule owns: the strict pass below may still find something else.
        return []


# ---- helpers ----------------------------------------------------------------------------------------------------
