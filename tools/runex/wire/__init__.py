"""The wire stage: what may pass between client and server, and the check that holds a run to it.

This package imports nothing outside itself (tests/tool/test_layout.py holds it to that): "Run it here" copies it,
whole, into the reader's browser, so a wire problem found there is reported in the tool's own words.

- protocol.py     the protocol's vocabulary: the revision, the required `_meta` keys, JSON-RPC ids and their keys
- rules.py        every rule the tool knows, a Problem (one broken rule at one place), declared violations
- transcript.py   reading and classifying the client's lines (transcript.jsonl)
- pairing.py      which reply answers which request: the one rule, used by the check and the conversation view
- accounting.py   what is in flight as each line is written, and which notification belongs to which request
- inflight.py     the rules of requests in flight: progress, cancellation, listen streams
- check.py        the stdio rules over a run's stdout and the transcript-wide rules
- http_headers.py the headers a client derives from a body (Mcp-Method, Mcp-Name, Mcp-Param-*, the version)
- http.py         the Streamable HTTP rules over one exchange (status, content type, SSE framing) and its record
"""
