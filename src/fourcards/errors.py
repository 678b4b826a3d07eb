"""Exceptions raised by fourcards: one hierarchy for both games.

Every error the engines raise for bad input derives from :class:`FourcardsError`
(and from :class:`ValueError`, so callers that only know the standard library
can still catch it). Messages name the offending token, amount or action, and
name players as people see them (``"seat 4"`` for engine player 3, see
:func:`fourcards.engine.seat_label`).

::

    FourcardsError (ValueError)
    +-- CardError            a malformed card, a duplicate, a wrong number of cards
    +-- RulesError           invalid rules or table set-up
    +-- IllegalActionError   an action or chance outcome the state refuses
    |   +-- IllegalChanceError   (also a CardError) a chance record with cards that cannot be dealt now
    +-- HistoryError         a malformed hand history, or one that does not replay
"""

from __future__ import annotations

__all__ = ["FourcardsError", "CardError", "RulesError", "IllegalActionError", "IllegalChanceError",
           "HistoryError"]


class FourcardsError(ValueError):
    """Base class for every error fourcards raises on bad input."""


class CardError(FourcardsError):
    """A malformed card token, a duplicate card, or a wrong number of cards."""


class RulesError(FourcardsError):
    """Invalid rules: a negative pay, a play multiple outside 1-3, bad limits..."""


class IllegalActionError(FourcardsError):
    """An action that the state machine refuses: out of turn, bad amount, wrong phase,
    after the end, or a player not at the table.

    The state is left exactly as it was before the refused action. When the
    action belongs to a player, the message names that player as people see
    them (``"seat 4"``).
    """


class IllegalChanceError(IllegalActionError, CardError):
    """A chance record (a deal, a dealt or turned card) whose cards cannot come now:
    a card already out, a hand of the wrong size, a card to the wrong player.

    Both an :class:`IllegalActionError` (the state refuses it, unchanged) and a
    :class:`CardError` (the problem is the cards).
    """


class HistoryError(FourcardsError):
    """A malformed hand history or one that does not replay."""


class InputError(FourcardsError):
    """Text or a number typed by a person that fourcards refuses: a name with control
    characters, a blank or over-long name, a number outside its bounds
    (see :mod:`fourcards.inputs`)."""
