"""What each game adds to a shared table: :class:`TableGame`, a typed protocol of four small
parts, and what a new table is asked for (:class:`TableSpec`).

A table drives its game only through the engine protocol (:class:`fourcards.engine.GameState`)
and each engine's public records; what differs between the games is in four parts:

* :class:`GameRules` - what a table of the game may be: its rules, settings, seats, bots and
  the rules in words (``<game>_rules.py``);
* :class:`GameDeal` - how a deal runs: it starts, a person's move in engine terms, a bot's, a
  forfeit, the log's words, real cards (``<game>.py``, which builds the engine's states);
* :class:`GameMoney` - the chips: the escrow and the house, the stakes, the stored result and
  what a reader may see of it (``<game>_money.py``);
* :class:`GameView` - the game's part of a seat's view (``<game>_view.py``).

A game is one class made of its parts, subclassing :class:`TableGame` (which holds the
defaults): :class:`fourcards.table.poker.PokerTable` (Four Card Poker against the house) and
:class:`fourcards.table.kind.KindTable` (Four of a Kind); a third game is one module per part.
They hold nothing: every method is given the table's state (or the draft of a change,
:class:`fourcards.table.draft.Draft`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from fourcards.engine import GameState, LegalAction
from fourcards.table.errors import TableError
from fourcards.table.seats import DealSeats

if TYPE_CHECKING:
    import random

    from fourcards.table.commands import Move
    from fourcards.table.draft import Draft
    from fourcards.table.state import DealState, Person, TableState
    from fourcards.table.views import Extras

__all__ = ["TableGame", "GameRules", "GameDeal", "GameMoney", "GameView", "TableSpec"]


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


class GameRules(Protocol):
    """What a table of the game may be. Class attributes: ``game`` (the API's name), ``title``,
    ``word`` (what the table calls a deal: "Round", "Deal"), ``default_clock`` (a new table's
    turn clock, seconds), ``rules_fields`` (custom rules a new table may set) and
    ``default_bot`` (the bot a table seats unless asked for another)."""

    game: ClassVar[str]
    title: ClassVar[str]
    word: ClassVar[str]
    default_clock: ClassVar[int]
    rules_fields: ClassVar[tuple[str, ...]]
    default_bot: ClassVar[str]

    @staticmethod
    def build_rules(preset: str | None, given: dict[str, Any]) -> Any:
        """A preset with custom fields. Raises ``RulesError`` for bad ones."""

    @staticmethod
    def rules_from_dict(d: dict[str, Any]) -> Any:
        """A stored table's rules. Raises ``RulesError`` for invalid values."""

    @staticmethod
    def check_storable(rules: Any) -> None:
        """Refuse rules under which some settlement could not be stored.

        Raises:
            TableError: 422 naming the largest settlement and the bound.
        """

    @staticmethod
    def settings(rules: Any, spec: TableSpec) -> dict[str, Any]:
        """The game's settings of a new table. Raises :class:`TableError` 422."""

    @staticmethod
    def max_seats(rules: Any) -> int:
        """Seats at a table of these rules."""

    @staticmethod
    def default_bots(rules: Any) -> int:
        """Bots of a new table when the host asks for none in particular."""

    @staticmethod
    def bot_kinds() -> tuple[str, ...]:
        """The bots a table offers, by name."""

    @staticmethod
    def rules_label(rules: Any) -> str:
        """The rules in words for people ("Casino rules: play 1x–3x"): what the pages show
        instead of a preset's name or a rule book's citation."""

    @classmethod
    def preset_labels(cls) -> dict[str, str]:
        """Each preset's name (the API's) and its :meth:`rules_label`."""


class GameDeal(Protocol):
    """How a deal of the game runs. Class attributes: ``action_kinds`` (of a
    :class:`~fourcards.table.commands.Move`), ``seats_follow`` (engine player ``p`` is
    whoever sits at table seat ``p + 1``: :class:`~fourcards.table.seats.DealSeats`) and
    ``pre_actions`` (the game bets in rounds: players may choose a move ahead of their turn,
    docs/rules.md TP-12)."""

    action_kinds: ClassVar[tuple[str, ...]]
    seats_follow: ClassVar[bool]
    pre_actions: ClassVar[bool]

    @classmethod
    def to_call(cls, state: TableState, player: int) -> int | None:
        """The chips ``player`` needs to match the bet in the deal in progress, or ``None`` when
        it can no longer bet in it (folded, all-in, out, the deal over; a game without betting
        rounds)."""

    @classmethod
    def fresh(cls, state: TableState) -> DealState | None:
        """The next deal laid out before it opens, if the game has one then (else ``None``)."""

    @classmethod
    def auto_chance(cls, state: TableState) -> bool:
        """Whether chance steps are drawn as soon as they are due (else the game draws them on
        the host's deal, or the host enters real cards)."""

    @classmethod
    def replay(cls, state: TableState, records: Sequence[dict[str, Any]], seats: DealSeats | None = None) -> GameState:
        """The deal of stored history records (the engine's ``replay``); with its ``seats`` the
        engine's messages name the players (its seat labels: their names)."""

    @classmethod
    def stored_seats(cls, state: TableState, stored: Mapping[str, Any]) -> DealSeats:
        """The :class:`~fourcards.table.seats.DealSeats` of a stored deal's seat map, with the
        table's people (names of players who left included)."""

    @staticmethod
    def relabel(game: GameState, names: Sequence[str]) -> GameState:
        """A deal whose seats follow the table's with the engine's seat labels ``names`` (a
        clone; the deal given is not changed)."""

    @classmethod
    def start(cls, d: Draft) -> None:
        """The host's deal. Raises :class:`TableError` 409 when it cannot be made now."""

    @classmethod
    def can_deal(cls, state: TableState) -> bool:
        """Whether the host may deal now."""

    @classmethod
    def action(cls, state: TableState, move: Move, player: int, seen: Any) -> Any:
        """The engine action of ``move`` by ``player``; :class:`TableError` 422/409 for a bad one."""

    @staticmethod
    def void(reason: str) -> Any:
        """The engine's void record (the host's ruling)."""

    @staticmethod
    def forfeit(player: int, game: GameState) -> Any | None:
        """The engine record by which ``player`` forfeits the hand out of turn (docs/rules.md
        TP-5), or ``None`` when there is nothing to forfeit now."""

    @staticmethod
    def withdraw(player: int, seen: Any) -> Any | None:
        """The engine action that takes ``player``'s chips in play back before its cards are
        out (Four Card Poker: its wagers), else ``None``."""

    @staticmethod
    def dealt_in(player: int, seen: Any) -> bool:
        """Whether ``player`` takes part in the deal in progress (its chips are at stake)."""

    @classmethod
    def log_lines(cls, records: list[dict[str, Any]], game: GameState, number: int,
                  name: Callable[[int], str]) -> list[str]:
        """The log lines of new ``records`` of deal ``number`` (public facts only; ``name``
        gives an engine player's name)."""

    @classmethod
    def finished(cls, d: Draft, game: GameState) -> None:
        """A deal has ended (settled or voided): e.g. the button moves on."""

    @classmethod
    def moved(cls, d: Draft, person: Person, move: Move) -> None:
        """A person's own ``move`` has been applied: what the table remembers of it (e.g. Four
        Card Poker's last bets)."""

    @classmethod
    def bot_action(cls, state: TableState, person: Person, seen: Any, options: Sequence[LegalAction],
                   rng: random.Random | None) -> Any:
        """The action of bot ``person`` (may take a while: servers run it in a worker thread)."""

    @classmethod
    def cards_entered(cls, state: TableState, text: str) -> GameState:
        """A clone of the deal's engine state with the host's real cards ``text`` dealt or turned
        (docs/rules.md FOAK-14).

        Raises:
            TableError: 409 - this table deals from the server's shuffled deck.
        """

    @classmethod
    def taken_back(cls, state: TableState) -> tuple[GameState, str]:
        """The deal before its last card and the log's line (docs/rules.md FOAK-15).

        Raises:
            TableError: 409 - this table deals from the server's shuffled deck.
        """


class GameMoney(Protocol):
    """The chips of the game. Class attributes: ``escrow`` (the ledger account of the chips in
    play: ``"bets"``, ``"pot"``) and ``house`` (the account that pays or takes a banked game's
    returns; ``None``: the escrow pays them)."""

    escrow: ClassVar[str]
    house: ClassVar[str | None]

    @staticmethod
    def stakes(seen: Any) -> list[int]:
        """The chips each player has in play (whole chips), from the spectator's observation."""

    @classmethod
    def result(cls, state: TableState, game: GameState) -> dict[str, Any]:
        """The stored result of a settled deal (``state``: the table as the deal ends), its
        ``numbers`` (:meth:`numbers`) included."""

    @classmethod
    def numbers(cls, state: TableState, game: GameState) -> dict[str, dict[str, Any]]:
        """A settled deal's numbers per player id (text): played, won, pot halves, folds, the pot
        taken and luck (:mod:`fourcards.table.numbers`)."""

    @staticmethod
    def mucked(deal: Mapping[str, Any]) -> set[int]:
        """The engine players of a finished ``deal`` (the store's form) whose cards nobody else may
        see."""

    @staticmethod
    def published_result(result: Any, player: int | None, mucked: set[int]) -> Any:
        """A stored result as engine player ``player`` (``None``: a spectator) may see it, the hands of
        ``mucked`` players other than ``player`` hidden (changed in place, returned)."""


class GameView(Protocol):
    """The game's part of a seat's view."""

    @classmethod
    def view(cls, state: TableState, seat: Person | None, extras: Extras) -> dict[str, Any]:
        """The game's part of the state message for ``seat`` (``None``: a spectator)."""

    @classmethod
    def odds_key(cls, state: TableState) -> Any:
        """What the derived figures of a view depend on (``None``: none to compute)."""

    @classmethod
    def compute_odds(cls, state: TableState) -> dict[int, Any]:
        """Figures a view shows that take a while (Four of a Kind's exact odds), per engine player."""


class TableGame(GameRules, GameDeal, GameMoney, GameView, Protocol):
    """One game at a table: its four parts (see the module doc). A game subclasses it, made of
    its parts' classes; this class holds the defaults a game may keep."""

    seats_follow: ClassVar[bool] = False
    pre_actions: ClassVar[bool] = False

    @classmethod
    def to_call(cls, state: TableState, player: int) -> int | None:
        """Default (no betting rounds): ``None``."""
        return None

    @staticmethod
    def check_storable(rules: Any) -> None:
        """Default: every settlement can be stored."""
        return None

    @staticmethod
    def default_bots(rules: Any) -> int:
        """Default: no bots."""
        return 0

    @classmethod
    def fresh(cls, state: TableState) -> DealState | None:
        """Default: no deal between deals."""
        return None

    @classmethod
    def auto_chance(cls, state: TableState) -> bool:
        """Default: chance steps wait for the host's deal."""
        return False

    @classmethod
    def stored_seats(cls, state: TableState, stored: Mapping[str, Any]) -> DealSeats:
        """Engine player -> player id (:meth:`fourcards.table.seats.DealSeats.from_stored`)."""
        return DealSeats.from_stored(stored, state.people, follows=cls.seats_follow)

    @staticmethod
    def relabel(game: GameState, names: Sequence[str]) -> GameState:
        """Default (seats that do not follow the table): ``game`` itself."""
        return game

    @staticmethod
    def forfeit(player: int, game: GameState) -> Any | None:
        """Default: nothing to forfeit."""
        return None

    @staticmethod
    def withdraw(player: int, seen: Any) -> Any | None:
        """Default: nothing to take back."""
        return None

    @classmethod
    def finished(cls, d: Draft, game: GameState) -> None:
        """Default: nothing follows the end of a deal."""
        return None

    @classmethod
    def moved(cls, d: Draft, person: Person, move: Move) -> None:
        """Default: the table remembers nothing of a move."""
        return None

    @classmethod
    def cards_entered(cls, state: TableState, text: str) -> GameState:
        """Default: refused.

        Raises:
            TableError: 409 - this table deals from the server's shuffled deck.
        """
        raise TableError(409, f"this {cls.title} table deals from the server's shuffled deck: cards are entered "
                              "only at a Four of a Kind table dealt with real cards (\"dealing\": \"table\")")

    @classmethod
    def taken_back(cls, state: TableState) -> tuple[GameState, str]:
        """Default: refused.

        Raises:
            TableError: 409 - this table deals from the server's shuffled deck.
        """
        raise TableError(409, f"this {cls.title} table deals from the server's shuffled deck: no card can be "
                              "taken back (only at a table dealt with real cards)")

    @staticmethod
    def mucked(deal: Mapping[str, Any]) -> set[int]:
        """Default: none (every card face up)."""
        return set()

    @staticmethod
    def published_result(result: Any, player: int | None, mucked: set[int]) -> Any:
        """Default: as stored."""
        return result

    @classmethod
    def odds_key(cls, state: TableState) -> Any:
        """Default: nothing to compute."""
        return None

    @classmethod
    def compute_odds(cls, state: TableState) -> dict[int, Any]:
        """Default: no figures."""
        return {}
