"""The package's layering, read from the source with ast (no import side effects).

Every import counts, including those inside functions and under ``TYPE_CHECKING``:
a cycle hidden in a function body is still a cycle a reader has to untangle.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Packages whose modules must not import each other in a cycle.
ACYCLIC = ("enzyme.ad", "enzyme.analysis", "enzyme.rules")
# Packages that must not import the ones named: rules are data the engine reads, never the reverse; the
# engine and the analyses never reach up into the user-facing layers.
FORBIDDEN = {"enzyme.rules": ("enzyme.ad", "enzyme.api"),
             "enzyme.ad": ("enzyme.api", "enzyme.driver"),
             "enzyme.analysis": ("enzyme.ad", "enzyme.api", "enzyme.driver")}
# The engine's modules stay small enough to read in one sitting: split one that grows past this.
MAX_ENGINE_MODULE_LINES = 500


def _modules() -> dict[str, Path]:
    mods = {}
    for path in (ROOT / "enzyme").rglob("*.py"):
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        mods[name.removesuffix(".__init__")] = path
    return mods


def import_graph() -> dict[str, set[str]]:
    """Module -> the enzyme modules it imports (``from pkg import mod`` names the submodule)."""
    mods = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1])
                    base += "." + node.module if node.module else ""
                else:
                    base = node.module or ""
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    deps.add(sub if sub in mods else base)
            elif isinstance(node, ast.Import):
                deps.update(alias.name for alias in node.names)
        graph[name] = {d for d in deps if d in mods and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root, deps in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(deps)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


@pytest.mark.parametrize("package", ACYCLIC)
def test_no_import_cycle(package: str) -> None:
    graph = import_graph()
    sub = {m: {d for d in deps if _inside(d, package)} for m, deps in graph.items() if _inside(m, package)}
    assert cycles(sub) == []


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_no_upward_import(package: str) -> None:
    graph = import_graph()
    upward = sorted(f"{m} -> {d}" for m, deps in graph.items() if _inside(m, package)
                    for d in deps for banned in FORBIDDEN[package] if _inside(d, banned))
    assert upward == []


def test_the_checks_see_cycles_and_upward_edges() -> None:
    # The checker itself: a cycle through a function-level import is found.
    graph = {"a.x": {"a.y"}, "a.y": {"a.z"}, "a.z": {"a.x"}, "a.w": {"a.x"}}
    assert cycles(graph) == [["a.x", "a.y", "a.z"]]
    assert cycles({"a.x": {"a.y"}, "a.y": set()}) == []
    # The real graph has the edges this file relies on (so an empty answer is not a parsing failure).
    real = import_graph()
    assert "enzyme.rules" in real["enzyme.analysis.known_functions"]
    assert "enzyme.analysis.type_solver" in real["enzyme.analysis.type_analysis"]
    assert ["enzyme.ir.blocks", "enzyme.ir.instructions", "enzyme.ir.values"] in cycles(real)


def test_engine_modules_stay_small() -> None:
    long = sorted(f"{p.name}: {n} lines" for p in (ROOT / "enzyme" / "ad").glob("*.py")
                  if (n := len(p.read_text().splitlines())) > MAX_ENGINE_MODULE_LINES)
    assert long == []


def test_handlers_never_import_the_walks() -> None:
    # The block walks (forward.py, reverse.py) dispatch to handlers; handlers see only the state objects.
    # split.py is a mode built on the reverse sweeps, forward_split.py one built on the forward walk: they may
    # call them.
    real = import_graph()
    walks = {"enzyme.ad.forward", "enzyme.ad.reverse"}
    modes = {"enzyme.ad.split", "enzyme.ad.forward_split"}
    reaching = sorted(f"{m} -> {d}" for m, deps in real.items()
                      if m.startswith("enzyme.ad.") and m not in walks | modes for d in deps & walks)
    assert reaching == []
    assert "enzyme.ad.call_kinds" in real["enzyme.ad.forward_calls"] & real["enzyme.ad.reverse_calls"]
