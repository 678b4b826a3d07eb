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


#: What the exact analysis (``fourcards.poker.exact``) may import of the rest of ``fourcards.poker``:
#: the rules, the settlement and the side bets' tables it computes with, and the compiled kernels -
#: never the strategies' or policies' public paths, the round, the bots or the analysis facade.
EXACT_MAY_USE = {"fourcards.poker", "fourcards.poker.rules", "fourcards.poker.settlement", "fourcards.poker.side_bets",
                 "fourcards.poker.kernels", "fourcards.poker.protect_kernels", "fourcards.poker.side_bet_kernels"}


def test_issue28_5_the_exact_analysis_imports_nothing_above_it_in_poker() -> None:
    """Issue 28 item 5: ``strategy`` and ``policy`` live inside ``poker/exact/`` and nothing in it imports
    upward (``poker.strategy``, ``poker.policy``, ``poker.analysis``, ``poker.round``, ``poker.bots``)."""
    mods = modules()
    graph = import_graph(mods)
    exact = sorted(m for m in mods if _under(m, ("fourcards.poker.exact",)))
    assert {"fourcards.poker.exact.strategy", "fourcards.poker.exact.policy"} <= set(exact)
    up = {m: sorted(t for t in graph[m] if _under(t, ("fourcards.poker",)) and not _under(t, ("fourcards.poker.exact",))
                    and t not in EXACT_MAY_USE) for m in exact}
    assert {m: t for m, t in up.items() if t} == {}
    for public in ("fourcards.poker.strategy", "fourcards.poker.policy"):  # the public paths: re-exports only
        tree = ast.parse(mods[public].read_text())
        assert all(isinstance(n, (ast.Expr, ast.ImportFrom, ast.Assign)) for n in tree.body), public
        assert graph[public] <= {public.replace("poker.", "poker.exact.")}


#: Each rules engine: its package, the module of its state machine and the state class.
ENGINE_SHAPES = (("fourcards.kind", "game", "Game"), ("fourcards.poker", "round", "PokerRound"))


def test_issue28_5_poker_and_kind_have_the_same_shape() -> None:
    """Issue 28, done when: ``poker/`` and ``kind/`` the same shape - rules, actions (and the legal
    options), history records, observation, bots, each in its own module; the state machine's module
    holds the state class (and its phases) and builds on those, which never import it back."""
    mods = modules()
    graph = import_graph(mods)
    for pkg, machine, state in ENGINE_SHAPES:
        parts = {m.rsplit(".", 1)[1] for m in mods if m.startswith(pkg + ".") and m.count(".") == pkg.count(".") + 1}
        assert {"rules", "actions", "history", "observation", "bots", machine} <= parts, pkg
        tree = ast.parse(mods[f"{pkg}.{machine}"].read_text())
        classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        assert state in classes and classes <= {state, "Phase"}, (pkg, classes)
        assert {f"{pkg}.actions", f"{pkg}.history", f"{pkg}.observation"} <= graph[f"{pkg}.{machine}"], pkg
        for part in ("rules", "actions", "history", "observation"):
            assert f"{pkg}.{machine}" not in graph[f"{pkg}.{part}"], (pkg, part)


def test_issue28_no_python_file_in_the_poker_package_is_over_600_lines() -> None:
    """Issue 28, done when: no file in ``poker/`` over 600 lines (``round.py`` was 1,093)."""
    src = Path(__file__).resolve().parent.parent / "src" / "fourcards"
    files = sorted((src / "poker").rglob("*.py"))
    assert len(files) > 30
    long = {str(f.relative_to(src)): n for f in files if (n := len(f.read_text().splitlines())) > 600}
    assert long == {}
