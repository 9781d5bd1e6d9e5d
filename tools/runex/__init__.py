"""run_examples: build, run, verify and paste the site's example MCP servers. Entry points: tools/run_examples.py,
`python -m runex` and the `run-examples` command (cli.py); the MkDocs plugin `runex` (mkdocs_plugin.py)."""
