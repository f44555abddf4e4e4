"""Other server processes' changes and players, from PostgreSQL's ``LISTEN``/``NOTIFY``.

Every save on PostgreSQL sends ``NOTIFY quads_games, 'ID REVISION'`` (or
``'ID gone'``) in its own transaction (:mod:`quads.storage.store`).  Each server
process runs one :class:`ChangeListener`: a thread with its own connection that
listens on the channel and hands each change to the process's
:class:`~quads.web.live.LiveHub`, whose sockets of that game then read it.  A
socket that has the revision already (the process's own save) reads nothing.

The lobby's changes come on a channel of their own
(:data:`~quads.storage.lobby.LOBBY_CHANNEL`) and go to the process's
:class:`~quads.web.lobby_live.LobbyHub`.

Presence crosses processes the same way: when a player opens or closes a game
on this process, the ``connections`` table says so and ``'ID presence'`` tells
the others, which read who has the game open elsewhere.  Each process says it
lives every :data:`HEARTBEAT` seconds; the connections of a process silent for
:data:`SILENCE` seconds (killed) no longer count.

When the connection is lost (the database restarts), the listener connects
again with a growing pause; each time it starts listening it has every socket
read its game once, so that no change announced meanwhile is missed.  With
SQLite there is one process, and the hub is told directly.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import psycopg

from quads.storage import GameStore, StorageError
from quads.storage.lobby import LOBBY_CHANNEL
from quads.storage.store import CHANNEL
from quads.storage.stored import now
from quads.web.live import LiveHub
from quads.web.lobby_live import LobbyHub

__all__ = ["HEARTBEAT", "SILENCE", "ChangeListener"]

HEARTBEAT = 5.0
"""Seconds between two "this process lives" of a process."""

SILENCE = 15.0
"""Seconds after which a silent process's connections no longer count."""

_log = logging.getLogger(__name__)


class ChangeListener:
    """Pass what PostgreSQL announces on to ``hub``, until :meth:`stop`."""

    def __init__(self, store: GameStore, hub: LiveHub, lobby: LobbyHub | None = None) -> None:
        self.store = store
        self.hub = hub
        self.lobby = lobby
        self.process = uuid.uuid4().hex
        self._stop = threading.Event()
        self.listening = threading.Event()
        """Set while the listener has a connection and listens."""
        self._thread = threading.Thread(target=self._run, name="quads-listen", daemon=True)
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="quads-presence")

    def start(self) -> None:
        self.hub.on_presence = self._presence_changed
        self._thread.start()

    def stop(self) -> None:
        self.hub.on_presence = None
        self._stop.set()
        self._thread.join(timeout=5)
        self._writer.shutdown(wait=True)
        # If the database is gone, the connections lapse by themselves.
        with contextlib.suppress(StorageError):
            self.store.process_ended(self.process)

    def _presence_changed(self, game_id: str, player: str, open_: bool) -> None:
        def write() -> None:
            try:
                self.store.set_connected(self.process, game_id, player, open_)
                if open_:  # who had it open elsewhere before this process listened to it
                    self._read_presence([game_id])
            except StorageError as exc:
                _log.warning("quads: cannot record a connection (%s)", exc)

        self._writer.submit(write)

    def _conninfo(self) -> str:
        return self.store.url.set(drivername="postgresql").render_as_string(hide_password=False)

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo(), autocommit=True,
                                     connect_timeout=5) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    connection.execute(f"LISTEN {LOBBY_CHANNEL}")
                    self.listening.set()
                    # What was announced before listening (at start, or while cut
                    # off) is read now: every socket reads its game once, and the
                    # lobby its seeks.
                    self.hub.reload_all()
                    if self.lobby is not None:
                        self.lobby.resync()
                    self._heartbeat()
                    pause = 0.1
                    beat = time.monotonic()
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5):
                            if note.channel == LOBBY_CHANNEL:
                                if self.lobby is not None:
                                    self.lobby.announced(note.payload)
                            else:
                                self._pass_on(note.payload)
                        if time.monotonic() - beat >= HEARTBEAT:
                            beat = time.monotonic()
                            self._heartbeat()
            except (psycopg.Error, StorageError) as exc:
                self.listening.clear()
                _log.warning("quads: database notifications cut off (%s); retrying", exc)
                self._stop.wait(pause)
                pause = min(pause * 2, 1.0)
        self.listening.clear()

    def _heartbeat(self) -> None:
        """Say this process lives, and read again who has this process's games open
        elsewhere (a killed process's players drop out)."""
        self.store.process_alive(self.process)
        self._read_presence(self.hub.games())

    def _read_presence(self, game_ids: list[str]) -> None:
        since = now() - timedelta(seconds=SILENCE)
        found = self.store.connected_elsewhere(game_ids, self.process, since)
        for game_id, players in found.items():
            self.hub.set_remote(game_id, players)

    def _pass_on(self, payload: str) -> None:
        game_id, _, what = payload.partition(" ")
        if what == "gone":
            self.hub.publish(game_id, gone=True)
        elif what == "presence":
            if game_id in self.hub.games():
                self._read_presence([game_id])
        elif what.isdigit():
            self.hub.publish(game_id, revision=int(what))
