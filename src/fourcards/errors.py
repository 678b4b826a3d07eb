"""Exceptions raised by fourcards.

Every error the engines raise for bad input derives from :class:`FourcardsError`
(and from :class:`ValueError`, so callers that only know the standard library
can still catch it). Messages name the offending token, amount or action.
"""

from __future__ import annotations


class FourcardsError(ValueError):
    """Base class for every error fourcards raises on bad input."""


class CardError(FourcardsError):
    """A malformed card token, a duplicate card, or a wrong number of cards."""


class RulesError(FourcardsError):
    """Invalid rules: a negative pay, a play multiple outside 1-3, bad limits..."""


class IllegalActionError(FourcardsError):
    """An action that the state machine refuses: out of turn, bad amount, wrong phase.

    The state is left exactly as it was before the refused action.
    """


class InputError(FourcardsError):
    """Text or a number typed by a person that fourcards refuses: a name with control
    characters, a blank or over-long name, a number outside its bounds
    (see :mod:`fourcards.inputs`)."""
