"""Build a Rust implementation for wasm32-wasip1, the module "Run it here" runs in the reader's browser.

The same sources, the same sandbox and the same cache as the native build (builds/native.py): the key covers the
recipe, which names the target, so a module and a native binary of one example are two entries side by side. The
module is checked by nothing here: the browser tests hold its stdout to the example's answer key.

An implementation that cannot run in a browser (threads, sockets, a crate feature that does not build for wasm32) is
declared in example.toml under [not_in_browser] with the reason its page shows; one that fails to build without such a
declaration is the example's error.
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from .. import sandboxing
from ..errors import BuildError
from ..examples.model import CONFIG, Example, Implementation, ImplementationKind
from . import native

TARGET = "wasm32-wasip1"
TARGET_FIX = f"rustup target add {TARGET}"  # what `make setup` and .ci/run run
RUST_KINDS = (ImplementationKind.RUST, ImplementationKind.CARGO)


def recipe(impl: Implementation) -> list[str]:
    if impl.name == ImplementationKind.RUST:
        return native.rustc_recipe(impl) + ["--target", TARGET]
    return native.cargo_recipe(False) + ["--target", TARGET]


RUNNER = Path("docs") / "javascripts" / "run-here-wasm-worker.js"  # the browser's side of "Run it here" in Rust


def site_runs_rust(root: Path) -> bool:
    """Whether this repository's site runs Rust in the browser: one without the runner (a test's own repository)
    needs no module, and builds none."""
    return (root / RUNNER).is_file()


def runs_in_browser(example: Example) -> list[Implementation]:
    """The example's Rust implementations the browser runs: every one not declared under [not_in_browser]."""
    return rust_for_browser(example.implementations, example.config.not_in_browser)


def rust_for_browser(impls: list[Implementation], not_in_browser) -> list[Implementation]:
    """Of `impls`, the Rust ones example.toml's [not_in_browser] (pairs of kind and reason) does not hold back: the
    one rule the build stage (which modules to build) and "Run it here" (which button to show) both follow."""
    declared = {name for name, _ in not_in_browser}
    return [i for i in impls if i.name in RUST_KINDS and i.name not in declared]


@functools.lru_cache(maxsize=1)
def _target_installed() -> bool:
    """Whether the toolchain has the target's standard library (rustup puts it under the sysroot)."""
    try:
        out = subprocess.run(["rustc", "--print", "target-libdir", "--target", TARGET], capture_output=True,
                             text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    libdir = Path(out.stdout.strip())
    return out.returncode == 0 and libdir.is_dir() and any(libdir.glob("libstd-*.rlib"))


def prepare(root: Path, example: Example, impl: Implementation, cache: native.Cache, *, locked: bool,
            sandbox: sandboxing.Sandbox | None = None) -> Path:
    """The wasm module of `impl` (a path in the build cache), built in the sandbox on a miss."""
    sandbox = sandbox or sandboxing.Sandbox()
    steps = recipe(impl)
    key = native.cache_key(root, impl, steps)
    module = None if cache.fresh else cache.lookup(key)
    if module is None and impl.name == ImplementationKind.CARGO:
        native.fetch(root, impl, locked)  # the same crates as the native build: usually there already
        key = native.cache_key(root, impl, steps)
        module = None if cache.fresh else cache.lookup(key)
    if module is not None:
        return module
    if not _target_installed():
        raise BuildError(f"the Rust target {TARGET} is not installed, and \"Run it here\" runs "
                         f"{impl.entry.relative_to(root)} in the reader's browser built for it; run `{TARGET_FIX}` "
                         f"(make setup does)", file=str(impl.entry.relative_to(root)))
    if impl.name == ImplementationKind.RUST:
        produce = lambda folder: native.run_rustc(root, impl, steps, folder, sandbox)  # noqa: E731
    else:
        produce = lambda folder: native.run_cargo(root, impl, cache, folder, sandbox, ("--target", TARGET))  # noqa: E731
    try:
        return cache.store(key, produce)
    except BuildError as exc:
        raise _undeclared(root, example, impl, exc) from None


def _undeclared(root: Path, example: Example, impl: Implementation, exc: BuildError) -> BuildError:
    config = (example.dir / CONFIG).relative_to(root)
    said = "\n".join(line for line in str(exc).splitlines() if not line.lstrip().startswith("Compiling "))
    return BuildError(
        f"{impl.entry.relative_to(root)} does not build for {TARGET}, which \"Run it here\" needs to run it in the "
        f"reader's browser:\n{said}\nIf it cannot run in a browser (threads, sockets, a crate feature that does not "
        f"build for {TARGET}), say why in {config}:\n    [not_in_browser]\n    {impl.name} = \"why\"\n"
        f"and its page shows that reason instead of the button; then run `python tools/run_examples.py "
        f"{example.name}`", file=str(config))
