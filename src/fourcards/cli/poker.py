"""``fourcards poker hand`` and ``fourcards poker settle``.

The engine modules are imported inside the commands: ``fourcards --help`` imports none.
"""

from __future__ import annotations

import json

import typer

from fourcards.cli.app import console, poker_app
from fourcards.inputs import MAX_WAGER


@poker_app.command("hand")
def hand_command(
    cards: str = typer.Argument(..., help='4 to 7 cards, e.g. "9h 9d 9s Kc 3d".'),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """The best four-card hand among 4-7 cards, and its category."""
    from fourcards.cards import format_cards, parse_cards
    from fourcards.hands import best_hand

    parsed = parse_cards(cards, count=(4, 5, 6, 7))
    value, best = best_hand(parsed)
    if as_json:
        print(json.dumps({
            "cards": [str(c) for c in parsed],
            "best_four": [str(c) for c in best],
            "category": value.category.key,
            "description": value.describe(),
            "code": value.code,
        }))
        return
    console.print(f"{format_cards(best, pretty=True)}  [bold]{value.describe()}[/bold]")


@poker_app.command("settle")
def settle_command(
    player: str = typer.Option(..., "--player", help="The player's five cards."),
    dealer: str = typer.Option(..., "--dealer", help="The dealer's six cards."),
    up: str | None = typer.Option(None, "--up", help="The dealer's up card (one of the six)."),
    ante: int = typer.Option(..., "--ante", min=0, max=MAX_WAGER, help="Ante in chips."),
    play: int | None = typer.Option(None, "--play", min=0, max=3 * MAX_WAGER, help="Play bet in chips."),
    fold: bool = typer.Option(False, "--fold", help="The player folds."),
    aces_up: int = typer.Option(0, "--aces-up", min=0, max=MAX_WAGER, help="Aces Up bet in chips."),
    rules_name: str = typer.Option("live", "--rules", help="Rules preset: live (seed 002) or online (seed 004)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Settle one seat's wagers against the dealer: each wager's result and the net.

    Exactly one of --play N and --fold is required when an ante is placed.
    """
    from rich.table import Table

    from fourcards.cards import format_cards
    from fourcards.poker.payout import check_payout
    from fourcards.poker.round import describe_result
    from fourcards.poker.rules import get_rules

    rules = get_rules(rules_name)
    payout = check_payout(rules, player, dealer, up=up, ante=ante, play=play, fold=fold, aces_up=aces_up,
                          play_or_fold="--play N or --fold")
    if as_json:
        print(json.dumps(payout.to_dict()))
        return
    result = payout.result
    table = Table(title=f"Four Card Poker settlement ({rules.name} rules)")
    table.add_column("wager")
    table.add_column("chips", justify="right")
    for k, v in result.wagers.items():
        table.add_row(k.replace("_", " "), f"{v:+d}")
    if result.win_cap_adjustment:
        table.add_row("win cap", f"{result.win_cap_adjustment:+d}")
    table.add_row("[bold]net[/bold]", f"[bold]{result.net:+d}[/bold]")
    assert result.player_hand is not None and result.player_best is not None  # a settlement shows the hand
    console.print(f"player: {format_cards(result.player_best, pretty=True)}  {result.player_hand.describe()}")
    console.print(f"dealer: {format_cards(payout.dealer_best, pretty=True)}  "
                  f"{result.dealer_hand.describe()}")
    console.print(table)
    console.print(describe_result(result))
