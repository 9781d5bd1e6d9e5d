"""The site under Zensical (Material's successor, which reads mkdocs.yml): the pinned version builds it strictly, and
a reader finds every page with the same content as under MkDocs, apart from the differences DESIGN.md lists (its
Zensical section).

Zensical comes from its own venv (tools/zensical_env.py, pinned in requirements-zensical.txt; CI makes it in
.ci/run). It builds a copy of mkdocs.yml, docs/ and overrides/ in a temporary folder, because it writes its site
and its cache inside the folder that holds the configuration. MkDocs builds the same sources once more, for the
comparison.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slow  # builds the site with Zensical and with MkDocs

from support.repo import ROOT, site_env, skip_or_fail

import zensical_env
from runex.paste import markdown_ext, markers

DOCS = ROOT / "docs"
CONFIG = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
PAGES = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(?P<body>.*?)</article>', re.S)
TAGS = re.compile(r'<nav class="md-tags"[^>]*>.*?</nav>', re.S)
LAST_UPDATE = re.compile(r'<aside class="md-source-file">.*?</aside>', re.S)
# The "report a problem" link names the commit the site is built from, which a hook sets (Zensical ignores hooks).
REPORT = re.compile(r'<a href="[^"]*"(\s*class="md-content__button md-icon page-report")(.*?)data-commit="[^"]*">',
                    re.S)
FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")


def site_file(page: str) -> str:
    """docs-relative source -> its file in the built site: "mcp/rmcp.md" -> "mcp/rmcp/index.html"."""
    stem = page.removesuffix(".md")
    if stem == "index":
        return "index.html"
    return stem.removesuffix("/index") + "/index.html"


def front_matter_tags(page: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return []
    return yaml.safe_load(text[4:text.index("\n---", 4)]).get("tags", [])


def visible_text(page_html: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page_html))


def article(page_html: str) -> str:
    found = ARTICLE.search(page_html)
    assert found, "no <article class=\"md-content__inner md-typeset\"> on the page"
    return found.group("body")


def fenced_lines(body: list[str]) -> list[str]:
    """The non-blank lines inside the fenced code blocks of a pasted body (code, transcripts, conversations)."""
    lines, fence = [], None
    for raw in body:
        line = raw.rstrip("\r\n")
        opened = FENCE.match(line)
        if fence is None:
            if opened:
                fence = opened.group("fence")
            continue
        if opened and line.strip() == fence[0] * len(line.strip()) and len(line.strip()) >= len(fence):
            fence = None
        elif line.strip():
            lines.append(line.strip())
    return lines


def _copy_sources(project: Path) -> None:
    """What Zensical reads: the configuration, the pages (with docs/assets/run if site_assets.py made it), the theme
    overrides. Not tools/: Zensical imports the markdown extension from its venv's runex."""
    shutil.copyfile(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    for folder in ("docs", "overrides"):
        shutil.copytree(ROOT / folder, project / folder)


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory, mkdocs_site) -> Path:
    """Zensical's build of a copy of the sources MkDocs built (after site_assets.py, so with docs/assets/run)."""
    program, why_not = zensical_env.installed_program()
    if program is None:
        skip_or_fail(why_not)
    project = tmp_path_factory.mktemp("zensical")
    _copy_sources(project)
    result = subprocess.run([str(program), "build", "--strict", "-f", "mkdocs.yml"], cwd=project,
                            capture_output=True, text=True, env=site_env(NO_COLOR="1"), timeout=300)
    assert result.returncode == 0, f"zensical build --strict failed:\n{(result.stdout + result.stderr)[-4000:]}"
    return project / "site"


@pytest.fixture(scope="module")
def mkdocs_site(built_site) -> Path:
    """The run's one strict MkDocs build of this checkout (built_site in tests/conftest.py)."""
    return built_site


def test_the_pinned_version_is_the_one_that_builds(zensical_site: Path):
    generator = re.search(r'<meta name="generator" content="([^"]+)"', (zensical_site / "index.html").read_text())
    assert generator and generator.group(1) == f"zensical-{zensical_env.pinned_version()}"


def test_every_page_and_the_404_page_exist(zensical_site: Path):
    missing = [site_file(page) for page in PAGES if not (zensical_site / site_file(page)).is_file()]
    assert not missing, f"Zensical built no page for: {missing}"
    assert "404" in visible_text(article((zensical_site / "404.html").read_text()))


@pytest.mark.parametrize("page", PAGES)
def test_pasted_blocks_are_on_the_page(zensical_site: Path, page: str):
    """Every line inside the fences of every pasted block (sources, transcripts, answer keys, conversations)."""
    shown = visible_text((zensical_site / site_file(page)).read_text(encoding="utf-8"))
    # As the build reads the page: each conversation rendered between its (empty) markers.
    text = markdown_ext.expand((DOCS / page).read_text(encoding="utf-8"), ROOT, page)
    blocks = [s for s in markers.parse(text, page) if isinstance(s, markers.Block)]
    assert all(b.body for b in blocks if b.path.endswith("/conversation")), f"{page}: a conversation rendered empty"
    missing = [(block.target, line) for block in blocks for line in fenced_lines(block.body) if line not in shown]
    assert not missing, f"{page}: {len(missing)} pasted lines are not on the page, first: {missing[:3]}"


@pytest.mark.parametrize("page", PAGES)
def test_the_article_is_what_mkdocs_builds(zensical_site: Path, mkdocs_site: Path, page: str):
    """Every block, conversation, admonition, tab, details, line number and Polish section, tag for tag, once the
    differences DESIGN.md lists are set aside: the level chip's place, the "Last update" date, the edit icon, the
    commit in the "report a problem" link."""
    def comparable(site: Path) -> list[str]:
        body = article((site / site_file(page)).read_text(encoding="utf-8"))
        body = LAST_UPDATE.sub("", TAGS.sub("", body)).replace('<a id="__skip" tabindex="-1"></a>', "")
        body = re.sub(r'(rel="edit">\s*)<svg.*?</svg>', r"\1<svg/>", body, flags=re.S)
        body = REPORT.sub(r'<a\1\2>', body)
        return [line.strip() for line in body.splitlines() if line.strip()]
    ours, theirs = comparable(zensical_site), comparable(mkdocs_site)
    first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    assert ours == theirs, (f"{page}: Zensical's article differs from MkDocs' at line {first}: "
                            f"{ours[first:first + 1]} vs {theirs[first:first + 1]}")


@pytest.mark.parametrize("page", PAGES)
def test_level_tag_edit_link_and_assets_on_every_page(zensical_site: Path, page: str):
    page_html = (zensical_site / site_file(page)).read_text(encoding="utf-8")
    chips = re.findall(r'<span class="md-tag">([^<]+)</span>', page_html)
    assert chips == front_matter_tags(page), f"{page}: level chips {chips}"
    edit = f'href="{CONFIG["repo_url"]}/{CONFIG["edit_uri"]}{page}"'
    assert edit in page_html, f"{page}: no edit link {edit}"
    for asset in CONFIG["extra_css"] + CONFIG["extra_javascript"]:
        assert re.search(rf'(href|src)="[./]*{re.escape(asset)}"', page_html), f"{page}: {asset} is not linked"
        assert (zensical_site / asset).is_file(), f"{asset} was not copied into the site"


def test_the_404_page_loads_its_assets_from_site_url(zensical_site: Path):
    """The 404 page is served at any depth, so its links are absolute under site_url's path."""
    base = "/" + CONFIG["site_url"].split("://", 1)[1].split("/", 1)[1]
    page_html = (zensical_site / "404.html").read_text(encoding="utf-8")
    for asset in CONFIG["extra_css"]:
        assert f'href="{base}{asset}"' in page_html, f"404.html does not load {base}{asset}"


def test_sitemap_lists_every_page_under_site_url(zensical_site: Path):
    root = ET.parse(zensical_site / "sitemap.xml").getroot()
    listed = {loc.text for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")}
    expected = {CONFIG["site_url"] + site_file(page).removesuffix("index.html") for page in PAGES}
    assert listed == expected


def test_the_differences_readme_lists_still_hold(zensical_site: Path):
    """DESIGN.md says what differs under this version; when an upgrade changes that, this fails and DESIGN.md
    changes."""
    page_html = (zensical_site / "mcp" / "stdio-transport" / "index.html").read_text(encoding="utf-8")
    body = article(page_html)
    # git-revision-date-localized is not a plugin Zensical knows: it is dropped without a word, so no "Last update".
    assert not LAST_UPDATE.search(body) and "git-revision-date" not in page_html
    # The level chip comes after the page's text, not above its title.
    assert body.index('<nav class="md-tags"') > body.rindex("Po polsku")
    # Search is Zensical's own (search.json and its own worker), not Material's lunr index that search-fold.js
    # folds Polish diacritics in.
    assert (zensical_site / "search.json").is_file()
    assert not (zensical_site / "search" / "search_index.json").exists()
    # the plugin runex-readers is left out: the report link names no commit, and llms.txt (Zensical's own, from the
    # plugin's settings) lists no page; nor does Zensical write a page's Markdown rendition (index.md).
    assert 'data-commit=""' in page_html
    assert "](" not in (zensical_site / "llms.txt").read_text(encoding="utf-8")
    assert not (zensical_site / "mcp" / "stdio-transport" / "index.md").exists()
