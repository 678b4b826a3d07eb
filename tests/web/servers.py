"""A real ``fourcards serve`` as a subprocess on a free loopback port (tests send traffic
only to 127.0.0.1)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The servers started during the running test: a failed test's report carries their logs
#: (tests/web/conftest.py), so a CI failure says what the server said.
STARTED: list[Server] = []


class Server:
    """``fourcards serve`` on a free port of 127.0.0.1 (``extra``: other listening options,
    e.g. ``--lan``; it listens on every interface then, and is still reached at 127.0.0.1),
    its output in ``log`` (uvicorn's ``log_level``: warning, or info for the access log)."""

    def __init__(self, url: str, log: Path, *extra: str, log_level: str = "warning") -> None:
        self.url = url
        self.log = log
        self.extra = list(extra)
        self.log_level = log_level
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        STARTED.append(self)
        env = {**os.environ, "FOURCARDS_DATABASE_URL": self.url}
        with open(self.log, "ab") as fh:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "fourcards", "serve", *(self.extra or ["--host", "127.0.0.1"]),
                 "--port", str(self.port), "--database-url", self.url, "--bot-delay", "0", "--log-level", self.log_level],
                stdout=fh, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not start:\n" + self.log.read_text())

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


