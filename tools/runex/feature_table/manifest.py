"""Read and rewrite the rmcp lines of an example's Cargo.toml. A feature is named by its section: `server` is asked
for under [dependencies], `dev:client` under [dev-dependencies] (what `cargo test` adds)."""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

SECTIONS = {"dependencies": "", "dev-dependencies": "dev:"}
HEADER = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")
RMCP_LINE = re.compile(r"^rmcp\s*=\s*\{.*\}\s*(#.*)?$")


class ManifestError(ValueError):
    pass


def declared(manifest: Path) -> list[str]:
    """The rmcp features the manifest asks for, in its order, prefixed by section."""
    data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    found = []
    for section, prefix in SECTIONS.items():
        spec = data.get(section, {}).get("rmcp")
        if isinstance(spec, dict):
            found += [prefix + name for name in spec.get("features", [])]
    if not found:
        raise ManifestError(f"{manifest}: no rmcp dependency with features under [dependencies]")
    return found


def rmcp_defaults(lock: Path) -> list[str]:
    """rmcp's `default` features, read from the Cargo.toml of the version the lock pins (in cargo's registry)."""
    packages = tomllib.loads(lock.read_text(encoding="utf-8"))["package"]
    version = next(p["version"] for p in packages if p["name"] == "rmcp")
    home = Path(os.environ.get("CARGO_HOME") or Path.home() / ".cargo")
    found = sorted(home.glob(f"registry/src/*/rmcp-{version}/Cargo.toml"))
    if not found:
        raise ManifestError(f"{lock}: rmcp {version} is not in {home}/registry; run: cargo fetch --manifest-path "
                            f"examples/Cargo.toml")
    return tomllib.loads(found[0].read_text(encoding="utf-8"))["features"]["default"]


def _version(manifest: Path, section: str) -> str:
    spec = tomllib.loads(manifest.read_text(encoding="utf-8"))[section]["rmcp"]
    return spec["version"]


def rewrite(manifest: Path, features: list[str]) -> str:
    """The manifest's text with each rmcp line asking for exactly `features` (of its section) and no defaults."""
    section = ""
    lines = manifest.read_text(encoding="utf-8").splitlines(keepends=True)
    for number, line in enumerate(lines):
        header = HEADER.match(line)
        if header:
            section = header["name"]
        elif line.startswith("rmcp") and section in SECTIONS:
            if not RMCP_LINE.match(line.rstrip("\n")):
                raise ManifestError(f"{manifest}:{number + 1}: write the rmcp dependency on one line, rmcp = "
                                    f"{{ version = ..., features = [...] }}, so the feature builds can rewrite it")
            mine = [f[len(SECTIONS[section]):] for f in features
                    if f.startswith(SECTIONS[section]) and (SECTIONS[section] or ":" not in f)]
            listed = ", ".join(f'"{name}"' for name in mine)
            lines[number] = (f'rmcp = {{ version = "{_version(manifest, section)}", default-features = false, '
                             f'features = [{listed}] }}\n')
    return "".join(lines)
