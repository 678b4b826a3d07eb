"""Pay tables given as text (seed 002 Articles 5-6; docs/rules.md FCP-12 "A user must be able to pass
any custom table"): parsed exactly, refused with a clear error when empty, malformed or
beyond what a settlement can hold (issue 9, item 6)."""

from __future__ import annotations

import pytest

from fourcards.errors import RulesError
from fourcards.poker.rules import (
    MAX_PAY,
    AcesUpTable,
    AnteBonusTable,
    PokerRules,
    get_rules,
    parse_aces_up,
    parse_ante_bonus,
)


@pytest.mark.parametrize("field", ["ante_bonus", "aces_up"])
@pytest.mark.parametrize("text", ["", " ", "  \t"])
def test_empty_pay_table_refused_never_replaced_by_the_preset(field: str, text: str) -> None:
    with pytest.raises(RulesError, match="empty"):
        get_rules("online", **{field: text})


def test_pay_tables_parse_exactly() -> None:
    assert parse_aces_up(" 50/40/9/6/4/2/1 ") == AcesUpTable(50, 40, 9, 6, 4, 2, 1)
    assert parse_ante_bonus("30,15,2") == AnteBonusTable(30, 15, 2)
    assert parse_aces_up("online") == get_rules("online").aces_up
    top = "/".join([str(MAX_PAY)] * 7)
    assert parse_aces_up(top).four_of_a_kind == MAX_PAY == 1_000_000


@pytest.mark.parametrize("text, match", [
    ("1/1/1/1/9999999999999999/9999999999999999/9999999999999999", "at most 1,000,000 to 1"),
    ("50/40/8/5/4/3/" + "9" * 5000, "at most 1,000,000 to 1"),
    ("50/40/8/5/4/3/-1", "must not be negative"),
    ("50/40/8/5/4/3/1_0", "whole numbers"),
    ("50/40/8/5/4/3/\u0661", "whole numbers"),  # an Arabic-Indic one is not a chip count
    ("50/40/8/5/4/3", "expected 7"),
])
def test_malformed_or_unsettleable_aces_up_table_refused(text: str, match: str) -> None:
    with pytest.raises(RulesError, match=match):
        parse_aces_up(text)


def test_pay_above_a_million_to_one_refused_when_rules_are_built() -> None:
    with pytest.raises(RulesError, match="at most 1,000,000 to 1"):
        AnteBonusTable(25, 20, MAX_PAY + 1)
    with pytest.raises(RulesError, match="at most 1,000,000 to 1"):
        AcesUpTable(four_of_a_kind=10**16)


def test_largest_stake_and_win_of_a_seat_under_the_rules() -> None:
    live = get_rules("live")  # antes 1-1000, Aces Up 1-1000, play up to 3x, no cap
    assert live.largest_stake == 1000 * (1 + 3) + 1000
    assert live.largest_win == 1000 * (1 + 3 + 25) + 1000 * 50
    online = get_rules("online")  # the win cap bounds what a seat can win
    assert online.largest_win == 8400
    assert PokerRules(max_ante=10, max_aces_up=5, win_cap=10**9).largest_win == 10 * 29 + 5 * 50
