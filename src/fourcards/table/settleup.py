"""The night's settle-up: who pays whom, at the chip value the host sets, with the bank covering the bots.

A night's settlement (:func:`fourcards.table.history.settlement`) gives every person's net in
chips. **Bots play with the bank's chips**: what they win or lose is the bank's, and so is the
house's result at Four Card Poker; the bank's net (the bots' nets and the house's together) is
a line of its own, and the people's nets plus the bank's add up to zero. Somebody holds the
bank - by default the table's host, who added the bots; the host may name another person,
or let the bank settle as a party of its own (a cash box). The holder's transfers carry the
bank's net along with their own.

The host sets the terms (:func:`set_terms`, the command
:class:`~fourcards.table.commands.SetSettleUp`): a **chip value** - ``chips`` chips are worth
``cents`` hundredths of ``currency`` ("100 chips = 1.00 €") - or none (settle in chips), and
who holds the bank. They are kept in the table's settings (``settings["settle_up"]``).

:func:`settle_up` turns the settlement into the fewest transfers
(:func:`fourcards.table.transfers.fewest_transfers`: the proven minimum for up to 14 parties),
in whole cents rounded so they still add up (:func:`fourcards.table.transfers.round_conserving`).
Pure functions; no floating point.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from fourcards.errors import FourcardsError
from fourcards.inputs import clean_name
from fourcards.table.commands import SetHandle, SetSettleUp
from fourcards.table.draft import Draft
from fourcards.table.errors import TableError
from fourcards.table.state import Person, TableState
from fourcards.table.transfers import EXACT_LIMIT, fewest_transfers, round_conserving
from fourcards.table.writes import SeatChange

__all__ = ["TERMS", "MAX_VALUE_CHIPS", "MAX_VALUE_CENTS", "MAX_CURRENCY", "MAX_HANDLE", "ALGORITHM", "ROUNDING",
           "money", "chip_value_text", "terms", "banker_of", "set_terms", "set_handle", "settle_up", "settle_up_text"]

#: The key of the settle-up's terms in a table's settings.
TERMS = "settle_up"
#: Bounds of a chip value: 1 .. 1,000,000 chips worth 1 .. 100,000 cents (1,000.00).
MAX_VALUE_CHIPS = 1_000_000
MAX_VALUE_CENTS = 100_000
#: Most characters of a currency's name ("€", "EUR", "$", "CHF", "beers").
MAX_CURRENCY = 8
#: Most characters of a payment handle (an IBAN with its spaces is 42; "paypal.me/...", a phone number).
MAX_HANDLE = 64

#: How the transfers are found (the settle-up's ``method``; see :mod:`fourcards.table.transfers`).
ALGORITHM = (f"Fewest transfers: the parties are split into the most groups whose nets add up to zero (exactly, "
             f"by dynamic programming over subsets, for up to {EXACT_LIMIT} parties with a net), and in each group "
             "the largest debtor pays the largest creditor until all are settled: a group of m parties takes "
             "m - 1 transfers, which is the minimum. With more parties, equal and opposite nets are paired and "
             "the rest settled greedily: at most one transfer fewer than the parties.")
ROUNDING = ("Each net is converted at the chip value and rounded down to whole cents; the cents still missing "
            "for the nets to add up to zero go one each to the nets with the largest fractions cut off (the "
            "largest remainder method), so every amount is within a cent of the exact one and the transfers "
            "settle everyone to the cent.")


def money(cents: int, currency: str, *, signed: bool = False) -> str:
    """``cents`` hundredths of ``currency`` as text: ``"2.50 €"``, ``"1,234.05 EUR"``; with
    ``signed`` a ``+`` or a minus sign (U+2212) first for non-zero amounts."""
    sign = ("+" if cents > 0 else "\u2212" if cents < 0 else "") if signed else ("\u2212" if cents < 0 else "")
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole:,}.{part:02d} {currency}"


def chip_value_text(chips: int, cents: int, currency: str) -> str:
    """The chip value in words: ``"100 chips = 1.00 €"``."""
    return f"{chips:,} chip{'s' if chips != 1 else ''} = {money(cents, currency)}"


def terms(state: TableState) -> dict[str, Any]:
    """The table's settle-up terms: ``chips``, ``cents``, ``currency`` (all ``None``: settle in
    chips) and ``banker`` (``"host"`` - the default -, ``"bank"``, or a player id)."""
    t = dict(state.settings.get(TERMS) or {})
    return {"chips": t.get("chips"), "cents": t.get("cents"), "currency": t.get("currency"),
            "banker": t.get("banker", "host")}


def _host(state: TableState) -> Person | None:
    """The table's host: seated, or (at a closed table) the one who closed it."""
    hosts = [p for _, p in sorted(state.people.items()) if p.is_host and not p.is_bot]
    seated = [p for p in hosts if p.seat]
    return (seated or hosts)[0] if hosts else None


def banker_of(state: TableState) -> tuple[Person | None, bool]:
    """Who holds the bank - a person, or ``None``: the bank settles on its own - and whether
    that is the host by default (the ``"host"`` term)."""
    who = terms(state)["banker"]
    if who == "bank":
        return None, False
    if isinstance(who, int) and not isinstance(who, bool):
        p = state.people.get(who)
        if p is not None and not p.is_bot:
            return p, False
    host = _host(state)
    return host, host is not None


def _require_host(state: TableState, by: int) -> Person:
    p = state.people.get(by)
    if p is None or (state.status == "open" and (not p.seat or p.status == "left")):
        raise TableError(403, "the seat token does not belong to any seat at this table")
    if not p.is_host:
        raise TableError(403, "only the table's host may set the settle-up's terms")
    return p


def set_terms(d: Draft, c: SetSettleUp) -> dict[str, Any]:
    """Host: set the chip value (or settle in chips) and who holds the bank; also after the
    table is closed (by the host who closed it). Returns ``{"terms": ...}`` (see :func:`terms`).

    Raises:
        TableError: 403 for anybody but the host; 422 for a chip value out of bounds or a
            currency that is not printable text (1-8 characters); 404 for an empty seat or a
            bot's named as the banker.
    """
    _require_host(d.state, c.by)
    s = d.state
    t = dict(s.settings.get(TERMS) or {})
    lines = []
    if c.set_value:
        if c.chip_value is None:
            if t.get("chips") is not None:
                lines.append("The host clears the chip value: the night settles up in chips")
            t.update(chips=None, cents=None, currency=None)
        else:
            chips, cents, currency = c.chip_value
            for name, value, top in (("chips", chips, MAX_VALUE_CHIPS), ("cents", cents, MAX_VALUE_CENTS)):
                if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                    raise TableError(422, f"chip value: {name} must be a whole number from 1 to {top:,}")
            try:
                currency = clean_name(currency, field="currency", max_length=MAX_CURRENCY)
            except FourcardsError as exc:  # clean_name's InputError
                raise TableError(422, f"chip value: {exc}") from None
            if (t.get("chips"), t.get("cents"), t.get("currency")) != (chips, cents, currency):
                lines.append(f"The host sets the chip value: {chip_value_text(chips, cents, currency)}")
            t.update(chips=chips, cents=cents, currency=currency)
    if c.banker is not None:
        if c.banker in ("host", "bank"):
            banker: str | int = str(c.banker)
        elif isinstance(c.banker, int) and not isinstance(c.banker, bool):
            seat = s.players.get(c.banker)
            if seat is None:
                raise TableError(404, f"seat {c.banker} is empty: the bank is held by a person at the table")
            if seat.is_bot:
                raise TableError(404, f"{seat.name} is a bot: the bank is held by a person")
            banker = seat.player_id
        else:
            raise TableError(422, "banker: \"host\", \"bank\" or the seat of the person who holds the bank")
        if banker != t.get("banker", "host"):
            lines.append("The bank settles as a party of its own" if banker == "bank"
                         else "The host holds the bank (the bots' chips)" if banker == "host"
                         else f"{s.people[int(banker)].name} holds the bank (the bots' chips)")
        t["banker"] = banker
    settings = {**s.settings, TERMS: t}
    if lines:
        d.write(SeatChange(s.id, table={"settings": settings}))
        d.set(settings=settings)
        for line in lines:
            d.log(line)
    return {"terms": terms(d.state)}


def set_handle(d: Draft, c: SetHandle) -> dict[str, Any]:
    """A person's payment handle (docs/rules.md TP-15): free text (printable, runs of spaces made
    one, at most :data:`MAX_HANDLE` characters; :func:`fourcards.inputs.clean_name`) shown beside
    the transfers the person receives; ``None`` or blank text removes it. The person's own, seated
    or gone, also at a closed table (the night is settled after it). Returns ``{"handle"}``.

    Raises:
        TableError: 403 for a token of nobody here, or a bot; 422 text that is not printable or
            too long.
    """
    p = d.state.people.get(c.by)
    if p is None:
        raise TableError(403, "the seat token does not belong to any seat at this table")
    if p.is_bot:
        raise TableError(403, "a bot's seat is played by the server")
    handle = None
    if c.handle is not None and c.handle.strip():
        try:
            handle = clean_name(c.handle, field="payment handle", max_length=MAX_HANDLE)
        except FourcardsError as exc:  # clean_name's InputError
            raise TableError(422, str(exc)) from None
    if handle != p.handle:
        d.put(replace(p, handle=handle))
    return {"handle": handle}


def _list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _signed(chips: int) -> str:
    return f"+{chips:,}" if chips > 0 else f"\u2212{-chips:,}" if chips < 0 else "0"


def _bank_words(settlement: dict[str, Any], banker: Person | None, by_default: bool) -> str:
    bank = settlement["bank"]
    bots = [b["name"] for b in bank["bots"]]
    covered = []
    if bots:
        covered.append(f"the bot{'s' if len(bots) > 1 else ''} ({_list(bots)}) play{'' if len(bots) > 1 else 's'} "
                       "with the bank's chips")
    if bank["house"] is not None:
        covered.append("the house's wins and losses are the bank's")
    if not covered:
        return "No bot played and there is no house: the people's nets add up to zero on their own."
    people = sum(p["net"] for p in settlement["players"] if not p["is_bot"])
    what = "they won or lost together" if len(bots) + (bank["house"] is not None) > 1 else "it won or lost"
    text = (f"{_list(covered)[0].upper()}{_list(covered)[1:]}: the bank's line is what {what} "
            f"({_signed(bank['net'])} chips), so the people's nets ({_signed(people)}) and the bank's add up to zero. ")
    if banker is None:
        return text + ("Nobody holds the bank: it settles as a party of its own (a cash box, or whoever put up the "
                       "bots' chips).")
    what = ("pays what the bank lost" if bank["net"] < 0 else "collects what the bank won" if bank["net"] > 0
            else "neither pays nor collects for it")
    return text + f"{banker.name}{', the host,' if by_default else ''} holds the bank: {banker.name} {what}, in " \
                  f"{banker.name}'s transfers."


def settle_up(state: TableState, settlement: dict[str, Any]) -> dict[str, Any]:
    """Who pays whom to settle the night (see the module doc), from its ``settlement``.

    Returns ``table``, ``name``, ``game``; ``terms`` (:func:`terms`); ``chip_value`` (words,
    or ``None``: in chips); ``unit`` (``"cent"`` or ``"chip"``: what ``amount`` counts);
    ``bank`` (``net`` in chips, ``house``, ``bots``, ``held_by`` ``{"player_id", "name"}`` or
    ``None``, ``words``: who covers the bots); ``parties`` - each person (bots aside) and, when
    nobody holds it, the bank: ``kind`` (``"person"``/``"bank"``), ``player_id``, ``name``,
    ``net`` (chips), ``holds_bank``, ``settles`` (chips: the net, with the bank's for its
    holder), ``amount`` (units, rounded), ``money`` (text) and ``handle`` (the person's payment
    handle, or ``None``); ``transfers`` - ``from``, ``to`` (``{"kind", "player_id", "name",
    "handle"}``), ``amount`` (units, > 0), ``money``, ``text`` ("Cat pays Ben 2.50 €");
    ``minimum`` (the number of transfers is the proven minimum); ``method`` (``algorithm``,
    ``rounding``); ``total`` (the parties' amounts: 0); ``text`` - the whole settle-up as plain
    text to copy (:func:`settle_up_text`).

    Raises:
        TableError: 409 while chips are in play (a deal in progress).
    """
    if settlement["in_play"]:
        word = state.table_game.word.lower()
        raise TableError(409, f"a {word} is in progress with {settlement['in_play']:,} chips in play: settle up when "
                              f"it ends")
    t = terms(state)
    banker, by_default = banker_of(state)
    bank_net = settlement["bank"]["net"]
    parties: list[dict[str, Any]] = []
    for p in settlement["players"]:
        if p["is_bot"]:
            continue
        holds = banker is not None and p["player_id"] == banker.player_id
        person = state.people.get(p["player_id"])
        parties.append({"kind": "person", "player_id": p["player_id"], "name": p["name"], "seat": p["seat"],
                        "net": p["net"], "holds_bank": holds, "settles": p["net"] + (bank_net if holds else 0),
                        "handle": person.handle if person is not None else None})
    if banker is None or not any(x["holds_bank"] for x in parties):
        banker = None
        if bank_net or settlement["bank"]["bots"] or settlement["bank"]["house"] is not None:
            parties.append({"kind": "bank", "player_id": None, "name": "the bank", "seat": None, "net": bank_net,
                            "holds_bank": False, "settles": bank_net, "handle": None})
    valued = t["chips"] is not None
    if valued:
        amounts = round_conserving([Fraction(x["settles"] * t["cents"], t["chips"]) for x in parties])
    else:
        amounts = [x["settles"] for x in parties]
    for x, a in zip(parties, amounts, strict=True):
        x["amount"] = a
        x["money"] = money(a, t["currency"], signed=True) if valued else f"{_signed(a)} chips"
    transfers, minimum = fewest_transfers(amounts)

    def who(x: dict[str, Any]) -> dict[str, Any]:
        return {"kind": x["kind"], "player_id": x["player_id"], "name": x["name"], "handle": x["handle"]}

    def label(x: dict[str, Any]) -> str:
        return x["name"][:1].upper() + x["name"][1:] if x["kind"] == "bank" else x["name"]

    out = []
    for tr in transfers:
        payer, payee = parties[tr.payer], parties[tr.payee]
        text = money(tr.amount, t["currency"]) if valued else f"{tr.amount:,} chips"
        out.append({"from": who(payer), "to": who(payee), "amount": tr.amount, "money": text,
                    "text": f"{label(payer)} pays {payee['name']} {text}"})
    bank = {**settlement["bank"], "held_by": None if banker is None else {"player_id": banker.player_id,
                                                                          "name": banker.name},
            "words": _bank_words(settlement, banker, by_default)}
    up = {"table": state.id, "name": state.name, "game": state.game, "terms": t,
          "chip_value": chip_value_text(t["chips"], t["cents"], t["currency"]) if valued else None,
          "unit": "cent" if valued else "chip", "bank": bank, "parties": parties, "transfers": out,
          "minimum": minimum, "method": {"algorithm": ALGORITHM, "rounding": ROUNDING if valued else None},
          "total": sum(amounts)}
    up["text"] = settle_up_text(up)
    return up


def settle_up_text(up: dict[str, Any]) -> str:
    """The whole settle-up (:func:`settle_up`) as plain text to copy into a group chat: the
    night and the chip value, one line per transfer with the payee's payment handle ("Cat pays
    Ben 2.50 € - Ben: DE89 3704 ..."), or that nobody owes anything, then the bank's words.
    Plain text: whatever a name or a handle holds is written as it is (a chat shows it as
    text)."""
    lines = [f"Who pays whom: {up['name']}" + (f" ({up['chip_value']})" if up["chip_value"] else " (in chips)")]
    for tr in up["transfers"]:
        handle = tr["to"].get("handle")
        lines.append(f"- {tr['text']}" + (f" - {tr['to']['name']}: {handle}" if handle else ""))
    if not up["transfers"]:
        lines.append("Nobody owes anybody anything.")
    lines.append(up["bank"]["words"])
    return "\n".join(lines) + "\n"
