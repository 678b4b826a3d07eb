"""Issue 14: compiled kernels - ahead of time when built, the numba JIT otherwise, same results;
commands import only what they use."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from fourcards import jit, native

ENGINE_ONLY = ("fastapi", "dask", "distributed", "matplotlib", "sqlalchemy", "uvicorn")


def _imports_after(argv: list[str]) -> set[str]:
    """Top-level packages imported by running the CLI with ``argv`` in a fresh interpreter."""
    code = ("import sys, json\nfrom fourcards.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
            "    pass\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})), file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300)
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def test_issue14_help_imports_no_numpy_numba_or_web_stack():
    mods = _imports_after(["--help"])
    assert not mods & {"numpy", "numba", *ENGINE_ONLY}


def test_issue14_issue10_engine_commands_import_no_web_stack_dask_or_plots():
    assert not _imports_after(["kind", "odds", "7", "QQ", "3"]) & {"numpy", "numba", *ENGINE_ONLY}
    mods = _imports_after(["poker", "hand", "9h 9d 9s Kc 3d"])
    assert "numpy" in mods and not mods & {"numba", *ENGINE_ONLY}
    mods = _imports_after(["poker", "simulate", "--hands", "1000", "--strategy", "simple", "--seed", "1"])
    assert not mods & set(ENGINE_ONLY)
    if native.aot_module() is not None:
        assert "numba" not in mods  # the kernels were compiled at install


def test_issue14_aot_module_is_built_from_these_sources():
    """An installed (or ``setup.py build_ext --inplace``) checkout carries kernels compiled from
    its own sources; a stale build would be ignored in favour of the JIT."""
    try:
        import fourcards._aot as aot  # noqa: F401
    except ImportError:
        pytest.skip("fourcards._aot not built (no C compiler at install): kernels compile on first use")
    assert native.aot_module() is not None, "rebuild: python setup.py build_ext --inplace"


def test_issue14_stale_aot_module_is_ignored(monkeypatch):
    monkeypatch.setattr(native, "_AOT", [])
    monkeypatch.setattr(native, "source_hash", lambda: -1)
    assert native.aot_module() is None


def test_issue14_a_kernel_refuses_arguments_of_the_wrong_type():
    k = native.load("fourcards.sim.kernels", "the simulation kernels")
    state = np.zeros(4, dtype=np.uint64)
    with pytest.raises(TypeError, match="argument 2 must be a C-contiguous 2-d uint8 array"):
        k.deal_chunk(state, 3, np.zeros((3, 11), dtype=np.int64))
    with pytest.raises(TypeError, match="takes 3 arguments"):
        k.deal_chunk(state, 3)


def test_issue14_a_first_compile_says_so_on_stderr(monkeypatch):
    lines: list[str] = []
    monkeypatch.setattr(jit, "notice", lines.append)

    @jit.nb.njit(cache=False)
    def twice(x):
        return 2 * x

    with jit.compiling("a test kernel", twice) as announced:
        assert twice(21) == 42
    assert announced and lines[0].startswith("fourcards: compiling a test kernel (first run only")
    assert lines[-1].startswith(" done in ")
    lines.clear()
    with jit.compiling("a test kernel", twice) as announced:
        twice(1)
    assert not announced and not lines


@pytest.mark.slow
def test_issue14_jit_fallback_gives_the_same_results_as_the_compiled_module(tmp_path):
    """FOURCARDS_JIT=1 ignores fourcards._aot: numba compiles the same sources (with a progress
    line on stderr) and the simulation and the exact counts come out the same."""
    code = """
import json, numpy as np
from fourcards import native
from fourcards.poker import analysis as an
from fourcards.poker.exact.tables import _kernels
from fourcards.sim.poker import simulate_poker
assert native.aot_module() is None
r = simulate_poker(200_000, strategy="simple", seed=1, session_hands=100, bankroll=30)
t = an.base_tables()
k = _kernels()
order = np.argsort(t.orbit_rank, kind="stable").astype(np.int32)
player = np.empty(t.n_orbits, np.int32)
k.pack5(t.combos, t.orbit_colex[order], player)
starts = np.searchsorted(t.orbit_rank[order], np.arange(2536)).astype(np.int64)
le = np.full(t.n_orbits, -1, np.int32)
lt = le.copy()
from fourcards import hands
k.sweep_up_rank(7, t.combos, t.rank5, hands.DENSE_RANK_4, hands.BINOM, player, order, starts, le, lt,
                np.empty(2598960, np.uint16), np.empty(2598960, np.int32))
print(json.dumps({"counts": r.counts.ravel().tolist(), "ruined": r.sessions.ruined,
                  "le": le.tolist(), "lt": lt.tolist()}))
"""
    env = dict(os.environ, FOURCARDS_JIT="1", FOURCARDS_CACHE_DIR=str(tmp_path))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr
    jit_result = json.loads(proc.stdout)
    from fourcards.sim.poker import simulate_poker

    r = simulate_poker(200_000, strategy="simple", seed=1, session_hands=100, bankroll=30)
    assert jit_result["counts"] == r.counts.ravel().tolist() and jit_result["ruined"] == r.sessions.ruined
    from fourcards.poker import analysis as an

    c = an.exact_counts()
    assert jit_result["le"] == c.le[7].tolist() and jit_result["lt"] == c.lt[7].tolist()
