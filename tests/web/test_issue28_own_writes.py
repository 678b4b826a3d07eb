"""Issue 28 item 7: a server that reads back its own write while the write is still in flight
(its version poll, or a notification, answered before the commit's own answer reaches the event
loop) does not take it for another server's - it would mark its copy stale, read the table
again and push every view twice. Another server's newer write is still heard."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from fourcards.store import CommitResult, TableCommit
from fourcards.table.commands import Sit
from fourcards.web.repository import Repository

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "table"))
from tablehelpers import new_state, th  # noqa: E402


class ReadBackCommitter:
    """Commits at once; meanwhile the version poll reads the table at ``seen(version)``."""

    def __init__(self, seen: Any) -> None:
        self.repo: Repository | None = None
        self.seen = seen
        self.heard: list[bool] = []

    async def commit(self, c: TableCommit) -> CommitResult:
        assert self.repo is not None
        self.heard.append(self.repo.heard_of(c.table_id, self.seen(c.version + 1)))
        return CommitResult(c.version + 1, None, [1])


def _run(seen: Any) -> tuple[Repository, ReadBackCommitter]:
    committer = ReadBackCommitter(seen)
    repo = Repository(lambda: None, None, "server-a", 0.0, None, committer)  # type: ignore[arg-type]
    committer.repo = repo
    state = new_state("poker")
    repo.copies[state.id] = state
    out = asyncio.run(repo.run(state.id, lambda s: Sit("Ann", th("Ann"), is_host=True)))
    assert out.changed and out.state.version == 1
    return repo, committer


def test_issue28_own_write_read_back_in_flight_is_not_another_servers() -> None:
    repo, committer = _run(lambda written: written)
    assert committer.heard == [False]
    assert "t1" not in repo.stale_ids and repo.copies["t1"].version == 1 and not repo.writing


def test_issue28_a_newer_write_by_another_server_is_still_heard() -> None:
    repo, committer = _run(lambda written: written + 1)
    assert committer.heard == [True] and repo.heard["t1"] == 2  # (its commit would meet the conflict)
