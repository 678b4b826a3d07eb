"""The web layer plays both games through the engine protocol alone (issue 10 item 3):
legal actions, views and redaction come from the engine; no engine internals, no bot
of its own; one table adapter serves both games.

* statically: every ``fourcards`` import of a web module is in :data:`ALLOWED` - the
  engine protocol (:mod:`fourcards.engine`) and each engine's public names (rules,
  the state class, its action and void records, observations, the published
  strategies and bots); no web module reads another object's private members or
  uses ``vars()``;
* at run time: both games are played through the web API with every engine state
  wrapped so that only the protocol's members can be read (:class:`ProtocolOnly`).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import fourcards.table.kind as kind_table
import fourcards.table.poker as poker_table
from fourcards.kind import Game
from fourcards.poker.round import PokerRound
from webhelpers import create, hdr, play_kind_deal, post, sit, state

SRC = Path(__file__).resolve().parents[2] / "src" / "fourcards"
#: The web layer and the table's rules (issue 20: the table package holds what the web did).
FOLDERS = (SRC / "web", SRC / "web" / "routes", SRC / "table")

#: What web modules may import from fourcards outside fourcards.web ("*": any name).
ALLOWED: dict[str, set[str]] = {
    "fourcards": {"__version__"},
    "fourcards.engine": {"GameState", "LegalAction", "Observation", "Record", "seat_label"},
    "fourcards.errors": {"FourcardsError", "IllegalActionError", "HistoryError", "RulesError"},
    "fourcards.cards": {"parse_card", "read_cards", "make_rng", "Rank"},
    "fourcards.store": {"*"},  # the web's own database, not an engine
    "fourcards.inputs": {"*"},  # validation of what people type, not an engine
    "fourcards.csvtext": {"*"},  # CSV safe for spreadsheets (issue 19), not an engine
    "fourcards.poker": {"rules", "strategy", "bots"},  # bots: the Four Card Poker bot registry (issue 22)
    "fourcards.poker.luck": {"round_luck",  # a round's luck against the exact EV (issue 29)
                             "load_counts"},  # the dealer counts it looks up, loaded by the warm-up (issue 28)
    "fourcards.hands": {"best_hand"},  # the best four of a seat's cards, raised on the page (issue 29)
    "fourcards.poker.rules": {"PokerRules", "PRESETS", "get_rules", "parse_aces_up", "parse_ante_bonus",
                              "ACES_UP_TABLES", "ANTE_BONUS_TABLES"},
    "fourcards.poker.round": {"PokerRound", "PokerObservation", "PlaceWagers", "WithdrawWagers", "Fold", "Play",
                              "Void", "Forfeit", "describe_result"},
    "fourcards.poker.strategy": {"get_strategy", "advise", "Strategy"},
    "fourcards.poker.payout": {"check_payout", "PayoutInputError", "PAYOUT_FIELDS"},  # the payout checker (issue 15)
    "fourcards.kind": {"rules", "bots", "Game", "KindRules", "PRESETS", "get_rules", "Action", "ActionKind",
                       "Observation", "Void", "exact_odds", "next_button",
                       "DealCard", "TurnCard",  # chance records: the host's real cards (rules.md FOAK-14)
                       "Forfeit",  # leaving mid-deal (rules.md TP-5, FOAK-17)
                       "side_pots", "card_luck"},  # why each share went where it did, a deal's luck (issue 29)
    "fourcards.kind.bots": {"BOTS", "make_bot", "bot_names"},
}

#: The protocol's members (fourcards.engine.GameState): all a table may read of a state.
PROTOCOL = {"rules", "num_players", "seat_label", "actor", "chance_step", "is_terminal", "legal_actions",
            "apply", "apply_chance", "returns", "observation", "history", "clone"}


def _imports(path: Path) -> list[tuple[str, str, int]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out += [(node.module, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, "", node.lineno) for a in node.names]
    return [i for i in out if i[0] == "fourcards" or i[0].startswith("fourcards.")]


def _violations(folder: Path) -> list[str]:
    bad = []
    for path in sorted(folder.glob("*.py")):
        for module, name, line in _imports(path):
            if module.startswith(("fourcards.web", "fourcards.table")):
                continue
            # the store's modules are the web's own database too (issue 27: the operator's, the sessions')
            allowed = ALLOWED.get(module, ALLOWED["fourcards.store"] if module.startswith("fourcards.store.") else set())
            if not (name and ("*" in allowed or name in allowed)):
                bad.append(f"{path.name}:{line} imports {module}{'.' + name if name else ''}")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars":
                bad.append(f"{path.name}:{node.lineno} uses vars()")
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                bad.append(f"{path.name}:{node.lineno} reads a private member .{node.attr}")
    return bad


def test_design_web_modules_import_only_the_engine_protocol_and_public_engine_names() -> None:
    assert [v for folder in FOLDERS for v in _violations(folder)] == []


def test_design_the_import_check_catches_engine_internals(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("from fourcards.kind.history import TurnCard\nfrom fourcards.poker.round import Phase\n"
                                     "import fourcards.hands\nx = vars(y)\nz = game._deck\n")
    assert len(_violations(tmp_path)) == 5


class ProtocolOnly:
    """An engine state of which only the protocol's members can be read."""

    def __init__(self, state: Any) -> None:
        self._state = state

    def __getattr__(self, name: str) -> Any:
        if name not in PROTOCOL:
            raise AttributeError(f"the web read {name!r} of {type(self._state).__name__}: not in the engine protocol")
        if name == "clone":
            return lambda: ProtocolOnly(self._state.clone())
        return getattr(self._state, name)


def _protocol_only(engine: type) -> type:
    class Wrapped:
        def __new__(cls, *args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
            return ProtocolOnly(engine(*args, **kwargs))

        @staticmethod
        def replay(*args: Any, **kwargs: Any) -> Any:
            return ProtocolOnly(engine.replay(*args, **kwargs))

    return Wrapped


@pytest.fixture
def protocol_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(poker_table, "PokerRound", _protocol_only(PokerRound))
    monkeypatch.setattr(kind_table, "Game", _protocol_only(Game))


def test_design_both_games_play_through_the_protocol_alone(client: TestClient, protocol_only: None) -> None:
    # Four Card Poker: wagers, bots of both strategies, the deal, decisions, the showdown, history, a void
    t = create(client, "poker", bots=1)
    tid, tok = t["table"]["id"], t["token"]
    assert post(client, tid, "/bots", tok, {"count": 1, "kind": "optimal"}).status_code == 200
    guest = sit(client, tid, "Guest")["token"]
    assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10, "aces_up": 5}).status_code == 200
    assert post(client, tid, "/actions", guest, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/deal", tok).status_code == 200
    assert post(client, tid, "/actions", tok, {"kind": "fold"}).status_code == 200
    r = post(client, tid, "/actions", guest, {"kind": "play", "amount": 20})
    assert r.status_code == 200, r.text
    assert r.json()["last"]["phase"] == "settled"
    d = client.get(f"/api/tables/{tid}/deals/1", headers=hdr(guest)).json()
    deal = next(x for x in d["history"] if x["kind"] == "deal")
    hands = {h["player"] + 1: h["cards"] for h in deal["hands"]}
    assert hands[1] is None and hands[4] is not None  # seat 1 folded; seat 4 is the guest
    assert post(client, tid, "/actions", tok, {"kind": "wager", "ante": 10}).status_code == 200
    assert post(client, tid, "/void", tok, {"reason": "test"}).status_code == 200
    assert client.get(f"/api/tables/{tid}/ledger").json()["audit"]["total"] == 0
    # Four of a Kind: a deal with bots to the split, its history, then a void
    k = create(client, "kind", bots=3)
    kid, ktok = k["table"]["id"], k["token"]
    assert post(client, kid, "/deal", ktok).status_code == 200
    end = play_kind_deal(client, kid, {1: ktok})
    assert end["last"]["phase"] == "finished"
    assert client.get(f"/api/tables/{kid}/deals/1").json()["history"][0]["op"] == "start"
    assert post(client, kid, "/deal", ktok).status_code == 200
    assert post(client, kid, "/void", ktok, {"reason": "test"}).status_code == 200
    assert state(client, kid)["last"]["voided"] == "host ruling: test"
    assert client.get(f"/api/tables/{kid}/ledger").json()["audit"]["total"] == 0


def test_foak14_real_cards_play_through_the_protocol_alone(client: TestClient, protocol_only: None) -> None:
    # the host enters every card (a duplicate re-dealt, a card taken back) and every move, to the split
    k = create(client, "kind", dealing="table")
    kid, ktok = k["table"]["id"], k["token"]
    for name in ("Ann", "Ben", "Cat"):
        sit(client, kid, name)
    assert post(client, kid, "/deal", ktok).status_code == 200
    for text in ("9c 9h", "Kd Qc 2s"):
        r = post(client, kid, "/cards", ktok, {"cards": text})
        assert r.status_code == 200, r.text
    assert r.json()["deal"]["take_back"]["card"] == "2s"
    assert post(client, kid, "/cards/take-back", ktok).status_code == 200
    turned = iter(["Jh", "9d", "9h", "9s"])
    for _ in range(100):
        d = state(client, kid)["deal"]
        if d is None:
            break
        r = (post(client, kid, "/cards", ktok, {"cards": next(turned)}) if d["actor"] is None else
             post(client, kid, f"/seats/{d['actor']}/actions", ktok, {"kind": "check"}))
        assert r.status_code == 200, r.text
    assert state(client, kid)["last"]["phase"] == "finished"
    assert client.get(f"/api/tables/{kid}/deals/1/replay").status_code == 200
    assert client.get(f"/api/tables/{kid}/ledger").json()["audit"]["total"] == 0
