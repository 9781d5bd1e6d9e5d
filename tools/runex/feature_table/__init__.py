"""The rmcp features each of CI's builds needs: measured by building (build.py, minimise.py), kept in a checked-in
record (record.py) and rendered as a table on docs/mcp/rmcp.md (table.py). tools/rmcp_features.py runs it."""
