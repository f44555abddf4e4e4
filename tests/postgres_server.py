"""A throwaway PostgreSQL cluster for the tests.

:class:`PostgresServer` runs Debian's PostgreSQL binaries on a cluster of its
own: ``initdb`` into a fresh temporary directory, then ``pg_ctl`` starts the
server listening on ``127.0.0.1`` only, on a free port, with its unix socket in
that same directory.  Nothing is shared with a system-wide server (none needs to
run) and everything is deleted by :meth:`PostgresServer.close`.

The cluster is tuned for tests, not for data: ``fsync`` and
``full_page_writes`` are off, so a committed transaction survives the server
being stopped or killed (it is in the operating system's cache) but not a power
cut.  ``synchronous_commit`` stays on, so that :meth:`PostgresServer.kill`
never loses a commit that a test saw succeed.  Every connection from the
loopback or the socket is trusted, as user ``postgres`` with no password.

PostgreSQL refuses to run as root.  When the tests run as root, the temporary
directory is given to the ``postgres`` system user that Debian's package
creates, and ``initdb``, ``pg_ctl`` and so the server run as that user;
otherwise they run as the current user.

The clients (``psql``, ``createdb``) come from the same directory as the
server; nothing here needs a Python driver.  Example, as the tests' fixtures
use it::

    with PostgresServer() as server:
        url = server.url(server.create_database("demo"))
        # postgresql+psycopg://postgres@127.0.0.1:PORT/demo_0123abcd
"""

from __future__ import annotations

import atexit
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

__all__ = [
    "SUPERUSER",
    "PostgresError",
    "PostgresServer",
    "find_bindir",
    "in_ci",
]

#: The database superuser of every cluster, whoever runs the server.
SUPERUSER = "postgres"
#: The system user that runs the server when the tests run as root.
SYSTEM_USER = "postgres"
HOST = "127.0.0.1"

_SETTINGS = {
    "listen_addresses": HOST,
    "fsync": "off",
    "full_page_writes": "off",
    "max_connections": "100",
    "shared_buffers": "32MB",
    "log_min_messages": "warning",
    "log_connections": "off",
    "log_disconnections": "off",
}
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")


class PostgresError(RuntimeError):
    """A PostgreSQL program failed; the message has its output and the server log."""


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this runs in CI (``CI`` set to anything but empty, 0, false or no)."""
    return environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def find_bindir() -> Path | None:
    """The directory of the PostgreSQL server programs, or ``None`` if there are none.

    ``pg_config --bindir`` first; on Debian it comes with ``libpq-dev`` alone, so
    its answer counts only when ``initdb`` is really there.  Then the newest
    ``/usr/lib/postgresql/VERSION/bin``.
    """
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        try:
            answer = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, check=True, timeout=30
            )
        except (OSError, subprocess.SubprocessError):
            pass
        else:
            candidates.append(Path(answer.stdout.strip()))
    versions = Path("/usr/lib/postgresql").glob("*/bin")
    candidates += sorted(versions, key=_version_key, reverse=True)
    for bindir in candidates:
        if all(os.access(bindir / name, os.X_OK) for name in ("initdb", "pg_ctl", "postgres")):
            return bindir
    return None


def _version_key(bindir: Path) -> tuple[int, ...]:
    """``/usr/lib/postgresql/15/bin`` sorts as (15,), so 9.6 < 10 < 15."""
    return tuple(int(part) for part in re.findall(r"\d+", bindir.parent.name))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresServer:
    """A PostgreSQL cluster in a temporary directory, which tests may stop and start.

    The first :meth:`start` creates the cluster and its database ``quads``; the
    port, chosen free then, stays the same across :meth:`stop`, :meth:`kill`,
    :meth:`start` and :meth:`restart`, so URLs handed out stay valid.
    :meth:`close` (or leaving the ``with`` block) stops the server and deletes
    the directory.
    """

    def __init__(
        self,
        bindir: Path | None = None,
        *,
        base_dir: Path | None = None,
        dbname: str = "quads",
        start_timeout: float = 60.0,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        found = bindir if bindir is not None else find_bindir()
        if found is None:
            raise PostgresError(
                "the PostgreSQL server programs were not found (pg_config --bindir, "
                "/usr/lib/postgresql/*/bin): install Debian's postgresql package"
            )
        self.bindir = found
        self.base_dir = base_dir
        self.dbname = dbname
        self.start_timeout = start_timeout
        #: Settings of ``postgresql.conf`` that replace or add to the tests' own
        #: (e.g. ``{"fsync": "on", "full_page_writes": "on"}`` for durable commits).
        self.settings = dict(settings or {})
        self.port = 0
        self.directory: Path | None = None
        #: How long the last start took, in seconds (``pg_ctl start --wait``).
        self.start_seconds = 0.0
        self._ids: tuple[int, int] | None = None
        if os.geteuid() == 0:
            try:
                entry = pwd.getpwnam(SYSTEM_USER)
            except KeyError:
                raise PostgresError(
                    f"running as root, but there is no {SYSTEM_USER!r} system user to run "
                    "PostgreSQL as (Debian's postgresql package creates it)"
                ) from None
            self._ids = (entry.pw_uid, entry.pw_gid)

    # Where things are.

    @property
    def data_dir(self) -> Path:
        return self._directory() / "data"

    @property
    def socket_dir(self) -> Path:
        """The directory of the unix socket: ``psql -h SOCKET_DIR -p PORT`` reaches it."""
        return self._directory()

    @property
    def log_path(self) -> Path:
        return self._directory() / "postgres.log"

    def url(self, dbname: str | None = None, *, driver: str | None = "psycopg") -> str:
        """A SQLAlchemy URL of a database (``quads`` by default) over TCP.

        ``driver=None`` gives the plain ``postgresql://`` form that libpq and
        ``psycopg.connect`` take.
        """
        scheme = "postgresql" if driver is None else f"postgresql+{driver}"
        return f"{scheme}://{SUPERUSER}@{HOST}:{self._port()}/{dbname or self.dbname}"

    @property
    def running(self) -> bool:
        """Whether the server runs (``pg_ctl status``)."""
        if self.directory is None or not (self.data_dir / "PG_VERSION").exists():
            return False
        status = self._run(["pg_ctl", "status", "-D", str(self.data_dir)], check=False)
        return status.returncode == 0

    # Life cycle.

    def start(self) -> None:
        """Start the server, creating the cluster and its database the first time."""
        if self.directory is None:
            self._create()
            return
        if self.running:
            return
        self._pg_ctl_start()

    def stop(self) -> None:
        """Stop the server cleanly (``pg_ctl stop -m fast``: clients are disconnected)."""
        self._pg_ctl_stop("fast")

    def kill(self) -> None:
        """Stop the server at once (``-m immediate``); the next start recovers from the WAL."""
        self._pg_ctl_stop("immediate")

    def restart(self) -> None:
        """Stop the server cleanly and start it again on the same port."""
        self.stop()
        self.start()

    def close(self) -> None:
        """Stop the server at once and delete the cluster.  Safe to call twice."""
        if self.directory is None:
            return
        atexit.unregister(self.close)
        try:
            self._pg_ctl_stop("immediate")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # Databases.

    def processes(self) -> list[int]:
        """The process ids of the running cluster: its postmaster, then the postmaster's
        children (read from ``/proc``), e.g. to stop them all with SIGSTOP."""
        postmaster = int((self.data_dir / "postmaster.pid").read_text().split()[0])
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                children.append(int(stat.parent.name))
        return [postmaster, *children]

    def create_database(self, prefix: str = "test") -> str:
        """Create an empty database with a new name that starts with ``prefix``; its name.

        The prefix is cut down to lower-case letters, digits and underscores, so
        a test's name will do.
        """
        cleaned = re.sub(r"[^a-z0-9_]+", "_", prefix.lower()).strip("_")[:40] or "test"
        if not _IDENTIFIER.fullmatch(cleaned):
            cleaned = f"db_{cleaned}"[:40]
        name = f"{cleaned}_{uuid.uuid4().hex[:8]}"
        self.psql(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        """Drop a database, disconnecting whoever is still connected to it."""
        if not _IDENTIFIER.fullmatch(name):
            raise ValueError(f"not a database name of ours: {name!r}")
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def psql(self, sql: str, dbname: str = "postgres") -> str:
        """Run SQL with ``psql`` over the unix socket; what it printed, unaligned.

        Stops at the first error, raising :class:`PostgresError`.
        """
        command = [
            str(self.bindir / "psql"),
            "--no-psqlrc", "--quiet", "--no-align", "--tuples-only",
            "--set", "ON_ERROR_STOP=1",
            "--host", str(self.socket_dir), "--port", str(self._port()),
            "--username", SUPERUSER, "--dbname", dbname,
            "--command", sql,
        ]
        result = subprocess.run(
            command, capture_output=True, text=True, env=_environment(), timeout=120, check=False
        )
        if result.returncode != 0:
            raise PostgresError(f"psql failed on {sql!r}:\n{result.stdout}{result.stderr}")
        return result.stdout

    # The work.

    def _directory(self) -> Path:
        if self.directory is None:
            raise PostgresError("the cluster does not exist: start() it first")
        return self.directory

    def _port(self) -> int:
        if not self.port:
            raise PostgresError("the cluster has no port yet: start() it first")
        return self.port

    def _create(self) -> None:
        directory = Path(tempfile.mkdtemp(prefix="quads-pg-", dir=self.base_dir))
        self.directory = directory
        atexit.register(self.close)
        try:
            if self._ids is not None:
                # The server's user must reach the directory; mkdtemp made it 0700.
                os.chown(directory, *self._ids)
            self._run([
                "initdb", "--pgdata", str(self.data_dir), "--username", SUPERUSER,
                "--auth", "trust", "--encoding", "UTF8", "--locale", "C",
                "--no-sync", "--no-instructions",
            ])
            self._start_on_a_free_port()
            self.psql(f'CREATE DATABASE "{self.dbname}"')
        except BaseException:
            self.close()
            raise

    def _start_on_a_free_port(self) -> None:
        """Start on a port found free; another process may take it first, so try again."""
        for attempt in range(5):
            self.port = _free_port()
            self._write_settings()
            try:
                self._pg_ctl_start()
            except PostgresError:
                in_use = "Address already in use" in self._log_tail()
                if attempt == 4 or not in_use:
                    raise
            else:
                return

    def _write_settings(self) -> None:
        settings = dict(_SETTINGS, **self.settings, port=str(self.port))
        settings["unix_socket_directories"] = str(self.socket_dir)
        lines = [f"{key} = '{value}'" for key, value in settings.items()]
        conf = self.data_dir / "quads_tests.conf"
        conf.write_text("\n".join(lines) + "\n")
        main = self.data_dir / "postgresql.conf"
        include = f"include = '{conf.name}'\n"
        if include not in main.read_text():
            with main.open("a") as file:
                file.write(include)
        if self._ids is not None:
            os.chown(conf, *self._ids)

    def _pg_ctl_start(self) -> None:
        started = time.monotonic()
        self._run([
            "pg_ctl", "start", "--pgdata", str(self.data_dir), "--log", str(self.log_path),
            "--wait", "--timeout", str(int(self.start_timeout)),
        ])
        self.start_seconds = time.monotonic() - started

    def _pg_ctl_stop(self, mode: str) -> None:
        if not self.running:
            return
        self._run([
            "pg_ctl", "stop", "--pgdata", str(self.data_dir), "--mode", mode,
            "--wait", "--timeout", str(int(self.start_timeout)),
        ])

    def _run(
        self, command: Sequence[str], *, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run one of the server's programs, as the server's user, in its directory."""
        argv = [str(self.bindir / command[0]), *command[1:]]
        uid, gid = self._ids if self._ids is not None else (None, None)
        result = subprocess.run(
            argv,
            cwd=self._directory(),
            env=_environment(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=self.start_timeout + 30,
            check=False,
            user=uid,
            group=gid,
            extra_groups=None if uid is None else [],
        )
        if check and result.returncode != 0:
            raise PostgresError(
                f"{' '.join(argv)} exited {result.returncode}:\n{result.stdout}{result.stderr}"
                f"\n--- {self.log_path}:\n{self._log_tail()}"
            )
        return result

    def _log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except (OSError, PostgresError):
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


def _environment() -> dict[str, str]:
    """This process's environment without the ``PG*`` variables, which would redirect the
    programs elsewhere, and with English messages."""
    environ = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    environ["LC_ALL"] = "C"
    return environ
