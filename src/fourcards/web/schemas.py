"""Request bodies of the web API (pydantic 2), validated strictly.

Integers are strict (``10``, not ``"10"``, ``10.0`` or ``true``) and bounded;
unknown fields are refused; every name a person types (the host's, a seat's, a
table's, a void's reason) passes :func:`fourcards.inputs.clean_name`: printable
text, no control or format characters, not blank, at most 40 characters (a
table's name 80, a reason 200). A request that does not validate is answered
``422`` (``400`` for malformed JSON) with ``{"detail": "..."}`` naming the
field, and changes nothing.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from fourcards.inputs import MAX_NAME_LENGTH, MAX_WAGER, clean_name

__all__ = ["CreateTable", "RulesOptions", "SitDown", "ActionIn", "AddBots", "VoidIn", "Intent", "ActionId", "TableSettings", "TopUp",
           "Decision", "MyTables", "SettleIn", "CardsIn", "ChatIn", "MuteIn", "Chips", "PersonName", "TableName",
           "Reason", "TurnClock", "ChipValueIn", "SettleUpTerms", "ClubId", "CreateClub", "ClubMembers", "ClubSettings",
           "JoinClub", "PreActionIn", "AwayIn", "HandleIn", "Limit0"]

#: A whole number of chips in a request (0 .. 10,000,000).
Chips = Annotated[StrictInt, Field(ge=0, le=10_000_000)]
#: A limit of a table, in chips (1 .. 1,000,000 = :data:`fourcards.inputs.MAX_WAGER`).
Limit = Annotated[StrictInt, Field(ge=1, le=MAX_WAGER)]

#: A turn clock in whole seconds (0: no clock; 1 .. 3,600).
TurnClock = Annotated[StrictInt, Field(ge=0, le=3600)]
#: A buy-in rule in chips (0: no limit; 1 .. 10,000,000).
Limit0 = Annotated[StrictInt, Field(ge=0, le=10_000_000)]

#: A person's name (host, seat): :func:`~fourcards.inputs.clean_name`, 1-40 characters.
PersonName = Annotated[str, Field(max_length=4 * MAX_NAME_LENGTH),
                       AfterValidator(lambda v: clean_name(v, field="name"))]
#: A table's name: the same validation, 1-80 characters (the ``game_tables.name`` column).
TableName = Annotated[str, Field(max_length=320),
                      AfterValidator(lambda v: clean_name(v, field="table name", max_length=80))]
#: The reason of a host's ruling: the same validation, 1-200 characters.
Reason = Annotated[str, Field(max_length=800),
                   AfterValidator(lambda v: clean_name(v, field="reason", max_length=200))]


#: A client's name for one intent (docs/rules.md TP-8): a repeat of an id already applied from
#: the same seat changes nothing and gets the first answer.
ActionId = Annotated[str, Field(min_length=1, max_length=64)]


#: A club's id (the key in its link ``/c/{id}``).
ClubId = Annotated[str, Field(min_length=1, max_length=16)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulesOptions(_Strict):
    """Custom rules on top of the preset. Four Card Poker: pay tables as text
    (``ante_bonus`` ``"25/20/2"``, ``aces_up`` ``"50/40/8/5/4/3/1"``), ante and
    Aces Up limits, ``win_cap``. Four of a Kind: ``ante``, spread limit
    ``min_bet``..``max_bet``, ``max_raises`` (the raise cap), ``redeal``. All chips."""

    ante_bonus: str | None = Field(default=None, max_length=40)
    aces_up: str | None = Field(default=None, max_length=60)
    min_ante: Limit | None = None
    max_ante: Limit | None = None
    min_aces_up: Limit | None = None
    max_aces_up: Limit | None = None
    win_cap: Annotated[StrictInt, Field(ge=1, le=100_000_000)] | None = None
    ante: Annotated[StrictInt, Field(ge=0, le=MAX_WAGER)] | None = None
    min_bet: Limit | None = None
    max_bet: Limit | None = None
    max_raises: Annotated[StrictInt, Field(ge=0, le=20)] | None = None
    redeal: Literal["replace", "all_duplicates"] | None = None


class CreateTable(_Strict):
    """Create a table: the game (``"poker"`` = Four Card Poker, ``"kind"`` = Four of a
    Kind), its rules preset (poker: ``live``/``online``; kind: ``family``/``opr903``/
    ``nickel``) and custom ``rules``, the host's name (the host takes seat 1), bot
    seats to fill now (left out: none at Four Card Poker, three at Four of a Kind -
    enough to deal with the host), and the chips each new seat buys in with. Without a
    ``name`` the table is called after its host; a ``preset`` left out is the game's
    first (``live``, ``family``) - an empty one is refused. ``public``: listed in the
    lobby (default private: the link is the key); ``turn_clock``: seconds per action
    (0: none; left out: 30 at Four of a Kind, none at Four Card Poker);
    ``seat_approval``: the host approves new seats (left out: on for private tables);
    ``dealing`` (Four of a Kind only): ``"deck"`` (the default) - the server shuffles and
    deals - or ``"table"``: a real deck at a real table, the server never shuffles and the
    host enters every card (``POST /api/tables/{id}/cards``; left out, such a table has no
    bots and no turn clock unless asked for; docs/rules.md FOAK-14). ``club``: the id of a
    club the table counts for (its standings across nights; the club's link is its key)."""

    game: Literal["poker", "kind"]
    preset: str | None = Field(default=None, max_length=20)
    rules: RulesOptions = RulesOptions()
    name: TableName | None = None
    host_name: PersonName
    bots: Annotated[StrictInt, Field(ge=0, le=12)] | None = None
    starting_chips: Annotated[StrictInt, Field(ge=1, le=10_000_000)] = 1000
    bot_ante: Limit | None = None
    public: StrictBool = False
    turn_clock: TurnClock | None = None
    seat_approval: StrictBool | None = None
    dealing: Literal["deck", "table"] | None = None
    club: ClubId | None = None


class SitDown(_Strict):
    """Take a seat by name (the next free seat); ``buy_in``: the chips to buy in with, within
    the host's limits (left out: the table's buy-in; docs/rules.md TP-14)."""

    name: PersonName
    buy_in: Annotated[StrictInt, Field(ge=1, le=10_000_000)] | None = None


class ActionIn(_Strict):
    """A seat's action. Four Card Poker: ``wager`` (``ante``, ``aces_up``), ``withdraw``
    (take the wagers back before the deal), ``fold``,
    ``play`` (``amount`` = the play bet in chips; ``trainer`` - on ``play`` or ``fold`` -
    asks for the optimal decision and the EV given up). Four of a Kind: ``check``,
    ``bet``/``raise`` (``amount`` = chips added above the current bet), ``call``
    (``amount``: the call, or left out), ``fold``. A field of another kind (an ``ante`` on
    a fold, an ``amount`` on a wager) is refused naming it (422); ``null``, and ``false``
    for ``trainer``, count as left out. ``action_id``: the client's name for this intent,
    reused when it retries (docs/rules.md TP-8)."""

    kind: Literal["wager", "withdraw", "fold", "play", "check", "bet", "call", "raise"]
    ante: Chips | None = None
    aces_up: Chips | None = None
    amount: Chips | None = None
    trainer: StrictBool = False
    action_id: ActionId | None = None

    #: The fields each kind takes, besides ``kind``.
    FIELDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "wager": ("ante", "aces_up"), "withdraw": (), "fold": ("trainer",), "play": ("amount", "trainer"),
        "check": (), "bet": ("amount",), "raise": ("amount",), "call": ("amount",)}

    @model_validator(mode="after")
    def _only_fields_of_its_kind(self) -> ActionIn:
        takes = self.FIELDS[self.kind]
        for name in ("ante", "aces_up", "amount", "trainer"):
            if name not in takes and getattr(self, name) not in (None, False):
                only = f" (only {' and '.join(takes)})" if takes else ""
                raise ValueError(f"{name} does not belong to a {self.kind}: a {self.kind} takes no {name}{only}")
        return self


class AddBots(_Strict):
    """Host: fill ``count`` empty seats with bots (``kind``: a bot name; left out, the
    game's default - an empty one is refused)."""

    count: Annotated[StrictInt, Field(ge=1, le=12)] = 1
    kind: str | None = Field(default=None, max_length=16)


class VoidIn(_Strict):
    """Host: void the deal in progress (every wager / the pot refunded) - the host's ruling."""

    reason: Reason = "host ruling"
    action_id: ActionId | None = None


class Intent(_Strict):
    """An optional body naming the intent of a request that needs nothing else (the deal, a
    take-back): ``action_id`` (docs/rules.md TP-8)."""

    action_id: ActionId | None = None


class TableSettings(_Strict):
    """Host: what may change while a table runs (a field left out stays as it is):
    ``public`` (listed in the lobby), ``turn_clock`` (seconds per action, 0: none),
    ``seat_approval`` (the host approves new seats), ``time_bank`` (seconds per person for the
    night, spent after the turn clock runs out, 0: none; docs/rules.md TP-13) and the buy-in
    rules (TP-14, chips, 0: no limit): ``min_buy_in``, ``max_buy_in``, ``min_top_up``,
    ``max_top_up``, and ``match_biggest_stack`` (a top-up may bring a stack up to the biggest
    at the table)."""

    public: StrictBool | None = None
    turn_clock: TurnClock | None = None
    seat_approval: StrictBool | None = None
    time_bank: TurnClock | None = None
    min_buy_in: Limit0 | None = None
    max_buy_in: Limit0 | None = None
    min_top_up: Limit0 | None = None
    max_top_up: Limit0 | None = None
    match_biggest_stack: StrictBool | None = None


class TopUp(_Strict):
    """A player asks for more chips from the bank (1 .. 10,000,000); the host approves."""

    amount: Annotated[StrictInt, Field(ge=1, le=10_000_000)]


class Decision(_Strict):
    """Host: approve (``true``) or turn down (``false``) a waiting request."""

    approve: StrictBool


class MyTables(_Strict):
    """The tables this browser holds seat tokens for: ``{table id: token}`` (at most 200)."""

    tokens: Annotated[dict[Annotated[str, Field(max_length=16)], Annotated[str, Field(max_length=100)]],
                      Field(max_length=200)]


#: A wager typed into the payout checker, in chips (0 .. 1,000,000 = :data:`fourcards.inputs.MAX_WAGER`).
Wager = Annotated[StrictInt, Field(ge=0, le=MAX_WAGER)]


class SettleIn(_Strict):
    """The payout checker (``POST /api/poker/settle``; the options of ``fourcards poker
    settle``): the player's five cards and the dealer's six as text (``"9h 9d 9s Kc 3d"``,
    ``"10h"``, ``"T♥"``), the dealer's ``up`` card (optional, one of the six), the
    ``ante``, the ``play`` bet (0 .. 3,000,000) or ``fold``, the ``aces_up`` bet, in
    chips. The rules: a ``rules`` preset (``live`` = seed 002, ``online`` = seed 004; left
    out: ``live``) or a Four Card Poker ``table``'s rules, its pay tables and win cap
    included - not both."""

    player: str = Field(max_length=100)
    dealer: str = Field(max_length=120)
    up: str | None = Field(default=None, max_length=20)
    ante: Wager
    play: Annotated[StrictInt, Field(ge=0, le=3 * MAX_WAGER)] | None = None
    fold: StrictBool = False
    aces_up: Wager = 0
    rules: str | None = Field(default=None, max_length=20)
    table: str | None = Field(default=None, max_length=16)


class CardsIn(_Strict):
    """Host, at a Four of a Kind table dealt with real cards: the card(s) just dealt or turned,
    as text - ``"9c"``, ``"10h"``, ``"T♥"`` - several separated by spaces or commas, in the
    order they came (docs/rules.md FOAK-14)."""

    cards: Annotated[str, Field(min_length=1, max_length=400)]
    action_id: ActionId | None = None


class ChipValueIn(_Strict):
    """A chip value: ``chips`` chips (1 .. 1,000,000) are worth ``cents`` hundredths
    (1 .. 100,000, i.e. up to 1,000.00) of ``currency`` (printable text, 1-8 characters: "€",
    "EUR", "$"). ``{"chips": 100, "cents": 100, "currency": "€"}``: 100 chips = 1.00 €."""

    chips: Annotated[StrictInt, Field(ge=1, le=1_000_000)]
    cents: Annotated[StrictInt, Field(ge=1, le=100_000)]
    currency: Annotated[str, Field(max_length=32),
                        AfterValidator(lambda v: clean_name(v, field="currency", max_length=8))]


class SettleUpTerms(_Strict):
    """Host: the terms of the night's settle-up (a field left out stays as it is):
    ``chip_value`` (:class:`ChipValueIn`, or ``null``: settle in chips) and ``banker``, who
    holds the bank that covers the bots and the house: ``"host"`` (the default), ``"bank"``
    (a party of its own) or the seat of a person at the table."""

    chip_value: ChipValueIn | None = None
    banker: Annotated[StrictInt, Field(ge=1, le=13)] | Literal["host", "bank"] | None = None


class CreateClub(_Strict):
    """A new club: its ``name`` (1-80 characters), the owner's name (listed as a member) and
    more members' names (at most 50 now; more later, up to 200)."""

    name: TableName
    owner_name: PersonName
    members: Annotated[list[PersonName], Field(max_length=50)] = []


class ClubMembers(_Strict):
    """Club owner: names to list as members (1-50; names already listed, in any case, are left)."""

    names: Annotated[list[PersonName], Field(min_length=1, max_length=50)]


class ClubSettings(_Strict):
    """Club owner: the club's new ``name``."""

    name: TableName


class JoinClub(_Strict):
    """A table's host: the club (its id) the table counts for from now on."""

    club: ClubId


class ChatIn(_Strict):
    """A chat message: ``text`` (1-200 printable characters: no control, format or private-use
    character) or ``reaction`` (one of the table's reactions, e.g. ``"👍"``) - exactly one;
    ``action_id`` optional (docs/rules.md TP-8). Checked by the table (docs/rules.md TP-9);
    bounded here (800 characters) before anything reads it."""

    text: Annotated[str, Field(max_length=800)] | None = None
    reaction: Annotated[str, Field(max_length=16)] | None = None
    action_id: ActionId | None = None


class MuteIn(_Strict):
    """Host: mute a seat's chat (``true``, the default) or let it chat again (``false``)."""

    muted: StrictBool = True


class PreActionIn(_Strict):
    """A move chosen before one's turn (docs/rules.md TP-12): ``kind`` ``"check_fold"``,
    ``"check"``, ``"call"`` (the amount to call now), ``"call_any"`` or ``"fold"`` (fold to any
    bet), or ``null`` to clear the choice."""

    kind: Literal["check_fold", "check", "call", "call_any", "fold"] | None


class AwayIn(_Strict):
    """A seat is away (``true``, the default: dealt in, checks when it may and folds otherwise
    at once, no clock; docs/rules.md TP-12) or back (``false``)."""

    away: StrictBool = True


class HandleIn(_Strict):
    """A person's payment handle, shown beside the transfers they receive on the settle-up
    (docs/rules.md TP-15): free text, at most 64 printable characters (an IBAN, an app's
    handle); ``null`` or blank removes it. Checked by the table; bounded here (256)."""

    handle: Annotated[str, Field(max_length=256)] | None
