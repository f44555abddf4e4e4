"""``quads serve``: the web app, with its games in SQLite (one process) or in
PostgreSQL (one or several processes, on one or several machines).

FastAPI and uvicorn are imported only when the command runs; without them it
says how to install them (``quads[web]``) and exits with status 2.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import tempfile
import threading
import time
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import uvicorn

    from quads.web.settings import Settings

__all__ = ["KEEP_ALIVE", "LOG_LEVELS", "default_db_path", "log_config", "register", "run"]

KEEP_ALIVE = 75
"""Seconds an idle HTTP connection is kept open (``Settings.keep_alive``'s default).
Longer than the few seconds after which clients stop reusing one, so that the server
never closes a connection just as a client sends on it."""
LOG_LEVELS = ("debug", "info", "warning", "error")
"""What ``--log-level`` takes."""
PROTOCOL = "quads.web.middleware.connections:GuardedProtocol"
"""The HTTP protocol of every process: uvicorn's, with timeouts and connection caps."""


def default_db_path() -> Path:
    """``$QUADS_DB`` if set, else ``quads.sqlite3`` in the user's data directory
    (``$XDG_DATA_HOME/quads`` or ``~/.local/share/quads``; ``%LOCALAPPDATA%\\quads``
    on Windows)."""
    if os.environ.get("QUADS_DB"):
        return Path(os.environ["QUADS_DB"]).expanduser()
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        base = Path(os.environ["LOCALAPPDATA"])
    elif os.environ.get("XDG_DATA_HOME"):
        base = Path(os.environ["XDG_DATA_HOME"])
    else:
        base = Path.home() / ".local" / "share"
    return base / "quads" / "quads.sqlite3"


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``serve`` command."""
    parser = commands.add_parser(
        "serve", help="play in the browser: start the web app",
        description="Start the web app and keep every game in an SQLite database. "
                    "Needs the web extra: pip install 'quads[web]'.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8000,
                        help="the port to listen on (default: %(default)s)")
    parser.add_argument("--db", default=None, metavar="PATH_OR_URL",
                        help="the database: a SQLite file, or a postgresql:// URL "
                             "(default: $QUADS_DB, else ~/.local/share/quads/quads.sqlite3)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="serve with N processes on one port (PostgreSQL only; "
                             "default: %(default)s)")
    parser.add_argument("--config", default=None, metavar="FILE",
                        help="a TOML file of limits and retention times (docs/deploy.md)")
    parser.add_argument("--log-level", choices=LOG_LEVELS, default="info",
                        help="the least important lines logged: info logs one line a "
                             "request (default: %(default)s)")
    parser.add_argument("--allowed-host", action="append", default=None, metavar="NAME",
                        help="a Host name this server answers (repeatable or a comma "
                             "list; default: the loopback names when listening on "
                             "loopback, else any)")
    parser.add_argument("--forwarded-allow-ips", action="append", default=None,
                        metavar="ADDRESS",
                        help="a proxy's address (or network) whose X-Forwarded-For and "
                             "-Proto are believed (repeatable or a comma list; default: "
                             "none)")
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.set_defaults(run=run)


def _address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run(args: argparse.Namespace) -> int:
    """Run ``quads serve`` until interrupted."""
    try:
        import uvicorn  # noqa: F401

        from quads.web.settings import CONFIG_ENV, Settings, SettingsError, settings_toml
    except ImportError as exc:
        print(f"quads: error: the web app needs FastAPI and uvicorn ({exc.name} is missing); "
              "install them with: pip install 'quads[web]'", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("quads: error: --workers takes a number of processes, 1 or more",
              file=sys.stderr)
        return 2
    try:
        settings = Settings.from_file(args.config) if args.config else Settings()
    except SettingsError as exc:
        print(f"quads: error: {exc}", file=sys.stderr)
        return 2
    given = settings
    settings = _override(settings, args)
    with tempfile.TemporaryDirectory(prefix="quads-serve-") as scratch:
        if settings != given:
            effective = Path(scratch) / "settings.toml"
            effective.write_text(settings_toml(settings), encoding="utf-8")
            os.environ[CONFIG_ENV] = str(effective)
        elif args.config:
            os.environ[CONFIG_ENV] = str(Path(args.config).resolve())
        return _serve(args, settings)


def _override(settings: Settings, args: argparse.Namespace) -> Settings:
    """``settings`` with the hosts and proxies of the command line, if given."""
    changes = {}
    for flag, field in (("allowed_host", "allowed_hosts"),
                        ("forwarded_allow_ips", "forwarded_allow_ips")):
        given = getattr(args, flag, None)
        if given is not None:
            changes[field] = tuple(item.strip() for value in given
                                   for item in value.split(",") if item.strip())
    return settings.replace(**changes) if changes else settings


def log_config(level: str) -> dict[str, Any]:
    """The logging of every process: our own lines (``quads``, its access log
    ``quads.access``) at ``level``, uvicorn's at ``warning`` unless ``level`` is
    ``debug`` or ``error``."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["quads"] = {
        "format": "%(asctime)s %(levelname)s %(name)s: %(message)s",
        "datefmt": "%Y-%m-%dT%H:%M:%S%z"}
    config["handlers"]["quads"] = {"formatter": "quads", "class": "logging.StreamHandler",
                                   "stream": "ext://sys.stderr"}
    config["loggers"]["quads"] = {"handlers": ["quads"], "level": level.upper(),
                                  "propagate": False}
    return config


def _uvicorn_level(level: str) -> str:
    return level if level in ("debug", "error") else "warning"


def _serve(args: argparse.Namespace, settings: Settings) -> int:
    """Serve with ``settings`` (also in ``$QUADS_CONFIG`` for every process)."""
    import uvicorn

    from quads.storage import GameStore, StorageError
    from quads.storage.engine import database_url, describe
    from quads.web.app import create_app
    from quads.web.middleware.connections import accept_backlog, connection_cap, raise_file_limit
    from quads.web.middleware.hosts import is_loopback

    location: str = args.db if args.db is not None else str(default_db_path())
    try:
        url = database_url(location)
        if url.get_backend_name() == "sqlite":
            if args.workers > 1:
                print("quads: error: several workers need a PostgreSQL database (--db "
                      "postgresql://...): with SQLite, one process serves", file=sys.stderr)
                return 2
            Path(str(url.database)).parent.mkdir(parents=True, exist_ok=True)
        app = None
        if args.workers == 1:
            app = create_app(url, settings=settings)
        else:
            GameStore(url).close()  # create or migrate the schema once, before the workers

    except (OSError, StorageError) as exc:
        print(f"quads: error: {exc}", file=sys.stderr)
        return 2
    address = _address(args.host, args.port)
    if not settings.allowed_hosts and not is_loopback(args.host):
        print(f"quads: warning: listening on {args.host}, any Host name is answered: set "
              "--allowed-host to this site's name (docs/deploy.md)", file=sys.stderr,
              flush=True)
    files = raise_file_limit()  # the workers inherit it
    edge: dict[str, Any] = {
        "http": PROTOCOL, "log_config": log_config(args.log_level),
        "log_level": _uvicorn_level(args.log_level), "access_log": False,
        "timeout_keep_alive": settings.keep_alive,
        "ws_max_size": settings.ws_max_message,
        "ws_per_message_deflate": settings.ws_compression,
        "server_header": False,  # no "server: uvicorn": nothing to tell a scanner
        # The cap is GuardedProtocol's, which refuses a connection before reading it.
        # uvicorn's own limit counts the connection it answers among the open ones, so
        # it stands one above, as a backstop: else the last place under the cap would
        # be answered uvicorn's bare 503.
        "limit_concurrency": connection_cap(settings, files) + 1,
        "backlog": accept_backlog(files),
        "proxy_headers": bool(settings.forwarded_allow_ips),
        "forwarded_allow_ips": list(settings.forwarded_allow_ips) or None,
    }
    if app is None:
        os.environ["QUADS_DB"] = url.render_as_string(hide_password=False)
        print(f"Quads is running at {address} with {args.workers} processes (games in "
              f"{describe(url)}); press Ctrl+C to stop.", flush=True)
        uvicorn.run("quads.web.app:app_from_env", factory=True, host=args.host,
                    port=args.port, workers=args.workers, **edge)
        return 0
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port, **edge))
    threading.Thread(target=_announce, args=(server, address, describe(url), args.open),
                     daemon=True).start()
    server.run()
    return 0 if server.started else 1


def _announce(server: uvicorn.Server, address: str, where: str, open_browser: bool) -> None:
    """Once the server listens, print its address and open the browser if asked."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    print(f"Quads is running at {address} (games in {where}); press Ctrl+C to stop.",
          flush=True)
    if open_browser:
        webbrowser.open(address)
