"""``fourcards poker analyze`` (par sheet) and ``fourcards poker strategy`` (decisions, charts)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from fourcards.cli.app import console, err_console, fail, poker_app
from fourcards.errors import FourcardsError
from fourcards.extras import require

RulesOpt = Annotated[str, typer.Option("--rules", help="Rules preset: live or online.")]
AnteBonusOpt = Annotated[
    str | None, typer.Option("--ante-bonus", help="Ante bonus table: a preset name or e.g. '25/20/2'.")
]
AcesUpOpt = Annotated[
    str | None, typer.Option("--aces-up", help="Aces Up table: a preset name or e.g. '50/40/8/5/4/3/1'.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


def _rules(rules: str, ante_bonus: str | None, aces_up: str | None):
    from fourcards.poker.rules import get_rules

    return get_rules(rules, ante_bonus=ante_bonus, aces_up=aces_up)


@contextmanager
def _progress() -> Iterator[Callable[[int, int], None] | None]:
    """A Rich progress bar on stderr while the dealer counts are computed (first run only)."""
    from fourcards.report.analyze import progress_bar

    with progress_bar(err_console) as update:
        yield update


def _emit(text: str, out: Path | None) -> None:
    if out is not None:
        try:
            out.write_text(text)
        except OSError as exc:
            fail(f"cannot write {str(out)!r}: {exc.strerror}")


@poker_app.command("analyze")
def analyze_cmd(
    rules: RulesOpt = "live",
    ante_bonus: AnteBonusOpt = None,
    aces_up: AcesUpOpt = None,
    strategy: Annotated[
        str, typer.Option("--strategy", help="optimal, simple, chart, a CSV chart file, or a policy "
                                            "module:function (scored exactly over every deal).")
    ] = "optimal",
    as_json: JsonOpt = False,
    out: Annotated[Path | None, typer.Option("--out", dir_okay=False,
                                             help="Also write the report (JSON with --json) to FILE.")]
    = None,
    xlsx: Annotated[Path | None, typer.Option("--xlsx", dir_okay=False,
                                              help="Also write the par sheet as a spreadsheet (the xlsx "
                                                   "extra: pip install 'fourcards[xlsx]').")] = None,
    csv_dir: Annotated[Path | None, typer.Option("--csv", file_okay=False,
                                                 help="Also write the par sheet as CSV files into DIR.")]
    = None,
    pdf: Annotated[Path | None, typer.Option("--pdf", dir_okay=False,
                                             help="Also write the par sheet as a PDF to print (the pdf extra: "
                                                  "pip install 'fourcards[pdf]').")] = None,
    side_bets: Annotated[list[str] | None, typer.Option("--side-bet", help="Also analyse a side bet: a name "
                                                        "(bad-beat) or HAND[,WHEN]:KEY=N,... with HAND player, "
                                                        "dealer or both (the lower hand), e.g. "
                                                        "both:4K=25000,3K=100 (repeatable).")] = None,
    aces_up_lost_on_fold: Annotated[bool, typer.Option("--aces-up-lost-on-fold",
                                                       help="Rule switch: a fold loses the Aces Up bet.")] = False,
    ante_bonus_on_fold: Annotated[bool, typer.Option("--ante-bonus-on-fold",
                                                     help="Rule switch: the ante bonus is paid on a fold too "
                                                          "(default: only with a play bet).")] = False,
) -> None:
    """Exact par sheet: house edge, element of risk, RTP, every wager's return table, hit frequency,
    volatility index and hold intervals, Aces Up, the win cap, the rule switches' effects, side bets."""
    from fourcards.report.analyze import run

    try:
        run(rules, ante_bonus, aces_up, strategy, as_json, out, xlsx, csv_dir, pdf, side_bets,
            aces_up_lost_on_fold, ante_bonus_on_fold, console=console, err_console=err_console)
    except FourcardsError as exc:
        fail(str(exc))


def _hand_report(cards: str, up: str, r: Any, as_json: bool) -> None:
    from rich.table import Table

    from fourcards.poker import analysis as an

    h = an.hand_ev(cards, up, r)
    if as_json:
        print(json.dumps(h.to_dict(), indent=2))
        return
    t = Table(title=f"{' '.join(c.pretty for c in h.cards)} against up card {h.up.pretty}: "
                    f"{h.hand.describe()}")
    t.add_column("option")
    t.add_column("EV (antes)", justify="right")
    t.add_column("EV given up", justify="right")
    for name, v in h.ev.items():
        mark = " [bold green]<- optimal[/]" if name == h.decision else ""
        t.add_row(name + mark, f"{float(v):+.6f}", f"{float(h.ev_lost(name)):.6f}")
    console.print(t)
    n = an.N_DEALER_HANDS
    console.print(f"dealer hands: {h.lt:,} beaten, {h.le - h.lt:,} tied, {n - h.le:,} better "
                  f"(of {n:,}); P(win or tie) = {h.le / n:.6f}")


def _chart_report(r: Any, as_json: bool, png: Path | None, csv_out: Path | None, pdf: Path | None = None) -> None:
    from fourcards.poker import analysis as an
    from fourcards.poker.exact import strategy as st
    from fourcards.poker.exact.figures import figures_from_chart
    from fourcards.report.charts import chart_table, save_chart_png

    with _progress() as progress:
        counts = an.exact_counts(progress=progress)
    chart = st.optimal_chart(r, counts)
    fig = {"optimal": an.figures_from_decisions(counts, r, st.optimal_strategy(r, counts).decisions, "optimal"),
           "chart": figures_from_chart(counts, r, chart.table, "chart"),
           "simple": figures_from_chart(counts, r, st.simple_chart(r).table, "simple")}
    if png is not None:
        try:
            save_chart_png(chart, png, title=f"Four Card Poker ({r.name}): chart, house edge "
                                             f"{float(fig['chart'].house_edge) * 100:.3f}% "
                                             f"(optimal {float(fig['optimal'].house_edge) * 100:.3f}%)")
        except OSError as exc:
            fail(f"cannot write {str(png)!r}: {exc.strerror}")
    if csv_out is not None:
        _emit(chart.to_csv(), csv_out)
    summary = {
        name: {"house_edge": float(f.house_edge), "element_of_risk": float(f.element_of_risk),
               "return_to_player": float(f.return_to_player),
               "loss_vs_optimal": float(f.house_edge - fig["optimal"].house_edge)}
        for name, f in fig.items()
    }
    if pdf is not None:
        from fourcards.report.pdf import write_strategy_card

        try:
            write_strategy_card(chart.to_dict(), summary, r.to_dict(), pdf)
        except OSError as exc:
            fail(f"cannot write {str(pdf)!r}: {exc.strerror}")
    if as_json:
        print(json.dumps({"rules": r.to_dict(), "chart": chart.to_dict(), "strategies": summary}, indent=2))
        return
    console.print(chart_table(chart, f"Strategy chart ({r.name}): your best four vs the up card"))
    console.print("house edge per ante (element of risk), cost vs optimal:")
    for name, s in summary.items():
        console.print(f"  {name:>7}: {s['house_edge'] * 100:.4f}% ({s['element_of_risk'] * 100:.4f}%), "
                      f"cost vs optimal {s['loss_vs_optimal'] * 100:.4f}%")


@poker_app.command("strategy")
def strategy_cmd(
    cards: Annotated[list[str] | None, typer.Argument(help="Your five cards, e.g. 'As Ad 7c 5h 2d'.")] = None,
    up: Annotated[str | None, typer.Option("--up", help="The dealer's up card, e.g. Kc.")] = None,
    rules: RulesOpt = "live",
    ante_bonus: AnteBonusOpt = None,
    chart: Annotated[bool, typer.Option("--chart", help="Print the compact strategy chart.")] = False,
    png: Annotated[Path | None, typer.Option("--png", dir_okay=False,
                                             help="Save the chart as a PNG heat map.")] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", dir_okay=False,
                                                 help="Save the chart as CSV (reusable with "
                                                      "analyze --strategy FILE).")] = None,
    card: Annotated[bool, typer.Option("--card", help="The chart as a printable strategy card with its cost "
                                                      "against optimal (with --pdf FILE).")] = False,
    pdf: Annotated[Path | None, typer.Option("--pdf", dir_okay=False,
                                             help="With --card: write the strategy card as a PDF (the pdf "
                                                  "extra).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Optimal decision and EV of every option for a hand, or the strategy chart (--chart), or a
    printable strategy card (--card --pdf FILE)."""
    try:
        r = _rules(rules, ante_bonus, None)
        if pdf is not None and not card:
            fail("--pdf writes the strategy card: give --card --pdf FILE")
        if chart or card or png is not None or csv_out is not None:
            if cards:
                fail("give either CARDS --up CARD or --chart, not both")
            if png is not None:
                require("plots", "fourcards poker strategy --png")
            if pdf is not None:
                require("pdf", "fourcards poker strategy --pdf")
            _chart_report(r, as_json, png, csv_out, pdf)
            return
        if not cards or up is None:
            fail("give your five cards and --up CARD (or --chart)")
        _hand_report(" ".join(cards), up, r, as_json)
    except FourcardsError as exc:
        fail(str(exc))
