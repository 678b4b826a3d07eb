"""Four of a Kind (seeds 000 and 001): rules, the game engine, exact odds, bots.

Modules (one job each):

* :mod:`~fourcards.kind.rules` - :class:`KindRules`, presets;
* :mod:`~fourcards.kind.actions` - :class:`Action`, :class:`LegalAction`;
* :mod:`~fourcards.kind.holdings` - :class:`Holding`, parsing ``"QQ"``, high/low order;
* :mod:`~fourcards.kind.pots` - side pots and the high-low split;
* :mod:`~fourcards.kind.history` - operation records, JSON lines;
* :mod:`~fourcards.kind.observation` - what a seat sees;
* :mod:`~fourcards.kind.game` - the :class:`Game` state machine;
* :mod:`~fourcards.kind.odds` - exact P(high), P(low), expected share;
* :mod:`~fourcards.kind.luck` - what the cards alone gave each player in a deal, against the exact odds;
* :mod:`~fourcards.kind.bots` - computer players and :func:`play_deal`.

Terminal play is the command line's (:mod:`fourcards.cli.kind_terminal`).
"""

from fourcards.kind.actions import Action, ActionKind, LegalAction
from fourcards.kind.game import Game, Phase, can_play, next_button, seat_label
from fourcards.kind.history import DealCard, Forfeit, TurnCard, Void
from fourcards.kind.holdings import Holding, parse_holding, parse_holdings
from fourcards.kind.luck import card_luck
from fourcards.kind.observation import Observation, SeatView
from fourcards.kind.odds import PlayerOdds, exact_odds, joint_odds
from fourcards.kind.pots import Award, Pot, settle_pots, side_pots, split_pot
from fourcards.kind.rules import PRESETS, KindRules, Redeal, get_rules

__all__ = [
    "Action", "ActionKind", "LegalAction", "DealCard", "TurnCard", "Void", "Forfeit", "Game", "Phase", "can_play", "next_button",
    "seat_label",
    "Holding", "parse_holding", "parse_holdings", "Observation", "SeatView",
    "PlayerOdds", "exact_odds", "joint_odds", "card_luck", "Award", "Pot", "settle_pots", "side_pots", "split_pot",
    "PRESETS", "KindRules", "Redeal", "get_rules",
]
