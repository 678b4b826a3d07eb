"""Issue 28 item 7: what one action costs the table's own code, in this process - no server,
websocket or database: the command applied (``fourcards.table.apply``) and the views a server
pushes after it (the shared part and each of five seats' own parts, encoded by orjson).

Plays Four Card Poker rounds (five seats wager 10, the host deals, each seat folds or plays by
the best pair) and Four of a Kind deals (five seats check or call) through the table's commands,
the way a server applies them (``tests/table/tablehelpers.py``'s ``Table``: the store's player
ids given in order), and prints the mean milliseconds per command of each part: CPU time of this
thread (a shared machine's other work is not counted), the fastest of ``--repeat`` runs. Set against
``web_load.py``'s server CPU per action, the rest is the server's: the event loop and sockets
(``web_load.py --ping``: the websocket stack's own round trip), the command path and the
database thread.

    python benchmarks/issue28_table_path.py [--rounds 60] [--deals 20] [--repeat 5] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "table"))
from tablehelpers import Table, new_state, th  # noqa: E402

from fourcards.poker.luck import load_counts  # noqa: E402
from fourcards.table.commands import Act, Command, Join, Move, Sit, StartDeal  # noqa: E402
from fourcards.table.state import TableState  # noqa: E402
from fourcards.table.views import Extras, own_view, shared_view  # noqa: E402

RANKS = "23456789TJQKA"


def publish(state: TableState) -> None:
    """What a server builds after a change: the shared part once, each seat's own part."""
    extras = Extras(now=time.time())
    orjson.dumps(shared_view(state, extras))
    for p in state.players.values():
        orjson.dumps(own_view(state, p, None, extras))


def seated(game: str) -> tuple[Table, list[int]]:
    t = Table(new_state(game, starting_chips=1_000_000))
    t.run(Sit("P1", th("P1"), is_host=True))
    for j in range(2, 6):
        t.run(Join(f"P{j}", th(f"P{j}")))
    return t, [t.pid(f"P{j}") for j in range(1, 6)]


def timed(t: Table, applied: list[float], viewed: list[float]) -> Callable[[Command], None]:
    def step(c: Command) -> None:
        a = time.thread_time()
        t.run(c)
        b = time.thread_time()
        publish(t.state)
        applied.append(b - a)
        viewed.append(time.thread_time() - b)
    return step


def poker(rounds: int, applied: list[float], viewed: list[float]) -> None:
    t, ids = seated("poker")
    step = timed(t, applied, viewed)
    for _ in range(rounds):
        for pid in ids:
            step(Act(pid, Move("wager", ante=10)))
        step(StartDeal(ids[0]))
        while t.state.in_progress and t.state.deal is not None:
            deal = t.state.deal
            actor = deal.game.actor
            if actor is None:
                break
            person = t.state.players[deal.seats.seat(actor)]
            cards = [str(c) for c in deal.game.observation(actor).players[actor].cards or ()]
            pairs = [RANKS.index(r) for r in {c[0] for c in cards} if sum(c[0] == r for c in cards) >= 2]
            step(Act(person.player_id, Move("play", amount=10) if pairs and max(pairs) > 0 else Move("fold")))


def kind(deals: int, applied: list[float], viewed: list[float]) -> None:
    t, ids = seated("kind")
    step = timed(t, applied, viewed)
    for _ in range(deals):
        step(StartDeal(ids[0]))
        while t.state.deal is not None and t.state.deal.game.actor is not None:
            deal = t.state.deal
            actor = deal.game.actor
            kinds = {o.to_dict()["kind"] for o in deal.game.legal_actions(actor)}
            step(Act(t.state.players[deal.seats.seat(actor)].player_id, Move("check" if "check" in kinds else "call")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=60, help="Four Card Poker rounds")
    ap.add_argument("--deals", type=int, default=20, help="Four of a Kind deals")
    ap.add_argument("--repeat", type=int, default=1, help="play each game this many times; print the fastest")
    ap.add_argument("--profile", action="store_true", help="print the top of a cProfile of both")
    ap.add_argument("--sort", default="tottime", help="the profile's order (tottime, cumulative)")
    ap.add_argument("--top", type=int, default=25, help="how many rows of the profile")
    opts = ap.parse_args()
    load_counts()  # the dealer counts, as a server's warm-up loads them (computed once on a fresh machine)
    poker(5, [], [])  # warm up: imports, numba
    kind(2, [], [])
    for name, play, n in (("Four Card Poker", poker, opts.rounds), ("Four of a Kind", kind, opts.deals)):
        runs = []
        for _ in range(opts.repeat):
            applied: list[float] = []
            viewed: list[float] = []
            play(n, applied, viewed)
            runs.append((statistics.fmean(applied), statistics.fmean(viewed), len(applied)))
        apply_s, view_s, count = min(runs, key=lambda r: r[0] + r[1])
        print(f"{name}: {count} commands; per command: apply {apply_s * 1e3:.3f} ms, "
              f"views of 5 seats + shared {view_s * 1e3:.3f} ms")
    if opts.profile:
        prof = cProfile.Profile()
        prof.runcall(lambda: (poker(opts.rounds // 2, [], []), kind(opts.deals // 2, [], [])))
        pstats.Stats(prof).sort_stats(opts.sort).print_stats(opts.top)


if __name__ == "__main__":
    main()
