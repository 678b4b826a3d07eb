"""A PostgreSQL server of a test's own (initdb + pg_ctl in a temporary folder, on a free loopback
port), for tests that stop the database under a running server: the shared server other tests use
is never stopped.

Skipped (with the reason) without PostgreSQL's server programs, unless
``FOURCARDS_REQUIRE_POSTGRES=1``. As root (CI's container) the server runs as the ``postgres`` user
(PostgreSQL refuses to run as root); it trusts connections from 127.0.0.1 only.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from servers import free_port

__all__ = ["PrivatePostgres", "server_programs"]


def server_programs() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (the newest PostgreSQL installed), or ``None``."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[-2]), reverse=True):
        if os.access(os.path.join(folder, "initdb"), os.X_OK) and os.access(os.path.join(folder, "pg_ctl"), os.X_OK):
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).parent if found and shutil.which("pg_ctl") else None


class PrivatePostgres:
    """A PostgreSQL server in a new temporary folder on a free port of 127.0.0.1: :meth:`start`, :meth:`stop`
    (fast: connections cut, as when the database goes down), :meth:`remove`; ``url`` its database."""

    def __init__(self) -> None:
        bindir = server_programs()
        if bindir is None:
            if os.environ.get("FOURCARDS_REQUIRE_POSTGRES") == "1":
                pytest.fail("FOURCARDS_REQUIRE_POSTGRES=1 but PostgreSQL's initdb and pg_ctl are not installed")
            pytest.skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
        self.bindir = bindir
        # a folder of its own under the system's temporary folder: as root the server's user must reach it
        self.folder = Path(tempfile.mkdtemp(prefix="fourcards-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://fourcards@127.0.0.1:{self.port}/postgres"
        self.user = None if os.geteuid() != 0 else "postgres"
        if self.user is not None:
            record = pwd.getpwnam(self.user)
            os.chown(self.folder, record.pw_uid, record.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "fourcards", "--auth=trust", "-E", "UTF8", "--no-sync")

    def _run(self, program: str, *args: str, timeout: float = 60) -> None:
        proc = subprocess.run([str(self.bindir / program), *args], capture_output=True, text=True, timeout=timeout,
                              user=self.user, cwd=self.folder)
        assert proc.returncode == 0, f"{program} failed: {proc.stdout}{proc.stderr}"

    def start(self) -> None:
        """Start it (and wait until it accepts connections)."""
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")

    def stop(self) -> None:
        """Stop it now (``-m fast``: open connections are cut)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        """Stop it if running and remove its files."""
        subprocess.run([str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60, user=self.user, cwd=self.folder)
        shutil.rmtree(self.folder, ignore_errors=True)
