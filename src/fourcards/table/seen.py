"""Observations of a deal's engine state, each computed once.

A table reads a deal through the engine protocol's ``observation(player)``: the chips at stake,
the log, the stored result and every seat's view of one change all read the same observations.
The engine state a table holds never changes (an action is applied to a clone), so its
observations are kept with it here - keyed by the state object and the length of its history,
so a clone that is still being changed (real cards entered one by one) is never answered with
an old one. Kept weakly: they go with the state.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from fourcards.engine import GameState

__all__ = ["observe"]

_SEEN: WeakKeyDictionary[Any, dict[tuple[int, int | None], Any]] = WeakKeyDictionary()
#: Observations kept per engine state (every seat of the largest table, and the spectator's).
_PER_STATE = 16


def observe(game: GameState, player: int | None = None) -> Any:
    """``game.observation(player)``, computed once per state and history length."""
    key = (len(game.history), player)
    try:
        per = _SEEN[game]
    except KeyError:
        per = _SEEN[game] = {}
    except TypeError:  # an engine state that cannot be weakly referenced: no keeping
        return game.observation(player)
    seen = per.get(key)
    if seen is None:
        if len(per) >= _PER_STATE:
            per.clear()
        seen = per[key] = game.observation(player)
    return seen
