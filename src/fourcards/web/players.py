"""Computer players and the trainer for the web tables.

* :func:`poker_bot_decision` - a Four Card Poker bot's fold/play choice: the
  published simple strategy (Shuffle Master: fold a pair of 2s or less, play
  1x with a pair of 3s-9s, 3x with a pair of 10s or better; DESIGN.md
  "Published figures"), kept within the legal play bets and the bot's chips.
* :func:`kind_bot_action` - a Four of a Kind bot's move: the engine's bot
  registry (:mod:`fourcards.kind.bots`) when it is installed, else a simple
  built-in policy from the exact odds.
* :class:`Advisor` - the trainer: the optimal decision and the EV given up for
  a Four Card Poker hand, from the exact analysis
  (:func:`fourcards.poker.analysis.hand_ev`) when that module is available;
  the first computation runs in a worker thread, never in a request.
"""

from __future__ import annotations

import importlib
import logging
import threading
from typing import Any

from fourcards.cards import Card, Rank, make_rng, parse_card
from fourcards.hands import HandCategory, best_hand
from fourcards.poker.rules import PokerRules

__all__ = ["poker_bot_decision", "kind_bot_action", "kind_bot_kinds", "Advisor", "POKER_BOT_KINDS"]

log = logging.getLogger(__name__)

#: Bot kinds a Four Card Poker table offers.
POKER_BOT_KINDS = ("simple",)


def poker_bot_decision(cards: list[Card], rules: PokerRules, ante: int, balance: int) -> int | None:
    """The simple strategy's play bet in chips, or ``None`` to fold.

    Args:
        cards: the bot's five cards. rules: the table rules. ante: the bot's
            ante (chips). balance: chips the bot has left for the play bet.
    """
    value, _ = best_hand(cards)
    cat = value.category
    if cat is HandCategory.HIGH_CARD or (cat is HandCategory.PAIR and value.ranks[0] <= Rank.TWO):
        want = 0
    elif cat is HandCategory.PAIR and value.ranks[0] <= Rank.NINE:
        want = 1
    else:
        want = 3
    if want == 0:
        return None
    affordable = [m for m in rules.decision_multiples if m * ante <= balance]
    if not affordable:
        return None
    best = max((m for m in affordable if m <= want), default=min(affordable))
    return best * ante


# ------------------------------------------------------------- Four of a Kind


def _kind_bots_module() -> Any | None:
    try:
        return importlib.import_module("fourcards.kind.bots")
    except ModuleNotFoundError as exc:
        if exc.name != "fourcards.kind.bots":
            raise
        return None


def kind_bot_kinds() -> tuple[str, ...]:
    """Bot names a Four of a Kind table offers: the engine's built-in bots and installed plug-ins
    (:func:`fourcards.kind.bots.bot_names`), or ``("basic",)`` without the bots module."""
    mod = _kind_bots_module()
    names = getattr(mod, "bot_names", None) if mod is not None else None
    if callable(names):
        return tuple(names())
    registry = getattr(mod, "BOTS", None) if mod is not None else None
    if isinstance(registry, dict) and registry:
        return tuple(registry)
    return ("basic",)


def kind_bot_action(game: Any, kind: str | None, odds: dict[int, Any] | None = None) -> Any:
    """The move of the bot to act in ``game`` (a :class:`fourcards.kind.game.Game`).

    Uses :func:`fourcards.kind.bots.make_bot` (``BOTS``) when present: the bot sees
    only its seat's observation and the legal actions; otherwise a built-in policy: bet or
    raise the minimum with a better than even chance of high, check when free,
    call when the expected share of the pot covers the call, else fold.

    Returns:
        a :class:`fourcards.kind.actions.Action` that is legal now.
    """
    from fourcards.kind.actions import Action, ActionKind

    seat = game.actor
    mod = _kind_bots_module()
    if mod is not None:
        try:
            bot = _make_kind_bot(mod, kind)
            if bot is not None:
                obs = game.observation(seat)
                act = bot.act(obs, game.legal_actions(), _RNG)
                if isinstance(act, str):
                    act = Action.parse(act)
                if any(la.allows(act) for la in game.legal_actions()):
                    return act
        except Exception:  # pragma: no cover - a faulty bot must not stop the table
            log.exception("Four of a Kind bot %r failed; using the built-in policy", kind)
    legal = {la.kind: la for la in game.legal_actions()}
    po = (odds or {}).get(seat)
    p_high = po.high if po is not None else 0.0
    share = po.share if po is not None else 0.25
    if ActionKind.CHECK in legal:
        bet = legal.get(ActionKind.BET) or legal.get(ActionKind.RAISE)
        if bet is not None and p_high > 0.5:
            return bet.action()
        return Action.check()
    call = legal[ActionKind.CALL]
    pot_after = game.pot + call.min_amount
    if share * pot_after >= call.min_amount or call.min_amount <= game.rules.min_bet:
        return call.action()
    return Action.fold()


_BOT_CACHE: dict[str, Any] = {}
_RNG = make_rng()  # the OS CSPRNG: live bots' random choices


def _make_kind_bot(mod: Any, kind: str | None) -> Any | None:
    name = kind or "odds"
    if name in _BOT_CACHE:
        return _BOT_CACHE[name]
    bot = None
    getter = getattr(mod, "make_bot", None) or getattr(mod, "get_bot", None)
    registry = getattr(mod, "BOTS", None)
    if getter is not None:
        try:
            bot = getter(name)
        except Exception:
            bot = None
    elif isinstance(registry, dict) and name in registry:
        entry = registry[name]
        bot = entry() if isinstance(entry, type) else entry
    _BOT_CACHE[name] = bot
    return bot


# --------------------------------------------------------------------- trainer


class Advisor:
    """Trainer advice for Four Card Poker decisions (thread-safe).

    :meth:`advise` is blocking (call it from a worker thread); it returns
    ``{"status": "unavailable", ...}`` when :mod:`fourcards.poker.analysis` is
    not installed, else the optimal decision, every option's EV (in antes) and
    the EV given up by the choice made (in antes and in chips).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._module: Any | None = None
        self._checked = False

    def _analysis(self) -> Any | None:
        with self._lock:
            if not self._checked:
                self._checked = True
                try:
                    self._module = importlib.import_module("fourcards.poker.analysis")
                except ModuleNotFoundError as exc:
                    if exc.name != "fourcards.poker.analysis":
                        raise
                    self._module = None
                if self._module is not None and not hasattr(self._module, "hand_ev"):
                    self._module = None
            return self._module

    @property
    def available(self) -> bool:
        """Whether the exact analysis can be used."""
        return self._analysis() is not None

    def advise(self, cards: list[str], up_card: str, rules: PokerRules, ante: int,
               decision: str, play: int | None) -> dict[str, Any]:
        """Advice for one decision.

        Args:
            cards: the five cards; up_card: the dealer's up card; rules; ante (chips);
            decision: ``"fold"`` or ``"play"``; play: the play bet in chips.

        Returns:
            ``{"status": "ok", "optimal": "play_3x", "chosen": "play_1x",
            "ev": {option: antes}, "ev_lost": antes, "ev_lost_chips": chips, "hand": ...}``
            or ``{"status": "unavailable" | "error", "message": ...}``.
        """
        mod = self._analysis()
        if mod is None:
            return {"status": "unavailable", "message": "analysis not available"}
        try:
            ev = mod.hand_ev([parse_card(c) for c in cards], parse_card(up_card), rules)
            if decision == "fold" or not play:
                chosen = "fold"
            else:
                multiple = play / ante
                # the EV is linear in the play bet: interpolate for amounts between multiples
                lo = int(multiple)
                if multiple == lo and f"play_{lo}x" in ev.ev:
                    chosen = f"play_{lo}x"
                    chosen_ev = ev.ev[chosen]
                else:
                    chosen = f"play {play}"
                    e1 = ev.ev.get("play_1x")
                    e3 = ev.ev.get("play_3x")
                    chosen_ev = e1 + (e3 - e1) * (multiple - 1) / 2 if e1 is not None and e3 is not None else None
                if chosen_ev is None:
                    raise ValueError("no EV for this play bet")
            if chosen == "fold":
                chosen_ev = ev.ev["fold"]
            lost = ev.ev[ev.decision] - chosen_ev
            return {
                "status": "ok",
                "hand": ev.hand.describe(),
                "optimal": ev.decision,
                "chosen": chosen,
                "ev": {k: round(float(v), 4) for k, v in ev.ev.items()},
                "ev_lost": round(float(lost), 4),
                "ev_lost_chips": round(float(lost) * ante, 2),
            }
        except Exception as exc:  # pragma: no cover - advice must never break play
            log.exception("trainer advice failed")
            return {"status": "error", "message": f"analysis failed: {exc}"}
