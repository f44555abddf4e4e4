"""Changes saved by other server processes, from PostgreSQL's ``LISTEN``/``NOTIFY``.

Every save on PostgreSQL sends ``NOTIFY quads_games, 'ID REVISION'`` (or
``'ID gone'``) in its own transaction (:mod:`quads.storage.store`).  Each server
process runs one :class:`ChangeListener`: a thread with its own connection that
listens on the channel and hands each change to the process's
:class:`~quads.web.live.LiveHub`, whose sockets of that game then read it.  A
socket that has the revision already (the process's own save) reads nothing.

When the connection is lost (the database restarts), the listener connects
again with a growing pause and then has every socket read its game once, so
that no change made meanwhile is missed.  With SQLite there is one process,
and the hub is told directly.
"""

from __future__ import annotations

import logging
import threading

import psycopg
from sqlalchemy import URL

from quads.storage.store import CHANNEL
from quads.web.live import LiveHub

__all__ = ["ChangeListener"]

_log = logging.getLogger(__name__)


def _conninfo(url: URL) -> str:
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class ChangeListener:
    """Pass the changes that PostgreSQL announces on to ``hub``, until :meth:`stop`."""

    def __init__(self, url: URL, hub: LiveHub) -> None:
        self.url = url
        self.hub = hub
        self._stop = threading.Event()
        self.listening = threading.Event()
        """Set while the listener has a connection and listens."""
        self._thread = threading.Thread(target=self._run, name="quads-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        pause = 0.1
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(_conninfo(self.url), autocommit=True,
                                     connect_timeout=5) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        self.hub.reload_all()
                    first = False
                    pause = 0.1
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            self._pass_on(note.payload)
            except psycopg.Error as exc:
                self.listening.clear()
                _log.warning("quads: database notifications cut off (%s); retrying", exc)
                self._stop.wait(pause)
                pause = min(pause * 2, 5.0)
        self.listening.clear()

    def _pass_on(self, payload: str) -> None:
        game_id, _, what = payload.partition(" ")
        if what == "gone":
            self.hub.publish(game_id, gone=True)
        elif what.isdigit():
            self.hub.publish(game_id, revision=int(what))
