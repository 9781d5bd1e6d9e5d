# Two commands on a fresh clone:
#   make serve   verify every example, paste it into the pages, then build and serve the site on 127.0.0.1:8000
#   make test    run every test (the same command CI runs through .ci/run)
# While you work:
#   make fast    pytest -m "not slow": the tool's and the pages' tests, without browser, site builds or SDK clients
# Both run pytest on two workers (pytest-xdist; tests/support/worker_groups.py says which tests share one):
# `make test WORKERS=0` runs the suite in one process.

PYTHON_BOOT ?= python3
VENV        := .venv
PYTHON      := $(VENV)/bin/python
STAMP       := $(VENV)/.installed
TOOL        := $(VENV)/.runex-installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test fast check regen site setup sandbox wasm-target clean bench zensical example

setup: $(TOOL) sandbox wasm-target

# "Run it here" runs each Rust example in the reader's browser, built for wasm32-wasip1: rustup adds that target's
# standard library once (a no-op after that).
wasm-target:
	rustup target add wasm32-wasip1

# Every example builds and runs inside bubblewrap (bwrap). Installed with apt-get when we are root; otherwise the
# command to run is printed and setup stops. (macOS has no bubblewrap: see --unsandboxed in README.md.)
sandbox:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; \
	  else \
	    echo "bubblewrap is missing: run  sudo apt-get install bubblewrap  (Ubuntu 24.04 also:" \
	         "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0)"; exit 1; \
	  fi; }

$(STAMP): requirements.txt constraints.txt package-lock.json
	$(PYTHON_BOOT) -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --disable-pip-version-check -r requirements.txt -c constraints.txt
	npm ci --no-audit --no-fund   # pyodide and @bjorn3/browser_wasi_shim ("Run it here"), the conformance suite and its Node 22 (package-lock.json pins them)
	@node -e 'process.exit(+process.versions.node.split(".")[0] < 22 ? 1 : 0)' || echo "Node $$(node -v): the EBADENGINE" \
	  "warning above is content-type 3.1.1 (it asks for Node 22), which comes with the conformance suite; that suite" \
	  "runs on the Node 22 npm ci installed (the npm package node), so nothing runs it on this Node (README.md)"
	touch $(STAMP)

# The tool's package runex (tools/runex/, pyproject.toml), installed editable: mkdocs.yml's plugin `runex` and its
# markdown extension runex.paste.markdown_ext (the conversation view, rendered at build time), the `run-examples`
# command, and `import runex` for the tests and benchmarks. The pins are requirements.txt's, hence --no-deps.
$(TOOL): $(STAMP) pyproject.toml
	$(PYTHON) -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

# Regenerate answer keys and pasted blocks (fails on any example that does not verify), then serve.
# mkdocs.serve.yml is the site without search and git dates; --dirty rebuilds only the page that changed (mkdocs
# aborts a dirty build under --strict; `make site` is the strict build); tools/serve_site.py is `mkdocs serve`
# polling every 0.1 s, not 0.5 s: about 0.7 s from save to page here (benchmarks/serve_latency.py --make-serve).
serve: $(TOOL) sandbox wasm-target
	$(PYTHON) tools/run_examples.py
	$(PYTHON) tools/site_assets.py
	$(PYTHON) tools/serve_site.py -f mkdocs.serve.yml --dirty

regen: $(TOOL) sandbox wasm-target
	$(PYTHON) tools/run_examples.py

check: $(TOOL) sandbox wasm-target
	$(PYTHON) tools/run_examples.py --check

# One example (and its page) in seconds, not the whole suite's minutes: the tool's check of NAME, then every rule the
# suite holds for an example, run on NAME alone (its real servers with stdout closed, fed edge inputs, driven by the
# official SDK client over stdio and HTTP, building no other example; the workspace's rustfmt and layout), and with
# PAGE= that page's shape, JSON and tables, its place on the reading path, every browser check of the page (screen
# budget, conversation view and WCAG 2.1 AA among them), the example's "Run it here" in the browser (one site build
# for all of them), the share of docs/mcp its pastes take and no placeholder left. Every step runs even when one
# before it failed, so one loop shows every failure; the last lines list the steps that failed, and the exit status
# is 1 if any did.
#   make example NAME=pagination PAGE=pagination
EXAMPLE_STEPS = \
  '$(PYTHON) tools/run_examples.py --check $(NAME)' \
  'RUNEX_TEST_EXAMPLES=$(NAME) $(PYTHON) -m pytest -q -k "$(NAME)" tests/interop/test_closed_stdout.py tests/interop/test_edge_inputs.py tests/interop/test_real_client.py tests/interop/test_http_client.py' \
  '$(PYTHON) -m pytest -q tests/test_rust_examples.py' \
  $(if $(PAGE),'$(PYTHON) -m pytest -q -k "$(PAGE) or $(NAME)" tests/site/test_pages.py tests/site/test_page_json.py tests/site/test_tables.py tests/browser/test_site_pages.py tests/browser/test_conversation.py tests/browser/test_run_here.py tests/browser/test_run_here_rust.py') \
  $(if $(PAGE),'$(PYTHON) -m pytest -q tests/site/test_reading_path.py tests/site/test_page_sources.py tests/site/test_placeholders.py')

example: $(TOOL) sandbox
	@test -n "$(NAME)" || { echo "usage: make example NAME=<folder under examples/> [PAGE=<page under docs/mcp/, no .md>]"; exit 2; }
	@failed=""; nfailed=0; steps=0; \
	for step in $(EXAMPLE_STEPS); do \
	  steps=$$((steps + 1)); echo "$$step"; \
	  sh -c "$$step" || { nfailed=$$((nfailed + 1)); failed="$$failed    $$step\n"; }; \
	done; \
	if [ "$$nfailed" = 0 ]; then echo "make example: all $$steps steps passed"; exit 0; fi; \
	printf "make example: %s of %s steps failed (their output is above); fix each, then run this again:\n%b" \
	  "$$nfailed" "$$steps" "$$failed"; \
	echo "    make example NAME=$(NAME)$(if $(PAGE), PAGE=$(PAGE))"; exit 1

# The published build: the check first, so drift can never be published.
site: check
	$(PYTHON) tools/site_assets.py
	$(PYTHON) -m mkdocs build --strict

WORKERS ?= 2

test: $(TOOL) sandbox wasm-target zensical
	$(PYTHON) tools/run_examples.py --check
	$(PYTHON) -m pytest -n $(WORKERS)

fast: $(TOOL) sandbox
	$(PYTHON) -m pytest -n 2 -m "not slow"

# Zensical (pinned in requirements-zensical.txt) in its own venv under .cache/, for tests/site/test_zensical.py
# (`make test` makes it first; made once, then checked against its pins in a fraction of a second).
zensical:
	$(PYTHON_BOOT) tools/zensical_env.py

bench: $(TOOL) sandbox wasm-target
	$(PYTHON) benchmarks/bench.py

clean:
	rm -rf site .cache .pytest_cache .hypothesis screenshots
