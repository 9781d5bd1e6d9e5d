"""The conformance report card: the official suite's required 2026-07-28 server scenarios, run against every
example that serves Streamable HTTP, kept as a checked-in record (record.py), and rendered on a page when the
site is built (card.py). suite.py runs the suite, serve.py starts one implementation, collect.py measures one;
tools/conformance_record.py regenerates the record, and gate.py tells run_examples.py when it no longer matches
the examples."""
