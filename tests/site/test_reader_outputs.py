"""What the built site gives readers and their tools besides the pages: llms.txt, llms-full.txt and each page as
Markdown (index.md beside index.html; mkdocs-llmstxt with tools/llms_markdown.py and the plugin runex-readers), a
"report a problem" link naming the page and the commit, and Open Graph tags with the page's description.

Read from the run's one strict build (built_site in tests/conftest.py).
"""

from __future__ import annotations

import json
import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from support.repo import ROOT

from runex.examples import model
from runex.paste import markers, pages

pytestmark = pytest.mark.slow  # reads the run's one site build

DOCS = ROOT / "docs"
CONFIG = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
SITE_URL = CONFIG["site_url"]
PAGES = sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md"))
FENCE = re.compile(r"^```(?P<lang>[a-z]*)\n(?P<body>.*?)^```$", re.S | re.M)


def site_path(src: str) -> str:
    """"mcp/rmcp.md" -> "mcp/rmcp/", "index.md" -> ""."""
    stem = src.removesuffix(".md")
    return "" if stem == "index" else stem.removesuffix("/index") + "/"


def front_matter(src: str) -> dict:
    text = (DOCS / src).read_text(encoding="utf-8")
    return yaml.safe_load(text[4:text.index("\n---", 3)]) if text.startswith("---\n") else {}


def nav_pages(items=None) -> list[str]:
    found = []
    for item in CONFIG["nav"] if items is None else items:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        found += nav_pages(value) if isinstance(value, list) else [value]
    return found


def markdown_of(built: Path, src: str) -> str:
    return (built / site_path(src) / "index.md").read_text(encoding="utf-8")


def fences(text: str) -> list[tuple[str, str]]:
    return [(m.group("lang"), m.group("body")) for m in FENCE.finditer(text)]


def fence_openings(text: str) -> list[tuple[int, str]]:
    """(line number, language) of every fenced block's opening line, nested in a list or not."""
    found, fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        match = re.match(r"^\s*(`{3,})(\w*)", line)
        if fence is None and match:
            fence = match.group(1)
            found.append((number, match.group(2)))
        elif fence is not None and line.strip() == fence:
            fence = None
    return found


@pytest.fixture(scope="module")
def built(built_site) -> Path:
    return built_site


def test_llms_txt_lists_every_page_in_reading_order_with_its_markdown_and_description(built):
    listed = re.findall(r"^- \[[^\]]+\]\((?P<url>[^)]+)\)(?::\s(?P<desc>.*))?$",
                        (built / "llms.txt").read_text(encoding="utf-8"), re.M)
    want = [(f"{SITE_URL}{site_path(src)}index.md", " ".join(front_matter(src)["description"].split()))
            for src in nav_pages()]
    assert listed == want
    assert set(nav_pages()) == set(PAGES), "a page outside the nav would have no line in llms.txt"


@pytest.mark.parametrize("src", PAGES)
def test_every_page_has_its_markdown_beside_it_and_in_llms_full(built, src):
    text = markdown_of(built, src)
    title = front_matter(src).get("title")
    assert text.startswith("# "), f"{src}: index.md does not open with the page's title"
    assert title is None or title in text.splitlines()[0] or src == "index.md"
    assert not re.search(r"^\s*<(div|svg|details|table)\b", text, re.M), f"{src}: HTML left in the Markdown"
    bare = [number for number, language in fence_openings(text) if not language]
    assert not bare, f"{src}: code blocks without their language, at lines {bare[:5]} of its index.md"
    assert text.strip() in (built / "llms-full.txt").read_text(encoding="utf-8"), f"{src}: not in llms-full.txt"


def _conversation_lines(src: str) -> list[tuple[str, str]]:
    """(example, transcript line) of every transcript line the page shows in a conversation."""
    text = (DOCS / src).read_text(encoding="utf-8")
    shown = []
    for block in markers.parse(text, src):
        if not isinstance(block, markers.Block) or not pages.is_conversation(block.target):
            continue
        name, _, part = block.target.partition("/conversation")
        config = model.load_config(ROOT / "examples" / name / "example.toml", "example.toml")
        transcript = ROOT / "examples" / (config.transcript_from or name) / "transcript.jsonl"
        lines = transcript.read_text(encoding="utf-8").splitlines()
        first, last = 1, len(lines)
        if part.startswith("#"):
            first, _, last_text = part[1:].partition("-")
            first, last = int(first), int(last_text or first)
        shown += [(name, line) for line in lines[first - 1:last]]
    return shown


def _canonical(text: str) -> str | None:
    """The JSON value `text` holds, in one spelling (keys sorted), or None for a line that is not JSON (shown as
    a ```text block)."""
    try:
        return json.dumps(json.loads(text), sort_keys=True)
    except json.JSONDecodeError:
        return None


WITH_CONVERSATIONS = [src for src in PAGES if _conversation_lines(src)]


@pytest.mark.parametrize("src", WITH_CONVERSATIONS)
def test_each_message_of_a_conversation_is_a_whole_json_block_in_the_markdown(built, src):
    """Not the page's shortened form (`_meta` as {…}): every transcript line the page shows, whole, as ```json."""
    found = fences(markdown_of(built, src))
    blocks = [body for lang, body in found if lang == "json"]
    values = {_canonical(body) for body in blocks}
    texts = {body.strip() for lang, body in found if lang == "text"}
    missing = [(name, line[:80]) for name, line in _conversation_lines(src)
               if line.strip() and (_canonical(line) or line.strip()) not in values | texts]
    assert not missing, f"{src}: {len(missing)} transcript lines are not a ```json block, first: {missing[:2]}"
    assert "{…}" not in "".join(blocks), f"{src}: a shortened message in the Markdown"


@pytest.mark.parametrize("src", PAGES)
def test_pasted_sources_keep_their_language(built, src):
    text = (DOCS / src).read_text(encoding="utf-8")
    pasted = {b.path.rsplit(".", 1)[-1] for b in markers.parse(text, src) if isinstance(b, markers.Block)}
    languages = {lang for lang, _ in fences(markdown_of(built, src))}
    for suffix, language in (("rs", "rust"), ("py", "python"), ("toml", "toml")):
        if suffix in pasted:
            assert language in languages, f"{src}: pastes a .{suffix} file, and its Markdown has no ```{language}"


class _Head(HTMLParser):
    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.report: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "meta":
            key = attributes.get("property") or attributes.get("name")
            if key:
                self.meta[key] = attributes.get("content") or ""
        if tag == "a" and "page-report" in (attributes.get("class") or "").split():
            self.report.append(attributes.get("href") or "")


def head_of(built: Path, src: str) -> _Head:
    head = _Head()
    head.feed((built / site_path(src) / "index.html").read_text(encoding="utf-8"))
    return head


@pytest.mark.parametrize("src", PAGES)
def test_every_page_has_open_graph_tags_and_its_description(built, src):
    meta = head_of(built, src).meta
    description = " ".join(front_matter(src)["description"].split())
    assert " ".join(meta.get("description", "").split()) == description, f"{src}: meta description"
    assert " ".join(meta.get("og:description", "").split()) == description, f"{src}: og:description"
    assert meta.get("og:url") == SITE_URL + site_path(src), f"{src}: og:url {meta.get('og:url')}"
    assert meta.get("og:title"), f"{src}: no og:title"
    assert meta.get("og:title") == (CONFIG["site_name"] if src == "index.md" else
                                    nav_titles().get(src) or front_matter(src)["title"]), f"{src}: og:title"


def test_every_page_has_a_description_in_its_front_matter():
    missing = [src for src in PAGES if not str(front_matter(src).get("description", "")).strip()]
    assert not missing, f"pages without a `description` in their front matter: {missing}"


@pytest.mark.parametrize("src", PAGES)
def test_the_report_link_opens_an_issue_naming_the_page_and_the_commit(built, src):
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    links = head_of(built, src).report
    assert len(links) == 1, f"{src}: {len(links)} report links"
    url = urlsplit(links[0])
    assert f"{url.scheme}://{url.netloc}{url.path}" == CONFIG["repo_url"] + "/issues/new"
    query = parse_qs(url.query)
    body = query["body"][0]
    assert SITE_URL + site_path(src) in body and f"docs/{src} at commit {commit}" in body, body
    assert f"{CONFIG['repo_url']}/blob/{commit}/docs/{src}" in body, body
    assert query["title"][0] == f'Problem on the page "{nav_titles().get(src) or front_matter(src)["title"]}"'


def nav_titles(items=None) -> dict[str, str]:
    """The titles the nav gives pages ({"Home": "index.md"}), which MkDocs shows instead of the front matter's."""
    found = {}
    for item in CONFIG["nav"] if items is None else items:
        if isinstance(item, dict):
            title, value = next(iter(item.items()))
            found.update(nav_titles(value) if isinstance(value, list) else {value: title})
    return found
