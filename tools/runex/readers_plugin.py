"""The MkDocs plugin `runex-readers` (pyproject.toml's mkdocs.plugins entry point, after `llmstxt` in mkdocs.yml):
what the build tells readers about each page beyond its text.

- `config.extra.commit`: the commit the site is built from (`git rev-parse HEAD`; CI checks out full history), which
  the "report a problem with this page" link (overrides/partials/page-actions.html) puts into the new issue, so a
  report names the very text the reader saw; empty outside a git checkout, and the link then names none;
- the sections of llms.txt (the mkdocs-llmstxt plugin) from the nav, in reading order, each page with the
  `description` of its front matter: the nav stays the one list of pages, so a page added to it (by hand or by
  `run_examples.py new`) gets its Markdown rendition and its line in llms.txt with nothing else to edit.

Zensical leaves out plugins it does not know: its build of the same sources has no llms.txt pages and a report link
without the commit (DESIGN.md, "Zensical").
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml
from mkdocs.plugins import BasePlugin

OVERVIEW = "Overview"  # the section of the pages the nav lists outside any section (the home page, the level index)


class ReadersPlugin(BasePlugin):
    """Holds no state: each build reads the commit and the nav again."""

    def on_config(self, config):
        root = Path(config.config_file_path or config.docs_dir).resolve().parent
        config.extra["commit"] = built_commit(root)
        plugin = config.plugins.get("llmstxt")
        if plugin is not None:  # mkdocs.serve.yml leaves the plugin out
            plugin.config["sections"] = llms_sections(config.nav or [], Path(config.docs_dir))
        return config


def built_commit(root: Path) -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def llms_sections(nav: list, docs: Path) -> dict[str, list[dict[str, str]]]:
    """{section title: [{page: description}, ...]} in nav order; top-level pages go under OVERVIEW."""
    sections: dict[str, list[dict[str, str]]] = {}
    for item in nav:
        title, value = next(iter(item.items())) if isinstance(item, dict) else (None, item)
        if isinstance(value, list):
            sections.setdefault(title, []).extend(_pages(value, docs))
        else:
            sections.setdefault(OVERVIEW, []).extend(_pages([value], docs))
    return sections


def _pages(items: list, docs: Path) -> list[dict[str, str]]:
    found = []
    for item in items:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            found += _pages(value, docs)
        elif isinstance(value, str) and value.endswith(".md"):
            found.append({value: description(docs / value)})
    return found


def description(page: Path) -> str:
    """The `description` of a page's front matter, or "" (MkDocs itself reports a page that does not exist)."""
    try:
        text = page.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    if not text.startswith("---\n") or "\n---" not in text[3:]:
        return ""
    meta = yaml.safe_load(text[4:text.index("\n---", 3)]) or {}
    return " ".join(str(meta.get("description", "")).split())
