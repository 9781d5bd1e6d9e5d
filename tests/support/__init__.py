"""Helpers shared by the tests, importable from any test folder as `support`: tests/ holds the rootdir's conftest.py,
which pytest's default import mode puts on sys.path (the tool's package runex is installed in the venv).

- repo.py           the repository root, running the tool as a contributor does, skip-or-fail-in-CI
- tool_repos.py     throwaway repositories and tiny servers for the tool's tests (tests/tool)
- interop_cases.py  every implementation of every example, for the official SDK client tests (tests/interop)
- interop_client.py the official SDK client driving one example server
- nav.py            the reading path as mkdocs.yml's nav states it (tests/site)
- shared_site.py    the run's one site build, shared by every pytest-xdist worker
- worker_groups.py  which tests share one xdist worker, in order, heaviest first
"""
