"""Helpers shared by the tests, importable from any test folder: pytest.ini puts tests/ (and tools/) on sys.path.

- repo.py           the repository root, running the tool as a contributor does, skip-or-fail-in-CI
- tool_repos.py     throwaway repositories and tiny servers for the tool's tests (tests/tool)
- interop_cases.py  every implementation of every example, for the official SDK client tests (tests/interop)
- interop_client.py the official SDK client driving one example server
- nav.py            the reading path as mkdocs.yml's nav states it (tests/site)
"""
