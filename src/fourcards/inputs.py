"""What people type: one validation for every name, and the bounds on numbers from outside.

Every name a person types - a table's name, a seat's name, the host's name, the
reason of a host's ruling - goes through :func:`clean_name`, in the web API and
wherever else a name is taken. Every number that comes from outside (command
line options, web requests) is bounded up front by the constants here, so none
reaches memory, a simulation kernel's 64-bit integers or a database column
unbounded. The bounds are far beyond any real table and small enough that the
largest settlement under them is exact everywhere (Python, ``int64`` kernels,
the ledger's ``BIGINT``, JavaScript numbers).
"""

from __future__ import annotations

import unicodedata

from fourcards.errors import InputError

__all__ = [
    "clean_name",
    "MAX_NAME_LENGTH",
    "MAX_WAGER",
    "MAX_CHIPS",
    "MAX_HANDS",
    "MAX_DEALS",
    "MAX_SESSION_HANDS",
    "MAX_SEED",
    "MAX_WORKERS",
    "MAX_SEATS",
    "MIN_SEATS",
    "MAX_REASON_LENGTH",
    "check_reason",
]

#: Characters in a person's name (the ``players.name`` column holds 40).
MAX_NAME_LENGTH = 40
#: Chips in one wager, bet or table limit typed by a person (an ante, an Aces Up bet,
#: the ante limits of a table): a million.
MAX_WAGER = 1_000_000
#: Chips in a stack, a bankroll or a pot typed by a person: a trillion.
MAX_CHIPS = 1_000_000_000_000
#: Rounds in one Four Card Poker simulation (about 3.5 hours at 8 M rounds/s).
MAX_HANDS = 100_000_000_000
#: Deals in one Four of a Kind simulation or terminal session.
MAX_DEALS = 100_000_000
#: Hands in one simulated session.
MAX_SESSION_HANDS = 1_000_000
#: Seeds: 0 .. 2**63 - 1 (the random seeds fourcards draws itself lie in this range).
MAX_SEED = 2**63 - 1
#: Worker processes of a local simulation cluster.
MAX_WORKERS = 256
#: Players or bots typed at the command line: 13, the most at a Four of a Kind table
#: (one rank each, seed 001 §2.2); each game then checks its own range.
MAX_SEATS = 13
#: Players at a Four of a Kind table typed at the command line: at least 4 (every preset's
#: ``min_players``, seed 001 §1.2 "four or more"), so help and errors say one range, 4-13.
MIN_SEATS = 4

#: Characters in the reason of a void recorded in a history (the host's reason is 200 at most;
#: the web app records it after "host ruling: ").
MAX_REASON_LENGTH = 500

# Unicode categories refused in a name: control, format (bidi overrides, zero-width
# spaces), surrogate, private use, unassigned, line and paragraph separators - except
# the zero-width joiner and non-joiner, which some scripts (Persian, Indic) and emoji need.
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
_JOINERS = "\u200c\u200d"


def clean_name(text: str, *, field: str = "name", max_length: int = MAX_NAME_LENGTH) -> str:
    """A name as a person typed it, checked and tidied: the one validation of every name.

    Runs of spaces become one space, the ends are trimmed and the text is put in
    Unicode NFC form (so "Zoë" typed two ways is one name); letters of any script,
    digits, punctuation, symbols and emoji are kept.

    Args:
        text: what was typed.
        field: what the text is (``"name"``, ``"table name"``, ``"reason"``), for the message.
        max_length: most characters after tidying.

    Returns:
        the tidied name (1..``max_length`` printable characters).

    Raises:
        InputError: not text, blank, too long, or holding a control (tab and
            newline included), format
            (e.g. a right-to-left override, a zero-width space), surrogate,
            private-use or unassigned character - the message names ``field``
            and the offending character.
    """
    if not isinstance(text, str):
        raise InputError(f"{field} must be text, got {type(text).__name__}")
    for ch in text:
        if unicodedata.category(ch) in _REFUSED and ch not in _JOINERS:
            raise InputError(f"{field} must be printable text: it holds the character U+{ord(ch):04X} "
                             f"({unicodedata.name(ch, 'a control character').lower()})")
    name = unicodedata.normalize("NFC", " ".join(text.split()))
    if not any(unicodedata.category(ch)[0] in "LNPS" for ch in name):  # nothing visible
        raise InputError(f"{field} must not be blank")
    if len(name) > max_length:
        raise InputError(f"{field} must be at most {max_length} characters, got {len(name)}")
    return name


def check_reason(reason: object) -> str:
    """The reason of a void as a record holds it, checked: text that :func:`clean_name` accepts
    (printable, not blank) of at most :data:`MAX_REASON_LENGTH` characters. Returned as
    given (a history records the text it was given).

    Raises:
        InputError: not text, blank, too long, or holding a control or format character.
    """
    if not isinstance(reason, str):
        raise InputError(f"the reason of a void must be text, got {type(reason).__name__} {reason!r:.40}")
    clean_name(reason, field="the reason of a void", max_length=MAX_REASON_LENGTH)
    return reason
