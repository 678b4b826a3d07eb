"""The agent format: a learner's policy in one file, and a bot by that file's path.

``save(policy, path)`` writes, and ``load(path)`` reads, a zip archive: the manifest
``fourcards-agent.json`` beside the learner's own files (docs/rl.md "Agents: save, load, play"):

===========  ==========================================================  =====================================
learner      what :func:`save` takes                                     files
===========  ==========================================================  =====================================
``table``    Four of a Kind: a table of action classes                   ``table.npy`` (``uint8[7260]``)
             (:class:`~fourcards.rl.bots.LearnedKindBot`, the ``table``
             of :func:`fourcards.rl.kind_learn.train`, or the array)
``chart``    Four Card Poker: a chart (:class:`~fourcards.rl.learn.       ``chart.npy`` (``uint8[32, 13]``)
             ChartLearner`, :class:`~fourcards.poker.strategy.
             StrategyChart`)
``sb3``      a Stable-Baselines3 model (MaskablePPO, PPO, A2C, DQN)       Stable-Baselines3's own
             trained on :class:`~fourcards.rl.sb3.PokerSB3VecEnv` or       (``model.save``: ``data``,
             :class:`~fourcards.rl.sb3.KindSB3VecEnv`                      ``policy.pth``, ...)
===========  ==========================================================  =====================================

The manifest says ``format`` (``"fourcards-agent"``), ``version`` (1), ``game`` (``"kind"`` or
``"poker"``), ``learner``, ``name``, ``rules`` (the rules it learned under), ``players`` (a network's
table size, Four of a Kind) and ``observation`` (``"tensor"``: :func:`~fourcards.rl.encoding.kind_tensor`;
``"onehot"`` or ``"hand-v1"``: :mod:`fourcards.rl.features`); an ``sb3`` agent also its ``algorithm``.
An ``sb3`` file is Stable-Baselines3's own zip with the manifest added: ``MaskablePPO.load(path)``
reads it as it is.

A loaded :class:`Agent` plays as a bot: ``kind_bot()`` (``act(observation, legal_actions, rng)``)
and ``poker_bot()`` (``decide(cards, up_card)``); by path, ``file:PATH`` is a bot name wherever one
is taken (``fourcards kind simulate --bots file:agent.zip``, ``kind match``, ``poker match``,
``opponents=``), and ``fourcards serve --agent NAME=PATH`` seats it at web tables under ``NAME``.

**Trust.** A Stable-Baselines3 file holds pickled Python objects that loading runs: load only
agent files you trust (a ``table`` or ``chart`` file is plain arrays, read without pickle). The web
app loads only the files its operator names on the command line, never a path a client sends.
"""

from __future__ import annotations

import io
import json
import os
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fourcards.cards import Card
from fourcards.errors import FourcardsError, RulesError

__all__ = ["FORMAT", "MANIFEST", "Agent", "AgentError", "save", "load", "kind_bot_from_file",
           "poker_bot_from_file"]

#: The manifest's ``format``; its file name in the archive.
FORMAT, MANIFEST = "fourcards-agent", "fourcards-agent.json"
_VERSION = 1
_SB3 = {"MaskablePPO": "sb3_contrib", "PPO": "stable_baselines3", "A2C": "stable_baselines3",
        "DQN": "stable_baselines3"}


class AgentError(FourcardsError):
    """An agent file that cannot be written or read (naming the file and the problem)."""


def _poker_rules(rules: Any) -> Any:
    from fourcards.poker.rules import as_rules

    return as_rules(rules)


def _poker_rules_dict(rules: Any) -> dict[str, Any]:
    r = _poker_rules(rules)
    return {"preset": r.name.split("+")[0], "ante_bonus": str(r.ante_bonus), "aces_up": str(r.aces_up)}


def _kind_rules_dict(rules: Any) -> dict[str, Any]:
    from fourcards.kind.rules import KindRules

    return (rules or KindRules()).to_dict()


@dataclass
class Agent:
    """A loaded agent (see the module doc).

    Attributes:
        game: ``"kind"`` or ``"poker"``. learner: ``"table"``, ``"chart"`` or ``"sb3"``. name: its name.
        rules: the rules it learned under (:class:`~fourcards.kind.rules.KindRules` or
            :class:`~fourcards.poker.rules.PokerRules`). players: the table size of a Four of a Kind network
            (``None`` for a table, which plays any size). observation: the encoding its policy reads.
        table: the Four of a Kind table of classes (``learner == "table"``), else ``None``.
        chart: the Four Card Poker chart (``learner == "chart"``), else ``None``.
        model: the Stable-Baselines3 model (``learner == "sb3"``), else ``None``.
        path: the file it came from.
    """

    game: str
    learner: str
    name: str
    rules: Any
    players: int | None = None
    observation: str = ""
    table: np.ndarray | None = None
    chart: Any = None
    model: Any = None
    path: str = ""
    manifest: dict[str, Any] = field(default_factory=dict)

    # ---------------------------------------------------------------- Four of a Kind

    def _kind(self) -> None:
        if self.game != "kind":
            raise RulesError(f"agent {self.name!r} plays Four Card Poker, not Four of a Kind")

    def batch_policy(self, tensors: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Four of a Kind, a network: ``ids[k]`` for ``tensors[k, 28 n + 6]`` and ``masks[k, 3 + max_bet]``
        (its deterministic action under the mask)."""
        self._kind()
        if self.model is None:
            raise RulesError(f"agent {self.name!r} is a table: it plays from the table's features "
                             "(kind_bot() or an environment's opponents), not from the tensors")
        actions, _ = self.model.predict(np.asarray(tensors, dtype=np.float32), deterministic=True,
                                        action_masks=np.asarray(masks, dtype=bool))
        return np.asarray(actions, dtype=np.int64)

    def policy(self, tensor: np.ndarray, mask: np.ndarray) -> int:
        """Four of a Kind, a network: the id for one tensor and its mask."""
        return int(self.batch_policy(tensor[None, :], mask[None, :])[0])

    def kind_bot(self) -> Any:
        """A Four of a Kind bot playing this agent (``act(observation, legal_actions, rng)``).

        Raises:
            RulesError: a Four Card Poker agent.
        """
        from fourcards.rl.bots import LearnedKindBot

        self._kind()
        if self.table is not None:
            bot = LearnedKindBot(self.table)
            bot.name = self.name
            return bot
        return _SizedPolicyBot(self.policy, self.name, self.players)

    # ---------------------------------------------------------------- Four Card Poker

    def poker_policy(self) -> Any:
        """Four Card Poker: a vectorised policy ``(cards (N, 5), up (N,)) -> multiples`` for
        :func:`fourcards.poker.policy.score_policy` (``suit_symmetric`` when it reads no suits).

        Raises:
            RulesError: a Four of a Kind agent.
        """
        if self.game != "poker":
            raise RulesError(f"agent {self.name!r} plays Four of a Kind, not Four Card Poker")
        if self.chart is not None:
            from fourcards.hands import best4_of5
            from fourcards.poker.strategy import hand_class_of_rank

            table = np.asarray(self.chart.table)

            def chart_policy(cards: np.ndarray, up: np.ndarray) -> np.ndarray:
                cls = hand_class_of_rank[best4_of5(np.ascontiguousarray(cards, dtype=np.uint8))]
                return table[cls, np.asarray(up, dtype=np.int64) >> 2].astype(np.int64)

            chart_policy.vectorized = True  # type: ignore[attr-defined]
            chart_policy.suit_symmetric = True  # type: ignore[attr-defined]
            chart_policy.__name__ = self.name
            return chart_policy
        from fourcards.rl.features import policy_of

        policy = policy_of(self.model, self.rules, self.observation)
        policy.__name__ = self.name
        return policy

    def poker_bot(self, rules: Any = None) -> Any:
        """A Four Card Poker bot playing this agent (``decide(cards, up_card) -> multiple``, 0 to fold).

        Raises:
            RulesError: a Four of a Kind agent.
        """
        return _PokerAgentBot(self.poker_policy(), self.name)


class _SizedPolicyBot:
    """A network's bot: refuses a table of another size than it learned at."""

    def __init__(self, policy: Any, name: str, players: int | None) -> None:
        from fourcards.rl.bots import PolicyBot

        self._bot = PolicyBot(policy, name)
        self.name, self.players = name, players

    def act(self, observation: Any, legal_actions: Sequence[Any], rng: Any) -> Any:
        """The network's action at this table (its size must be the one it learned at)."""
        if self.players is not None and len(observation.seats) != self.players:
            raise RulesError(f"agent {self.name!r} learned at {self.players} seats: it cannot play "
                             f"{len(observation.seats)}")
        return self._bot.act(observation, legal_actions, rng)


class _PokerAgentBot:
    """``decide(cards, up_card)`` through a vectorised policy (one row a call)."""

    def __init__(self, policy: Any, name: str) -> None:
        self.policy, self.name = policy, name

    def decide(self, cards: Sequence[Card], up_card: Card) -> int:
        """The play multiple (0 = fold) for five ``cards`` against ``up_card``."""
        row = np.array([sorted(c.index for c in cards)], dtype=np.uint8)
        return int(self.policy(row, np.array([up_card.index], dtype=np.uint8))[0])

    def decide_many(self, cards: np.ndarray, up: np.ndarray) -> np.ndarray:
        """The multiples of many hands at once (``(N, 5)`` ascending card indices, ``(N,)``)."""
        return np.asarray(self.policy(cards, up), dtype=np.int64)


# ---------------------------------------------------------------------- writing


def _write(path: Path, manifest: dict[str, Any], arrays: dict[str, np.ndarray]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr(MANIFEST, json.dumps(manifest, indent=2))
        for name, array in arrays.items():
            buf = io.BytesIO()
            np.save(buf, array, allow_pickle=False)
            z.writestr(name, buf.getvalue())
    return path


def _sb3_game(model: Any, rules: Any) -> tuple[str, Any, int | None, str]:
    """(game, rules, players, observation) of a Stable-Baselines3 model, from its spaces and environment."""
    from fourcards.rl.encoding import OBS_SIZE
    from fourcards.rl.features import POKER_FEATURE_SIZE, POKER_FEATURES

    shape = tuple(model.observation_space.shape)
    inner = getattr(model.get_env(), "env", None) if model.get_env() is not None else None
    if shape in ((OBS_SIZE,), (POKER_FEATURE_SIZE,)) and getattr(model.action_space, "n", None) == 4:
        found = getattr(inner, "rules", None) if rules is None else rules
        return "poker", _poker_rules(found), None, "onehot" if shape == (OBS_SIZE,) else POKER_FEATURES
    size = shape[0] if len(shape) == 1 else -1
    if size >= 6 and (size - 6) % 28 == 0:
        from fourcards.kind.rules import KindRules

        found = getattr(inner, "rules", None) if rules is None else rules
        found = found or KindRules()
        if getattr(model.action_space, "n", None) != 3 + found.max_bet:
            raise AgentError(f"the model has {model.action_space.n} actions; rules with max_bet {found.max_bet} "
                             f"have {3 + found.max_bet}: give the rules it learned under (rules=...)")
        return "kind", found, (size - 6) // 28, "tensor"
    raise AgentError(f"a model on observations of shape {shape} is neither a Four Card Poker nor a Four of a Kind "
                     "learner of this package")


def save(policy: Any, path: str | os.PathLike[str], *, name: str | None = None, rules: Any = None) -> Path:
    """Write ``policy`` as an agent file at ``path`` (see the module doc); returns the path.

    Args:
        policy: a Four of a Kind table (:class:`~fourcards.rl.bots.LearnedKindBot`, ``TrainResult``, or
            ``uint8[7260]``), a Four Card Poker chart (``ChartLearner``, ``StrategyChart``), or a
            Stable-Baselines3 model.
        path: the file (``.zip`` by custom).
        name: the agent's name (default: the learner's kind, e.g. ``"MaskablePPO"``).
        rules: the rules it learned under (default: its environment's, else the game's default).

    Raises:
        AgentError: a policy of no kind above, or a table of the wrong shape.
    """
    from fourcards.poker.strategy import StrategyChart
    from fourcards.rl.kind_features import N_CELLS, N_CLASSES
    from fourcards.rl.learn import ChartLearner

    path = Path(path)
    base = {"format": FORMAT, "version": _VERSION}
    if isinstance(policy, ChartLearner):
        policy = policy.chart(name or "learned")
    if isinstance(policy, StrategyChart):
        manifest = {**base, "game": "poker", "learner": "chart", "name": name or policy.name,
                    "rules": _poker_rules_dict(rules), "players": None, "observation": "chart"}
        return _write(path, manifest, {"chart.npy": np.asarray(policy.table, dtype=np.uint8)})
    table = getattr(policy, "table", None)
    if table is None and isinstance(policy, np.ndarray):
        table = policy
    if table is not None:
        t = np.asarray(table)
        if t.shape != (N_CELLS,) or t.min() < 0 or t.max() >= N_CLASSES:
            raise AgentError(f"a Four of a Kind table is {N_CELLS} action classes 0-{N_CLASSES - 1}, got shape "
                             f"{t.shape}")
        manifest = {**base, "game": "kind", "learner": "table", "name": name or "table",
                    "rules": _kind_rules_dict(rules), "players": None, "observation": "kind-features"}
        return _write(path, manifest, {"table.npy": t.astype(np.uint8)})
    algorithm = type(policy).__name__
    if algorithm in _SB3 and callable(getattr(policy, "save", None)):
        game, found, players, observation = _sb3_game(policy, rules)
        rules_dict = _poker_rules_dict(found) if game == "poker" else _kind_rules_dict(found)
        manifest = {**base, "game": game, "learner": "sb3", "algorithm": algorithm, "name": name or algorithm,
                    "rules": rules_dict, "players": players, "observation": observation}
        policy.save(path)
        written = path if path.suffix == ".zip" else path.with_name(path.name + ".zip")
        if written != path:  # Stable-Baselines3 adds .zip to a name without it
            written.replace(path)
        with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
            z.writestr(MANIFEST, json.dumps(manifest, indent=2))
        return path
    raise AgentError(f"cannot save {type(policy).__name__}: an agent is a Four of a Kind table, a Four Card Poker "
                     "chart or a Stable-Baselines3 model (MaskablePPO, PPO, A2C, DQN)")


# ---------------------------------------------------------------------- reading

_CACHE: dict[tuple[str, int, int], Agent] = {}


def _read_array(z: zipfile.ZipFile, name: str, where: str) -> np.ndarray:
    try:
        with z.open(name) as f:
            return np.load(io.BytesIO(f.read()), allow_pickle=False)
    except KeyError:
        raise AgentError(f"{where}: the agent file has no {name}") from None
    except ValueError as exc:
        raise AgentError(f"{where}: {name} is not an array file: {exc}") from None


def load(path: str | os.PathLike[str]) -> Agent:
    """Read an agent file (see the module doc; an ``sb3`` file needs the ``sb3`` extra and runs its pickled
    objects: trust it). A file read before and unchanged since is not read again.

    Raises:
        AgentError: no such file, not an agent file (no manifest, another format or version), or a
            manifest or array that does not hold together (naming the file).
    """
    p = Path(path).expanduser()
    where = str(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise AgentError(f"{where}: cannot read the agent file: {exc.strerror or exc}") from None
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    if key in _CACHE:
        return _CACHE[key]
    try:
        with zipfile.ZipFile(p) as z:
            try:
                manifest = json.loads(z.read(MANIFEST))
            except KeyError:
                raise AgentError(f"{where}: not an agent file (no {MANIFEST}; save one with "
                                 "fourcards.rl.agents.save)") from None
            agent = _agent(manifest, z, where)
    except zipfile.BadZipFile:
        raise AgentError(f"{where}: not an agent file (not a zip archive)") from None
    except (ValueError, TypeError, KeyError) as exc:
        raise AgentError(f"{where}: the agent file's manifest does not hold together: {exc}") from None
    agent.path = str(p)
    if agent.learner == "sb3":
        agent.model = _load_sb3(manifest, p, where)
    _CACHE[key] = agent
    return agent


def _agent(manifest: dict[str, Any], z: zipfile.ZipFile, where: str) -> Agent:
    from fourcards.kind.rules import KindRules
    from fourcards.poker.rules import get_rules
    from fourcards.poker.strategy import StrategyChart
    from fourcards.rl.kind_features import N_CELLS, N_CLASSES

    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise AgentError(f"{where}: not an agent file ({MANIFEST} does not say format {FORMAT!r})")
    if manifest.get("version") != _VERSION:
        raise AgentError(f"{where}: agent format version {manifest.get('version')!r}; this fourcards reads "
                         f"version {_VERSION}")
    game, learner = manifest.get("game"), manifest.get("learner")
    name = str(manifest.get("name") or learner)
    players = manifest.get("players")
    if game == "kind":
        rules: Any = KindRules.from_dict(manifest["rules"])
    elif game == "poker":
        r = manifest["rules"]
        rules = get_rules(r["preset"], ante_bonus=r.get("ante_bonus"), aces_up=r.get("aces_up"))
    else:
        raise AgentError(f"{where}: unknown game {game!r} (kind or poker)")
    agent = Agent(game, str(learner), name, rules, players, str(manifest.get("observation", "")), manifest=manifest)
    if game == "kind" and learner == "table":
        t = _read_array(z, "table.npy", where)
        if t.shape != (N_CELLS,) or t.dtype != np.uint8 or int(t.max(initial=0)) >= N_CLASSES:
            raise AgentError(f"{where}: table.npy must be uint8[{N_CELLS}] of classes 0-{N_CLASSES - 1}")
        t.setflags(write=False)
        agent.table = t
    elif game == "poker" and learner == "chart":
        c = _read_array(z, "chart.npy", where)
        if c.shape != (32, 13) or c.dtype != np.uint8 or int(c.max(initial=0)) > 3:
            raise AgentError(f"{where}: chart.npy must be uint8[32, 13] of decisions 0-3")
        agent.chart = StrategyChart(name, c)
    elif learner == "sb3":
        if manifest.get("algorithm") not in _SB3:
            raise AgentError(f"{where}: unknown algorithm {manifest.get('algorithm')!r} (one of {', '.join(_SB3)})")
        if game == "kind" and (not isinstance(players, int) or players < 2):
            raise AgentError(f"{where}: a Four of a Kind network needs its table size (players)")
    else:
        raise AgentError(f"{where}: unknown learner {learner!r} for {game} (table, chart or sb3)")
    return agent


def _load_sb3(manifest: dict[str, Any], path: Path, where: str) -> Any:
    import importlib

    from fourcards.extras import require

    require("sb3", f"the agent file {where} (a Stable-Baselines3 model)")
    module = importlib.import_module(_SB3[manifest["algorithm"]])
    try:
        return getattr(module, manifest["algorithm"]).load(path, device="cpu")
    except Exception as exc:  # the library's own error, named
        raise AgentError(f"{where}: Stable-Baselines3 cannot load the model: {type(exc).__name__}: {exc}") from None


# ---------------------------------------------------------------------- bots by path


def kind_bot_from_file(path: str) -> Any:
    """The Four of a Kind bot of the agent file ``path`` (what the bot name ``file:PATH`` makes).

    Raises:
        AgentError: as :func:`load`. RulesError: a Four Card Poker agent.
    """
    return load(path).kind_bot()


def poker_bot_from_file(path: str, rules: Any = None) -> Any:
    """The Four Card Poker bot of the agent file ``path`` (what the bot name ``file:PATH`` makes).

    Raises:
        AgentError: as :func:`load`. RulesError: a Four of a Kind agent.
    """
    return load(path).poker_bot(rules)
