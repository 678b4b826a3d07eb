"""Issue 22, item 1: every Python code block of docs/rl.md runs as written (each on its own).

A block that imports stable-baselines3 or sb3-contrib (the ``sb3`` extra, kept out of
``test``: PyTorch) is skipped where they are not installed.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_issue22_docs_rl_has_python_blocks() -> None:
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_issue22_docs_rl_code_block_runs(index: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = BLOCKS[index]
    if re.search(r"\b(stable_baselines3|sb3_contrib|fourcards\.rl\.sb3)\b", code) and (
            importlib.util.find_spec("sb3_contrib") is None or importlib.util.find_spec("stable_baselines3") is None):
        pytest.skip("needs the sb3 extra (stable-baselines3, sb3-contrib)")
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"docs/rl.md block {index}", "exec"), {"__name__": "__docs__"})
