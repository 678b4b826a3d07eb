"""Duplicate matches between bots: the same cards in every seat rotation, chips per deal with 95% intervals,
and a rating table (``fourcards kind match``, ``fourcards poker match``; docs/rl.md "Matches and ratings").

**Four of a Kind** (:func:`kind_match`). The bots fill the seats in order, the list repeating (seat
``s`` gets bot ``s % k``: ``learned pots`` at 4 seats is learned, pots, learned, pots). Every deal is
played once in each distinct rotation of that lineup (rotation ``r``: seat ``s`` gets the lineup's
entry ``(s + r) % players``), with the same cards: deal ``j`` draws its deck, and its reshuffles after
a re-dealt duplicate, from ``random.Random(seed * 1_000_003 + j)`` alone (:class:`~fourcards.kind.game.Game`
with that ``rng``), never from the bets; the bots' own random choices come from a stream of their
own. The button is at seat ``j % players``; every deal starts from the same stacks (40 antes by
default), so deals are independent. A bot's figure for a deal is its net chips over every rotation
divided by the seat-deals it played (its seats in the lineup times the rotations): **chips per deal
per seat**. The 95% interval of the mean is over the deals; each bot after the first also gets its
difference from the first bot's figure, deal by deal, with its 95% interval (the same cards cancel
out: far narrower than the bots' own intervals). Two bots at 4 seats: the lineup
learned, pots, learned, pots and its rotation pots, learned, pots, learned - exactly the duplicate
deals of ``benchmarks/kind_bot_match.py`` and docs/rl.md's learned-against-pots figure.

**Four Card Poker** (:func:`poker_match`). Each player faces the dealer alone, so a seat rotation
is every bot playing the same deal: deal ``j`` (the player's five cards, the dealer's six) is the
simulator's (:func:`fourcards.sim.poker.deal_rounds` of ``seed``), each bot decides fold or its play
bet, and the engine's settlement pays it (:func:`~fourcards.sim.poker.settle_rounds`): chips per
deal (in antes with the default ante of 1; minus the house edge) with 95% intervals over the deals.

**Ratings.** Each deal is a game between the bots, ranked by their chips in it (equal chips tie);
`openskill <https://openskill.me>`_'s Plackett-Luce model rates them deal after deal (``mu``,
``sigma``, and ``ordinal = mu - 3 sigma``, the table's order). Past :data:`RATED_GAMES` deals, the
games are that many blocks of consecutive deals (their chips summed), so the rating takes the same
time for any number of deals. Extra ``match`` (openskill).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from fourcards.errors import RulesError
from fourcards.sim.stats import Summary, summarize_sums

__all__ = ["BotResult", "RatingRow", "MatchResult", "RATED_GAMES", "kind_match", "poker_match", "rate",
           "lineup_rotations"]

#: Deals per task when a match runs in several processes.
CHUNK_DEALS = 25


@dataclass(frozen=True)
class BotResult:
    """One bot's result: ``summary`` of its chips per deal (per seat, Four of a Kind), ``seats`` it holds
    in the lineup, and ``versus_first``: the summary of its figure minus the first bot's, deal by deal (the
    duplicate comparison: the same cards cancel out; ``None`` for the first bot)."""

    bot: str
    seats: int
    summary: Summary
    versus_first: Summary | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``bot``, ``seats``, ``deals``, ``mean_per_deal``, ``ci95`` ``[low, high]``, ``std_per_deal``,
        ``vs_first`` (``{"mean", "ci95"}``, or ``None`` for the first bot)."""
        s, v = self.summary, self.versus_first
        return {"bot": self.bot, "seats": self.seats, "deals": s.n, "mean_per_deal": s.mean,
                "ci95": list(s.ci95), "std_per_deal": s.std,
                "vs_first": None if v is None else {"mean": v.mean, "ci95": list(v.ci95)}}


def _results(labels: Sequence[str], seats: Sequence[int], totals: np.ndarray, units: Sequence[int]
             ) -> tuple[BotResult, ...]:
    """Each bot's summary of ``totals[:, b] / units[b]`` per deal, and of its difference from the first bot's
    (exact integer sums over the common unit)."""
    n = len(totals)
    out = []
    for b, label in enumerate(labels):
        t = totals[:, b].astype(np.int64)
        versus = None
        if b:
            d = t * units[0] - totals[:, 0].astype(np.int64) * units[b]
            versus = summarize_sums(n, int(d.sum()), int((d * d).sum()), units[0] * units[b])
        out.append(BotResult(label, seats[b], summarize_sums(n, int(t.sum()), int((t * t).sum()), units[b]), versus))
    return tuple(out)


@dataclass(frozen=True)
class RatingRow:
    """A bot's rating after the match: ``mu``, ``sigma`` and ``ordinal`` (``mu - 3 sigma``); ``rank`` from 1."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    rank: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form: every field."""
        return {"rank": self.rank, "bot": self.bot, "mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


@dataclass(frozen=True)
class MatchResult:
    """A duplicate match (see the module doc)."""

    game: str
    deals: int
    seed: int
    rules: str
    players: int
    rotations: int
    bots: tuple[BotResult, ...]
    ratings: tuple[RatingRow, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``game``, ``deals``, ``seed``, ``rules``, ``players``, ``rotations``, ``bots`` (each
        :meth:`BotResult.to_dict`), ``ratings`` (each :meth:`RatingRow.to_dict`, best first),
        ``rating_model``."""
        return {"game": self.game, "deals": self.deals, "seed": self.seed, "rules": self.rules,
                "players": self.players, "rotations": self.rotations, "bots": [b.to_dict() for b in self.bots],
                "ratings": [r.to_dict() for r in self.ratings], "rating_model": "openskill PlackettLuce"}


def _labels(bots: Sequence[Any]) -> list[str]:
    """A distinct label per bot (a name repeated gets ``#2``, ``#3``...)."""
    out: list[str] = []
    for b in bots:
        name = b if isinstance(b, str) else str(getattr(b, "name", None) or type(b).__name__)
        label, k = name, 2
        while label in out:
            label, k = f"{name}#{k}", k + 1
        out.append(label)
    return out


#: The most games the ratings count: above, the deals are grouped in this many blocks of consecutive deals.
RATED_GAMES = 1000


def rate(labels: Sequence[str], chips: np.ndarray) -> tuple[RatingRow, ...]:
    """Ratings from ``chips[deal, bot]``: each deal a game ranked by chips (ties share a rank) - beyond
    :data:`RATED_GAMES` deals, each block of consecutive deals (their chips summed), as many blocks - rated in
    order by openskill's Plackett-Luce model; best ``ordinal`` first.

    Raises:
        MissingExtraError: openskill (extra ``match``) is not installed.
    """
    from fourcards.extras import require

    require("match", "the rating table")
    from openskill.models import PlackettLuce

    values = np.asarray(chips, dtype=np.float64)
    if len(values) > RATED_GAMES:
        edges = np.arange(RATED_GAMES) * len(values) // RATED_GAMES
        values = np.add.reduceat(values, edges, axis=0)
    model = PlackettLuce()
    players = [model.rating(name=label) for label in labels]
    for row in values:
        order = sorted(set((-row).tolist()))  # rank 0: the most chips; equal chips share a rank
        ranks = np.array([order.index(-v) for v in row.tolist()])
        teams = model.rate([[p] for p in players], ranks=ranks.tolist())
        players = [t[0] for t in teams]
    rows = sorted(((label, p.mu, p.sigma, p.ordinal()) for label, p in zip(labels, players, strict=True)),
                  key=lambda r: -r[3])
    return tuple(RatingRow(label, float(mu), float(sigma), float(o), i + 1) for i, (label, mu, sigma, o) in
                 enumerate(rows))


# ------------------------------------------------------------------------ Four of a Kind


def lineup_rotations(k: int, players: int) -> list[int]:
    """The rotations ``r`` of the lineup of ``k`` bots at ``players`` seats that seat the bots differently
    (rotation ``r``: seat ``s`` gets lineup entry ``(s + r) % players``, bot ``((s + r) % players) % k``)."""
    out: list[int] = []
    seen: list[list[int]] = []
    for r in range(players):
        seats = [((s + r) % players) % k for s in range(players)]
        if seats not in seen:
            seen.append(seats)
            out.append(r)
    return out


@dataclass(frozen=True)
class _KindJob:
    bots: tuple[Any, ...]
    rules: Any
    stacks: tuple[int, ...]
    seed: int


def _kind_deals(job: _KindJob, first: int, count: int) -> np.ndarray:
    """``int64[count, k]``: each bot's net chips over every rotation of deals ``first ..``."""
    from fourcards.kind.bots import make_bot
    from fourcards.kind.game import Game

    k, n = len(job.bots), len(job.stacks)
    entries = [make_bot(b) if isinstance(b, str) else b for b in (job.bots[s % k] for s in range(n))]
    out = np.zeros((count, k), dtype=np.int64)
    for d in range(count):
        j = first + d
        for r in lineup_rotations(k, n):
            game = Game(job.rules, list(job.stacks), j % n, rng=random.Random(job.seed * 1_000_003 + j))
            bots_rng = random.Random((job.seed * 1_000_003 + j) ^ 0x5EEDB075)
            while not game.is_terminal:
                seat = game.actor
                assert seat is not None, "a game with its own deck never waits for a card"
                obs = game.observation(seat)
                game.apply(entries[(seat + r) % n].act(obs, obs.legal_actions, bots_rng))
            for seat, v in enumerate(game.returns()):
                out[d, ((seat + r) % n) % k] += v
    return out


def kind_match(bots: Sequence[Any], deals: int, *, players: int = 4, rules: Any = "family", stack: int | None = None,
               seed: int = 0, workers: int = 1, progress: Callable[[int, int], None] | None = None) -> MatchResult:
    """A duplicate match of Four of a Kind bots (see the module doc).

    Args:
        bots: two or more bots: names (built-in, plug-in, ``file:PATH``) or bot objects, at most one per seat.
        deals: deals, each played in every distinct rotation of the lineup.
        players: seats (4-13 with the presets). rules: a preset name or
            :class:`~fourcards.kind.rules.KindRules`. stack: chips per seat (default 40 antes).
        seed: the cards' seed. workers: processes (bots given by name only).
        progress: ``progress(done, total)`` after each share of the deals.

    Raises:
        RulesError: fewer than two bots, more bots than seats, an unknown bot, or a table the rules cannot deal.
    """
    from fourcards.kind.bots import make_bot
    from fourcards.kind.game import Game
    from fourcards.kind.rules import KindRules, get_rules

    r = rules if isinstance(rules, KindRules) else get_rules(str(rules))
    labels = _labels(bots)
    k = len(labels)
    if k < 2:
        raise RulesError("a match needs at least two bots")
    if k > players:
        raise RulesError(f"{k} bots for {players} seats: give at most one bot per seat")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise RulesError(f"deals must be a whole number >= 1, got {deals!r}")
    stacks = tuple([40 * max(r.ante, 1) if stack is None else int(stack)] * players)
    Game(r, list(stacks), 0, cards=())  # validates the table
    for b in bots:  # an unknown name fails here, before any deal
        if isinstance(b, str):
            make_bot(b)
    job = _KindJob(tuple(bots), r, stacks, int(seed))
    parts = [(lo, min(CHUNK_DEALS, deals - lo)) for lo in range(0, deals, CHUNK_DEALS)]
    chunks: list[np.ndarray] = []
    if workers > 1 and len(parts) > 1 and all(isinstance(b, str) for b in bots):
        with ProcessPoolExecutor(min(workers, len(parts))) as pool:
            for i, part in enumerate(pool.map(_kind_deals, [job] * len(parts), *zip(*parts, strict=True))):
                chunks.append(part)
                if progress is not None:
                    progress(sum(c for _, c in parts[:i + 1]), deals)
    else:
        for lo, count in parts:
            chunks.append(_kind_deals(job, lo, count))
            if progress is not None:
                progress(lo + count, deals)
    totals = np.concatenate(chunks)
    rotations = lineup_rotations(k, players)
    seats = [sum(1 for s in range(players) if s % k == b) for b in range(k)]
    units = [seats[b] * len(rotations) for b in range(k)]
    results = _results(labels, seats, totals, units)
    return MatchResult("kind", deals, int(seed), r.name, players, len(rotations), results,
                       rate(labels, totals / np.array(units)))


# ------------------------------------------------------------------------ Four Card Poker


def _decisions(bot: Any, cards: np.ndarray) -> np.ndarray:
    """The bot's play multiple (0 = fold) for each deal's five cards against the up card (``cards[:, 10]``)."""
    from fourcards.cards import FULL_DECK

    hands = np.sort(cards[:, :5], axis=1)
    up = np.ascontiguousarray(cards[:, 10])
    many = getattr(bot, "decide_many", None)
    if callable(many):
        return np.asarray(many(np.ascontiguousarray(hands), up), dtype=np.int64)
    return np.array([int(bot.decide(tuple(FULL_DECK[c] for c in row), FULL_DECK[u]))
                     for row, u in zip(hands.tolist(), up.tolist(), strict=True)], dtype=np.int64)


def poker_match(bots: Sequence[Any], deals: int, *, rules: Any = "live", seed: int = 0, ante: int = 1) -> MatchResult:
    """A duplicate match of Four Card Poker bots: every bot plays every deal (see the module doc).

    Args:
        bots: two or more bots: names (``simple``, ``optimal``, plug-ins, ``file:PATH``) or objects with
            ``decide(cards, up_card)``.
        deals: deals. rules: a preset name or :class:`~fourcards.poker.rules.PokerRules`. seed: the cards'
            seed. ante: chips (the figures are chips per deal: antes with the default 1).

    Raises:
        RulesError: fewer than two bots, an unknown bot, or a decision the rules do not allow (naming the
            bot and the hand).
    """
    from fourcards.cards import FULL_DECK
    from fourcards.poker.bots import make_poker_bot
    from fourcards.poker.exact.figures import options
    from fourcards.poker.rules import as_rules
    from fourcards.sim.poker import deal_rounds, settle_rounds

    r = as_rules(rules)
    labels = _labels(bots)
    if len(labels) < 2:
        raise RulesError("a match needs at least two bots")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise RulesError(f"deals must be a whole number >= 1, got {deals!r}")
    objs = [make_poker_bot(b, r) if isinstance(b, str) else b for b in bots]
    allowed = np.zeros(4, dtype=bool)
    allowed[list(options(r))] = True
    chips = np.zeros((deals, len(objs)), dtype=np.int64)
    step = 1 << 16
    for lo in range(0, deals, step):
        cards = deal_rounds(int(seed), min(step, deals - lo), lo // step)
        for b, bot in enumerate(objs):
            dec = _decisions(bot, cards)
            bad = np.flatnonzero((dec < 0) | (dec > 3) | ~allowed[np.clip(dec, 0, 3)])
            if len(bad):
                i = int(bad[0])
                hand = " ".join(str(FULL_DECK[c]) for c in sorted(cards[i, :5].tolist()))
                raise RulesError(f"bot {labels[b]!r} plays {int(dec[i])} with {hand} against up card "
                                 f"{FULL_DECK[int(cards[i, 10])]}: the rules allow {list(options(r))} "
                                 "(0 = fold, k = play k x the ante)")
            chips[lo:lo + len(cards), b] = settle_rounds(r, cards, dec.astype(np.uint8), ante=ante)
    results = _results(labels, [1] * len(objs), chips, [1] * len(objs))
    return MatchResult("poker", deals, int(seed), r.name, 1, 1, results, rate(labels, chips))
