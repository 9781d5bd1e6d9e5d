"""run_examples: build, run, verify and paste the site's example MCP servers. Entry point: tools/run_examples.py."""
