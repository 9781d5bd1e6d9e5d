"""The wire stage: what may pass between client and server, and the check that holds a run to it.

This package imports nothing outside itself (tests/tool/test_layout.py holds it to that): "Run it here" copies it,
whole, into the reader's browser, so a wire problem found there is reported in the tool's own words.

- protocol.py    the protocol's vocabulary: the revision, the required `_meta` keys, JSON-RPC ids and their keys
- rules.py       every rule the tool knows, a Problem (one broken rule at one place), declared violations
- transcript.py  reading and classifying the client's lines (transcript.jsonl)
- pairing.py     which reply answers which request: the one rule, used by the check and the conversation view
- check.py       the stdio rules over a run's stdout and the transcript-wide rules

Where the next rules join: HTTP rules (status, content type, SSE framing of a Streamable HTTP exchange) go in a
module of their own beside check.py, fed per exchange by the HTTP driver's records and reporting Problems with
rules added to rules.RULES; accounting for transcripts that do not wait (cancel in flight, progress, listen
streams) belongs in pairing.py's bookkeeping, which both the check and the view read.
"""
