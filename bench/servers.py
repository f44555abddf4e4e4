"""The servers that ``bench/live.py`` starts, stops and breaks on purpose.

``quads serve`` processes on free loopback ports, sharing one database, and
optionally a throwaway PostgreSQL cluster of their own (the one the tests use,
:mod:`tests.postgres_server`, made durable here: ``fsync`` on).
"""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # for tests.postgres_server, when run as a script
    sys.path.insert(0, str(ROOT))

from tests.postgres_server import PostgresServer  # noqa: E402

__all__ = ["DURABLE", "PostgresServer", "Server", "start_servers", "stop_servers"]

STARTUP_SECONDS = 30.0
"""How long a started server may take to answer."""
DURABLE = {"fsync": "on", "full_page_writes": "on", "max_connections": "200"}
"""Settings of the benchmark's own PostgreSQL: commits reach the disk, as on a site."""


LOAD_RATES = ('rate_games = "1000000/minute"\nrate_identities = "1000000/minute"\n'
              'rate_joins = "1000000/minute"\nrate_puzzles = "1000000/minute"\n'
              'rate_seeks = "1000000/minute"\nrate_names = "1000000/minute"\n'
              'rate_games_per_address = "1000000/minute"\n'
              'rate_joins_per_address = "1000000/minute"\n'
              'rate_puzzles_per_address = "1000000/minute"\n'
              'rate_seeks_per_address = "1000000/minute"\n'
              'rate_names_per_address = "1000000/minute"\n'
              'rate_keys = "1000000/minute"\nrate_keys_per_address = "1000000/minute"\n'
              'socket_rate = "1000000/minute"\nsockets_per_client = 100000\n'
              'connections_per_client = 100000\n'
              'rate_signups = "1000000/minute"\nrate_signups_per_address = "1000000/minute"\n'
              'rate_exports = "1000000/minute"\nrate_exports_per_address = "1000000/minute"\n'
              'rate_talk = "1000000/minute"\nrate_talk_per_address = "1000000/minute"\n'
              'rate_tournaments = "1000000/minute"\n'
              'rate_tournaments_per_address = "1000000/minute"\n')
"""The settings of a benchmark's server: its whole load comes from one address, so
the rates of creation and the caps on one client's sockets and connections, which
protect a site from one client, are lifted."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """One ``quads serve`` process (with ``workers`` processes of its own)."""

    def __init__(self, db: str, workers: int, log: Path, settings: str = "") -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        config = log.with_suffix(".toml")
        config.write_text(LOAD_RATES + settings)
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "quads.cli.main", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--db", db, "--workers", str(workers),
                 "--config", str(config)],
                stdout=out, stderr=subprocess.STDOUT)

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_ready(self) -> None:
        """Return once the server answers.

        :raises SystemExit: if it stops or does not answer in time.
        """
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"the server stopped at once:\n{self.log.read_text()}")
            try:
                if httpx.get(f"{self.base}/api/messages/en", timeout=1,
                             trust_env=False).is_success:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise SystemExit(f"the server did not answer in {STARTUP_SECONDS:.0f} s")

    def kill(self) -> None:
        """Kill the server at once (``kill -9``), its worker processes too."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """Interrupt the server as Ctrl+C does; kill it if it does not stop."""
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def start_servers(db: str, count: int, workers: int, directory: Path,
                  settings: str = "") -> list[Server]:
    """``count`` servers of ``db``, once all answer, with the TOML lines ``settings``
    besides the lifted rates.  The first one starts alone, so that it alone creates or
    migrates the database's schema."""
    servers = [Server(db, workers, directory / "server-1.log", settings)]
    try:
        servers[0].wait_ready()
        servers += [Server(db, workers, directory / f"server-{n}.log", settings)
                    for n in range(2, count + 1)]
        for server in servers[1:]:
            server.wait_ready()
    except BaseException:
        stop_servers(servers)
        raise
    return servers


def stop_servers(servers: list[Server]) -> None:
    for server in servers:
        server.stop()
