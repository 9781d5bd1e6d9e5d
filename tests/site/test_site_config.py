"""The built site knows where it lives: a sitemap of every page under site_url, an edit link to the page's source
in repo_url, the date of the page's last commit, and footer links that walk the nav in order.

One strict build into a temporary folder serves every test here. site_url, repo_url and edit_uri are read from
mkdocs.yml, their one place, so the tests follow them when the repository moves.
"""

from __future__ import annotations

import datetime
import posixpath
import re
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from support.repo import ROOT

DOCS = ROOT / "docs"
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


def mkdocs_config() -> dict:
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def nav_pages() -> list[str]:
    """Every page in the nav, in reading order (sections flattened)."""
    found = []

    def walk(items):
        for item in items:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                walk(value)
            else:
                found.append(value)
    walk(mkdocs_config()["nav"])
    return found


def site_path(src: str) -> str:
    """docs-relative source -> its path on the site: "mcp/rmcp.md" -> "mcp/rmcp/", "index.md" -> ""."""
    stem = src.removesuffix(".md")
    if stem == "index":
        return ""
    return stem.removesuffix("/index") + "/"


PAGES = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))


@pytest.fixture(scope="module")
def built(built_site) -> Path:
    """The run's one strict build of this checkout (built_site in tests/conftest.py)."""
    return built_site


class _PageFacts(HTMLParser):
    """The few elements these tests read from one built page."""

    def __init__(self):
        super().__init__()
        self.edit_links: list[str] = []
        self.footer: dict[str, str] = {}  # "prev"/"next" -> href
        self.updated: list[str] = []  # visible text of the last-update date
        self._in_date = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "a" and attributes.get("rel") == "edit":
            self.edit_links.append(attributes.get("href") or "")
        if tag == "a" and "md-footer__link" in classes:
            for side in ("prev", "next"):
                if f"md-footer__link--{side}" in classes:
                    self.footer[side] = attributes.get("href") or ""
        if tag == "span" and "git-revision-date-localized-plugin-date" in classes:
            self._in_date = True
            self.updated.append("")

    def handle_endtag(self, tag):
        if tag == "span":
            self._in_date = False

    def handle_data(self, data):
        if self._in_date:
            self.updated[-1] += data.strip()


def page_facts(site_dir: Path, src: str) -> _PageFacts:
    facts = _PageFacts()
    facts.feed((site_dir / site_path(src) / "index.html").read_text(encoding="utf-8"))
    return facts


def test_urls_live_in_one_place_and_agree():
    """site_url is an https URL ending in "/", repo_url is a repository on GitHub, edit_uri edits docs/ on main."""
    config = mkdocs_config()
    assert re.fullmatch(r"https://[^/]+/([^/]+/)*", config["site_url"]), config["site_url"]
    assert re.fullmatch(r"https://github\.com/[^/]+/[^/]+", config["repo_url"]), config["repo_url"]
    assert config["edit_uri"] == "edit/main/docs/", config["edit_uri"]


@pytest.mark.slow  # reads the run's one site build
def test_sitemap_lists_every_page_under_site_url(built):
    site_url = mkdocs_config()["site_url"]
    tree = ET.parse(built / "sitemap.xml")
    listed = [loc.text.strip() for loc in tree.getroot().iter(f"{SITEMAP_NS}loc")]
    expected = {site_url + site_path(src) for src in PAGES}
    assert listed, "sitemap.xml lists no URL (is site_url set in mkdocs.yml?)"
    assert sorted(set(listed)) == sorted(expected), (
        f"sitemap.xml: missing {sorted(expected - set(listed))}, unexpected {sorted(set(listed) - expected)}")


@pytest.mark.slow  # reads the run's one site build
@pytest.mark.parametrize("src", PAGES)
def test_page_has_an_edit_link_to_its_source(built, src):
    config = mkdocs_config()
    want = f"{config['repo_url']}/{config['edit_uri']}{src}"
    assert page_facts(built, src).edit_links == [want], f"docs/{src}: one edit link to {want}"


def _last_commit(src: str) -> datetime.datetime | None:
    done = subprocess.run(["git", "log", "-1", "--format=%at", "--", f"docs/{src}"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    stamp = done.stdout.strip()
    return datetime.datetime.fromtimestamp(int(stamp), datetime.timezone.utc) if stamp else None


def _shown(day: datetime.datetime) -> str:
    """The plugin's `type: date` in English: "December 3, 2026"."""
    return f"{day:%B} {day.day}, {day.year}"


@pytest.mark.slow  # reads the run's one site build
@pytest.mark.parametrize("src", PAGES)
def test_page_shows_the_date_of_its_last_commit(built, src):
    """The date comes from git: a page with history shows its last commit's date (UTC); a page never committed
    shows the build date. A shallow clone would give every page the same, wrong date: CI fetches full history."""
    updated = page_facts(built, src).updated
    commit = _last_commit(src)
    if commit is None:
        want = {_shown(datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=d)) for d in (-1, 0)}
    else:
        want = {_shown(commit)}
    assert len(updated) == 1 and updated[0] in want, f"docs/{src}: last update shows {updated}, expected {want}"


@pytest.mark.slow  # reads the run's one site build
def test_footer_walks_the_nav_in_order(built):
    """navigation.footer: each page links to the one before and after it in the nav, and the ends link outward
    only."""
    order = nav_pages()
    problems = []
    for position, src in enumerate(order):
        footer = page_facts(built, src).footer
        here = site_path(src)
        for side, neighbour in (("prev", position - 1), ("next", position + 1)):
            want = "/" + site_path(order[neighbour]) if 0 <= neighbour < len(order) else None
            href = footer.get(side)
            got = None if href is None else posixpath.join("/" + here, href)
            if (want and posixpath.normpath(want)) != (got and posixpath.normpath(got)):
                problems.append(f"docs/{src}: footer {side} goes to {got!r}, the nav says {want!r}")
    assert not problems, "\n".join(problems)
