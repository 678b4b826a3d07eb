"""``fourcards serve`` for a game night, as a real process on loopback: ``--lan`` prints
the join link with this machine's LAN address (checked as text; the tests connect
through 127.0.0.1 only) and a QR code; a second server on a database a running server
uses refuses to start before touching any table data, and the first carries on.
Both databases (tests/dbtesting.py)."""

from __future__ import annotations

import ipaddress
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from servers import Server, free_port

from fourcards.web.invite import lan_address

pytestmark = pytest.mark.slow


@pytest.fixture
def lan_server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    s = Server(database_url, tmp_path / "server.log", "--lan")
    yield s
    s.stop()


def test_design_serve_lan_prints_the_join_link_with_the_lan_address_and_a_qr_code(lan_server: Server) -> None:
    if lan_address() is None:  # pragma: no cover - a machine on no network: one clear error line
        r = subprocess.run([sys.executable, "-m", "fourcards", "serve", "--lan", "--port", str(free_port()),
                            "--database-url", lan_server.url], capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and r.stderr.startswith("error: --lan: this machine has no address")
        return
    lan_server.start()
    out = lan_server.log.read_text()
    m = re.search(r"Join from phones on this network: (http://([0-9.]+):(\d+)/)", out)
    assert m, out
    link, address, port = m.group(1), ipaddress.ip_address(m.group(2)), int(m.group(3))
    assert not (address.is_loopback or address.is_unspecified) and port == lan_server.port
    assert "\u2580" in out or "\u2584" in out  # the QR code in half blocks
    assert "127.0.0.1" not in link and "0.0.0.0" not in link
    # the server is reached through loopback; its tables invite with the LAN link
    b = lan_server.base
    r = httpx.post(f"{b}/api/tables", json={"game": "kind", "host_name": "Host"})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]["id"]
    assert r.json()["invite_url"] == f"{link}t/{tid}"
    assert httpx.get(f"{b}/api/tables/{tid}/state").json()["table"]["invite_url"] == f"{link}t/{tid}"
    qr = httpx.get(f"{b}/t/{tid}/qr.svg")
    assert qr.status_code == 200 and f"<title>{link}t/{tid}</title>" in qr.text


def test_design_serve_public_url_is_checked(tmp_path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "fourcards", "serve", "--public-url", "ftp://x", "--port",
                        str(free_port()), "--database-url", f"sqlite:///{tmp_path / 'x.db'}"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("error: --public-url must be")


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    s = Server(database_url, tmp_path / "server.log")
    yield s
    s.stop()


def test_issue12_second_server_on_the_database_cooperates(server: Server, tmp_path: Path) -> None:
    """Issue 12 (replacing game night's server lock): a second ``fourcards serve`` on the same
    database starts and serves the first one's tables; a deal begun through the first ends
    through the second, and the first sees it."""
    server.start()
    b = server.base
    r = httpx.post(f"{b}/api/tables", json={"game": "poker", "host_name": "Host", "bots": 2})
    tid, tok = r.json()["table"]["id"], r.json()["token"]
    h = {"X-Seat-Token": tok}
    assert httpx.post(f"{b}/api/tables/{tid}/actions", json={"kind": "wager", "ante": 10}, headers=h).status_code == 200
    assert httpx.post(f"{b}/api/tables/{tid}/deal", headers=h).status_code == 200  # a deal in progress
    second = Server(server.url, tmp_path / "second.log")
    try:
        second.start()
        c = second.base
        assert httpx.get(f"{c}/api/tables/{tid}").json()["seats"] == httpx.get(f"{b}/api/tables/{tid}").json()["seats"]
        assert httpx.post(f"{c}/api/tables/{tid}/actions", json={"kind": "fold"}, headers=h).status_code == 200
        deals = httpx.get(f"{b}/api/tables/{tid}/deals").json()["deals"]  # through the first
        assert deals[0]["status"] == "settled"
        assert httpx.get(f"{b}/api/tables/{tid}/state", headers=h).json()["round"]["phase"] == "wagers"
        audit = httpx.get(f"{b}/api/tables/{tid}/ledger").json()["audit"]
        assert audit == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
        assert httpx.get(f"{c}/api/tables/{tid}/settlement").json()["total"] == 0
    finally:
        second.stop()
