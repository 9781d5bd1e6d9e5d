"""The protocol's vocabulary, said once: the revision, the `_meta` keys, and how JSON-RPC ids compare.

Sources (the specification repository modelcontextprotocol/modelcontextprotocol, folder
docs/specification/2026-07-28/, and its schema schema/2026-07-28/schema.json):
- every request carries `params._meta` with `io.modelcontextprotocol/protocolVersion` (a string) and
  `io.modelcontextprotocol/clientCapabilities` (an object; `{}` declares no optional capability), and may carry
  `io.modelcontextprotocol/clientInfo`: basic/index.mdx, table "Per-request protocol fields"; the schema's
  `RequestMetaObject` lists the two keys as required;
- servers SHOULD put `io.modelcontextprotocol/serverInfo` (an Implementation, `{name, version}`) in every result's
  `_meta`: basic/index.mdx, after that table; the schema's `ResultMetaObject`;
- a request id MUST be a string or an integer, never null (basic/index.mdx, "Requests"; the schema's `RequestId`);
  a reply carries its request's id, and 1 and "1" are different ids (JSON-RPC 2.0, which every message follows:
  basic/index.mdx, "Messages").
"""

from __future__ import annotations

import json

PROTOCOL_VERSION = "2026-07-28"
META_PREFIX = "io.modelcontextprotocol/"
PROTOCOL_VERSION_KEY = META_PREFIX + "protocolVersion"
CLIENT_CAPABILITIES_KEY = META_PREFIX + "clientCapabilities"
CLIENT_INFO_KEY = META_PREFIX + "clientInfo"
SERVER_INFO_KEY = META_PREFIX + "serverInfo"
REQUIRED_META_KEYS = (PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY)  # in every request's params._meta

CANCELLED = "notifications/cancelled"
DISCOVER = "server/discover"


def valid_id(value: object) -> bool:
    """A request id is a string or an integer (a bool is neither, though Python says True == 1)."""
    return isinstance(value, (str, int)) and not isinstance(value, bool)


IdKey = tuple[str, object]


def id_key(value: object) -> IdKey | None:
    """What an id compares as: its type and value, so 1, "1" and true are three different ids. None for a null
    id; an object or array (never a valid id, and not hashable) gets a key no valid id has."""
    if value is None:
        return None
    if isinstance(value, (dict, list)):
        return ("invalid", json.dumps(value, sort_keys=True))
    return (type(value).__name__, value)
