"""The hub of the games' live sockets of this process (:mod:`quads.web.live` holds
the socket itself): a route that saves a game calls :meth:`LiveHub.publish` (from any
thread), and each socket of that game then sends its own view of the saved game.

The hub's work per change is bounded by what changed.  Presence (who has the game
open) is shown of the two seat holders only: the hub counts the sockets of each
player on each game and knows the game's seats (from the newest version it saw), so
that a join or a leave wakes the game's sockets only when a seat holder arrives or
leaves; a spectator wakes nobody and is not told to the other processes.  A change
read from the store is read once for all the game's sockets, and a view is built
once for all sockets that see the same thing (same revision, presence and seat).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from limits import RateLimitItem, parse_many
from limits.strategies import MovingWindowRateLimiter

from quads.site.windows import Windows
from quads.storage import (
    GameStore,
    StoredGame,
)
from quads.web.lane import DatabaseLane
from quads.web.live_sockets import GameSockets, LiveSocket
from quads.web.settings import Settings

__all__ = ["CLOSE_BUSY", "CLOSE_TOKEN_CHANGED", "LiveHub", "LiveSocket"]



CLOSE_BUSY = 4429
"""The close code of a socket over a limit: try again later."""

CLOSE_TOKEN_CHANGED = 4401
"""The close code of a socket whose caller's token was replaced or revoked meanwhile:
open it again with the token that holds now."""

_VIEWS_KEPT = 16
"""Views kept built for one game at most (a few revisions times a few seats)."""
_VIEW_START = '{"type":"view","view":'
"""How a view message begins; the view follows, then its closing brace."""
_CLOCK_STEP = 0.1
"""Seconds for which a view of a game whose clock runs is sent as built."""


class LiveHub:
    """The live sockets of this process, by game, within the limits of ``settings``."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._games: dict[str, GameSockets] = {}
        self._claims: dict[str, int] = {}
        """Sockets admitted on each game (joined or still loading)."""
        self._clients: dict[str, int] = {}
        """Sockets admitted from each client address."""
        self._rates: list[RateLimitItem] = parse_many(self.settings.socket_rate)
        self.windows = Windows()
        """The sockets opened lately by each client address (:attr:`Settings.socket_rate`)."""
        self._limiter = MovingWindowRateLimiter(self.windows)
        self.on_presence: Callable[[str, str, bool], None] | None = None
        """Called with ``(game_id, player, open)`` when a seat holder opens a game on
        this process (their first socket of it, or a seat taken with a socket open) or
        closes it (their last), so that other processes can be told
        (:mod:`quads.web.notify`)."""
        self.on_away: Callable[[str, str, bool], None] | None = None
        """Called with ``(game_id, player, away)`` when a seat holder of a game followed
        here has it open nowhere (``away``), as far as this process knows, or has it
        open again, so that the store keeps since when they are away (an abandonment
        is claimed by that)."""
        self.on_publish: Callable[[str, StoredGame | None, int | None, tuple[str, ...]],
                                  None] | None = None
        """Called, in the publishing thread, with every change published (not a
        deletion): ``(game_id, stored, revision, players)``, the last the players that
        another process announced the change to concern.  The bots' streams follow
        their games by it (:mod:`quads.web.bot_streams`)."""
        self.on_reload: Callable[[], None] | None = None
        """Called by :meth:`reload_all`, from its thread: changes may have been missed."""

    def _local(self, game_id: str) -> frozenset[str]:
        game = self._games.get(game_id)
        return frozenset() if game is None else game.present

    def connected(self, game_id: str) -> frozenset[str]:
        """The seat holders who have ``game_id`` open on a socket, of this process or
        (as last heard) of another one."""
        game = self._games.get(game_id)
        if game is None:
            return frozenset()
        return game.present | game.remote if game.remote else game.present

    def games(self) -> list[str]:
        """The games that have a socket on this process."""
        return list(self._games)

    def players(self) -> set[str]:
        """The players with a socket on some game of this process."""
        found: set[str] = set()
        for game in self._games.values():
            found.update(game.counts)
        return found

    def sockets(self, game_id: str) -> int:
        """How many sockets of this process follow ``game_id``."""
        game = self._games.get(game_id)
        return 0 if game is None else len(game.sockets)

    def held(self) -> tuple[int, int, int]:
        """What the hub holds: games, admitted sockets, client addresses (all return
        to 0 once every socket is closed)."""
        return len(self._games), sum(self._claims.values()), len(self._clients)

    # -- admission -------------------------------------------------------------------

    def admit(self, game_id: str, client: str, most: int | None = None) -> str | None:
        """Count a new socket of ``client`` on ``game_id`` (at most ``most`` there,
        default ``sockets_per_game``), or say why not (the reason of a 4429 close).  An
        admitted socket is given back by :meth:`release`."""
        settings = self.settings
        most = settings.sockets_per_game if most is None else most
        if self._claims.get(game_id, 0) >= most:
            return "too many sockets on this game"
        if self._clients.get(client, 0) >= settings.sockets_per_client:
            return "too many sockets from this address"
        if not all(self._limiter.hit(rate, "socket", client) for rate in self._rates):
            return "sockets opened too often from this address"
        self._claims[game_id] = self._claims.get(game_id, 0) + 1
        self._clients[client] = self._clients.get(client, 0) + 1
        return None

    def release(self, game_id: str, client: str) -> None:
        """Give back a socket counted by :meth:`admit`."""
        for counts, key in ((self._claims, game_id), (self._clients, client)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)

    # -- changes -----------------------------------------------------------------------

    def set_remote(self, game_id: str, players: frozenset[str]) -> None:
        """The players who have ``game_id`` open on other processes, as just read.  Safe
        to call from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._set_remote, game_id, players)

    def _set_remote(self, game_id: str, players: frozenset[str]) -> None:
        game = self._games.get(game_id)
        if game is None:
            return
        if game.remote != players:
            before = self.connected(game_id)
            game.remote = players
            if self.connected(game_id) != before:
                self._notify(game_id, None, False, presence=True)
            self._track_away(game_id)

    def _track_away(self, game_id: str, leaving: str | None = None) -> None:
        """Tell :attr:`on_away` which seat holders of ``game_id`` left or came back
        since last told (``leaving``: a player whose last socket of the game, the last
        one of this process, just closed)."""
        if self.on_away is None:
            return
        game = self._games.get(game_id)
        if game is None:
            if leaving is not None:
                self.on_away(game_id, leaving, True)
            return
        if not game.seats:
            return
        absent = game.seats - self.connected(game_id)
        told = game.absent
        game.absent = absent
        for player in game.seats:
            now_away = player in absent
            if told is None or now_away != (player in told):
                self.on_away(game_id, player, now_away)

    def publish(self, game_id: str, stored: StoredGame | None = None, *,
                gone: bool = False, revision: int | None = None,
                players: tuple[str, ...] = ()) -> None:
        """Tell the sockets of ``game_id`` that it changed (``stored``: as saved, if
        at hand; else ``revision``, the revision saved, if known, and ``players``, those
        it concerns, if told) or was deleted (``gone``).  Safe to call from any thread."""
        if self.on_publish is not None and not gone:
            self.on_publish(game_id, stored, revision, players)
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._notify(game_id, stored, gone, revision=revision)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(
                    lambda: self._notify(game_id, stored, gone, revision=revision))

    def talked(self, game_id: str) -> None:
        """Tell the sockets of ``game_id`` that something was said at its table (they
        read what is new to them).  Safe to call from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._talked, game_id)

    def _talked(self, game_id: str) -> None:
        game = self._games.get(game_id)
        if game is None:
            return
        for socket in game.sockets:
            socket.talk = True
            socket.wake.set()

    def end_player(self, player: str) -> None:
        """Close every socket of ``player`` on this process (their token was replaced or
        revoked: what the old one opened must not go on acting).  Safe from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._end_player, player)

    def _end_player(self, player: str) -> None:
        for game in self._games.values():
            if player not in game.counts:
                continue
            for socket in game.sockets:
                if socket.player == player:
                    socket.ended = True
                    socket.wake.set()

    def reload_all(self) -> None:
        """Have every socket read its game again (changes may have been missed, e.g.
        while the database's notifications were cut off).  Safe from any thread."""
        if self.on_reload is not None:
            self.on_reload()
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(self._reload_all)

    def _reload_all(self) -> None:
        for game_id in list(self._games):
            self._notify(game_id, None, False)

    def _notify(self, game_id: str, stored: StoredGame | None, gone: bool,
                presence: bool = False, revision: int | None = None) -> None:
        game = self._games.get(game_id)
        if game is None:
            return
        if stored is None and not presence:
            game.changes += 1
        if stored is not None:
            self.seen(stored)
        for socket in game.sockets:
            if stored is not None:
                if socket.latest is None or stored.revision >= socket.latest.revision:
                    socket.latest = stored
            elif presence:
                pass
            elif (revision is not None and socket.latest is not None
                  and socket.latest.revision >= revision):
                continue  # seen already: the echo of this process's own save
            else:
                socket.reload = True
            socket.gone = socket.gone or gone
            socket.wake.set()

    def seen(self, stored: StoredGame) -> None:
        """Learn the seats of ``stored`` (a version of a game just read or saved), if
        it is the newest seen: a player who took a seat with a socket open is present
        from now on.  Costs nothing more unless the seats changed."""
        game = self._games.get(stored.id)
        if game is None or stored.revision <= game.seats_revision:
            return
        game.seats_revision = stored.revision
        seats = frozenset(p for p in (stored.first_player, stored.second_player) if p)
        if seats == game.seats:
            return
        game.seats = seats
        self._watched(game)
        present = frozenset(p for p in seats if p in game.counts)
        if present == game.present:
            self._track_away(stored.id)
            return
        before = self.connected(stored.id)
        arrived, left = present - game.present, game.present - present
        game.present = present
        if self.connected(stored.id) != before:
            self._notify(stored.id, None, False, presence=True)
        if self.on_presence:
            for player in arrived:
                self.on_presence(stored.id, player, True)
            for player in left:
                self.on_presence(stored.id, player, False)
        self._track_away(stored.id)

    def spectators(self, game_id: str) -> int:
        """The sockets of this process on ``game_id`` whose caller holds no seat in it
        (as the newest version seen says): those who watch it here."""
        game = self._games.get(game_id)
        if game is None:
            return 0
        return sum(1 for socket in game.sockets if socket.player not in game.seats)

    def _watched(self, game: GameSockets) -> None:
        """Have the sockets of ``game`` that asked for it say how many watch it, which may
        have changed (the others are not woken: a viewer who comes costs them nothing)."""
        for socket in game.sockets:
            if socket.counted:
                socket.watchers = True
                socket.wake.set()

    def _join(self, socket: LiveSocket) -> None:
        self._loop = asyncio.get_running_loop()
        game = self._games.get(socket.game_id)
        if game is None:
            game = self._games[socket.game_id] = GameSockets()
        game.sockets.add(socket)
        if socket.latest is not None:
            self.seen(socket.latest)
        self._watched(game)
        player = socket.player
        if player is None:
            return
        count = game.counts.get(player, 0)
        game.counts[player] = count + 1
        if count == 0 and player in game.seats:  # a seat holder arrives
            before = self.connected(socket.game_id)
            game.present = game.present | {player}
            if self.connected(socket.game_id) != before:
                self._notify(socket.game_id, None, False, presence=True)
            if self.on_presence:
                self.on_presence(socket.game_id, player, True)
            self._track_away(socket.game_id)

    def _leave(self, socket: LiveSocket) -> None:
        game = self._games.get(socket.game_id)
        if game is None or socket not in game.sockets:
            return
        game.sockets.discard(socket)
        self._watched(game)
        player = socket.player
        gone = False
        if player is not None:
            left = game.counts[player] - 1
            if left:
                game.counts[player] = left
            else:
                del game.counts[player]
                gone = player in game.present
        if gone:
            assert player is not None
            before = self.connected(socket.game_id)
            game.present = game.present - {player}
            if game.sockets and self.connected(socket.game_id) != before:
                self._notify(socket.game_id, None, False, presence=True)
        if not game.sockets:
            del self._games[socket.game_id]
        if gone and self.on_presence:
            assert player is not None
            self.on_presence(socket.game_id, player, False)
        if gone:
            remote = player in game.remote
            self._track_away(socket.game_id, None if remote else player)

    # -- shared work -------------------------------------------------------------------

    async def load(self, game_id: str, store: GameStore, lane: DatabaseLane) -> StoredGame:
        """``game_id`` as stored, read once for all the sockets that ask meanwhile.

        :raises GameNotFoundError: if it was deleted.
        :raises StorageUnavailableError: if the database cannot be reached.
        """
        game = self._games.get(game_id)
        if game is None:
            return await lane.run(store.load, game_id)
        if (game.loading is None or game.loading.done()
                or game.loading_after != game.changes):
            loading = asyncio.ensure_future(lane.run(store.load, game_id))
            game.loading = loading
            game.loading_after = game.changes
            # Read by someone or not, its exception counts as retrieved.
            loading.add_done_callback(lambda f: f.cancelled() or f.exception())
        return await asyncio.shield(game.loading)

    def view_json(self, stored: StoredGame, player: str | None,
                  presence: frozenset[str]) -> str:
        """The view of ``stored`` for ``player``, as JSON (the ``view`` of
        :meth:`view_message`)."""
        return self.view_message(stored, player, presence)[len(_VIEW_START):-1]

    def view_message(self, stored: StoredGame, player: str | None,
                     presence: frozenset[str]) -> str:
        """The view message of ``stored`` for ``player``, built once for every socket
        that sees the same: the same revision and presence, and the same seat (a
        viewer who holds no seat sees what any spectator sees), within
        :data:`_CLOCK_STEP` while a clock runs."""
        from quads.web.views import game_view, shared_fields  # late: views import the hub

        holder = player if player in (stored.first_player, stored.second_player) else None
        # A view tells the clocks as of when it is built: one built a while ago is not
        # sent again while a clock runs.
        running = stored.clock is not None and stored.clock.running is not None
        moment = int(time.monotonic() / _CLOCK_STEP) if running else 0
        key = (stored.revision, presence, holder, moment)
        game = self._games.get(stored.id)
        text = None if game is None else game.views.get(key)
        if text is None:
            shared = None
            if game is not None:
                if game.shared is None or game.shared[0] != stored.revision:
                    game.shared = (stored.revision, shared_fields(stored))
                shared = game.shared[1]
            view = game_view(stored, holder, presence, self.settings, shared=shared)
            text = f"{_VIEW_START}{view.model_dump_json()}}}"
            if game is not None:
                if len(game.views) >= _VIEWS_KEPT:
                    game.views.clear()
                game.views[key] = text
        return text
