"""Other server processes' changes and players, from PostgreSQL's ``LISTEN``/``NOTIFY``.

Every save on PostgreSQL sends ``NOTIFY quads_games, 'ID REVISION'`` (or
``'ID gone'``) in its own transaction (:mod:`quads.storage.store`).  Each server
process runs one :class:`ChangeListener`: a thread with its own connection that
listens on the channel and hands each change to the process's
:class:`~quads.web.live_hub.LiveHub`, whose sockets of that game then read it.  A
socket that has the revision already (the process's own save) reads nothing.

The lobby's changes come on a channel of their own
(:data:`~quads.storage.lobby.LOBBY_CHANNEL`) and go to the process's
:class:`~quads.web.lobby_hub.LobbyHub`.

What is said at a game's table comes as ``'ID talk'``: the sockets of that game
read the messages new to them (:mod:`quads.storage.talk`).

Presence crosses processes the same way: when a player opens or closes a game
on this process, the ``connections`` table says so and ``'ID presence'`` tells
the others, which read who has the game open elsewhere.  Each process says it
lives every :data:`HEARTBEAT` seconds; the connections of a process silent for
:data:`SILENCE` seconds (killed) no longer count.

When the connection is lost (the database restarts), the listener connects
again with a growing pause; each time it starts listening it has every socket
read its game once, so that no change announced meanwhile is missed.  With
SQLite there is one process, and the hub is told directly.

A connection can also stop answering without closing (a half-open TCP
connection, a stalled backend): then nothing would ever arrive on it, and
nothing would say so.  So the listener proves its connection alive every
:data:`BEAT` seconds: it sends itself a notification through it (on a channel of
its own) and must receive it within :data:`BEAT_DEADLINE` seconds.  A beat that
does not come back, or any call on the connection that outlasts the deadline,
cuts the connection off (its socket is shut down under the blocked call), is
logged, and the listener connects again as after a loss, reading again whatever
it may have missed.  The connection also has TCP keepalives, as the store's have.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta

import psycopg
from psycopg.conninfo import make_conninfo

from quads.storage import GameStore, StorageError
from quads.storage.bot_keys import KEY_CHANGED
from quads.storage.database import CHANNEL
from quads.storage.engine import CONNECT_TIMEOUT, KEEPALIVE
from quads.storage.lobby import LOBBY_CHANNEL
from quads.storage.stored import now
from quads.web.keyed_writer import KeyedWriter
from quads.web.live_hub import LiveHub
from quads.web.lobby_hub import LobbyHub

__all__ = ["BEAT", "BEAT_DEADLINE", "HEARTBEAT", "SILENCE", "ChangeListener"]

HEARTBEAT = 5.0
"""Seconds between two "this process lives" of a process."""

SILENCE = 15.0
"""Seconds after which a silent process's connections no longer count."""

BEAT = 2.0
"""Seconds between two beats that the listener sends itself through its connection."""

BEAT_DEADLINE = 3.0
"""Seconds within which a beat must come back, and any call on the listener's
connection must end; past them the connection is taken for dead."""


class _SilentError(Exception):
    """The listener's connection stopped answering."""

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
        self._living: Future[None] | None = None
        self.on_key: Callable[[str], None] | None = None
        """Called with a player's id when some process announced that its token changed
        (``'PLAYER key'``, :mod:`quads.storage.bot_keys`)."""
        self._connections: KeyedWriter[tuple[str, str], bool] = KeyedWriter(
            self._write_connection, "quads-presence-writes")
        """Who has which game open here, as the store is to say it."""

    def start(self) -> None:
        self.hub.on_presence = self._presence_changed
        self._thread.start()

    def stop(self) -> None:
        self.hub.on_presence = None
        self._stop.set()
        self._thread.join(timeout=5)
        self._writer.shutdown(wait=True)
        self._connections.close()
        # If the database is gone, the connections lapse by themselves.
        with contextlib.suppress(StorageError):
            self.store.process_ended(self.process)

    def _presence_changed(self, game_id: str, player: str, open_: bool) -> None:
        # Written once the database takes it, however long it is away: the other
        # processes must not take a player who is here for one who left.
        self._connections.put((game_id, player), open_)

    def _write_connection(self, key: tuple[str, str], open_: bool) -> None:
        game_id, player = key
        self.store.set_connected(self.process, game_id, player, open_)
        if open_:  # who had it open elsewhere before this process listened to it
            self._read_presence([game_id])

    def _conninfo(self) -> str:
        """The listener's connection: the store's database, with the store's timeouts
        and keepalives, named for ``pg_stat_activity`` after this process."""
        url = self.store.url.set(drivername="postgresql").render_as_string(hide_password=False)
        return make_conninfo(url, connect_timeout=CONNECT_TIMEOUT,
                             application_name=f"quads-listen {os.getpid()}", **KEEPALIVE)

    @property
    def beat_channel(self) -> str:
        """The channel of this listener's own beats."""
        return f"quads_beat_{self.process}"

    def _run(self) -> None:
        pause = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo(), autocommit=True) as connection:
                    with _deadline(connection):
                        connection.execute(f"LISTEN {CHANNEL}")
                        connection.execute(f"LISTEN {LOBBY_CHANNEL}")
                        connection.execute(f"LISTEN {self.beat_channel}")
                    self.listening.set()
                    # What was announced before listening (at start, or while cut
                    # off) is read now: every socket reads its game once, and the
                    # lobby its seeks.
                    self.hub.reload_all()
                    if self.lobby is not None:
                        self.lobby.resync()
                    self._beat()
                    pause = 0.1
                    self._listen(connection)
            except (psycopg.Error, StorageError, _SilentError) as exc:
                self.listening.clear()
                _log.warning("quads: database notifications cut off (%s); retrying", exc)
                self._stop.wait(pause)
                pause = min(pause * 2, 1.0)
        self.listening.clear()

    def _listen(self, connection: psycopg.Connection[object]) -> None:
        """Pass on what arrives on ``connection`` until :meth:`stop`, beating.

        :raises _SilentError: if a beat did not come back within :data:`BEAT_DEADLINE`.
        """
        beat = time.monotonic()
        heartbeat = beat
        awaited: float | None = None
        """When the beat under way was sent."""
        while not self._stop.is_set():
            for note in connection.notifies(timeout=0.5):
                if note.channel == LOBBY_CHANNEL:
                    if self.lobby is not None:
                        self.lobby.announced(note.payload)
                elif note.channel == CHANNEL:
                    self._pass_on(note.payload)
                else:
                    awaited = None  # the beat came back
            moment = time.monotonic()
            if awaited is not None and moment - awaited > BEAT_DEADLINE:
                raise _SilentError(f"a beat did not come back within {BEAT_DEADLINE:g} s")
            if awaited is None and moment - beat >= BEAT:
                beat = awaited = moment
                with _deadline(connection):
                    connection.execute(f"NOTIFY {self.beat_channel}")
            if moment - heartbeat >= HEARTBEAT:
                heartbeat = moment
                self._beat()

    def _beat(self) -> None:
        """Say this process lives, in the writer's thread: the listener never waits for
        the store (one at a time: a store that hangs is not asked again meanwhile)."""
        if self._living is None or self._living.done():
            self._living = self._writer.submit(self._heartbeat_logged)

    def _heartbeat_logged(self) -> None:
        try:
            self._heartbeat()
        except StorageError as exc:
            _log.warning("quads: cannot say that this process lives (%s)", exc)

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
        elif what == "talk":
            self.hub.talked(game_id)
        elif what == KEY_CHANGED:  # 'PLAYER key': that player's token changed
            if self.on_key is not None:
                self.on_key(game_id)
        elif what.isdigit():
            self.hub.publish(game_id, revision=int(what))
        else:  # 'ID REVISION PLAYER...': a save, and the players it concerns
            revision, *players = what.split(" ")
            if revision.isdigit():
                self.hub.publish(game_id, revision=int(revision), players=tuple(players))


@contextlib.contextmanager
def _deadline(connection: psycopg.Connection[object],
              seconds: float = BEAT_DEADLINE) -> Iterator[None]:
    """Shut ``connection``'s socket down if what is done meanwhile takes longer than
    ``seconds``: a call blocked on a connection that no longer answers then fails,
    instead of waiting for ever.

    :raises _SilentError: if the deadline passed.
    """
    severed = threading.Event()

    def sever() -> None:
        severed.set()
        _sever(connection)

    timer = threading.Timer(seconds, sever)
    timer.daemon = True
    timer.start()
    try:
        yield
    except psycopg.Error as exc:
        if severed.is_set():
            raise _SilentError(f"the connection did not answer within {seconds:g} s") from exc
        raise
    finally:
        timer.cancel()


def _sever(connection: psycopg.Connection[object]) -> None:
    """Shut down the socket of ``connection`` under whoever is using it: their call
    fails as if the server had closed it."""
    with contextlib.suppress(OSError, psycopg.Error):
        duplicate = socket.socket(fileno=os.dup(connection.fileno()))
        with duplicate:
            duplicate.shutdown(socket.SHUT_RDWR)
