"""Computer players for Four of a Kind, and helpers to run deals with them.

Interface (any user can implement it): a :class:`Bot` has a ``name`` and
``act(observation, legal_actions, rng) -> Action``; it sees only its seat's
:class:`~fourcards.kind.observation.Observation` (docs/engine.md: bots see an
observation, never the state) and must return an action that one of
``legal_actions`` allows.

Built in, by name in :data:`BOTS` (``make_bot("odds")``):

* ``"odds"`` - :class:`OddsBot`: exact odds (:func:`~fourcards.kind.odds.exact_odds`)
  and pot odds: calls when its expected share of the pot pays for the call,
  bets and raises when its share beats an even split among the active players;
* ``"cautious"`` - :class:`CautiousBot`: checks whenever it can, never raises,
  bets only with a strong share and calls only small bets with good pot odds;
* ``"random"`` - :class:`RandomBot`: a uniformly random legal move and amount;
* ``"pots"`` - :class:`PotsBot`: prices every option with the exact expected
  chips it wins from every pot, side pots included
  (:func:`~fourcards.kind.odds.pot_equity`), and plays the best one.

Plug-ins: any installed distribution can add bots through the entry-point group
``fourcards.bots`` (:data:`ENTRY_POINT_GROUP`), one entry point per bot, its
name the bot's name and its object a :class:`Bot` subclass or any callable
that returns an object with ``act(observation, legal_actions, rng)``::

    # the plug-in's pyproject.toml
    [project.entry-points."fourcards.bots"]
    mybot = "mypackage.bots:MyBot"

:func:`bot_names` lists the built-in bots and then the installed plug-ins
(reading only the package metadata: nothing is imported until
:func:`make_bot` builds one), so a plug-in appears in ``fourcards kind
simulate --bots``, ``fourcards kind play --bot-kind`` and the web app's bot
choices. A plug-in cannot replace a built-in name.

Agent files: ``make_bot("file:PATH")`` plays the agent saved at ``PATH``
(:data:`FILE_PREFIX`; the loader, ``fourcards.rl.agents``, is found by name
like a plug-in's object, so this module imports nothing of it). Such a name
is never listed by :func:`bot_names`: it is taken where a person names a
file (the command line), never from a web client.

:func:`play_deal` runs one deal with a bot in every seat; :func:`play_deals`
runs a session (stacks carried over, the button rotating) - for simulations
and benchmarks.
"""

from __future__ import annotations

import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from importlib import metadata

from fourcards.errors import RulesError
from fourcards.kind.actions import Action, ActionKind, LegalAction
from fourcards.kind.game import Game, can_play, next_button
from fourcards.kind.observation import Observation
from fourcards.kind.odds import exact_odds, pot_equity
from fourcards.kind.pots import Pot, side_pots
from fourcards.kind.rules import KindRules

__all__ = ["Bot", "OddsBot", "CautiousBot", "RandomBot", "PotsBot", "BOTS", "ENTRY_POINT_GROUP", "FILE_PREFIX",
           "bot_names", "plugin_bots", "make_bot", "is_file_bot", "play_deal", "play_deals", "expected_share"]


class Bot(ABC):
    """A computer player. Subclasses implement :meth:`act`."""

    name: str = "bot"

    @abstractmethod
    def act(self, observation: Observation, legal_actions: Sequence[LegalAction],
            rng: random.Random) -> Action:
        """Choose an action allowed by one of ``legal_actions`` (non-empty)."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _option(legal: Sequence[LegalAction], kind: ActionKind) -> LegalAction | None:
    return next((la for la in legal if la.kind is kind), None)


def expected_share(observation: Observation) -> tuple[float, int]:
    """The observing seat's exact expected fraction of the pot and the number of
    active players (assuming no further folds; main pot only)."""
    hs = observation.holdings()
    seat = observation.seat
    if seat is None or seat not in hs:
        return 0.0, len(hs)
    seats = list(hs)
    odds = exact_odds([hs[s] for s in seats])
    return odds[seats.index(seat)].share, len(seats)


class RandomBot(Bot):
    """Picks a legal move uniformly, then a uniform amount in its range."""

    name = "random"

    def act(self, observation: Observation, legal_actions: Sequence[LegalAction],
            rng: random.Random) -> Action:
        """A uniformly random legal option, then a uniform amount in its ``min_amount..max_amount`` chips.

        Uses only ``rng`` (``observation`` is ignored), so a seeded ``rng`` makes it reproducible.
        """
        la = rng.choice(list(legal_actions))
        return la.action(rng.randint(la.min_amount, la.max_amount))


class OddsBot(Bot):
    """Plays the exact odds against the pot odds.

    With expected share ``e`` of the pot (:func:`expected_share`), ``n`` active
    players, pot ``P`` and ``c`` chips to call:

    * facing a bet: call when ``e >= c / (P + c)`` (the pot pays for the call),
      else fold; raise (max when ``e * n >= 2``) when ``e * n >= raise_edge``;
    * no bet: bet (max when ``e * n >= 2``) when ``e * n >= bet_edge``, else check.

    ``e * n > 1`` means the seat expects more than an even split of any chips
    that everyone adds, which is when betting gains.
    """

    name = "odds"

    def __init__(self, bet_edge: float = 1.25, raise_edge: float = 1.6) -> None:
        self.bet_edge = bet_edge
        self.raise_edge = raise_edge

    def act(self, observation: Observation, legal_actions: Sequence[LegalAction],
            rng: random.Random) -> Action:
        """Play expected share ``e`` (fraction of the pot, :func:`expected_share`) of ``n`` active players vs pot odds.

        With nothing to call: bet (or raise) when ``e * n >= bet_edge`` - the maximum when
        ``e * n >= 2``, else the minimum - otherwise check. Facing ``c`` chips: raise on
        ``e * n >= raise_edge`` (same sizing), else call when ``e * (pot + c) >= c``, else fold.
        ``rng`` is unused (deterministic).
        """
        e, n = expected_share(observation)
        edge = e * n
        to_call = observation.to_call
        if to_call == 0:
            bet = _option(legal_actions, ActionKind.BET) or _option(legal_actions, ActionKind.RAISE)
            if bet is not None and edge >= self.bet_edge:
                return bet.action(bet.max_amount if edge >= 2 else bet.min_amount)
            return Action.check()
        call = _option(legal_actions, ActionKind.CALL)
        assert call is not None
        raise_ = _option(legal_actions, ActionKind.RAISE)
        if raise_ is not None and edge >= self.raise_edge:
            return raise_.action(raise_.max_amount if edge >= 2 else raise_.min_amount)
        if e * (observation.pot + call.min_amount) >= call.min_amount:
            return call.action()
        return Action.fold()


class CautiousBot(Bot):
    """Checks when it can; never raises; bets the minimum only with ``e * n >= 2``;
    calls only bets up to ``call_limit`` chips (default: ``max_bet``) with pot odds
    to spare (``e >= 1.5 * c / (P + c)``); otherwise folds."""

    name = "cautious"

    def __init__(self, call_limit: int | None = None) -> None:
        self.call_limit = call_limit

    def act(self, observation: Observation, legal_actions: Sequence[LegalAction],
            rng: random.Random) -> Action:
        """Check when nothing is to call, betting the minimum only when ``e * n >= 2`` (as in :class:`OddsBot`); never raise.

        Facing ``c`` chips: call when ``c <= call_limit`` (default ``rules.max_bet``) and
        ``e * (pot + c) >= 1.5 * c``, else fold. ``rng`` is unused (deterministic).
        """
        e, n = expected_share(observation)
        to_call = observation.to_call
        if to_call == 0:
            bet = _option(legal_actions, ActionKind.BET)
            if bet is not None and e * n >= 2:
                return bet.action(bet.min_amount)
            return Action.check()
        call = _option(legal_actions, ActionKind.CALL)
        assert call is not None
        limit = self.call_limit if self.call_limit is not None else observation.rules.max_bet
        c = call.min_amount
        if c <= limit and e * (observation.pot + c) >= 1.5 * c:
            return call.action()
        return Action.fold()


class PotsBot(Bot):
    """Prices calls with the exact odds over every pot it can win, side pots included.

    * **Calls.** Facing ``c`` chips, it splits the chips put in (its call included)
      into the main pot and side pots (:func:`~fourcards.kind.pots.side_pots`, table
      stakes, DESIGN.md ruling 8; :meth:`pots_now`) and computes its exact expected
      take of every pot it can win (:func:`~fourcards.kind.odds.pot_equity`: no
      further folds, the deck turned out; a pot no one else can win comes back
      whole). It calls when that take pays for the call (``take >= c``), else folds.
    * **Bets and raises.** The chips of a new bet can be won only by the seats that
      can still match them (active, not all in). With ``e`` its exact share of a
      pot among those ``n`` seats (:meth:`betting_edge`), it bets or raises the
      maximum when ``e * n >= edge`` (default 1: it expects at least an even split
      of the chips everyone adds, and any seat that folds leaves its chips behind),
      else checks or calls.

    :class:`OddsBot` values the position as one pot shared by every active seat
    (all-in seats included), prices a call against that pot alone and bets only
    above fixed margins (1.25, 1.6), mostly the minimum. Deterministic (``rng``
    unused); ``pot_equity`` is cached by position. Tournament figures: docs/kind.md
    "Bot tournament".
    """

    name = "pots"

    def __init__(self, edge: float = 1.0) -> None:
        self.edge = edge

    @staticmethod
    def pots_now(observation: Observation, extra: int = 0) -> list[Pot]:
        """The pots as they stand, with ``extra`` more chips from the observing seat.

        Amounts are the chips put in so far (:func:`~fourcards.kind.pots.side_pots`);
        a pot's eligible seats are the seats still in that have reached its level or
        can still reach it (active seats whose chips in plus stack cover it): the
        players yet to answer this round's bet are not shut out of it, while an
        all-in seat is eligible only up to its own level.
        """
        seat = observation.seat
        views = observation.seats
        contributed = [v.contributed + (extra if v.seat == seat else 0) for v in views]
        live = [v.is_active for v in views]
        levels = sorted({c for c, lv in zip(contributed, live, strict=True) if lv and c > 0})
        reach = [v.contributed + v.stack if v.status == "active" else contributed[v.seat] for v in views]
        out = []
        for level, pot in zip(levels, side_pots(contributed, live), strict=True):
            out.append(Pot(pot.amount, tuple(s for s in range(len(views)) if live[s] and reach[s] >= level)))
        return out

    @classmethod
    def take_after_call(cls, observation: Observation, seat: int) -> Fraction:
        """Exact expected chips ``seat`` wins from every pot it can win once it has called."""
        me = observation.seats[seat]
        pots = cls.pots_now(observation, min(me.stack, observation.bet - me.stake))
        return pot_equity(observation.holdings(), pots)[seat]

    @staticmethod
    def betting_edge(observation: Observation, seat: int) -> Fraction:
        """``e * n`` for new chips, exactly: ``seat``'s share of a pot among the ``n`` seats that can
        still put chips in (itself included), times ``n``; 0 when it cannot bet or nobody can answer."""
        holdings = observation.holdings()
        able = tuple(v.seat for v in observation.seats if v.status == "active" and v.stack > 0)
        if seat not in able or len(able) < 2:
            return Fraction(0)
        take = pot_equity(holdings, [Pot(2, able)])[seat]  # 1 chip for high, 1 for low
        return take / 2 * len(able)

    def act(self, observation: Observation, legal_actions: Sequence[LegalAction],
            rng: random.Random) -> Action:
        """Bet, raise, call, check or fold as the class docstring says; ``rng`` is unused."""
        seat = observation.seat
        assert seat is not None, "a bot acts for a seat"
        wager = _option(legal_actions, ActionKind.BET) or _option(legal_actions, ActionKind.RAISE)
        if wager is not None and self.betting_edge(observation, seat) >= self.edge:
            return wager.action(wager.max_amount)
        call = _option(legal_actions, ActionKind.CALL)
        if call is None:
            return Action.check()
        if self.take_after_call(observation, seat) >= call.min_amount:
            return call.action()
        return Action.fold()


#: Built-in bot classes by name, for ``--bots odds cautious random`` (plug-ins: :func:`bot_names`).
BOTS: dict[str, type[Bot]] = {"odds": OddsBot, "cautious": CautiousBot, "random": RandomBot, "pots": PotsBot}

#: Entry-point group through which installed packages add bots (see the module docstring).
ENTRY_POINT_GROUP = "fourcards.bots"

#: What a bot name may be: 1-16 lower-case letters, digits, ``_``, ``-`` and ``.`` (the web app takes
#: up to 16; no ``:``/``*``/``,``,
#: which ``--bots odds:3`` uses).
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,15}")

_LOADED: dict[tuple[str, str], Callable[[], object]] = {}

#: A bot name ``file:PATH`` plays the agent file at ``PATH`` (docs/rl.md "Agents: save, load, play").
FILE_PREFIX = "file:"
#: The loader of agent files, by name (``module:function``), as an entry point names a plug-in's object.
_FILE_LOADER = "fourcards.rl.agents:kind_bot_from_file"


def is_file_bot(name: object) -> bool:
    """Whether ``name`` names an agent file (``file:PATH``)."""
    return isinstance(name, str) and name.strip().lower().startswith(FILE_PREFIX) and len(name.strip()) > 5


def _load_by_name(target: str, what: str) -> Callable[..., object]:
    """The object ``module:attr`` names (imported now), as an entry point's ``load()``.

    Raises:
        RulesError: it cannot be imported (``what`` names it in the message).
    """
    import importlib

    module, _, attr = target.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except Exception as exc:  # the module's own import error, named
        raise RulesError(f"{what} cannot be loaded ({target}): {type(exc).__name__}: {exc}") from exc


def plugin_bots() -> dict[str, metadata.EntryPoint]:
    """Installed plug-in bots by name: the ``fourcards.bots`` entry points, not yet loaded.

    Names are lower-cased; a name that is not a valid bot name (``_NAME``) or that
    repeats a built-in or an earlier plug-in is left out. Reads only package
    metadata (nothing is imported).
    """
    out: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        name = ep.name.strip().lower()
        if _NAME.fullmatch(name) and name not in BOTS and name not in out:
            out[name] = ep
    return out


def bot_names() -> tuple[str, ...]:
    """Every bot name :func:`make_bot` accepts: the built-ins (:data:`BOTS`), then the plug-ins."""
    return (*BOTS, *plugin_bots())


def _plugin_factory(name: str, ep: metadata.EntryPoint) -> Callable[[], object]:
    key = (name, ep.value)
    if key not in _LOADED:
        try:
            obj = ep.load()
        except Exception as exc:  # the plug-in's own import error, named
            raise RulesError(f"plug-in bot {name!r} ({ep.value}) cannot be loaded: "
                             f"{type(exc).__name__}: {exc}") from exc
        if not callable(obj):
            raise RulesError(f"plug-in bot {name!r} ({ep.value}) is not a bot class or factory")
        _LOADED[key] = obj
    return _LOADED[key]


def make_bot(name: str) -> Bot:
    """A new bot by name: a built-in (:data:`BOTS`), an installed plug-in (:func:`bot_names`) or an agent
    file (``file:PATH``, :data:`FILE_PREFIX`).

    Returns:
        The bot; a plug-in's may be any object with ``act(observation, legal_actions, rng)``
        (typed as :class:`Bot`).

    Raises:
        RulesError: unknown name (the message lists the names), or a plug-in that
            cannot be loaded or does not make a bot. An agent file that cannot be read raises
            ``fourcards.rl.agents.AgentError`` (a :class:`~fourcards.errors.FourcardsError`).
    """
    if is_file_bot(name):
        path = str(name).strip()[len(FILE_PREFIX):]
        return _load_by_name(_FILE_LOADER, "an agent file's bot")(path)  # type: ignore[return-value]
    key = str(name).strip().lower()
    if key in BOTS:
        return BOTS[key]()
    ep = plugin_bots().get(key)
    if ep is None:
        raise RulesError(f"unknown bot {name!r}: choose from {', '.join(bot_names())}")
    bot = _plugin_factory(key, ep)()
    if not callable(getattr(bot, "act", None)):
        raise RulesError(f"plug-in bot {key!r} ({ep.value}) made {type(bot).__name__}, which has no "
                         "act(observation, legal_actions, rng) method")
    return bot  # type: ignore[return-value]


def play_deal(rules: KindRules, bots: Sequence[Bot], stacks: Sequence[int], rng: random.Random,
              button: int = 0) -> Game:
    """Play one deal to the end with ``bots[seat]`` acting for each seat.

    Args:
        rules: table rules.
        bots: one bot per seat (seats that sit out never act).
        stacks: chips per seat before the deal.
        rng: shuffles the deck and drives the bots' random choices (seed it
            for reproducible simulations).
        button: the dealer seat.

    Returns:
        The finished :class:`Game` (``returns()``, ``history``, ``stacks``, ``next_button``).

    Raises:
        RulesError: ``len(bots) != len(stacks)`` or the table cannot deal.
        IllegalActionError: a bot returned an illegal action.
    """
    if len(bots) != len(stacks):
        raise RulesError(f"one bot per seat: {len(bots)} bots for {len(stacks)} seats")
    game = Game(rules, stacks, button, rng=rng)
    while not game.is_terminal:
        seat = game.actor
        assert seat is not None, "a game with its own deck never waits for a card"
        obs = game.observation(seat)
        game.apply(bots[seat].act(obs, obs.legal_actions, rng))
    return game


def play_deals(rules: KindRules, bots: Sequence[Bot], stacks: Sequence[int], rng: random.Random,
               deals: int, button: int = 0) -> Iterator[Game]:
    """Play up to ``deals`` deals, carrying the stacks over and rotating the button;
    stops early when fewer than ``rules.min_players`` seats can pay the ante."""
    stacks = list(stacks)
    for _ in range(deals):
        if sum(can_play(s, rules) for s in stacks) < rules.min_players:
            return
        if not can_play(stacks[button], rules):
            button = next_button(stacks, button, rules)
        game = play_deal(rules, bots, stacks, rng, button)
        yield game
        stacks = list(game.stacks)
        button = game.next_button
