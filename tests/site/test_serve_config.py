"""`make serve` serves mkdocs.serve.yml: mkdocs.yml itself, minus the plugins that make every rebuild slow.

The published site, CI and the browser tests build mkdocs.yml; the authoring config may only leave plugins out,
never add or change one, or `make serve` would show a site that is not the one published.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from support.repo import ROOT, site_env

# Re-indexing and `git log` per page, on every rebuild; and llmstxt, which converts every page to Markdown and,
# under `serve --dirty`, would write an llms.txt of the pages rebuilt last only.
LEFT_OUT = {"search", "git-revision-date-localized", "llmstxt"}


def _plugins(name: str) -> list:
    return yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))["plugins"]


def _plugin_name(entry) -> str:
    return entry if isinstance(entry, str) else next(iter(entry))


def test_the_serve_config_is_the_site_config_minus_the_slow_plugins():
    serve = yaml.safe_load((ROOT / "mkdocs.serve.yml").read_text(encoding="utf-8"))
    assert serve["INHERIT"] == "mkdocs.yml"
    assert set(serve) == {"INHERIT", "plugins"}, "the authoring config changes nothing but the plugin list"
    expected = [p for p in _plugins("mkdocs.yml") if _plugin_name(p) not in LEFT_OUT]
    assert serve["plugins"] == expected


def test_make_serve_serves_the_serve_config_and_make_site_does_not():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    serve = makefile.split("\nserve:", 1)[1].split("\n\n", 1)[0]
    assert "tools/serve_site.py -f mkdocs.serve.yml" in serve
    site = makefile.split("\nsite:", 1)[1].split("\n\n", 1)[0]
    assert "mkdocs.serve.yml" not in site


@pytest.mark.slow  # a whole mkdocs build
def test_the_serve_config_builds_strictly(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", "mkdocs.serve.yml",
                           "-d", str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          env=site_env())
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "site" / "index.html").is_file()


def test_the_serve_script_makes_mkdocs_poll_faster():
    """tools/serve_site.py changes one keyword default of mkdocs' LiveReloadServer; a mkdocs upgrade that moves it
    must fail here, not leave `make serve` quietly polling at 0.5 s."""
    import inspect

    import serve_site
    from mkdocs import livereload

    saved = livereload.LiveReloadServer.__init__.__defaults__
    try:
        serve_site.poll_faster()
        signature = inspect.signature(livereload.LiveReloadServer.__init__)
        assert signature.parameters["polling_interval"].default == serve_site.POLL_SECONDS == 0.1
        assert signature.parameters["shutdown_delay"].default == 0.25, "the other defaults are kept"
    finally:
        livereload.LiveReloadServer.__init__.__defaults__ = saved
