"""``quads serve``: the web app, with its games in SQLite (one process) or in
PostgreSQL (one or several processes, on one or several machines).

FastAPI and uvicorn are imported only when the command runs; without them it
says how to install them (``quads[web]``) and exits with status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import uvicorn

__all__ = ["KEEP_ALIVE", "default_db_path", "register", "run"]

KEEP_ALIVE = 75
"""Seconds an idle HTTP connection is kept open.  Longer than the few seconds
after which clients stop reusing one, so that the server never closes a
connection just as a client sends on it."""


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
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.set_defaults(run=run)


def _address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def run(args: argparse.Namespace) -> int:
    """Run ``quads serve`` until interrupted."""
    try:
        import uvicorn

        from quads.storage import GameStore, StorageError
        from quads.storage.engine import database_url, describe
        from quads.web.app import create_app
    except ImportError as exc:
        print(f"quads: error: the web app needs FastAPI and uvicorn ({exc.name} is missing); "
              "install them with: pip install 'quads[web]'", file=sys.stderr)
        return 2
    location: str = args.db if args.db is not None else str(default_db_path())
    if args.workers < 1:
        print("quads: error: --workers takes a number of processes, 1 or more",
              file=sys.stderr)
        return 2
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
            app = create_app(url)
        else:
            GameStore(url).close()  # create or migrate the schema once, before the workers

    except (OSError, StorageError) as exc:
        print(f"quads: error: {exc}", file=sys.stderr)
        return 2
    address = _address(args.host, args.port)
    if app is None:
        os.environ["QUADS_DB"] = url.render_as_string(hide_password=False)
        print(f"Quads is running at {address} with {args.workers} processes (games in "
              f"{describe(url)}); press Ctrl+C to stop.", flush=True)
        uvicorn.run("quads.web.app:app_from_env", factory=True, host=args.host,
                    port=args.port, workers=args.workers, log_level="warning",
                    timeout_keep_alive=KEEP_ALIVE)
        return 0
    server = uvicorn.Server(uvicorn.Config(app, host=args.host, port=args.port,
                                           log_level="warning",
                                           timeout_keep_alive=KEEP_ALIVE))
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
