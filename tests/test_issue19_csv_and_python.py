"""Issue 19 items 2 and 6: every CSV fourcards writes is safe to open in a spreadsheet, and every
Python from 3.11 on is declared and documented."""

from __future__ import annotations

import csv
import io
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from packaging.specifiers import SpecifierSet

from fourcards.csvtext import FORMULA_STARTS, csv_cell, csv_text, neutralise

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("text, cell", [
    ('=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'),
    ("+1+cmd|' /C calc'!A0", "'+1+cmd|' /C calc'!A0"),
    ("@SUM(1+1)", "'@SUM(1+1)"), ("-2+3", "'-2+3"), ("\tx", "'\tx"), ("\rx", "\"'\rx\""),
    ("Zoë", "Zoë"), ("a;=1+1", '"a;\'=1+1"'), ("", ""), (" =1", " '=1"),
    ("\n=", '"\n\'="'), ("x\r\n@A1", '"x\r\n\'@A1"'), ("a-b;c+d", '"a-b;c+d"'),
])
def test_issue19_csv_cells_starting_with_formula_characters_are_neutralised(text: str, cell: str) -> None:
    assert csv_cell(text) == cell


def test_issue19_csv_numbers_stay_numbers() -> None:
    assert csv_text([["net", -40, 0, None]]) == "net,-40,0,\r\n"
    with pytest.raises(TypeError):
        csv_cell(1.5)  # type: ignore[arg-type]


_CSV_TEXT = st.text(alphabet=st.sampled_from(list('=+-@;,"\'\r\n\t xé')), max_size=12) | st.text(max_size=12)


@given(st.lists(st.lists(_CSV_TEXT | st.integers(-10**12, 10**12), min_size=1, max_size=5),
                min_size=1, max_size=5))
def test_issue19_property_csv_reads_back_and_no_text_cell_starts_a_formula(rows) -> None:
    text = csv_text(rows)
    for row in csv.reader(io.StringIO(text, newline="")):  # as written: only a number may begin with '-'
        for cell in row:
            assert cell[:1] not in FORMULA_STARTS or re.fullmatch(r"-[0-9]+", cell), row
    for row in csv.reader(io.StringIO(text, newline=""), delimiter=";"):  # a spreadsheet set to ';'
        for cell in row:  # no cell runs as a formula; only a chip number may begin with "-"
            start = cell.lstrip("\r\n\t ")[:1]
            assert start not in "=+-@" or not start or re.match(r"-[0-9]+([,\r\n]|$)", cell.strip()), row
    back = list(csv.reader(io.StringIO(text, newline="")))
    want = [[str(v) if isinstance(v, int) else neutralise(v) for v in row] for row in rows]
    assert back == want


# ------------------------------------------------------------------ item 6: Python


def test_issue19_pyproject_declares_every_python_from_3_11() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    spec = SpecifierSet(project["requires-python"])
    assert "3.10" not in spec and all(v in spec for v in ("3.11", "3.12", "3.13", "3.14", "3.15"))
    declared = {c.rsplit(" :: ", 1)[1] for c in project["classifiers"] if re.search(r":: 3\.\d+$", c)}
    assert {"3.11", "3.12", "3.13"} <= declared


def test_issue19_readme_quick_start_says_python_3_11_or_newer_and_ci_runs_3_13() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "Python 3.11 or newer" in quick
    assert quick.count("python3 -m venv .venv") == 2 and "python3.11 -m venv" not in quick
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3.11 -m venv .venv " in ci and ".venv313/bin/pytest" in ci
