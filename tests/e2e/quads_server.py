"""The real Quads server in a subprocess, for the end-to-end tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import NamedTuple

_GIVEN: set[int] = set()
"""The ports this process handed out already."""


def free_port() -> int:
    """A port of the loopback free now, and never one handed out before by this process
    (the kernel may give a port just closed again: a proxy told to listen on one port
    twice, once with TLS and once without, would not start)."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port: int = sock.getsockname()[1]
        if port not in _GIVEN:
            _GIVEN.add(port)
            return port


class Origins(NamedTuple):
    """The base URLs the two players' browsers use: the host's, who creates the
    online game, and the guest's, who joins it by the invitation."""

    host: str
    guest: str


_TEST_RATES = ('rate_games = "100000/minute"\nrate_identities = "100000/minute"\n'
               'rate_joins = "100000/minute"\nrate_puzzles = "100000/minute"\n'
               'rate_seeks = "100000/minute"\nrate_names = "100000/minute"\n'
               'rate_games_per_address = "100000/minute"\n'
               'rate_joins_per_address = "100000/minute"\n'
               'rate_puzzles_per_address = "100000/minute"\n'
               'rate_seeks_per_address = "100000/minute"\n'
               'rate_names_per_address = "100000/minute"\n'
               'rate_keys = "100000/minute"\nrate_keys_per_address = "100000/minute"\n'
               'rate_signups = "100000/minute"\nrate_signups_per_address = "100000/minute"\n'
               'rate_signins = "100000/minute"\nrate_signins_per_address = "100000/minute"\n'
               'db_wait = 30.0\n')
"""The settings of a test server: rates of creation that a whole run of tests, all from
one address, stays below, and a patient database lane (a busy machine may take seconds
over a SQLite write, which is no outage)."""


class Server:
    """``quads serve`` in a subprocess, which a test may stop and start again.

    ``db`` is what ``quads serve --db`` takes: the path of a SQLite file, or a
    database URL such as ``postgresql+psycopg://postgres@127.0.0.1:5432/quads``,
    which several servers may share.
    """

    def __init__(self, db: Path | str, port: int, log: Path, settings: str = "") -> None:
        self.db = db
        self.port = port
        self.log = log
        self.config = log.with_suffix(".toml")
        self.settings = settings
        """More settings (TOML lines, keys of ``quads.web.settings.Settings``)."""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The command line of the server process."""
        return [sys.executable, "-m", "quads.cli.main", "serve",
                "--port", str(self.port), "--db", str(self.db), "--config", str(self.config)]

    def start(self) -> None:
        if not self.config.exists():
            # The mistakes of ended games are looked for only where a test says so:
            # elsewhere that would be the solver's work on a busy machine for nothing.
            finder = "" if "mistakes_tick" in self.settings else "mistakes_tick = 0\n"
            self.config.write_text(_TEST_RATES + finder + self.settings)
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90  # generous: a loaded machine starts slowly
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text(errors='replace')}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/messages/en", timeout=2):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.stop()  # never left running behind a failed start
        raise RuntimeError(f"the server did not answer: {self.log.read_text(errors='replace')}")

    def stop(self) -> None:
        """Stop the server as an operator would (SIGTERM), killing it if it lingers."""
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None

    def kill(self) -> None:
        """Stop the server at once, as a crash or a power cut would."""
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None
