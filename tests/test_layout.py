"""The engines stand alone (issue 10 item 6; docs/engine.md): "the engines know nothing of the web or
the database"): the rules engines, hand values, cards and the exact analysis import nothing of
the web app, the store, the command line, the reports or the simulator, and no third-party
package beyond numpy, numba and platformdirs - what ``pip install .`` with no extra gives them.

The import graph is read from the source (:mod:`ast`, as in ``test_import_cycles.py``): an
import inside a function counts as much as one at the top of a module.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from test_import_cycles import import_graph, modules

#: The engine packages and modules (everything under a package counts).
ENGINES = ("fourcards.poker", "fourcards.kind", "fourcards.engine", "fourcards.hands", "fourcards.cards")
#: What an engine must never reach.
OUTSIDE = ("fourcards.web", "fourcards.store", "fourcards.cli", "fourcards.report", "fourcards.sim")
#: Third-party packages an engine may import: the base install's, less the CLI's (typer, rich).
ENGINE_DEPENDENCIES = {"numpy", "numba", "platformdirs"}


def _under(name: str, packages: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _path_to(graph: dict[str, set[str]], start: str, bad: tuple[str, ...]) -> list[str] | None:
    """An import chain from ``start`` to a module under ``bad`` (breadth first), or None."""
    prev: dict[str, str | None] = {start: None}
    queue = [start]
    for mod in queue:
        if _under(mod, bad):
            chain = [mod]
            while prev[chain[-1]] is not None:
                chain.append(prev[chain[-1]])  # type: ignore[arg-type]
            return chain[::-1]
        for target in sorted(graph[mod]):
            if target not in prev:
                prev[target] = mod
                queue.append(target)
    return None


def _third_party(path: Path) -> set[str]:
    """Top-level names of the non-fourcards, non-standard-library packages a module imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return {n for n in names if n != "fourcards" and n not in sys.stdlib_module_names and n != "__future__"}


def _engine_closure() -> tuple[dict[str, Path], dict[str, set[str]], set[str]]:
    mods = modules()
    graph = import_graph(mods)
    seen: set[str] = set()
    todo = [m for m in mods if _under(m, ENGINES)]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    return mods, graph, seen


def test_issue10_6_engines_import_nothing_of_web_store_cli_report_or_sim() -> None:
    mods, graph, _ = _engine_closure()
    engines = sorted(m for m in mods if _under(m, ENGINES))
    assert "fourcards.poker.analysis" in engines and "fourcards.kind.game" in engines
    chains = [" -> ".join(c) for m in engines if (c := _path_to(graph, m, OUTSIDE)) is not None]
    assert chains == [], "engine modules reach web/store/cli/report/sim:\n" + "\n".join(chains)


def test_issue10_6_engines_need_only_numpy_numba_and_platformdirs() -> None:
    mods, _, closure = _engine_closure()
    extra = {m: sorted(_third_party(mods[m]) - TABLE_DEPENDENCIES) for m in sorted(closure)}
    assert {m: e for m, e in extra.items() if e} == {}


def test_issue10_6_importing_every_engine_module_loads_no_web_store_cli_report_sim_or_extra() -> None:
    """At run time too, in a fresh interpreter: nothing of the web stack, Dask, matplotlib or the CLI."""
    mods, _, _ = _engine_closure()
    engines = sorted(m for m in mods if _under(m, ENGINES))
    code = ("import importlib, json, sys\n"
            f"for m in {engines!r}:\n    importlib.import_module(m)\n"
            "print(json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    loaded = json.loads(proc.stdout)
    assert [m for m in loaded if _under(m, OUTSIDE)] == []
    heavy = {"fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "jinja2", "pydantic", "dask",
             "distributed", "matplotlib", "typer", "rich", "click"}
    assert sorted({m.split(".")[0] for m in loaded} & heavy) == []


#: The shared table's rules (issue 20 item 1): a pure state machine.
TABLE = ("fourcards.table",)
#: What the table package must never reach: the web, the store, the command line.
TABLE_OUTSIDE = ("fourcards.web", "fourcards.store", "fourcards.cli", "fourcards.report", "fourcards.sim")
#: Third-party packages the table may import: the engines', and ICU for look-alike names (issue 26:
#: Unicode text, neither a web framework nor a database library; fourcards.table.names).
TABLE_DEPENDENCIES = ENGINE_DEPENDENCIES | {"icu"}


def test_issue20_1_the_table_package_imports_no_web_framework_and_no_database_library() -> None:
    """The table's rules are pure: no FastAPI, Starlette, pydantic, SQLAlchemy, Alembic, psycopg,
    uvicorn, websockets - statically (every import, in functions too) and at run time."""
    mods = modules()
    graph = import_graph(mods)
    tables = sorted(m for m in mods if _under(m, TABLE))
    assert "fourcards.table.reducer" in tables and "fourcards.table.views" in tables
    chains = [" -> ".join(c) for m in tables if (c := _path_to(graph, m, TABLE_OUTSIDE)) is not None]
    assert chains == [], "table modules reach web/store/cli:\n" + "\n".join(chains)
    closure: set[str] = set()
    todo = list(tables)
    while todo:
        m = todo.pop()
        if m not in closure:
            closure.add(m)
            todo.extend(graph[m])
    extra = {m: sorted(_third_party(mods[m]) - TABLE_DEPENDENCIES) for m in sorted(closure)}
    assert {m: e for m, e in extra.items() if e} == {}
    code = ("import importlib, json, sys\n"
            f"for m in {tables!r}:\n    importlib.import_module(m)\n"
            "print(json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    loaded = {m.split(".")[0] for m in json.loads(proc.stdout)}
    web_and_db = {"fastapi", "starlette", "uvicorn", "sqlalchemy", "alembic", "psycopg", "pydantic", "websockets",
                  "jinja2", "orjson"}
    assert sorted(loaded & web_and_db) == []


def test_issue20_no_python_file_in_the_table_package_or_the_web_is_over_600_lines() -> None:
    """Issue 20, done when: no Python file in ``fourcards/table`` or ``fourcards/web`` over 600 lines
    (one module, one job; the old ``Table`` class was ~1,450)."""
    src = Path(__file__).resolve().parent.parent / "src" / "fourcards"
    files = sorted((src / "table").rglob("*.py")) + sorted((src / "web").rglob("*.py"))
    assert len(files) > 20
    long = {str(f.relative_to(src)): n for f in files if (n := len(f.read_text().splitlines())) > 600}
    assert long == {}
