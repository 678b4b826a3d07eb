"""Four Card Poker bots by name: the built-in strategies and installed plug-ins.

A Four Card Poker bot decides one thing: fold or the play bet, from its five cards and the
dealer's up card. Its interface is ``decide(cards, up_card) -> multiple`` (``cards`` five
:class:`~fourcards.cards.Card`, ``up_card`` a :class:`~fourcards.cards.Card`; the result ``0``
to fold or ``k`` to play ``k`` x the ante, one the rules allow). Built in (:data:`POKER_BOTS`):
``"simple"`` (the published simple strategy) and ``"optimal"`` (the exact optimal decisions),
:func:`fourcards.poker.strategy.get_strategy`.

Plug-ins: any installed distribution adds bots through the entry-point group
``fourcards.poker_bots`` (:data:`POKER_ENTRY_POINT_GROUP`), one entry point per bot, its name
the bot's and its object a class or factory called with the table's
:class:`~fourcards.poker.rules.PokerRules` (or with nothing, if it takes no argument) that
returns an object with ``decide``::

    [project.entry-points."fourcards.poker_bots"]
    mybot = "mypackage.bots:MyPokerBot"

:func:`poker_bot_names` lists the built-ins then the plug-ins (package metadata only; nothing is
imported until :func:`make_poker_bot`), so a plug-in appears among the web app's Four Card
Poker bots. A plug-in cannot replace a built-in name. A bot's ``decide`` is also a policy that
:func:`fourcards.poker.policy.score_policy` scores exactly. docs/rl.md "Bots as plug-ins".

``make_poker_bot("file:PATH", rules)`` plays the agent file at ``PATH`` (its loader,
``fourcards.rl.agents``, found by name like a plug-in's object; docs/rl.md "Agents: save, load, play").
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib import metadata
from typing import Any

from fourcards.cards import Card
from fourcards.errors import RulesError
from fourcards.poker.rules import PokerRules

__all__ = ["POKER_BOTS", "POKER_ENTRY_POINT_GROUP", "StrategyBot", "poker_bot_names", "poker_plugin_bots",
           "make_poker_bot"]

#: The built-in bots: the strategies of :mod:`fourcards.poker.strategy` they play.
POKER_BOTS = ("simple", "optimal")
#: Entry-point group through which installed packages add Four Card Poker bots.
POKER_ENTRY_POINT_GROUP = "fourcards.poker_bots"
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,15}")


class StrategyBot:
    """A built-in bot: the decisions of a strategy by name (``"simple"``, ``"optimal"``) for ``rules``."""

    def __init__(self, name: str, rules: PokerRules) -> None:
        from fourcards.poker import strategy

        self.name = name
        self._strategy = strategy.get_strategy(name, rules)
        self._table: Any = None

    def decide(self, cards: Sequence[Card], up_card: Card) -> int:
        """The play multiple (0 = fold) for five ``cards`` against ``up_card``."""
        return self._strategy.decide(list(cards), up_card)

    def decide_many(self, cards: Any, up: Any) -> Any:
        """The play multiples of many hands at once: ``cards`` ``(N, 5)`` and ``up`` ``(N,)`` card indices
        (:func:`fourcards.poker.strategy.decide`; the look-up table is built on the first call)."""
        import numpy as np

        from fourcards.poker import strategy
        from fourcards.poker.exact.tables import base_tables

        if self._table is None:
            self._table = np.ascontiguousarray(self._strategy.decisions[:, base_tables().orbit_of])
        return strategy.decide(cards, up, self._table)


def poker_plugin_bots() -> dict[str, metadata.EntryPoint]:
    """Installed plug-in bots by name (the ``fourcards.poker_bots`` entry points, not loaded): names
    lower-cased; invalid names, built-in names and repeats are left out."""
    out: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=POKER_ENTRY_POINT_GROUP):
        name = ep.name.strip().lower()
        if _NAME.fullmatch(name) and name not in POKER_BOTS and name not in out:
            out[name] = ep
    return out


def poker_bot_names() -> tuple[str, ...]:
    """Every name :func:`make_poker_bot` accepts: :data:`POKER_BOTS`, then the plug-ins."""
    return (*POKER_BOTS, *poker_plugin_bots())


@lru_cache(maxsize=64)
def _built_in(name: str, rules: PokerRules) -> StrategyBot:
    return StrategyBot(name, rules)


def _call_factory(factory: Callable[..., Any], rules: PokerRules) -> Any:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        params = {}  # type: ignore[assignment]
    takes_rules = any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
                      for p in params.values())
    return factory(rules) if takes_rules else factory()


_FILE_LOADER = "fourcards.rl.agents:poker_bot_from_file"


def make_poker_bot(name: str, rules: PokerRules) -> Any:
    """The bot ``name`` for a table of ``rules``: a built-in (:class:`StrategyBot`, memoised), a plug-in, or
    an agent file (``file:PATH``).

    Raises:
        RulesError: unknown name (the message lists the names), a plug-in that cannot be loaded,
            or one that makes no object with ``decide(cards, up_card)``.
    """
    text = str(name).strip()
    if text.lower().startswith("file:") and len(text) > 5:
        import importlib

        module, _, attr = _FILE_LOADER.partition(":")
        try:
            loader = getattr(importlib.import_module(module), attr)
        except Exception as exc:  # the module's own import error, named
            raise RulesError(f"an agent file's bot cannot be loaded ({_FILE_LOADER}): {type(exc).__name__}: "
                             f"{exc}") from exc
        return loader(text[5:], rules)
    key = str(name).strip().lower()
    if key in POKER_BOTS:
        return _built_in(key, rules)
    ep = poker_plugin_bots().get(key)
    if ep is None:
        raise RulesError(f"unknown Four Card Poker bot {name!r}: choose from {', '.join(poker_bot_names())}")
    try:
        factory = ep.load()
    except Exception as exc:  # the plug-in's own import error, named
        raise RulesError(f"plug-in bot {key!r} ({ep.value}) cannot be loaded: {type(exc).__name__}: {exc}") from exc
    bot = _call_factory(factory, rules) if callable(factory) else None
    if not callable(getattr(bot, "decide", None)):
        raise RulesError(f"plug-in bot {key!r} ({ep.value}) makes no object with decide(cards, up_card)")
    return bot
