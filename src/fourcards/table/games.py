"""What each game adds to a shared table: :class:`TableGame`, and what a new table is asked for (:class:`TableSpec`).

A table drives its game only through the engine protocol (:class:`fourcards.engine.GameState`)
and each engine's public records; what differs between the games - how a deal starts, what a
person's move is in engine terms, the chips at stake, the stored result, the log's words, the
game's part of a view - is a :class:`TableGame` subclass: :class:`fourcards.table.poker.PokerTable`
(Four Card Poker against the house) and :class:`fourcards.table.kind.KindTable` (Four of a Kind).
They hold nothing: every method is given the table's state (or the draft of a change,
:class:`fourcards.table.draft.Draft`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from fourcards.engine import GameState, LegalAction
from fourcards.table.errors import TableError
from fourcards.table.seats import DealSeats

if TYPE_CHECKING:
    import random

    from fourcards.table.commands import Move
    from fourcards.table.draft import Draft
    from fourcards.table.state import DealState, Person, TableState
    from fourcards.table.views import Extras

__all__ = ["TableGame", "TableSpec"]


@dataclass(frozen=True)
class TableSpec:
    """A new table as asked for (the lobby's form; the web's ``CreateTable``): ``game``
    (``"poker"`` or ``"kind"``), ``preset`` and custom ``rules`` fields, bots to seat
    (``None``: the game's default), ``starting_chips`` (chips), ``bot_ante`` (chips, Four Card
    Poker), ``dealing`` (Four of a Kind: ``"deck"`` or ``"table"``), ``turn_clock`` (seconds;
    ``None``: the game's default), ``seat_approval`` (``None``: on for a private table),
    ``public``."""

    game: str
    preset: str | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    bots: int | None = None
    starting_chips: int = 1000
    bot_ante: int | None = None
    dealing: str | None = None
    turn_clock: int | None = None
    seat_approval: bool | None = None
    public: bool = False


class TableGame:
    """One game at a table (see the module doc). Class attributes: ``game`` (the API's
    name), ``title``, ``escrow`` (the ledger account of the chips in play: ``"bets"``,
    ``"pot"``), ``house`` (the account that pays or takes a banked game's returns;
    ``None``: the escrow pays them), ``action_kinds`` (of a :class:`~fourcards.table.commands.Move`),
    ``default_bot``, ``word`` (what the table calls a deal: "Round", "Deal"),
    ``default_clock`` (a new table's turn clock, seconds), ``rules_fields`` (custom
    rules a new table may set) and ``seats_follow`` (engine player ``p`` is whoever sits at
    table seat ``p + 1``: :class:`~fourcards.table.seats.DealSeats`)."""

    game: ClassVar[str]
    title: ClassVar[str]
    escrow: ClassVar[str]
    house: ClassVar[str | None]
    action_kinds: ClassVar[tuple[str, ...]]
    default_bot: ClassVar[str]
    word: ClassVar[str]
    default_clock: ClassVar[int]
    rules_fields: ClassVar[tuple[str, ...]]
    seats_follow: ClassVar[bool] = False

    # ------------------------------------------------------------ rules

    @staticmethod
    def build_rules(preset: str | None, given: dict[str, Any]) -> Any:
        """A preset with custom fields. Raises ``RulesError`` for bad ones."""
        raise NotImplementedError

    @staticmethod
    def rules_from_dict(d: dict[str, Any]) -> Any:
        """A stored table's rules. Raises ``RulesError`` for invalid values."""
        raise NotImplementedError

    @staticmethod
    def check_storable(rules: Any) -> None:
        """Refuse rules under which some settlement could not be stored (default: all can).

        Raises:
            TableError: 422 naming the largest settlement and the bound.
        """

    @staticmethod
    def settings(rules: Any, spec: TableSpec) -> dict[str, Any]:
        """The game's settings of a new table. Raises :class:`TableError` 422."""
        raise NotImplementedError

    @staticmethod
    def max_seats(rules: Any) -> int:
        """Seats at a table of these rules."""
        raise NotImplementedError

    @staticmethod
    def default_bots(rules: Any) -> int:
        """Bots of a new table when the host asks for none in particular."""
        return 0

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The bots a table offers, by name."""
        raise NotImplementedError

    @staticmethod
    def rules_label(rules: Any) -> str:
        """The rules in words for people ("Casino rules: play 1x–3x"): what the pages show
        instead of a preset's name or a rule book's citation."""
        raise NotImplementedError

    @classmethod
    def preset_labels(cls) -> dict[str, str]:
        """Each preset's name (the API's) and its :meth:`rules_label`."""
        raise NotImplementedError

    # ------------------------------------------------------------ deals

    @classmethod
    def fresh(cls, state: TableState) -> DealState | None:
        """The next deal laid out before it opens, if the game has one then (else ``None``)."""
        return None

    @classmethod
    def auto_chance(cls, state: TableState) -> bool:
        """Whether chance steps are drawn as soon as they are due (else the game draws them on
        the host's deal, or the host enters real cards)."""
        return False

    @classmethod
    def replay(cls, state: TableState, records: Sequence[dict[str, Any]], seats: DealSeats | None = None) -> GameState:
        """The deal of stored history records (the engine's ``replay``); with its ``seats`` the
        engine's messages name the players (its seat labels: their names)."""
        raise NotImplementedError

    @classmethod
    def stored_seats(cls, state: TableState, stored: Mapping[str, Any]) -> DealSeats:
        """The :class:`~fourcards.table.seats.DealSeats` of a stored deal's seat map, with the
        table's people (names of players who left included)."""
        return DealSeats.from_stored(stored, state.people, follows=cls.seats_follow)

    @staticmethod
    def relabel(game: GameState, names: Sequence[str]) -> GameState:
        """A deal whose seats follow the table's (:attr:`seats_follow`) with the engine's seat
        labels ``names`` (a clone; the deal given is not changed). Default: ``game`` itself."""
        return game

    @classmethod
    def start(cls, d: Draft) -> None:
        """The host's deal. Raises :class:`TableError` 409 when it cannot be made now."""
        raise NotImplementedError

    @classmethod
    def can_deal(cls, state: TableState) -> bool:
        """Whether the host may deal now."""
        raise NotImplementedError

    @classmethod
    def action(cls, state: TableState, move: Move, player: int, seen: Any) -> Any:
        """The engine action of ``move`` by ``player``; :class:`TableError` 422/409 for a bad one."""
        raise NotImplementedError

    @staticmethod
    def void(reason: str) -> Any:
        """The engine's void record (the host's ruling)."""
        raise NotImplementedError

    @staticmethod
    def forfeit(player: int, game: GameState) -> Any | None:
        """The engine record by which ``player`` forfeits the hand out of turn (docs/rules.md
        TP-5), or ``None`` when there is nothing to forfeit now."""
        return None

    @staticmethod
    def withdraw(player: int, seen: Any) -> Any | None:
        """The engine action that takes ``player``'s chips in play back before its cards are
        out (Four Card Poker: its wagers), else ``None``."""
        return None

    @staticmethod
    def dealt_in(player: int, seen: Any) -> bool:
        """Whether ``player`` takes part in the deal in progress (its chips are at stake)."""
        raise NotImplementedError

    @staticmethod
    def stakes(seen: Any) -> list[int]:
        """The chips each player has in play (whole chips), from the spectator's observation."""
        raise NotImplementedError

    @classmethod
    def result(cls, state: TableState, game: GameState) -> dict[str, Any]:
        """The stored result of a settled deal."""
        raise NotImplementedError

    @staticmethod
    def mucked(deal: Mapping[str, Any]) -> set[int]:
        """The engine players of a finished ``deal`` (the store's form) whose cards nobody else may
        see. Default: none (every card face up)."""
        return set()

    @staticmethod
    def published_result(result: Any, player: int | None, mucked: set[int]) -> Any:
        """A stored result as engine player ``player`` (``None``: a spectator) may see it, the hands of
        ``mucked`` players other than ``player`` hidden (changed in place, returned). Default: as stored."""
        return result

    @classmethod
    def log_lines(cls, records: list[dict[str, Any]], game: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """The log lines of new ``records`` of deal ``number`` (public facts only; ``name``
        gives an engine player's name)."""
        raise NotImplementedError

    @classmethod
    def finished(cls, d: Draft, game: GameState) -> None:
        """A deal has ended (settled or voided): e.g. the button moves on."""

    @classmethod
    def moved(cls, d: Draft, person: Person, move: Move) -> None:
        """A person's own ``move`` has been applied: what the table remembers of it (e.g. Four
        Card Poker's last bets). Default: nothing."""

    @classmethod
    def bot_action(cls, state: TableState, person: Person, seen: Any, options: Sequence[LegalAction],
                   rng: random.Random | None) -> Any:
        """The action of bot ``person`` (may take a while: servers run it in a worker thread)."""
        raise NotImplementedError

    @classmethod
    def cards_entered(cls, state: TableState, text: str) -> GameState:
        """A clone of the deal's engine state with the host's real cards ``text`` dealt or turned
        (docs/rules.md FOAK-14). Default: refused.

        Raises:
            TableError: 409 - this table deals from the server's shuffled deck.
        """
        raise TableError(409, f"this {cls.title} table deals from the server's shuffled deck: cards are entered "
                              "only at a Four of a Kind table dealt with real cards (\"dealing\": \"table\")")

    @classmethod
    def taken_back(cls, state: TableState) -> tuple[GameState, str]:
        """The deal before its last card and the log's line (docs/rules.md FOAK-15). Default: refused.

        Raises:
            TableError: 409 - this table deals from the server's shuffled deck.
        """
        raise TableError(409, f"this {cls.title} table deals from the server's shuffled deck: no card can be "
                              "taken back (only at a table dealt with real cards)")

    # ------------------------------------------------------------ views

    @classmethod
    def view(cls, state: TableState, seat: Person | None, extras: Extras) -> dict[str, Any]:
        """The game's part of the state message for ``seat`` (``None``: a spectator)."""
        raise NotImplementedError

    @classmethod
    def odds_key(cls, state: TableState) -> Any:
        """What the derived figures of a view depend on (``None``: none to compute)."""
        return None

    @classmethod
    def compute_odds(cls, state: TableState) -> dict[int, Any]:
        """Figures a view shows that take a while (Four of a Kind's exact odds), per engine player."""
        return {}
