"""The tool's shape: its modules import each other without a cycle, and the wire package stands alone (it is what
"Run it here" copies into the reader's browser)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from support.repo import ROOT

from runex.paste import run_here

RUNEX = ROOT / "tools" / "runex"


def module_name(path: Path) -> str:
    parts = path.relative_to(RUNEX.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every runex module `path` imports, at any depth of its code (an import inside a function counts: it is a
    dependency all the same, only a later one)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "runex")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                prefix = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").split(".")[0] == "runex":
                prefix = node.module
            else:
                continue
            for alias in node.names:  # `from . import x` names module x; `from .m import y` names module m
                candidate = f"{prefix}.{alias.name}"
                found.add(candidate if _is_module(candidate) else prefix)
    return found


def _is_module(name: str) -> bool:
    path = RUNEX.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in RUNEX.rglob("*.py") if "templates" not in p.parts}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def cycle_in(edges: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        state[node] = 2
        stack.pop()
        return None

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_no_module_of_the_tool_imports_itself_back():
    edges = graph()
    assert "runex.examples.model" in edges and "runex.wire.rules" in edges["runex.examples.model"]
    cycle = cycle_in(edges)
    assert cycle is None, "an import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) is None


# The tool's layers, bottom first: what every stage shares (the guards, the protocol), the model of an example and
# of a run's outcome, the stages in the order data flows, the faces. A package or top-level module imports only the
# ones before it; DESIGN.md's map lists them in this order.
LAYERS = {
    "ground": ["errors", "fsutil", "environment", "toolchain", "sandboxing", "loopback", "integrity", "cache_gc", "wire", "schema"],
    "model": ["examples"],
    "stages": ["builds", "answer_key", "run", "paste", "cache", "conformance", "feature_table"],
    "faces": ["report", "pipeline", "new", "commands", "cli", "__main__", "mkdocs_plugin", "readers_plugin"],
}
ORDER = [unit for units in LAYERS.values() for unit in units]


def unit_of(module: str) -> str:
    """`runex.run.http` -> `run`; `runex.pipeline` -> `pipeline`."""
    return module.split(".")[1]


def package_edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for module, deps in graph().items():
        if module != "runex":
            edges.setdefault(unit_of(module), set()).update(unit_of(d) for d in deps if d != "runex")
    return {unit: deps - {unit} for unit, deps in edges.items()}


def test_every_package_has_its_place_in_the_layers():
    units = {unit_of(m) for m in graph() if m != "runex"}
    assert units == set(ORDER), (f"place these in LAYERS: {sorted(units - set(ORDER))}; "
                                 f"gone from the tool: {sorted(set(ORDER) - units)}")


def test_a_package_imports_only_the_ones_below_it():
    upward = [f"{unit} imports {dep} (which comes after it in LAYERS)"
              for unit, deps in sorted(package_edges().items()) for dep in sorted(deps)
              if ORDER.index(dep) > ORDER.index(unit)]
    assert not upward, "\n".join(upward)
    assert cycle_in(package_edges()) is None


def test_the_design_map_lists_the_packages_in_the_order_they_import():
    """DESIGN.md's map of tools/runex/ names each package and module in LAYERS order, so the map is the imports'."""
    design = (ROOT / "DESIGN.md").read_text(encoding="utf-8")
    block = design[design.index("tools/runex/\n"):]
    block = block[: block.index("```")]
    where = {}
    for unit in ORDER:
        name = unit + ("/" if (RUNEX / unit).is_dir() else ".py")
        assert name in block, f"DESIGN.md's map of tools/runex/ does not name {name}"
        where[unit] = block.index(name)
    assert sorted(ORDER, key=where.get) == ORDER, f"DESIGN.md's map lists them as {sorted(ORDER, key=where.get)}"
    unnamed = sorted(str(p.relative_to(RUNEX)) for p in RUNEX.rglob("*.py")
                     if p.name != "__init__.py" and "templates" not in p.parts and p.name not in block)
    assert not unnamed, f"DESIGN.md's map of tools/runex/ does not name {unnamed}"
    layout = design[: design.index("## The tool's layers")]
    tools = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tools").glob("*.py") if f"tools/{p.name}" not in layout)
    assert not tools, f"DESIGN.md's layout does not name {tools}"


def test_the_wire_package_imports_nothing_outside_itself():
    wire = {name: deps for name, deps in graph().items() if name.startswith("runex.wire")}
    assert {"runex.wire.check", "runex.wire.pairing", "runex.wire.protocol", "runex.wire.transcript"} <= set(wire)
    outside = {name: sorted(d for d in deps if not d.startswith("runex.wire")) for name, deps in wire.items()}
    assert not any(outside.values()), f"the wire package reaches outside itself: {outside}"


def test_the_wire_package_imports_alone_as_the_browser_loads_it(tmp_path):
    """What "Run it here" copies (run_here.tool_files), alone in a folder, imports and checks a run's stdout."""
    assert run_here.tool_files() == ["__init__.py", *sorted(f"wire/{p.name}" for p in (RUNEX / "wire").glob("*.py"))]
    for name in run_here.tool_files():
        (tmp_path / "runex" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "runex" / name).write_bytes((RUNEX / name).read_bytes())
    # -E -S: no PYTHONPATH, no site-packages (where the installed runex is); -c: the working folder comes first.
    script = ("import os, sys\n"
              "from runex.wire import check, transcript\n"
              "assert check.__file__.startswith(os.getcwd()), check.__file__\n"
              "line, _ = transcript.classify(1, b'{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}', 't')\n"
              "print([p.rule for p in check.check_stdout(b'oops\\n', [line], 'stdout', 't')])\n"
              "print(sorted(m for m in sys.modules if m.startswith('runex')))")
    done = subprocess.run([sys.executable, "-E", "-S", "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rules, modules = done.stdout.splitlines()
    assert rules == "['stdout-not-a-message', 'stdout-missing-reply']"
    assert all(m == "runex" or m.startswith("runex.wire") for m in eval(modules)), modules


MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def test_every_module_and_function_is_short_enough_to_hold_in_your_head():
    too_long = []
    for path in sorted(RUNEX.rglob("*.py")):
        if "templates" in path.parts:
            continue
        source = path.read_text(encoding="utf-8")
        rel = path.relative_to(RUNEX)
        if len(source.splitlines()) > MAX_MODULE_LINES:
            too_long.append(f"{rel}: {len(source.splitlines())} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{rel}:{node.lineno}: {node.name} is {length} lines")
    assert not too_long, "split these (modules at most 400 lines, functions at most 60):\n" + "\n".join(too_long)
