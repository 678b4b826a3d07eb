"""Four of a Kind with real cards (issue 15; docs/rules.md FOAK-14 to FOAK-16), SQLite and
PostgreSQL: ``"dealing": "table"``, the host's ``POST /api/tables/{id}/cards`` with good and
bad input (each refusal a clear 4xx with every view unchanged), the take-back, the host's
moves for a player, the referee's view, and an assisted deal stored and replayed."""

from __future__ import annotations

from fastapi.testclient import TestClient

from fourcards.web import create_app
from webhelpers import enter_cards as cards
from webhelpers import post, state
from webhelpers import real_cards_table as assisted


def test_foak15_a_take_back_leaves_the_stored_history_replaying_to_the_deal(database_url: str) -> None:
    """The stored records of an open deal rebuild it exactly (the restart path rebuilds open
    deals from them), a take-back included."""
    from fourcards.kind import Game
    from fourcards.store import Store

    with TestClient(create_app(database_url, bot_delay=0)) as client:
        tid, host, guests = assisted(client)
        cards(client, tid, host, "9c 9h")
        post(client, tid, "/cards/take-back", host)  # the duplicate, its return and reshuffle go
        cards(client, tid, host, "Kd Qc Jh")
        post(client, tid, "/cards/take-back", host)
        cards(client, tid, host, "2s")
        post(client, tid, "/actions", guests["Ben"], {"kind": "check"})
        table = client.app.state.hub.repo.copies[tid]  # type: ignore[attr-defined]
        store = Store(database_url, run_migrations=False)
        try:
            stored = store.get_deal(tid, 1)
        finally:
            store.close()
        assert stored is not None and stored["status"] == "in_progress"
        again = Game.replay(None, stored["history"])
        assert again.history == table.deal.game.history and again.observation(None) == table.deal.game.observation(None)
        assert [str(c) for held in again.cards for c in held] == ["2s", "9c", "Kd", "Qc"]  # Rob is player 0


def test_foak14_cards_in_the_openapi_schema(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/tables/{table_id}/cards", "/api/tables/{table_id}/cards/take-back",
            "/api/tables/{table_id}/seats/{seat}/actions"} <= set(paths)


def test_foak15_an_assisted_deal_with_a_take_back_carries_on_after_a_restart(database_url: str) -> None:
    """The lead's restart path rebuilds an open deal from its stored records: after a
    take-back they are the deal as it stands, still waiting for the host's cards."""
    with TestClient(create_app(database_url, bot_delay=0)) as client:
        tid, host, guests = assisted(client)
        cards(client, tid, host, "9c Kd Qc 2s")
        assert post(client, tid, "/cards/take-back", host).status_code == 200
        before = state(client, tid, host)["deal"]
    with TestClient(create_app(database_url, bot_delay=0)) as client:
        after = state(client, tid, host)["deal"]
        assert after["seats"] == before["seats"] and after["next_card"] == before["next_card"]
        assert after["take_back"] == {"card": "Qc", "step": "deal", "seat": 4, "name": "Cat"}
        r = cards(client, tid, host, "Jh")
        assert r.status_code == 200, r.text
        assert r.json()["deal"]["actor"] == 3 and r.json()["dealing"] == "table"
