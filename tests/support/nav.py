"""The reading path as mkdocs.yml's nav states it: its sections, and the track pages with their sections' levels."""

from __future__ import annotations

import re

import yaml

from support.repo import ROOT

SECTION_LEVEL = re.compile(r"^(101|201|301) · ")


def mkdocs_config() -> dict:
    return yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))


def nav_sections() -> list[tuple[str | None, list[str]]]:
    """(section title or None for a top-level page, [page paths]) in nav order."""
    sections = []
    for item in mkdocs_config()["nav"]:
        title, value = next(iter(item.items())) if isinstance(item, dict) else (None, item)
        if isinstance(value, list):
            pages = [next(iter(v.values())) if isinstance(v, dict) else v for v in value]
            assert all(isinstance(p, str) for p in pages), f"nav section {title!r}: nested sections are not expected"
            sections.append((title, pages))
        else:
            sections.append((None, [value]))
    return sections


def track() -> list[tuple[str, str]]:
    """(page, level of its nav section) for every page in a level section, in nav order."""
    found = []
    for title, pages in nav_sections():
        match = SECTION_LEVEL.match(title or "")
        if match:
            found += [(page, match.group(1)) for page in pages]
    return found


def pages() -> list[str]:
    """Every page of the nav in reading order (Home and Browse by level first, Contributing last)."""
    return [page for _, section in nav_sections() for page in section]
