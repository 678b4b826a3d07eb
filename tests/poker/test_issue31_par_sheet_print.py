"""Issue 31 items 1-4: a par sheet a regulator signs - the workbook made to print and to be read
without recalculating, the identity block in every export, ``fourcards --version``, the PDF par
sheet and strategy card, the win cap on the sheet."""

from __future__ import annotations

import csv
import json
import math
import os
import re
import shutil
import subprocess
from importlib.metadata import version

import cli_run
import pytest

from fourcards import launch
from fourcards.cli import main as typer_main
from fourcards.extras import EXTRAS
from fourcards.report.identity import content_hash
from fourcards.report.pdf import pct, return_row_cells
from fourcards.report.spreadsheet import SHEET_NAMES, displayed


def run(capsys, entry, *argv):
    return cli_run.run(capsys, *argv, entry=entry)


@pytest.fixture(scope="module")
def exports(counts, tmp_path_factory):
    """``poker analyze --json --xlsx --csv --pdf`` for both presets (and a side bet on ``online``):
    ``{preset: (json, xlsx path, csv dir, pdf path)}``."""
    out = {}
    tmp = tmp_path_factory.mktemp("issue31")
    for preset, extra in (("live", []), ("online", ["--side-bet", "player:3K=40,SF=100,4K=400"])):
        xlsx, csv_dir, pdf = tmp / f"{preset}.xlsx", tmp / f"{preset}-csv", tmp / f"{preset}.pdf"
        try:
            launch.main(["poker", "analyze", "--rules", preset, "--json", "--out", str(tmp / f"{preset}.json"),
                         "--xlsx", str(xlsx), "--csv", str(csv_dir), "--pdf", str(pdf), *extra])
        except SystemExit as exc:
            assert exc.code == 0
        out[preset] = (json.loads((tmp / f"{preset}.json").read_text()), xlsx, csv_dir, pdf)
    return out


# ---------------------------------------------------------------------------
# fourcards --version
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("entry", [launch.main, typer_main], ids=["launcher", "typer"])
def test_issue31_2_version_is_the_installed_metadata(capsys, entry):
    import fourcards

    code, out, err = run(capsys, entry, "--version")
    assert code == 0 and err == ""
    assert out == f"fourcards {version('fourcards')}\n" == f"fourcards {fourcards.__version__}\n"


# ---------------------------------------------------------------------------
# item 1: the workbook
# ---------------------------------------------------------------------------

def _column_widths(ws):
    from openpyxl.utils import get_column_letter

    return {c: (ws.column_dimensions[get_column_letter(c)].width or 8.43) for c in range(1, ws.max_column + 1)}


def test_issue31_1_every_cell_text_fits_its_column(exports):
    openpyxl = pytest.importorskip("openpyxl")
    for preset, (_, xlsx, _, _) in exports.items():
        wb = openpyxl.load_workbook(xlsx, data_only=True)  # a formula shows its stored value
        for ws in wb.worksheets:
            widths = _column_widths(ws)
            merged = {(r.min_row, r.min_col): r for r in ws.merged_cells.ranges}
            inside = {(row, col) for r in ws.merged_cells.ranges for row in range(r.min_row, r.max_row + 1)
                      for col in range(r.min_col, r.max_col + 1)}
            for row in ws.iter_rows():
                for cell in row:
                    if cell.value is None:
                        continue
                    text = displayed(cell.value, cell.number_format)
                    if (cell.row, cell.column) in merged:
                        r = merged[(cell.row, cell.column)]
                        room = sum(widths[c] for c in range(r.min_col, r.max_col + 1))
                    else:
                        assert (cell.row, cell.column) not in inside
                        room = widths[cell.column]
                    scale = 1.45 if (cell.font.sz or 10) > 11 else 1.0
                    if cell.alignment.wrap_text:  # a heading wraps at its words: the longest must fit
                        need = max(len(w) for w in text.split())
                    else:
                        need = math.ceil(len(text) * scale)
                    assert need <= room, f"{preset} {ws.title}!{cell.coordinate}: {text!r} in {room:.1f}"


def test_issue31_1_page_setup_landscape_one_page_wide_titles_repeated_footer(exports):
    openpyxl = pytest.importorskip("openpyxl")
    d, xlsx, _, _ = exports["online"]
    wb = openpyxl.load_workbook(xlsx)
    for ws in wb.worksheets:
        assert ws.page_setup.orientation == "landscape"
        # fit to one page wide (1 is the default, written as nothing), one or two tall
        assert ws.sheet_properties.pageSetUpPr.fitToPage and ws.page_setup.fitToWidth in (None, 1)
        assert ws.page_setup.fitToHeight in (None, 1, 2)
        assert re.fullmatch(r"\$?1:\$?[2-4]", ws.print_title_rows or "")
        footer = ws.oddFooter
        assert "page &P of &N" in footer.right.text
        assert f"fourcards {d['identity']['version']}" in footer.center.text
        assert "rules online" in footer.left.text and "50/30/7/6/5/2/1" in footer.left.text
    props = wb.properties
    assert props.creator == f"fourcards {d['identity']['version']}" and "online" in props.title
    assert d["identity"]["content_hash"] in props.keywords


def test_issue31_1_pandas_reads_every_total_without_recalculation(exports):
    pd = pytest.importorskip("pandas")
    for d, xlsx, _, _ in exports.values():
        sheets = pd.read_excel(xlsx, sheet_name=None, header=None)
        wagers = [(SHEET_NAMES[k], w) for k, w in d["wagers"].items()]
        wagers += [(f"Side bet {b['bet']['name']}", b) for b in d["side_bets"]]
        for name, w in wagers:
            df = sheets[name]
            total = df[df[0] == "total"].iloc[0]
            assert int(total[2]) == w["total"]["combinations"] == w["deals"]
            assert total[3] == pytest.approx(1.0, abs=1e-12)
            assert total[4] == pytest.approx(w["total"]["return"], abs=1e-15)
        s = sheets["Summary"]
        check = s[s[0] == "check: ante and play + ante bonus = base game (per ante)"].iloc[0]
        assert check[1] == pytest.approx(check[2], abs=1e-15) and check[2] == pytest.approx(-d["house_edge"], abs=1e-15)


def _soffice():
    path = shutil.which("soffice") or shutil.which("libreoffice")
    if path is None:
        if os.environ.get("FOURCARDS_REQUIRE_LIBREOFFICE") == "1":
            pytest.fail("LibreOffice (soffice) is required (FOURCARDS_REQUIRE_LIBREOFFICE=1): "
                        "apt-get install libreoffice-calc-nogui")
        pytest.skip("LibreOffice (soffice) not installed")
    return path


def test_issue31_1_libreoffice_prints_each_preset_on_at_most_8_pages(exports, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    soffice = _soffice()
    books = [exports[p][1] for p in ("live", "online")]
    profile = tmp_path / "profile"  # a profile of its own: never the user's, never another test's
    subprocess.run([soffice, f"-env:UserInstallation={profile.as_uri()}", "--headless", "--convert-to", "pdf",
                    "--outdir", str(tmp_path), *map(str, books)], check=True, capture_output=True, timeout=240)
    for preset, book in zip(("live", "online"), books, strict=True):
        reader = pypdf.PdfReader(tmp_path / f"{book.stem}.pdf")
        pages = len(reader.pages)
        assert pages <= 8, f"{preset}: {pages} pages"
        sheets = ["Summary", *SHEET_NAMES.values(), "Strategy chart"] + (["Side bet custom"] if preset == "online" else [])
        assert pages >= len(sheets)  # every sheet printed, none split across pages sideways (one page wide)
        text = " ".join(p.extract_text() for p in reader.pages)
        assert f"page {pages} of {pages}" in text
        assert exports[preset][0]["identity"]["content_hash"] in text


# ---------------------------------------------------------------------------
# item 2: the identity block in every export
# ---------------------------------------------------------------------------

def test_issue31_2_identity_block_in_json_csv_xlsx_and_pdf(exports, capsys):
    openpyxl = pytest.importorskip("openpyxl")
    pypdf = pytest.importorskip("pypdf")
    d, xlsx, csv_dir, pdf = exports["online"]
    ident = d["identity"]
    assert ident["game"] == "Four Card Poker" and ident["rules"] == "online" and ident["software"] == "fourcards"
    assert ident["pay_tables"] == {"ante_bonus": "25/20/2", "aces_up": "50/30/7/6/5/2/1",
                                   "side_bet custom": "player:4K=400,SF=100,3K=40"}
    assert ident["strategy"] == "optimal" and ident["strategy_chart"] == "chart" and ident["win_cap"] == 8400
    assert ident["version"] == version("fourcards") and re.fullmatch(r"\d{4}-\d\d-\d\d", ident["date"])
    assert ident["content_hash"] == content_hash(d) and re.fullmatch(r"sha256:[0-9a-f]{64}", ident["content_hash"])
    with (csv_dir / "identity.csv").open() as fh:
        rows = dict(csv.reader(fh))
    assert rows["content hash (SHA-256 of the figures)"] == ident["content_hash"]
    assert rows["software"] == f"fourcards {ident['version']}" and rows["rules preset"] == "online"
    summary = openpyxl.load_workbook(xlsx)["Summary"]
    cells = {row[0].value: row[1].value for row in summary.iter_rows(max_col=2)}
    assert cells["content hash (SHA-256 of the figures)"] == ident["content_hash"]
    assert cells["date"] == ident["date"] and cells["strategy chart"] == "chart"
    assert summary["A1"].value == "Four Card Poker par sheet"
    chart = openpyxl.load_workbook(xlsx)["Strategy chart"]
    assert [c.value for c in chart[2]][:14] == ["your hand", *"23456789TJQKA"]
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages)
    assert ident["content_hash"] in text and ident["date"] in text
    # the hash depends on the figures only: the same sheet gives the same hash, another pay table another
    code, out, _ = run(capsys, launch.main, "poker", "analyze", "--rules", "online", "--json", "--side-bet",
                       "player:3K=40,SF=100,4K=400")
    assert code == 0 and json.loads(out)["identity"]["content_hash"] == ident["content_hash"]
    code, out, _ = run(capsys, launch.main, "poker", "analyze", "--rules", "online", "--json", "--aces-up",
                       "50/40/8/5/4/3/1")
    assert code == 0 and json.loads(out)["identity"]["content_hash"] != ident["content_hash"]


def test_issue31_2_text_report_carries_the_identity_and_the_win_cap(counts, capsys):
    code, out, _ = run(capsys, typer_main, "poker", "analyze", "--rules", "online")
    assert code == 0 and "content hash (SHA-256 of the figures)" in out and "sha256:" in out
    assert "Win cap 8,400 chips a round: binds from an ante of 290 (no Aces Up bet), 107" in out
    assert "90.3874%" in out  # RTP at the table's maximum bets under the cap


# ---------------------------------------------------------------------------
# item 3: the PDF par sheet and the strategy card
# ---------------------------------------------------------------------------

def _pdf_text(path):
    pypdf = pytest.importorskip("pypdf")
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pypdf.PdfReader(path).pages))


def test_issue31_3_pdf_par_sheet_figures_equal_the_json(exports):
    for preset, (d, _, _, pdf) in exports.items():
        text = _pdf_text(pdf)
        for label, value in (("house edge (per ante)", pct(d["house_edge"])),
                             ("element of risk (per total wagered)", pct(d["element_of_risk"])),
                             ("return to player (1 - element of risk)", pct(d["return_to_player"])),
                             ("standard deviation (of a round's net, antes)", f"{d['standard_deviation']:.4f}"),
                             ("Aces Up return", pct(d["aces_up"]["return"]))):
            assert f"{label} {value}" in text, (preset, label)
        tables = [*d["wagers"].values(), *d["side_bets"]]
        for w in tables:  # every row of every return table, as the JSON has it
            for row in w["rows"]:
                assert " ".join(return_row_cells(row)) in text, (preset, row["outcome"])
            assert f"total {w['total']['combinations']:,} 1.0000000000 {w['total']['return']:+.8f}" in text
        for name, f in d["strategies"].items():
            assert f"{name} {pct(f['house_edge'])} {pct(f['element_of_risk'])} {pct(f['return_to_player'])}" in text
        for t in d["aces_up_tables"]:
            assert f"{t['table']} {pct(t['return'])} {pct(t['house_edge'])}" in text
        if d["win_cap"]:
            top = d["win_cap"]["maximum_bets"]
            assert (f"1,000 1,000 {pct(top['return_to_player'])} {pct(top['return_to_player_uncapped'])} "
                    f"{pct(top['cost'])} {pct(top['hits_cap'])}") in text
            assert "it binds from an ante of 290 (no Aces Up bet), 107 (Aces Up bet = ante)" in text


def test_issue31_3_strategy_card_pdf_with_its_cost_against_optimal(counts, capsys, tmp_path):
    pypdf = pytest.importorskip("pypdf")
    card = tmp_path / "card.pdf"
    code, out, err = run(capsys, typer_main, "poker", "strategy", "--card", "--pdf", str(card), "--json")
    assert code == 0, err
    s = json.loads(out)["strategies"]
    assert len(pypdf.PdfReader(card).pages) == 1
    text = _pdf_text(card)
    assert (f"House edge with this card {pct(s['chart']['house_edge'])} per ante against "
            f"{pct(s['optimal']['house_edge'])} with optimal play: it costs {pct(s['chart']['loss_vs_optimal'])}") in text
    assert "your hand 2 3 4 5 6 7 8 9 T J Q K A" in text and "two pair or better 3x" in text
    code, _, err = run(capsys, typer_main, "poker", "strategy", "--pdf", str(card))
    assert code == 2 and err == "error: --pdf writes the strategy card: give --card --pdf FILE\n"


@pytest.mark.parametrize("argv,what", [(["poker", "analyze", "--pdf"], "poker analyze --pdf"),
                                       (["poker", "strategy", "--card", "--pdf"], "fourcards poker strategy --pdf")])
def test_issue31_3_pdf_without_the_extra_is_one_line_naming_it(counts, capsys, tmp_path, monkeypatch, argv, what):
    monkeypatch.setitem(EXTRAS, "pdf", ("no_such_package_fourcards",))
    target = tmp_path / "x.pdf"
    code, out, err = run(capsys, launch.main, *argv, str(target))
    assert (code, out) == (2, "") and err == f"error: {what} needs the pdf extra: pip install 'fourcards[pdf]'\n"
    assert not target.exists()


# ---------------------------------------------------------------------------
# item 4: the win cap on the sheet
# ---------------------------------------------------------------------------

def test_issue31_4_win_cap_on_the_sheet_wherever_a_cap_is_set(exports):
    online, live = exports["online"][0], exports["live"][0]
    assert live["win_cap"] is None
    cap = online["win_cap"]
    assert (cap["cap"], cap["binding_ante"], cap["binding_ante_with_aces_up"]) == (8400, 290, 107)
    top = cap["maximum_bets"]
    assert (top["ante"], top["aces_up"]) == (1000, 1000)
    assert round(top["return_to_player"] * 100, 4) == 90.3874 and round(top["hits_cap"] * 100, 2) == 9.14
    assert cap["rows"][0]["aces_up"] == 0 and round(cap["rows"][0]["return_to_player"] * 100, 4) == 97.8857
    labels = {label for label, *_ in csv.reader((exports["online"][2] / "summary.csv").open())}
    assert "P(a round hits the cap) at the maximum bets" in labels
