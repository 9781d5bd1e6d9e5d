"""The site as the browser tests see it: build it, serve it, and know what each page should show.

Nothing here drives a browser. It builds the site with `mkdocs build --strict`, serves the result on 127.0.0.1,
lists the pages, and computes what the checks in checks.py compare against: the text each pasted block must show
(with the tool's own functions), each page's headings and sections, and the words to search for.
"""

from __future__ import annotations

import functools
import html
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from support.repo import IN_CI, ROOT, site_env
from runex.paste import markers, pages  # the tool's own marker parser, region extractor and titles

POLISH_LETTERS = set("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ")
# Headings every page repeats (contract), useless as search terms for one page.
SHARED_HEADINGS = {"sources", "po polsku", "if you are coming from another language", "python", "abap", "anyone"}
# The stop words Material's search worker drops from every query and document (lunr's English list).
STOP_WORDS = set("""a able about across after all almost also am among an and any are as at be because been but by can
cannot could dear did do does either else ever every for from get got had has have he her hers him his how however i
if in into is it its just least let like likely may me might most must my neither no nor not of off often on only or
other our own rather said say says she should since so some than that the their them then there these they this tis
to too twas us wants was we were what when where which while who whom why will with would yet you your""".split())


# ---------------------------------------------------------------- the browser

INSTALL_HINT = "apt-get install -y chromium (or set CHROMIUM=/path/to/chrome)"


def find_chromium() -> tuple[str | None, str]:
    """(executable, "") when playwright and a Chromium are there; (None, what to install) otherwise."""
    if importlib.util.find_spec("playwright") is None:
        return None, ("browser tests need the playwright package: "
                      ".venv/bin/pip install -r requirements.txt -c constraints.txt")
    given = os.environ.get("CHROMIUM")
    if given:
        if Path(given).is_file() and os.access(given, os.X_OK):
            return given, ""
        return None, f"browser tests: CHROMIUM={given} is not an executable file; {INSTALL_HINT}"
    found = shutil.which("chromium")
    if found:
        return found, ""
    return None, f"browser tests need Chromium: {INSTALL_HINT}"


def skip_module_without_browser() -> None:
    """Outside CI, a module of browser tests skips whole when there is no browser: one line in the summary for
    the folder, not one per test. In CI (CI=true) nothing is skipped here; the fixtures then fail every test."""
    executable, reason = find_chromium()
    if executable is None and not IN_CI:
        import pytest

        pytest.skip(reason, allow_module_level=True)


# ---------------------------------------------------------------- building and serving

class BuildError(Exception):
    pass


def build_site(root: Path, site_dir: Path, timeout: float = 300) -> None:
    """`mkdocs build --strict` of root/mkdocs.yml into site_dir, exactly as the published build runs it: first
    tools/site_assets.py (Pyodide and the runnable examples into docs/assets/run), as `make site` does."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    assets = subprocess.run([sys.executable, str(ROOT / "tools" / "site_assets.py"), "--root", str(root)], cwd=root,
                            env=env, capture_output=True, text=True, timeout=timeout)
    if assets.returncode != 0:
        raise BuildError(f"tools/site_assets.py failed for {root} (exit {assets.returncode}):\n"
                         + (assets.stdout + assets.stderr).strip())
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(root / "mkdocs.yml"),
               "--site-dir", str(site_dir)]
    env = site_env()
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip().splitlines()
        raise BuildError(f"`mkdocs build --strict` failed for {root / 'mkdocs.yml'} (exit {done.returncode}):\n"
                         + "\n".join(output[-40:]))


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args) -> None:  # noqa: A002 (signature of the base class)
        pass


class SiteServer:
    """A threaded static server for one built site on 127.0.0.1, on a port the OS picks."""

    def __init__(self, directory: Path):
        handler = functools.partial(_QuietHandler, directory=str(directory))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name=f"site-server-{self.port}",
                                       daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=10)


# ---------------------------------------------------------------- pages

@dataclass(frozen=True)
class Doc:
    """One page: its Markdown source (relative to the repository root) and its path on the site."""
    src: str  # "docs/mcp/what-is-mcp.md"
    path: str  # "mcp/what-is-mcp/" ("" for the home page)

    @property
    def label(self) -> str:
        return f"{self.src} (/{self.path})"

    @property
    def slug(self) -> str:
        return self.path.strip("/").replace("/", "-") or "index"


def discover_docs(root: Path) -> list[Doc]:
    """Every Markdown page under docs/, with the URL MkDocs gives it (directory URLs, MkDocs' default)."""
    docs_dir = root / "docs"
    found = []
    for source in sorted(docs_dir.rglob("*.md")):
        rel = source.relative_to(docs_dir)
        parts = list(rel.with_suffix("").parts)
        if parts[-1] in ("index", "README"):
            parts = parts[:-1]
        path = "/".join(parts) + "/" if parts else ""
        found.append(Doc(str(source.relative_to(root)), path))
    return found


def built_pages(site_dir: Path) -> set[str]:
    """Site paths of every HTML page in a build (not the 404 page, not theme assets)."""
    paths = set()
    for page in site_dir.rglob("index.html"):
        rel = page.parent.relative_to(site_dir)
        if rel.parts and rel.parts[0] in ("assets", "search"):
            continue
        paths.add("/".join(rel.parts) + "/" if rel.parts else "")
    return paths


# ---------------------------------------------------------------- what pasted blocks must show

@dataclass(frozen=True)
class Expected:
    """One marker pair in a page: the title the tool gives its block, and the text the block must show."""
    doc: Doc
    line: int  # line of the begin marker in the page source
    target: str  # "first-server/main.rs#read-loop"
    title: str  # "examples/first-server/main.rs (region read-loop)"
    text: str  # the file or region, anchor lines removed, as markers.extract_region returns it


def expected_blocks(root: Path, doc: Doc) -> list[Expected]:
    """Every marker pair in the page, with its expected text computed from examples/ by the tool's functions."""
    source_text = (root / doc.src).read_text(encoding="utf-8")
    found = []
    for segment in markers.parse(source_text, doc.src):
        if not isinstance(segment, markers.Block) or pages.is_conversation(segment.target) \
                or pages.is_http_view(segment.target) or pages.is_view(segment.target, pages.SSE_VIEW):
            continue  # a view is no file: test_conversation.py checks conversations, test_http_view.py the HTTP
            # table and the SSE view
        source_rel = f"examples/{segment.path}"
        file_text = (root / source_rel).read_text(encoding="utf-8")
        text = markers.extract_region(file_text, segment.region, source_rel)
        title = pages.title_for(source_rel, file_text, segment.region)
        found.append(Expected(doc, segment.line, segment.target, title, text))
    return found


# ---------------------------------------------------------------- the built page, read without a browser

@dataclass
class Heading:
    level: int
    id: str
    text: str


@dataclass
class Outline:
    """Headings of a built page in order, the text under each, and the section each titled code block is in."""
    headings: list[Heading] = field(default_factory=list)
    section_text: dict[str, str] = field(default_factory=dict)  # heading id -> text up to the next heading
    block_sections: list[tuple[str, str]] = field(default_factory=list)  # (code block title, heading id)


class _OutlineParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.outline = Outline()
        self.heading: Heading | None = None
        self.in_headerlink = 0
        self.in_filename = False
        self.filename = ""
        self.section = ""
        self.texts: dict[str, list[str]] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if re.fullmatch(r"h[1-6]", tag) and attributes.get("id"):
            self.heading = Heading(int(tag[1]), attributes["id"], "")
        elif self.heading is not None and tag == "a" and "headerlink" in classes:
            self.in_headerlink += 1
        elif tag == "span" and "filename" in classes:
            self.in_filename = True
            self.filename = ""

    def handle_endtag(self, tag):
        if self.heading is not None and tag == "a" and self.in_headerlink:
            self.in_headerlink -= 1
        elif self.heading is not None and tag == f"h{self.heading.level}":
            self.heading.text = " ".join(self.heading.text.split())
            self.outline.headings.append(self.heading)
            self.section = self.heading.id
            self.heading = None
        elif tag == "span" and self.in_filename:
            self.in_filename = False
            self.outline.block_sections.append((self.filename, self.section))

    def handle_data(self, data):
        if self.heading is not None:
            if not self.in_headerlink:
                self.heading.text += data
            return
        if self.in_filename:
            self.filename += data
        if self.section:
            self.texts.setdefault(self.section, []).append(data)


def read_outline(html_text: str) -> Outline:
    """Only the article is read: Material's header, navigation and footer hold no headings with ids."""
    start = html_text.find('<article class="md-content__inner')
    end = html_text.find("</article>", start)
    parser = _OutlineParser()
    parser.feed(html_text[start:end] if start >= 0 and end > start else html_text)
    parser.close()
    outline = parser.outline
    outline.section_text = {key: " ".join("".join(parts).split()) for key, parts in parser.texts.items()}
    return outline


# ---------------------------------------------------------------- search terms

# The built site's search index, under the site folder; Material's search worker fetches it on every page load.
SEARCH_INDEX = "search/search_index.json"


class SearchIndex:
    """The built site's search index, tokenised with the separator the site configures, as lunr sees it."""

    def __init__(self, data: dict):
        self.separator = re.compile(data["config"]["separator"])
        self.docs = [(doc["location"], set(self.tokens(doc.get("title", ""))) | set(self.tokens(doc["text"])))
                     for doc in data["docs"]]

    def tokens(self, text: str) -> list[str]:
        plain = html.unescape(re.sub(r"<[^>]+>", " ", text))
        return [token.lower() for token in self.separator.split(plain) if token]

    def count(self, word: str) -> int:
        return sum(1 for _, tokens in self.docs if word in tokens)


@dataclass(frozen=True)
class SearchTerm:
    kind: str  # "English", "JSON transcript", "Polish"
    word: str
    doc: Doc
    heading: str  # id of the heading the result must open at; "" for the top of the page (the h1)
    why: str  # where the word was taken from, for the failure message


def _rarest(candidates: list[str], index: SearchIndex) -> str | None:
    unique = sorted(set(candidates))
    if not unique:
        return None
    return min(unique, key=lambda word: (index.count(word), -len(word), word))


def _search_section(outline: Outline, heading_id: str) -> str:
    """The heading a search result for text in this section links to: h1 sections are the page itself."""
    for heading in outline.headings:
        if heading.id == heading_id:
            return "" if heading.level == 1 else heading.id
    return ""


def search_terms(doc: Doc, outline: Outline, index: SearchIndex, blocks: list[Expected]) -> tuple[
        list[SearchTerm], list[str]]:
    """Up to three words to search for, each the rarest on the site of its kind; and what is missing."""
    terms: list[SearchTerm] = []
    missing: list[str] = []

    # English: a word from one of the page's own headings (not the headings every page repeats).
    own = [h for h in outline.headings if h.level in (2, 3) and h.text.lower() not in SHARED_HEADINGS]
    if not own:
        own = [h for h in outline.headings if h.level == 1]
    best = None
    for heading in own:
        words = [w for w in index.tokens(heading.text)
                 if re.fullmatch(r"[a-z]{5,}", w) and w not in STOP_WORDS]
        word = _rarest(words, index)
        if word and (best is None or (index.count(word), -len(word)) < (index.count(best[0]), -len(best[0]))):
            best = (word, heading)
    if best:
        word, heading = best
        terms.append(SearchTerm("English", word, doc, "" if heading.level == 1 else heading.id,
                                f"heading {heading.text!r}"))
    else:
        missing.append("no heading with an English word of five letters or more to search for")

    # JSON transcript: a word inside the first transcript pasted on the page, found in the section showing it.
    sections = dict(outline.block_sections)
    for block in blocks:
        if not block.title.split(" ")[0].endswith("transcript.jsonl") or block.title not in sections:
            continue
        words = [w for w in index.tokens(block.text)
                 if re.fullmatch(r"[a-z][a-z0-9]{3,}", w) and w not in STOP_WORDS]
        word = _rarest(words, index)
        if word:
            terms.append(SearchTerm("JSON transcript", word, doc, _search_section(outline, sections[block.title]),
                                    f"pasted block {block.title}"))
        break

    # Polish: a word with diacritics from the page's Po polsku section.
    polish = next((h for h in outline.headings if h.text.lower() == "po polsku"), None)
    if polish is None:
        missing.append("no 'Po polsku' section, so no Polish word to search for")
    else:
        words = [w for w in index.tokens(outline.section_text.get(polish.id, ""))
                 if len(w) >= 4 and POLISH_LETTERS & set(w) and re.fullmatch(r"\w+", w) and w not in STOP_WORDS]
        word = _rarest(words, index)
        if word:
            terms.append(SearchTerm("Polish", word, doc, polish.id, "section 'Po polsku'"))
        else:
            missing.append("the 'Po polsku' section has no word with Polish diacritics")
    return terms, missing


# ---------------------------------------------------------------- one built site

@dataclass
class Site:
    root: Path  # the sources it was built from (repository root, or a broken copy of it)
    site_dir: Path
    base_url: str
    docs: list[Doc] = field(repr=False)

    def url(self, doc: Doc) -> str:
        return self.base_url + doc.path

    def doc(self, src: str) -> Doc:
        for doc in self.docs:
            if doc.src == src:
                return doc
        raise KeyError(src)

    def after(self, doc: Doc) -> Doc:
        """The next page in order (wrapping), for checks that need to go from one page to another."""
        position = self.docs.index(doc)
        return self.docs[(position + 1) % len(self.docs)]

    @functools.cached_property
    def index_json(self) -> dict:
        """SEARCH_INDEX as built, parsed once per test process."""
        return json.loads((self.site_dir / SEARCH_INDEX).read_text(encoding="utf-8"))

    @functools.cached_property
    def index(self) -> SearchIndex:
        return SearchIndex(self.index_json)

    @functools.cached_property
    def empty_index(self) -> str:
        """The site's search index with its settings and no page: what a context without search is served."""
        return json.dumps({"config": self.index_json["config"], "docs": []})

    def html_file(self, doc: Doc) -> Path:
        return self.site_dir / doc.path / "index.html"

    def outline(self, doc: Doc) -> Outline:
        return read_outline(self.html_file(doc).read_text(encoding="utf-8"))

    def expected(self, doc: Doc) -> list[Expected]:
        return expected_blocks(self.root, doc)


def serve_site(root: Path, site_dir: Path) -> tuple[Site, SiteServer]:
    """Build root's mkdocs.yml strictly into site_dir and serve it on 127.0.0.1; the caller stops the server."""
    build_site(root, site_dir)
    server = SiteServer(site_dir)
    return Site(root=root, site_dir=site_dir, base_url=server.base_url, docs=discover_docs(root)), server
