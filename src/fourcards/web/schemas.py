"""Request bodies of the web API (pydantic 2), validated strictly.

Integers are strict (``10``, not ``"10"``, ``10.0`` or ``true``); unknown
fields are refused; names are 1-40 printable characters. A request that does
not validate is answered ``422`` (``400`` for malformed JSON) with
``{"detail": "..."}`` naming the field, and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

__all__ = ["CreateTable", "RulesOptions", "SitDown", "ActionIn", "AddBots", "VoidIn", "Chips"]

#: A whole number of chips in a request (0 .. 10,000,000).
Chips = Annotated[StrictInt, Field(ge=0, le=10_000_000)]


def _clean_name(v: str) -> str:
    v = " ".join(v.split())
    if not v:
        raise ValueError("must not be blank")
    if any(not ch.isprintable() for ch in v):
        raise ValueError("must be printable text")
    return v


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulesOptions(_Strict):
    """Custom rules on top of the preset. Four Card Poker: pay tables as text
    (``ante_bonus`` ``"25/20/2"``, ``aces_up`` ``"50/40/8/5/4/3/1"``), ante and
    Aces Up limits, ``win_cap``. Four of a Kind: ``ante``, spread limit
    ``min_bet``..``max_bet``, ``max_raises`` (the raise cap), ``redeal``. All chips."""

    ante_bonus: str | None = Field(default=None, max_length=40)
    aces_up: str | None = Field(default=None, max_length=60)
    min_ante: Annotated[StrictInt, Field(ge=1, le=1_000_000)] | None = None
    max_ante: Annotated[StrictInt, Field(ge=1, le=1_000_000)] | None = None
    min_aces_up: Annotated[StrictInt, Field(ge=1, le=1_000_000)] | None = None
    max_aces_up: Annotated[StrictInt, Field(ge=1, le=1_000_000)] | None = None
    win_cap: Annotated[StrictInt, Field(ge=1, le=100_000_000)] | None = None
    ante: Annotated[StrictInt, Field(ge=0, le=1_000_000)] | None = None
    min_bet: Annotated[StrictInt, Field(ge=1, le=1_000_000)] | None = None
    max_bet: Annotated[StrictInt, Field(ge=1, le=1_000_000)] | None = None
    max_raises: Annotated[StrictInt, Field(ge=0, le=20)] | None = None
    redeal: Literal["replace", "all_duplicates"] | None = None


class CreateTable(_Strict):
    """Create a table: the game (``"poker"`` = Four Card Poker, ``"kind"`` = Four of a
    Kind), its rules preset (poker: ``live``/``online``; kind: ``family``/``opr903``/
    ``nickel``) and custom ``rules``, the host's name (the host takes seat 1), bot
    seats to fill now, and the chips each new seat buys in with."""

    game: Literal["poker", "kind"]
    preset: str | None = Field(default=None, max_length=20)
    rules: RulesOptions = RulesOptions()
    name: str = Field(default="", max_length=80)
    host_name: str = Field(min_length=1, max_length=40)
    bots: Annotated[StrictInt, Field(ge=0, le=12)] = 0
    starting_chips: Annotated[StrictInt, Field(ge=1, le=10_000_000)] = 1000
    bot_ante: Annotated[StrictInt, Field(ge=1, le=1_000_000)] | None = None

    @field_validator("host_name")
    @classmethod
    def _name(cls, v: str) -> str:
        return _clean_name(v)

    @field_validator("name")
    @classmethod
    def _tname(cls, v: str) -> str:
        return " ".join(v.split())


class SitDown(_Strict):
    """Take a seat by name (the next free seat)."""

    name: str = Field(min_length=1, max_length=40)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        return _clean_name(v)


class ActionIn(_Strict):
    """A seat's action. Four Card Poker: ``wager`` (``ante``, ``aces_up``), ``fold``,
    ``play`` (``amount`` = the play bet in chips; ``trainer`` asks for the optimal
    decision and the EV given up). Four of a Kind: ``check``, ``bet``/``raise``
    (``amount`` = chips added above the current bet), ``call``, ``fold``."""

    kind: Literal["wager", "fold", "play", "check", "bet", "call", "raise"]
    ante: Chips | None = None
    aces_up: Chips | None = None
    amount: Chips | None = None
    trainer: StrictBool = False


class AddBots(_Strict):
    """Host: fill ``count`` empty seats with bots (``kind``: a bot name, default per game)."""

    count: Annotated[StrictInt, Field(ge=1, le=12)] = 1
    kind: str | None = Field(default=None, max_length=16)


class VoidIn(_Strict):
    """Host: void the deal in progress (every wager / the pot refunded) - the host's ruling."""

    reason: str = Field(default="host ruling", min_length=1, max_length=200)
