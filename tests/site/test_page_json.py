"""Every hand-written JSON block on every page is a valid 2026-07-28 message, checked like the examples' wire.

The blocks the tool pastes (between <!-- example-begin --> and <!-- example-end -->) are skipped: they are the
examples' own files, which `run_examples.py --check` validates line by line, with the violations an example
declares on purpose exempted. Everything else in a ```json (or ```jsonl) fence is read here:

* In a fence of another language (text, sh, ...) only the lines that are whole JSON-RPC messages are read.
* The body of a json fence is one JSON document (a message pretty-printed over several lines), or else one document per line
  (compact messages, as on the wire), or else several documents one after another. A block that is none of these
  fails: a reader copies what a page labels JSON.
* A document with "jsonrpc" is an MCP message and is validated with the official schema (runex/schema/, built on
  mcp_types.methods): a request with validate_client_request, a notification against the client and server
  notifications, a result with validate_server_result, an error for its shape and its code. An array of messages
  fails (MCP has no batching). A document without "jsonrpc" (an editor's {"mcpServers": ...}, an input schema, a
  result body shown alone) is not a message and is skipped.
* A result needs the method of the request it answers. Heuristic, in order: a request with the same id in the
  same block; else the one field that names the result's type (supportedVersions: server/discover, tools:
  tools/list, content: tools/call, resources: resources/list, resourceTemplates: resources/templates/list,
  contents: resources/read, prompts: prompts/list, messages: prompts/get, completion: completion/complete;
  resultType "input_required": tools/call). A result that matches none of these fails: put its request in the block.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from support.repo import ROOT

from runex.paste import markers
from runex.schema import validator as schema
from runex.wire.protocol import id_key

DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
JSON_LANGS = {"json", "jsonl"}
OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)")

# Which request a result answers, from the one field that names its type (see the module docstring).
RESULT_FIELDS = (("supportedVersions", "server/discover"), ("tools", "tools/list"), ("content", "tools/call"),
                 ("resources", "resources/list"), ("resourceTemplates", "resources/templates/list"),
                 ("contents", "resources/read"), ("prompts", "prompts/list"), ("messages", "prompts/get"),
                 ("completion", "completion/complete"))


def hand_written_blocks(text: str, page: str):
    """(line of the opening fence, language, body) for every fenced block outside the tool's marker pairs."""
    number = 0
    fence = None  # (fence string, language, indent, first line, body lines)
    for segment in markers.parse(text, page):
        if isinstance(segment, markers.Block):
            number += 2 + len(segment.body)
            continue
        number += 1
        line = segment.rstrip("\n")
        if fence is not None:
            stripped = line.strip()
            if stripped and set(stripped) == {fence[0][0]} and len(stripped) >= len(fence[0]):
                yield fence[3], fence[1], textwrap.dedent("\n".join(fence[4]))
                fence = None
            else:
                fence[4].append(line[len(fence[2]):] if line.startswith(fence[2]) else line)
            continue
        opened = OPEN.match(line)
        if opened:
            fence = (opened.group("fence"), opened.group("lang").lower(), opened.group("indent"), number, [])


def documents(body: str) -> list[tuple[int, object]] | str:
    """(line offset in the block, value) for each JSON document, or the reason the body is not JSON."""
    if not body.strip():
        return []
    try:
        return [(_first_line(body), json.loads(body))]
    except ValueError as exc:
        whole = exc
    lines = body.splitlines()
    try:
        return [(i, json.loads(l)) for i, l in enumerate(lines) if l.strip()]
    except ValueError:
        pass
    decoder, out, at = json.JSONDecoder(), [], 0
    while True:
        while at < len(body) and body[at].isspace():
            at += 1
        if at == len(body):
            return out
        try:
            value, end = decoder.raw_decode(body, at)
        except ValueError:
            return f"not JSON: {whole}"
        out.append((body.count("\n", 0, at), value))
        at = end


def _first_line(body: str) -> int:
    return next((i for i, l in enumerate(body.splitlines()) if l.strip()), 0)


def block_findings(body: str, validator) -> list[tuple[int, str]]:
    """(line offset in the block, finding) for everything wrong with the MCP messages in one block."""
    docs = documents(body)
    if isinstance(docs, str):
        return [(0, docs)]
    requests = {}
    for _, value in docs:
        if isinstance(value, dict) and isinstance(value.get("method"), str) and "id" in value:
            requests.setdefault(id_key(value["id"]), value["method"])
    findings = []
    for offset, value in docs:
        if isinstance(value, list) and any(isinstance(v, dict) and "jsonrpc" in v for v in value):
            findings.append((offset, "an array of messages is a JSON-RPC batch; MCP has no batching, so each "
                                     "message stands alone"))
            continue
        if not isinstance(value, dict) or "jsonrpc" not in value:
            continue  # not an MCP message
        method = None
        if "result" in value and "method" not in value:
            method = requests.get(id_key(value.get("id"))) or infer_method(value["result"])
        findings += [(offset, f) for f in validator.check_message(value, method)]
    return findings


def infer_method(result: object) -> str | None:
    if not isinstance(result, dict):
        return None
    if result.get("resultType") == "input_required":
        return "tools/call"
    named = [method for field, method in RESULT_FIELDS if field in result]
    return named[0] if len(named) == 1 else None


def message_lines(body: str) -> str:
    """In a fence of another language (text, sh, ...), only the lines that are whole JSON-RPC messages, in place."""
    kept = []
    for line in body.splitlines():
        value = None
        if line.strip().startswith("{"):
            try:
                value = json.loads(line)
            except ValueError:
                pass
        kept.append(line if isinstance(value, dict) and "jsonrpc" in value else "")
    return "\n".join(kept)


def page_findings(text: str, page: str, validator) -> list[str]:
    found = []
    for line, lang, body in hand_written_blocks(text, page):
        if lang not in JSON_LANGS:
            body = message_lines(body)
        for offset, finding in block_findings(body, validator):
            found.append(f"{page}:{line + 1 + offset}: {finding}")
    return found


@pytest.fixture(scope="module")
def validator():
    return schema.load_validator()


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_hand_written_json_is_a_valid_message(page: Path, validator):
    rel = str(page.relative_to(ROOT))
    found = page_findings(page.read_text(encoding="utf-8"), rel, validator)
    assert not found, ("hand-written JSON on this page is not a valid 2026-07-28 message (fix the block, or "
                       "paste the example's file with markers instead):\n" + "\n".join(found))


# ---- the checker itself, on a synthetic page ---------------------------------------------------------------------

META = ('"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
        '"io.modelcontextprotocol/clientCapabilities":{},'
        '"io.modelcontextprotocol/clientInfo":{"name":"demo","version":"1.0.0"}}')
GOOD_PAGE = f"""# A page

```json
{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{{META}}}}}
{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}}}}
```

An editor's configuration is JSON but not a message:

```json
{{
  "mcpServers": {{"demo": {{"command": "demo-server"}}}}
}}
```

!!! note
    ```json
    {{
      "jsonrpc": "2.0",
      "id": "a",
      "error": {{"code": -32022, "message": "Unsupported protocol version",
                "data": {{"supported": ["2026-07-28"], "requested": "2025-06-18"}}}}
    }}
    ```

```json
{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":1,"reason":"stop"}}}}
```

<!-- example-begin: demo/transcript.jsonl -->
```json
{{"jsonrpc":"2.0","id":9,"method":"tools/list","_meta":{{}}}}
```
<!-- example-end -->
"""

BAD_PAGE = f"""# A page that teaches the wrong wire

```json
{{"jsonrpc":"2.0","id":1,"method":"tools/list","_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}}
```

```json
{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","tools":[]}}}}
```

```json
{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{{META},"name":"add","arguments":{{}}}}}}
{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"complete","content":[{{"type":"text"}}]}}}}
```

```json
{{"jsonrpc":"2.0","id":4,"error":{{"code":-32002,"message":"Resource not found"}}}}
{{"jsonrpc":"2.0","id":5,"error":{{"code":-32022,"message":"Unsupported protocol version"}}}}
```

```json
[{{"jsonrpc":"2.0","method":"notifications/initialized"}}]
```

```json
{{"jsonrpc":"2.0","id":6,"method":"initialize","params":{{}}}}
```

```json
{{"jsonrpc": "2.0", "id": 7, ...}}
```

```text
$ demo-server < transcript.jsonl
{{"jsonrpc":"2.0","id":8,"result":{{"resultType":"complete","supportedVersions":["2026-07-28"],"ttlMs":0,"cacheScope":"public"}}}}
```
"""


def test_a_good_page_passes(validator):
    assert page_findings(GOOD_PAGE, "docs/good.md", validator) == []


def test_a_bad_page_fails_with_each_fault_named(validator, tmp_path):
    page = tmp_path / "bad.md"
    page.write_text(BAD_PAGE, encoding="utf-8")
    found = page_findings(page.read_text(encoding="utf-8"), "docs/bad.md", validator)
    text = "\n".join(found)
    expected = [
        "docs/bad.md:4: _meta sits beside params",
        "docs/bad.md:4: tools/list request: params missing",
        "docs/bad.md:8: tools/list result: cacheScope missing",
        "docs/bad.md:8: tools/list result: ttlMs missing",
        "docs/bad.md:13: tools/call result: content[0].text missing",
        "docs/bad.md:17: error: code -32002 is retired",
        "docs/bad.md:18: error: data missing: -32022 carries data",
        "docs/bad.md:22: an array of messages is a JSON-RPC batch",
        "docs/bad.md:26: initialize request: 'initialize' is not a request method in 2026-07-28",
        "docs/bad.md:30: not JSON",
        "docs/bad.md:35: server/discover result: capabilities missing",
    ]
    for needle in expected:
        assert needle in text, f"missing {needle!r} in:\n{text}"
    assert len(found) == len(expected), text


def test_a_pretty_printed_message_is_one_document(validator):
    body = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "result": {"resultType": "complete", "content": []}\n}'
    assert block_findings(body, validator) == []
    assert block_findings(body.replace('"resultType": "complete", ', ""), validator) == [
        (0, "tools/call result: resultType missing")]
