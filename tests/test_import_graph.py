"""No import circle in engine/: every import a module can run, at its top or inside a function
(only imports under `if TYPE_CHECKING:`, which never run, are left out), forms no cycle.  A
module that imports another inside a function to dodge a circle still closes that circle.
Importing a.b.c runs a/__init__.py and a/b/__init__.py first, so each package `__init__` an
import runs is an edge too (but not the importer's own packages: those already run)."""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "engine"


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(node: ast.AST):
    """Every import statement under `node`, in functions and classes too, but not those under
    `if TYPE_CHECKING:` (type names only, never run)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            yield from (i for other in child.orelse for i in imports_of(other))
        else:
            yield from imports(child)


def imports_of(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from imports(node)


def with_packages(importer: str, targets: set[str]) -> set[str]:
    """The targets and every package whose `__init__` importing them runs: each one's enclosing
    packages, less those enclosing the importer (already run before the importer's own code)."""
    own = {".".join(importer.split(".")[:k]) for k in range(1, importer.count(".") + 2)}
    found = set()
    for target in targets:
        parts = target.split(".")
        found.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return found - own | (targets - {importer})


def import_graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in imports(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
                continue
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            for alias in node.names:  # `from . import x` may name a module
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in paths else base)
        graph[name] = {m for m in with_packages(name, found) if m in paths and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_checker_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_an_import_runs_the_init_of_each_package_on_its_way():
    assert with_packages("engine.games.dvonn", {"engine.records.base"}) == {"engine.records", "engine.records.base"}
    assert with_packages("x", {"a.b.c"}) == {"a", "a.b", "a.b.c"}
    # a module's own packages have run before it: `from . import y` in a.b.x adds no edge to a.b
    assert with_packages("a.b.x", {"a.b.y", "a.c"}) == {"a.b.y", "a.c"}


def test_the_graph_has_the_edge_of_a_package_init_an_import_runs():
    graph = import_graph()
    assert "engine.records" in graph["engine.games.dvonn"]  # `from ...records.base import` runs records/__init__
    assert "engine.games.dvonn" not in graph["engine.games.dvonn.board"]  # its own package


def test_the_graph_reads_relative_and_package_imports():
    graph = import_graph()
    assert "engine.protocol.commands" in graph["engine.protocol.server"]
    assert "engine.protocol.gtp" in graph["engine.protocol.serving"]


def test_the_graph_reads_imports_inside_functions_and_not_type_names():
    graph = import_graph()
    assert "engine.games" in graph["engine.gui.__main__"]  # `from ..games import titles` in main()
    assert "engine.ponder" not in graph["engine.search"]  # only under `if TYPE_CHECKING:`


def test_no_import_circle_in_engine():
    assert cycles(import_graph()) == []
