"""The strict 2026-07-28 schema, as a wire.check.MessageValidator over the official SDK's mcp-types."""
