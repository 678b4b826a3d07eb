"""Issue 23 items 1, 2 and 6: every wager's return table, the par sheet figures derived from it, the
spreadsheet and CSV files, and the launcher's direct ``poker analyze``."""

from __future__ import annotations

import csv
import json
import math
from fractions import Fraction
from statistics import NormalDist

import cli_run
import pytest

from fourcards import launch
from fourcards.cli import main as typer_main
from fourcards.errors import RulesError
from fourcards.extras import EXTRAS
from fourcards.poker import analysis as an
from fourcards.poker.rules import get_rules
from fourcards.report.spreadsheet import SHEET_NAMES, csv_cell

DEALS = 2_598_960 * 47 * math.comb(46, 5)  # player hand x up card x the dealer's five others


def run(capsys, entry, *argv):
    return cli_run.run(capsys, *argv, entry=entry)


@pytest.fixture(scope="module", params=[("live", None, "optimal"), ("online", None, "optimal"),
                                        ("live", "30/15/2", "simple"), ("online", "0/0/0", "chart")],
                ids=["live", "online", "30-15-2-simple", "no-bonus-chart"])
def sheet(request, counts):
    rules, bonus, strategy = request.param
    return an.par_sheet(get_rules(rules, ante_bonus=bonus), strategy, counts=counts)


def test_issue23_1_return_tables_combinations_sum_to_every_deal(sheet):
    assert an.N_DEALS == DEALS == 167_439_136_344_480
    for key in ("game", "ante_play", "ante_bonus"):
        t = sheet.wagers[key]
        assert t.deals == DEALS and sum(r.combinations for r in t.rows) == DEALS
        assert all(r.combinations > 0 for r in t.rows)
    au = sheet.wagers["aces_up"]
    assert au.deals == sum(r.combinations for r in au.rows) == 2_598_960


def test_issue23_1_returns_add_up_to_the_headline_figures(sheet):
    g, w = sheet.game, sheet.wagers
    assert w["game"].expected_value == -g.house_edge
    assert w["ante_play"].expected_value + w["ante_bonus"].expected_value == w["game"].expected_value
    assert w["ante_bonus"].expected_value == g.ante_bonus_return
    assert w["game"].element_of_risk == g.element_of_risk and w["game"].return_to_player == g.return_to_player
    assert w["game"].variance == g.variance
    assert all(t.average_wagered == g.average_total_bet for k, t in w.items() if k != "aces_up")
    assert w["aces_up"].expected_value == -sheet.aces_up.house_edge
    assert w["aces_up"].return_to_player == sheet.aces_up.return_
    assert w["aces_up"].variance == sheet.aces_up.variance
    assert w["ante_bonus"].return_to_player is None  # paid on the ante: no stake of its own
    # the play and bonus tables split the game's rows: same deals by decision
    for k in (0, 1, 2, 3):
        per = [sum(r.combinations for r in t.rows if r.wagered == 1 + k) for t in (w["game"], w["ante_play"],
                                                                                   w["ante_bonus"])]
        assert per[0] == per[1] == per[2]
        assert Fraction(per[0], DEALS) == g.decisions.get(an.option_name(k), 0)


def test_issue23_1_hit_frequency_is_the_probability_of_a_win(sheet):
    w = sheet.wagers
    assert w["ante_play"].hit_frequency == sheet.game.win + sheet.game.tie  # ties are paid to the player
    wins = sum(c for _, _, p, c in sheet.aces_up.hands if p > 0)
    assert w["aces_up"].hit_frequency == Fraction(wins, 2_598_960)
    assert w["ante_bonus"].hit_frequency == sum((Fraction(r.combinations, DEALS) for r in w["ante_bonus"].rows
                                                 if r.pays > 0), Fraction(0))


def test_issue23_1_volatility_index_and_hold_intervals_follow_from_the_sd(sheet):
    d = sheet.to_dict()["wagers"]
    z = {c: NormalDist().inv_cdf((1 + c) / 2) for c in (0.90, 0.95, 0.99)}
    assert abs(z[0.90] - 1.644854) < 1e-6 and abs(z[0.95] - 1.959964) < 1e-6
    for key, t in sheet.wagers.items():
        sd = math.sqrt(t.variance)
        assert d[key]["standard_deviation"] == pytest.approx(sd, rel=1e-15)
        assert d[key]["volatility_index"]["90"] == pytest.approx(z[0.90] * sd, rel=1e-14)
        assert d[key]["volatility_index"]["95"] == pytest.approx(z[0.95] * sd, rel=1e-14)
        assert [h["rounds"] for h in d[key]["hold_intervals"]] == [100, 1_000, 10_000, 100_000, 1_000_000]
        # per total wagered: E[(X + hT)^2] = Var X + 2h Cov(X, T) + h^2 Var T (E[X + hT] = 0)
        p = [Fraction(r.combinations, t.deals) for r in t.rows]
        ex = sum(pi * r.pays for pi, r in zip(p, t.rows))
        et = sum(pi * r.wagered for pi, r in zip(p, t.rows))
        var_t = sum(pi * r.wagered ** 2 for pi, r in zip(p, t.rows)) - et ** 2
        cov = sum(pi * r.pays * r.wagered for pi, r in zip(p, t.rows)) - ex * et
        h = -ex / et
        sd_w = math.sqrt((t.variance + 2 * h * cov + h * h * var_t) / et ** 2)
        for row in d[key]["hold_intervals"]:
            n = row["rounds"]
            for c, zc in z.items():
                lo, hi = row["per_unit"][f"{c * 100:g}"]
                assert (lo + hi) / 2 == pytest.approx(float(-ex), abs=1e-15)
                assert (hi - lo) / 2 == pytest.approx(zc * sd / math.sqrt(n), rel=1e-12)
                lo, hi = row["per_total_wagered"][f"{c * 100:g}"]
                assert (lo + hi) / 2 == pytest.approx(float(h), abs=1e-15)
                assert (hi - lo) / 2 == pytest.approx(zc * sd_w / math.sqrt(n), rel=1e-12)
    # the hold narrows as 1/sqrt(n); at a million rounds the 95 % band of the game is about +-0.25 %
    game = sheet.wagers["game"]
    lo, hi = game.hold_interval(1_000_000, 0.95, per_total_wagered=True)
    assert 0.001 < (hi - lo) / 2 < 0.004


def test_issue23_1_published_shape_live_game_table(counts):
    """The live table's rows: 3x and 1x win / tie / lose and the fold; 2x never optimal (docs/analysis.md)."""
    t = an.par_sheet("live", counts=counts).wagers["ante_play"]
    assert [r.outcome for r in t.rows] == ["play 3x, win", "play 3x, tie (paid to the player)", "play 3x, lose",
                                           "play 1x, win", "play 1x, tie (paid to the player)", "play 1x, lose",
                                           "fold"]
    assert [r.pays for r in t.rows] == [4, 4, -4, 2, 2, -2, -1]
    au = an.par_sheet("online", counts=counts).wagers["aces_up"]
    assert [(r.pays, r.combinations) for r in au.rows] == [(50, 624), (30, 2_072), (7, 58_656), (6, 114_616),
                                                           (5, 101_808), (2, 123_552), (1, 81_096), (-1, 2_116_536)]


def test_issue23_1_json_and_terminal_carry_every_wager(counts, capsys):
    code, out, _ = run(capsys, typer_main, "poker", "analyze", "--rules", "online", "--json")
    d = json.loads(out)
    assert code == 0 and set(d["wagers"]) == {"game", "ante_play", "ante_bonus", "aces_up"}
    assert d["wagers"]["game"]["total"]["combinations"] == DEALS
    assert {"rows", "total", "expected_value", "house_edge", "element_of_risk", "return_to_player",
            "hit_frequency", "standard_deviation", "volatility_index", "hold_intervals", "exact"} <= set(
        d["wagers"]["aces_up"])
    code, out, _ = run(capsys, typer_main, "poker", "analyze", "--rules", "online")
    assert code == 0 and "Par sheet: every wager" in out and "hold per total wagered" in out and "1,000,000" in out
    assert "Ante bonus: return table" in out and "Aces Up 50/30/7/6/5/2/1" in out


# ---------------------------------------------------------------------------
# item 2: spreadsheet and CSV
# ---------------------------------------------------------------------------

def x(value):
    """A JSON figure as the workbook holds it: XlsxWriter (like openpyxl before it) writes numbers with
    16 significant digits (Excel shows 15); integers (the combinations, up to 1.7e14) and text are exact."""
    if isinstance(value, float):
        return float(f"{value:.16g}")
    if isinstance(value, list):
        return [x(v) for v in value]
    return value


def _find(ws, label):
    for row in ws.iter_rows(min_col=1, max_col=1):
        if row[0].value == label:
            return row[0].row
    raise AssertionError(f"{label!r} not on sheet {ws.title}")


def test_issue23_2_spreadsheet_figures_equal_the_json(counts, capsys, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    xlsx, csv_dir = tmp_path / "par.xlsx", tmp_path / "csv"
    code, out, err = run(capsys, launch.main, "poker", "analyze", "--rules", "online", "--json", "--xlsx", str(xlsx),
                         "--csv", str(csv_dir))
    assert code == 0, err
    d = json.loads(out)
    wb = openpyxl.load_workbook(xlsx)
    assert wb.sheetnames == ["Summary", *SHEET_NAMES.values(), "Strategy chart"]
    for key, name in SHEET_NAMES.items():
        ws, w = wb[name], d["wagers"][key]
        assert [c.value for c in ws[4]][:6] == ["outcome", "pays", "combinations", "probability", "return", "wagered"]
        for i, row in enumerate(w["rows"]):
            cells = [c.value for c in ws[5 + i]][:6]
            assert cells == x([row["outcome"], row["pays"], row["combinations"], row["probability"], row["return"],
                               row["wagered"]])
            assert all(isinstance(v, (int, float)) for v in cells[1:])  # numbers, never text
        total = 5 + len(w["rows"])
        last = total - 1
        # formulas where a reader checks a sum (their text is tested here, their stored values -
        # what a reader that does not recalculate shows - in tests/poker/test_issue31_par_sheet_print.py)
        assert [c.value for c in ws[total]][:5] == ["total", None, f"=SUM(C5:C{last})", f"=SUM(D5:D{last})",
                                                    f"=SUM(E5:E{last})"]
        assert sum(r["combinations"] for r in w["rows"]) == w["total"]["combinations"] == w["deals"]
        assert sum(r["return"] for r in w["rows"]) == pytest.approx(w["expected_value"], abs=1e-15)
        for label, value in ((f"expected value (per {w['unit']})", w["expected_value"]),
                             (f"house edge (per {w['unit']})", w["house_edge"]),
                             ("element of risk (per total wagered)", w["element_of_risk"]),
                             ("hit frequency", w["hit_frequency"]),
                             (f"standard deviation (per {w['unit']})", w["standard_deviation"]),
                             ("volatility index 90% (z x SD)", w["volatility_index"]["90"]),
                             ("volatility index 95% (z x SD)", w["volatility_index"]["95"])):
            assert ws.cell(_find(ws, label), 2).value == x(value)
        hold = _find(ws, "rounds")  # issue 31: one row per rounds and confidence (the sheet prints one page wide)
        for i, (h, c) in enumerate((h, c) for h in w["hold_intervals"] for c in ("90", "95", "99")):
            row = [c.value for c in ws[hold + 1 + i]][:6]
            assert row[:2] == [h["rounds"], int(c) / 100]
            assert row[2:] == x([*h["per_unit"][c], *h["per_total_wagered"][c]])
        assert ws.cell(_find(ws, "variance"), 2).value == w["exact"]["variance"]
    s = wb["Summary"]
    for label, value in (("house edge (per ante)", d["house_edge"]), ("element of risk (per total wagered)",
                                                                      d["element_of_risk"]),
                         ("return to player (1 - element of risk)", d["return_to_player"]),
                         ("standard deviation (of a round's net, antes)", d["standard_deviation"]),
                         ("Aces Up return", d["aces_up"]["return"]), ("rules", "online")):
        assert s.cell(_find(s, label), 2).value == x(value)
    for key, name in SHEET_NAMES.items():
        row = [c.value for c in s[_find(s, name)]][:9]
        w = d["wagers"][key]
        assert row[1:] == x([w["expected_value"], w["house_edge"], w["element_of_risk"], w["return_to_player"],
                             w["hit_frequency"], w["standard_deviation"], w["volatility_index"]["90"],
                             w["volatility_index"]["95"]])
    check = [c.value for c in s[_find(s, "check: ante and play + ante bonus = base game (per ante)")]][:3]
    n_play, n_bonus, n_game = (5 + len(d["wagers"][k]["rows"]) for k in ("ante_play", "ante_bonus", "game"))
    assert check[1:] == [f"='Ante and play'!E{n_play}+'Ante bonus'!E{n_bonus}", f"='Base game'!E{n_game}"]
    for name, f in d["strategies"].items():
        assert [c.value for c in s[_find(s, name)]][1:3] == x([f["house_edge"], f["element_of_risk"]])
    # CSV: the same rows, numbers as numbers
    for key in SHEET_NAMES:
        with (csv_dir / f"{key}.csv").open() as fh:
            rows = list(csv.reader(fh))
        w = d["wagers"][key]
        assert rows[0] == ["outcome", "pays", "combinations", "probability", "return", "wagered"]
        for got, want in zip(rows[1:-1], w["rows"], strict=True):
            assert got[0] == want["outcome"] and int(got[1]) == want["pays"] and int(got[2]) == want["combinations"]
            assert float(got[3]) == want["probability"] and float(got[4]) == want["return"]
        assert rows[-1][:3] == ["total", "", str(w["deals"])]
    with (csv_dir / "hold_intervals.csv").open() as fh:
        hold_rows = list(csv.reader(fh))
    assert len(hold_rows) == 1 + 4 * 5 and hold_rows[1][:2] == ["Base game", "100"]


def test_issue23_2_xlsx_without_the_extra_is_one_line_naming_it(counts, capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(EXTRAS, "xlsx", ("no_such_package_fourcards",))
    target = tmp_path / "par.xlsx"
    for entry in (launch.main, typer_main):
        code, out, err = run(capsys, entry, "poker", "analyze", "--xlsx", str(target))
        assert code == 2 and out == ""
        assert err.splitlines() == ["error: poker analyze --xlsx needs the xlsx extra: pip install 'fourcards[xlsx]'"]
    assert not target.exists()


def test_issue23_2_csv_cells_that_could_run_as_formulas_are_neutralised(counts, capsys, tmp_path):
    assert [csv_cell(v) for v in ("=HYPERLINK(1)", "+1", "-x", "@SUM(1)", "\tx", "\rx", "plain", -2, 0.5)] == [
        "'=HYPERLINK(1)", "'+1", "'-x", "'@SUM(1)", "'\tx", "'\rx", "plain", -2, 0.5]
    chart = tmp_path / "=cmd.csv"  # a strategy's name is the chart file's name: it reaches the summary
    code, _, err = run(capsys, typer_main, "poker", "strategy", "--chart", "--csv", str(chart))
    assert code == 0, err
    code, _, err = run(capsys, launch.main, "poker", "analyze", "--strategy", str(chart), "--csv",
                       str(tmp_path / "out"))
    assert code == 0, err
    text = (tmp_path / "out" / "summary.csv").read_text()
    assert "strategy,'=cmd" in text and "\n=" not in text and ",=" not in text


def test_issue23_2_unwritable_outputs_are_one_line(counts, capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run(capsys, launch.main, "poker", "analyze", "--csv", str(blocker / "sub"))
    assert code == 2 and err.startswith("error: cannot write") and len(err.splitlines()) == 1


# ---------------------------------------------------------------------------
# item 6: the launcher's poker analyze equals the Typer command's
# ---------------------------------------------------------------------------

def test_issue23_6_launcher_reads_the_same_options_as_the_typer_command():
    import typer.main

    from fourcards.cli.app import app

    command = typer.main.get_command(app).commands["poker"].commands["analyze"]  # type: ignore[attr-defined]
    flags = {o for p in command.params for o in p.opts if o != "--help"}
    assert flags == set(launch.ANALYZE_OPTIONS)
    takes_value = {o: not p.is_flag for p in command.params for o in p.opts if o != "--help"}
    assert takes_value == {f: v for f, (_, v) in launch.ANALYZE_OPTIONS.items()}


@pytest.mark.parametrize("argv", [
    ["--json"],
    ["--rules", "online", "--json"],
    ["--rules=online", "--aces-up", "50/40/7/5/4/3/1", "--ante-bonus", "30/15/2", "--json", "--strategy", "simple"],
    ["--rules", "vegas"],
    ["--aces-up", "50/40/8"],
    ["--strategy", "clairvoyant", "--json"],
    ["--bogus"],
    ["extra-argument"],
    ["--help"],
    ["--rules"],
    ["--jso"],
])
def test_issue23_6_launcher_prints_what_typer_prints(counts, capsys, argv):
    def strip(text):  # the timings differ from run to run
        return "\n".join(line for line in text.splitlines() if '"seconds"' not in line
                         and '"dealer_counts' not in line)

    fast = run(capsys, launch.main, "poker", "analyze", *argv)
    slow = run(capsys, typer_main, "poker", "analyze", *argv)
    assert (fast[0], strip(fast[1]), fast[2]) == (slow[0], strip(slow[1]), slow[2])
    assert launch.parse_analyze(argv) is None or fast[0] in (0, 2)


def test_issue23_6_launcher_text_report_and_out_file(counts, capsys, tmp_path):
    out = tmp_path / "par.txt"
    code, text, _ = run(capsys, launch.main, "poker", "analyze", "--strategy", "simple", "--out", str(out))
    assert code == 0 and "3.39711%" in text and "3.39711%" in out.read_text()
    assert launch.parse_analyze(["--out", str(tmp_path)]) is None  # a folder: Typer's message


def test_issue23_6_chart_figures_from_class_sums_equal_the_per_entry_figures(counts, tmp_path):
    """The par sheet values charts (the best chart, the simple strategy) from sums by hand class and up
    rank; they equal the figures of the chart's decisions entry by entry, exactly."""
    from fourcards.poker import strategy as st
    from fourcards.poker.exact.figures import figures_from_chart

    for preset, bonus in (("live", None), ("online", None), ("live", "30/15/2")):
        rules = get_rules(preset, ante_bonus=bonus)
        for chart in (st.optimal_chart(rules, counts), st.simple_chart(rules)):
            slow = an.figures_from_decisions(counts, rules, chart.strategy(rules, counts).decisions, chart.name)
            assert figures_from_chart(counts, rules, chart.table, chart.name) == slow
    bad = st.simple_chart("live").table.copy()
    bad[bad == 3] = 2
    with pytest.raises(RulesError, match="do not allow"):
        figures_from_chart(counts, get_rules("online"), bad, "two-x")
