"""OpenSpiel games: ``import fourcards.openspiel`` registers the two games and a research variant with ``pyspiel``.

* ``python_four_of_a_kind`` - a Four of a Kind deal (perfect information: every
  card is face up; explicit chance nodes for every dealt and turned card,
  each card not yet face up equally likely). Parameters (``pyspiel.load_game(
  "python_four_of_a_kind(players=6,stack=100)")``):

  ==============  =========  ==================================================
  parameter       default    meaning
  ==============  =========  ==================================================
  ``players``     4          seats (4-13)
  ``preset``      family     rules preset: family, opr903, nickel
  ``stack``       -1         chips per seat (-1: 40 antes)
  ``stacks``      ""         chips per seat, e.g. ``200/150/200/200`` (overrides stack)
  ``button``      0          the dealer seat (0-based)
  ``ante``        -1         the ante (-1: the preset's); also ``min_bet``,
                             ``max_bet``, ``max_raises`` (-1: the preset's)
  ``information`` perfect    ``imperfect``: declared of imperfect information
                             (each information set one state), for IS-MCTS
  ==============  =========  ==================================================

  A deal node offers the cards of the ranks nobody holds, under both re-deal rules
  (:meth:`KindState.chance_outcomes`), so the game is finite and
  ``max_game_length`` is a bound (:func:`kind_max_game_length`).

  Actions: ``0`` fold, ``1`` check, ``2`` call, ``2 + a`` bet or raise ``a``
  chips (:class:`fourcards.rl.encoding.KindActions`); chance outcomes are card
  indices 0..51. Returns are each player's net chips (zero-sum).

* ``python_four_card_poker`` - a Four Card Poker round: ``players`` against the
  dealer (the house is not a player, so the game is general-sum), imperfect
  information (the dealer's hole cards and the other players' cards are hidden).
  Every player places ``ante`` and ``aces_up`` chips; the deal is 5 chance nodes
  per player (their five cards, in player order) then 6 for the dealer (the
  sixth is the up card); then each player in turn folds (``0``) or plays ``k`` x
  the ante (``k = 1..3``; the ``online`` preset allows 1x or 3x only).
  Parameters: ``players`` (1), ``preset`` (live), ``ante`` (1), ``aces_up`` (0),
  ``ante_bonus`` and ``aces_up_table`` (pay tables as text, "" for the preset's).

* ``python_small_kind_variant`` - **Small Four of a Kind, a research variant, not the seeds' game**
  (:mod:`fourcards.rl.small_kind`): 2 or 3 players, each dealt ``start`` cards of their rank, fixed
  bets, no stacks; small enough for CFR and exact exploitability (perfect information, zero-sum).
  Parameters ``players`` (2), ``start`` (2), ``ante`` (1), ``min_bet``/``max_bet`` (1), ``max_raises``
  (1), ``payout`` (``auto``: ``high`` with two players, ``split`` with three). Strings only.

Observation tensors and strings come from :mod:`fourcards.rl.encoding`
(docs/rl.md has the layouts); the information-state tensor is the observation
tensor (Four of a Kind: the table is the whole state; Four Card Poker: the
player's view keeps everything it has seen). Both states implement
``resample_from_infostate`` (IS-MCTS). Both games drive the engines through the engine
protocol (:mod:`fourcards.engine`) alone: ``actor``, ``chance_step``,
``legal_actions``, ``apply`` (a chance outcome as the record that scripts the
step), ``observation`` and ``returns``.

Needs the ``rl`` extra (``pip install 'fourcards[rl]'``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fourcards.cards import FULL_DECK, Card
from fourcards.errors import RulesError
from fourcards.extras import require
from fourcards.kind.game import Game
from fourcards.kind.rules import MAX_PLAYERS, KindRules
from fourcards.poker.round import ActionKind, Deal, PokerRound
from fourcards.poker.rules import PokerRules, get_rules
from fourcards.rl.encoding import (
    ACTIONS,
    KindActions,
    action_mask,
    chance_record,
    kind_string,
    kind_tensor,
    kind_tensor_size,
    unseen_cards,
)
from fourcards.rl.small_kind import SmallDeal, SmallKindRules
from fourcards.rl.tables import table_rules, table_stacks

require("rl", "import fourcards.openspiel")
import pyspiel  # noqa: E402

__all__ = ["KIND_GAME", "POKER_GAME", "SMALL_GAME", "KindGame", "KindState", "PokerGame", "PokerState",
           "SmallKindGame", "SmallKindState", "kind_max_game_length"]

KIND_GAME = "python_four_of_a_kind"
POKER_GAME = "python_four_card_poker"
#: The research variant (:mod:`fourcards.rl.small_kind`): not the seeds' game.
SMALL_GAME = "python_small_kind_variant"

_KIND_PARAMS: dict[str, Any] = {"players": 4, "preset": "family", "stack": -1, "stacks": "", "button": 0,
                                "ante": -1, "min_bet": -1, "max_bet": -1, "max_raises": -1,
                                "information": "perfect"}
_POKER_PARAMS: dict[str, Any] = {"players": 1, "preset": "live", "ante": 1, "aces_up": 0, "ante_bonus": "",
                                 "aces_up_table": ""}


def _kind_type(information: Any = pyspiel.GameType.Information.PERFECT_INFORMATION) -> Any:
    return pyspiel.GameType(
        short_name=KIND_GAME,
        long_name="Four of a Kind (fourcards)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=4,  # KindRules.min_players: seed 001 §1.2 "four or more"
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_KIND_PARAMS,
    )


_KIND_TYPE = _kind_type()
#: ``information`` parameter -> the game type's information (see :class:`KindGame`).
_KIND_INFORMATION = {"perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
                     "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION}

_POKER_TYPE = pyspiel.GameType(
    short_name=POKER_GAME,
    long_name="Four Card Poker (fourcards)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=9,
    min_num_players=1,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_POKER_PARAMS,
)


# ------------------------------------------------------------------ Four of a Kind


def _kind_rules(params: dict[str, Any]) -> KindRules:
    fields = {k: int(params[k]) for k in ("ante", "min_bet", "max_bet", "max_raises") if int(params[k]) >= 0}
    return table_rules(str(params["preset"]), **fields)


def kind_max_game_length(players: int, rules: KindRules) -> int:
    """An upper bound on the moves of a ``python_four_of_a_kind`` deal, chance nodes included.

    Chance: one node per seat dealt (the deal nodes offer only ranks nobody holds, see
    :meth:`KindState.chance_outcomes`, so nothing is dealt twice) and at most one per
    other card turned: ``52``. Betting rounds: the first, then one per card received
    that does not complete four - at most 2 per player (the second and the third) - so
    ``R <= 2 n + 1``. In a round with ``k`` bets and raises, a check, call or fold takes
    its player out of the players due to act until the next bet or raise, so at most
    ``n`` such moves come before the first wager (``n - 1`` if one follows) and ``n - 1``
    after each: at most ``k + (k + 1)(n - 1) + 1 <= n (k + 1)`` moves. ``k`` counts the
    full bets and raises (``rules.max_wagers`` a round) and the short all-in ones, of
    which a deal has at most ``n`` (an all-in player never acts again). Summing over the
    rounds: ``n (R * max_wagers + n) + R n = R n (max_wagers + 1) + n * n``.
    """
    n = players
    rounds = 2 * n + 1
    return 52 + rounds * n * (rules.max_wagers + 1) + n * n


class KindGame(pyspiel.Game):
    """``python_four_of_a_kind``: see the module docstring. Bad parameters raise ``RulesError``.

    The game is of perfect information (every card is face up). With
    ``information=imperfect`` the same game declares itself of imperfect information,
    for algorithms that accept only those (OpenSpiel's IS-MCTS asserts it): every
    information set is then one state, which :meth:`KindState.resample_from_infostate`
    returns.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_KIND_PARAMS, **(params or {})}
        information = _KIND_INFORMATION.get(str(p["information"]))
        if information is None:
            raise RulesError(f"information must be 'perfect' or 'imperfect', got {p['information']!r}")
        self.rules = _kind_rules(p)
        players = int(p["players"])
        stack = None if int(p["stack"]) < 0 else int(p["stack"])
        self.stacks = table_stacks(players, stack, str(p["stacks"]), self.rules)
        self.button = int(p["button"])
        Game(self.rules, self.stacks, self.button, cards=())  # validates the table
        self.encoder = KindActions(self.rules)
        max_length = kind_max_game_length(players, self.rules)
        super().__init__(_kind_type(information), pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=float(-max(self.stacks)),
            max_utility=float(sum(self.stacks) - min(self.stacks)),
            utility_sum=0.0,
            max_game_length=max_length), p)

    def new_initial_state(self) -> KindState:
        """A new deal, waiting for its first card."""
        return KindState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KindObserver:
        """The observer of tensors and strings (see :mod:`fourcards.rl.encoding`)."""
        return KindObserver(self, iig_obs_type, params)


class KindState(pyspiel.State):
    """A Four of a Kind deal in OpenSpiel, over a :class:`~fourcards.kind.game.Game` (scripted deck)."""

    def __init__(self, game: KindGame) -> None:
        super().__init__(game)
        self.encoder = game.encoder  # plain objects: OpenSpiel clones a state with copy.deepcopy
        self.engine = Game(game.rules, game.stacks, game.button, cards=())

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while a card is due, ``TERMINAL`` at the end."""
        if self.engine.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        actor = self.engine.actor
        return int(pyspiel.PlayerId.CHANCE) if actor is None else actor

    def _legal_actions(self, player: int) -> list[int]:
        return self.encoder.ids(self.engine.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not face up, equally likely (by card index); at a deal node only the
        cards of the ranks nobody holds.

        Under the default re-deal (``Redeal.REPLACE``, seed 000) a dealt card of a rank
        already held goes back and the player is dealt again until the rank is new, so
        the card a player keeps is uniform over the cards of the ranks nobody holds:
        those are the outcomes of a deal node (the returned duplicates would change
        nothing but the history). Under ``ALL_DUPLICATES`` (seed 001 §2.3) every holder
        of a duplicated rank is dealt again until all ranks differ: the deal that results
        has the same law - the process treats cards only by whether their ranks are equal,
        so its outcome is unchanged in law by any relabelling of the ranks and of the
        suits within each rank, and those relabellings take any deal of distinct ranks to
        any other, so every such deal is equally likely, as under ``REPLACE`` - and the
        undealt cards are reshuffled. So both variants offer the same outcomes here and the
        game tree stays finite (:func:`kind_max_game_length`); dealing duplicates out would
        make it unbounded (a 13-player ``opr903`` deal then ran to 16,000 moves).
        """
        view = self.engine.observation(None)
        cards = unseen_cards(view)
        if self.engine.chance_step == "deal":
            held = {v.cards[0].rank for v in view.seats if v.cards}
            cards = [c for c in cards if c.rank not in held]
        p = 1.0 / len(cards)
        return [(c.index, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        step = self.engine.chance_step
        if self.engine.actor is None and step is not None:
            self.engine.apply(chance_record(self.engine.observation(None), step, Card(int(action))))
        else:
            self.engine.apply(self.encoder.action(action, self.engine.legal_actions(self.engine.actor)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {Card(int(action))}"
        return self.encoder.name(action)

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.engine.is_terminal

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KindState:
        """A state consistent with ``player_id``'s information: this one (a copy), as every card is
        face up and the deck's order is not part of the state (it is drawn at chance nodes)."""
        return self.clone()

    def returns(self) -> list[float]:
        """Net chips per player (zeros until the end)."""
        return [float(x) for x in self.engine.returns()]

    def __str__(self) -> str:
        return kind_string(self.engine.observation(None))


class KindObserver:
    """Observation tensor (:func:`~fourcards.rl.encoding.kind_tensor`) and strings of a seat.

    With perfect recall (the information state) the string is the deal's history
    of actions and chance outcomes, all public; otherwise it is the table's text.
    """

    def __init__(self, game: KindGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported, got {params}")
        self.perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.total = sum(game.stacks)
        self.tensor = np.zeros(kind_tensor_size(len(game.stacks)), dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KindState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as ``player`` sees it."""
        kind_tensor(state.engine.observation(player), self.total, out=self.tensor)

    def string_from(self, state: KindState, player: int) -> str:
        """The view of ``player`` as text (the history, with perfect recall)."""
        if self.perfect_recall:
            return f"seat {player + 1}: " + " ".join(str(a) for a in state.history())
        return kind_string(state.engine.observation(player))


# -------------------------------------------------------------- Four Card Poker


def _poker_rules(params: dict[str, Any]) -> PokerRules:
    return get_rules(str(params["preset"]), ante_bonus=str(params["ante_bonus"]) or None,
                     aces_up=str(params["aces_up_table"]) or None)


class PokerGame(pyspiel.Game):
    """``python_four_card_poker``: see the module docstring. Bad parameters raise ``RulesError``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_POKER_PARAMS, **(params or {})}
        self.rules = _poker_rules(p)
        self.players, self.ante, self.aces_up = int(p["players"]), int(p["ante"]), int(p["aces_up"])
        probe = PokerRound(self.rules, self.players)  # validates the table and the wagers
        for player in range(self.players):
            probe.apply(probe.legal_actions(player)[0].action(self.ante, self.aces_up))
        bonus = max(self.rules.ante_bonus.as_dict().values(), default=0)
        top = max(self.rules.aces_up.as_dict().values(), default=0)
        best = self.ante * (4 + bonus) + self.aces_up * top
        if self.rules.win_cap is not None:
            best = min(best, self.rules.win_cap)
        super().__init__(_POKER_TYPE, pyspiel.GameInfo(
            num_distinct_actions=len(ACTIONS),
            max_chance_outcomes=52,
            num_players=self.players,
            min_utility=float(-(4 * self.ante + self.aces_up)),
            max_utility=float(best),
            utility_sum=None,
            max_game_length=6 * self.players + 6), p)

    def new_initial_state(self) -> PokerState:
        """A new round: wagers placed, waiting for the first card."""
        return PokerState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PokerObserver:
        """The observer of tensors and strings."""
        return PokerObserver(self, iig_obs_type, params)


class PokerState(pyspiel.State):
    """A Four Card Poker round in OpenSpiel, over a :class:`~fourcards.poker.round.PokerRound`.

    The deal's cards come one chance node at a time and are applied as one
    :class:`~fourcards.poker.round.Deal` record once all are drawn.
    """

    def __init__(self, game: PokerGame) -> None:
        super().__init__(game)
        self.players, self.ante = game.players, game.ante  # plain values: clones are deep copies
        self.engine = PokerRound(game.rules, game.players)
        for player in range(game.players):
            option = next(o for o in self.engine.legal_actions(player) if o.kind is ActionKind.PLACE_WAGERS)
            self.engine.apply(option.action(game.ante, game.aces_up))
        self.drawn: list[Card] = []

    @property
    def _needed(self) -> int:
        return 5 * self.players + 6

    def current_player(self) -> int:
        """The player to decide, ``CHANCE`` while dealing, ``TERMINAL`` once settled."""
        if self.engine.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if self.engine.chance_step is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.engine.actor is not None
        return self.engine.actor

    def _legal_actions(self, player: int) -> list[int]:
        mask = action_mask(self.engine.legal_actions(player), self.ante)
        return [int(a) for a in np.flatnonzero(mask)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not yet dealt, equally likely (by card index)."""
        left = [c.index for c in FULL_DECK if c not in set(self.drawn)]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.engine.chance_step is not None:
            self.drawn.append(Card(int(action)))
            if len(self.drawn) == self._needed:
                n = self.players
                hands = {p: self.drawn[5 * p:5 * p + 5] for p in range(n)}
                dealer = self.drawn[5 * n:]
                self.engine.apply(Deal.of(hands, dealer, dealer[-1]))
            return
        player = self.engine.actor
        assert player is not None
        kind = ActionKind.FOLD if action == 0 else ActionKind.PLAY
        option = next(o for o in self.engine.legal_actions(player) if o.kind is kind)
        self.engine.apply(option.action(None if action == 0 else int(action) * self.ante))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"card {Card(int(action))}"
        return ACTIONS[int(action)]

    def is_terminal(self) -> bool:
        """Whether the round is settled."""
        return self.engine.is_terminal

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PokerState:
        """A state drawn from those ``player_id`` cannot tell from this one (for IS-MCTS).

        The player knows its own five cards, the up card and every decision made; the other
        players' cards and the dealer's five hole cards are dealt again from the cards it has
        not seen, each way equally likely (``probability_sampler()`` gives the uniform draws),
        and the decisions are replayed. Once the cards are shown at the showdown, or before
        the deal is complete, the state itself is returned (a copy), resp. a deal of the same
        length from the unseen cards.
        """
        game = self.get_game()
        state = game.new_initial_state()
        n = self.players
        view = self.engine.observation(player_id)
        if self.engine.is_terminal or view.dealer_cards is not None:
            return self.clone()
        known: dict[int, int] = {}
        if self.engine.chance_step is None:  # dealt: the player's own five and the up card
            mine = view.players[player_id].cards or ()
            known = {5 * player_id + i: c.index for i, c in enumerate(mine)}
            assert view.up_card is not None
            known[5 * n + 5] = view.up_card.index
        deck = [c.index for c in FULL_DECK if c.index not in set(known.values())]
        for position in range(len(self.drawn)):
            if position in known:
                card = known[position]
            else:
                card = deck.pop(min(int(probability_sampler() * len(deck)), len(deck) - 1))
            state.apply_action(card)
        for player in range(n):
            decision = view.players[player].decision
            if decision is None:
                break
            play = view.players[player].play
            state.apply_action(0 if decision == "fold" else int(play) // self.ante)
        return state

    def returns(self) -> list[float]:
        """Net chips per player (zeros until settled)."""
        return [float(x) for x in self.engine.returns()]

    def __str__(self) -> str:
        view = self.engine.observation(None)
        drawn = " ".join(str(c) for c in self.drawn) if self.engine.chance_step else ""
        decisions = " ".join(f"{v.player + 1}:{v.decision or '-'}{v.play or ''}" for v in view.players)
        dealer = " ".join(str(c) for c in view.dealer_cards or ())
        return f"{drawn}|up {view.up_card}|{decisions}|dealer {dealer}|{view.phase.value}"


class PokerObserver:
    """What a player of ``python_four_card_poker`` sees.

    Tensor (``float32[156 + 5 n]``): the player's five cards one-hot (0-51), the
    dealer's up card (52-103), the dealer's six cards once shown at showdown
    (104-155), then per player one-hot its decision: none yet, fold, 1x, 2x, 3x.
    The string lists the same; it is also the information state (the decisions
    are public and come in order).
    """

    def __init__(self, game: PokerGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported, got {params}")
        self.game = game
        self.tensor = np.zeros(156 + 5 * game.players, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PokerState, player: int) -> None:
        """Fill :attr:`tensor` with ``state`` as ``player`` sees it."""
        t = self.tensor
        t.fill(0)
        view = state.engine.observation(player)
        me = view.players[player]
        for c in me.cards or ():
            t[c.index] = 1
        if view.up_card is not None:
            t[52 + view.up_card.index] = 1
        for c in view.dealer_cards or ():
            t[104 + c.index] = 1
        for v in view.players:
            k = 0 if v.decision is None else (1 if v.decision == "fold" else 1 + v.play // self.game.ante)
            t[156 + 5 * v.player + k] = 1

    def string_from(self, state: PokerState, player: int) -> str:
        """The view of ``player`` as text: its cards, the up card, every decision, the dealer at showdown."""
        view = state.engine.observation(player)
        me = view.players[player]
        mine = " ".join(str(c) for c in me.cards or ()) or "-"
        decisions = " ".join(f"{v.player + 1}:{v.decision or '-'}{v.play or ''}" for v in view.players)
        dealer = " ".join(str(c) for c in view.dealer_cards or ()) or "-"
        return f"seat {player + 1}: {mine}|up {view.up_card or '-'}|{decisions}|dealer {dealer}"


# ------------------------------------------- Small Four of a Kind (a research variant)

_SMALL_PARAMS: dict[str, Any] = {"players": 2, "start": 2, "ante": 1, "min_bet": 1, "max_bet": 1, "max_raises": 1,
                                 "payout": "auto"}
_SMALL_TYPE = pyspiel.GameType(
    short_name=SMALL_GAME,
    long_name="Small Four of a Kind (fourcards research variant, not the seeds' game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=3,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=_SMALL_PARAMS,
)


class SmallKindGame(pyspiel.Game):
    """``python_small_kind_variant``: :mod:`fourcards.rl.small_kind` (a research variant, not the seeds' game).
    Bad parameters raise ``RulesError``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_SMALL_PARAMS, **(params or {})}
        self.rules = SmallKindRules(players=int(p["players"]), start=int(p["start"]), ante=int(p["ante"]),
                                    min_bet=int(p["min_bet"]), max_bet=int(p["max_bet"]),
                                    max_raises=int(p["max_raises"]), payout=str(p["payout"]))
        r = self.rules
        most = r.ante + r.max_rounds * (1 + r.max_raises) * r.max_bet  # the most a player puts in
        super().__init__(_SMALL_TYPE, pyspiel.GameInfo(
            num_distinct_actions=r.num_actions,
            max_chance_outcomes=max(6 if r.players == 3 else 2, r.players),
            num_players=r.players,
            min_utility=float(-most),
            max_utility=float((r.players - 1) * most),
            utility_sum=0.0,
            max_game_length=r.max_game_length), p)

    def new_initial_state(self) -> SmallKindState:
        """A new deal, waiting for the order of the ranks."""
        return SmallKindState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SmallKindObserver:
        """Strings only: the history (perfect recall) or the table's text."""
        return SmallKindObserver(params)


class SmallKindState(pyspiel.State):
    """A deal of the small variant in OpenSpiel, over a :class:`~fourcards.rl.small_kind.SmallDeal`."""

    def __init__(self, game: SmallKindGame) -> None:
        super().__init__(game)
        self.deal = SmallDeal(game.rules)

    def current_player(self) -> int:
        """The player to act, ``CHANCE`` at the deal and while turning, ``TERMINAL`` at the end."""
        if self.deal.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        actor = self.deal.actor
        return int(pyspiel.PlayerId.CHANCE) if actor is None else actor

    def _legal_actions(self, player: int) -> list[int]:
        return self.deal.legal_ids() if player == self.deal.actor else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The order of the players' ranks at the deal; then the player whose rank comes next."""
        return self.deal.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self.deal.actor is None:
            self.deal.apply_chance(int(action))
        else:
            self.deal.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.deal.phase == "deal":
                return f"ranks {action}"
            return f"card to {action + 1}"
        return {0: "fold", 1: "check", 2: "call"}.get(int(action), f"bet/raise {int(action) - 2}")

    def is_terminal(self) -> bool:
        """Whether the deal is over."""
        return self.deal.is_terminal

    def returns(self) -> list[float]:
        """Net chips per player (zeros until the end)."""
        return self.deal.returns()

    def __str__(self) -> str:
        d = self.deal
        return (f"{d.phase} ranks {list(d.order)} cards {d.counts} folded {d.folded} in {d.contrib} "
                f"stakes {d.stake} actor {d.actor}")


class SmallKindObserver:
    """Strings of the small variant: the whole history with perfect recall, else the table's text (every
    card is face up: both are public)."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported, got {params}")
        self.tensor = np.zeros(0, dtype=np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: SmallKindState, player: int) -> None:
        """No tensor."""

    def string_from(self, state: SmallKindState, player: int) -> str:
        """The history (the same for every player: perfect information)."""
        return " ".join(str(a) for a in state.history())


pyspiel.register_game(_KIND_TYPE, KindGame)
pyspiel.register_game(_POKER_TYPE, PokerGame)
pyspiel.register_game(_SMALL_TYPE, SmallKindGame)
