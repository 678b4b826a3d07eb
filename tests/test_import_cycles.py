"""Every module of fourcards imports, and no two modules import each other (issue 10 item 6:
"no import cycles"), directly or round a longer loop.

The import graph is read from the source (:mod:`ast`): every ``import`` and ``from ... import``
of a fourcards module counts, at module level, inside functions and under ``TYPE_CHECKING``
alike - a cycle that only a lazy import keeps from failing is still a cycle.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import fourcards

SRC = Path(fourcards.__file__).resolve().parent
#: Modules that run something when imported (the CLI entry, Alembic's migration script).
NOT_IMPORTED = {"fourcards.__main__", "fourcards.store.migrations.env"}
#: Modules of an extra outside ``test`` (docs: README "extras"): imported only where it is installed.
OUTSIDE_TEST = {"fourcards.rl.sb3": "stable_baselines3"}


def modules(root: Path = SRC) -> dict[str, Path]:
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(mods: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the fourcards modules it imports (``from a import b``: ``a.b`` if it is a module, else ``a``)."""
    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                base = node.module
                if node.level:  # relative: from the package of this module
                    pkg = name.split(".")[: len(name.split(".")) - node.level + (path.name == "__init__.py")]
                    base = ".".join([*pkg, node.module])
                targets |= {f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names}
        graph[name] = {t for t in targets if t in mods and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[frozenset[str]] = []

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
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_module_imports() -> None:
    names = [m.name for m in pkgutil.walk_packages(fourcards.__path__, "fourcards.")]
    assert "fourcards.table.reducer" in names and "fourcards.kind.game" in names
    for name in names:
        needs = OUTSIDE_TEST.get(name)
        if name not in NOT_IMPORTED and (needs is None or importlib.util.find_spec(needs) is not None):
            importlib.import_module(name)


def test_no_import_cycles() -> None:
    found = cycles(import_graph(modules()))
    assert found == [], f"import cycles: {[sorted(c) for c in found]}"


def test_the_cycle_check_finds_a_cycle_through_a_lazy_or_type_checking_import(tmp_path: Path) -> None:
    pkg = tmp_path / "fourcards"
    (pkg / "web").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "web" / "__init__.py").write_text("")
    (pkg / "web" / "hub.py").write_text("from fourcards.web.tables import Table\n")
    (pkg / "web" / "tables.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                          "    from fourcards.web.hub import Hub\n")
    (pkg / "web" / "app.py").write_text("def f():\n    from fourcards.web import hub\n")
    assert cycles(import_graph(modules(pkg))) == [frozenset({"fourcards.web.hub", "fourcards.web.tables"})]
