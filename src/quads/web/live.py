"""Live updates: every page that shows a game holds a WebSocket on
``/api/games/{id}/live`` and receives the game's whole view, as its caller sees
it, after every change and whenever a player connects or leaves.

:class:`LiveHub` knows the sockets of this process.  A route that saves a game
calls :meth:`LiveHub.publish` (from any thread); each socket of that game then
sends its own view of the saved game.  Messages (all JSON, the models of
:mod:`quads.web.schemas`: ``ServerMessage`` and ``ClientMessage``):

* ``{"type": "view", "view": GameView}``: the game as it stands; sent once on
  connecting and after every change.  A client applies a view whose revision
  is not older than the one it shows, so a repeat is harmless.
* ``{"type": "gone"}``: the game was deleted; the socket closes.
* ``{"type": "pong"}``: the answer to a client's ``{"type": "ping"}``.
* ``{"type": "acted", "id": N, "revision": R, "view": GameView}`` or ``{"type":
  "refused", "id": N, "status": S, "error": {...}}``: the answer to a client's
  ``{"type": "act", "id": N, "action": ActionRequest}``, which plays one action as
  ``POST /api/games/{id}/actions`` does (:func:`quads.site.games.actions.act`, the same
  checks, the same refusals, the same view).  A socket has one action under way at
  most: the next message is read once it is answered.

A socket for a game its caller may not see is closed with code 4404 (no game),
and one opened from another site with 4403.  One over a limit of
:class:`~quads.web.settings.Settings` (sockets on the game, sockets or opens of
its client address) is closed with 4429, and one opened while the database
cannot be reached with 1013: both mean "try again later".  A message larger
than ``Settings.ws_max_message`` closes the socket with 1009 (the HTTP server
enforces it).

The hub's work per change is bounded by what changed.  Presence (who has the
game open) is shown of the two seat holders only: the hub counts the sockets of
each player on each game and knows the game's seats (from the newest version of
it that it saw), so that a join or a leave wakes the game's sockets only when a
seat holder arrives or leaves; a spectator, with or without an identity, wakes
nobody and is not told to the other processes.  A change read from the store is
read once for all the game's sockets, and a view is built once for all sockets
that see the same thing (same revision, presence and seat).  Pings are answered
without the database, whose calls go through the database lane
(:mod:`quads.web.lane`).  A socket whose read of a change fails (the lane's breaker
open, the database gone for a while) reads again by itself as soon as the lane takes
calls again (:meth:`~quads.web.lane.DatabaseLane.try_again`), whether or not the
client or another change wakes it: every change saved reaches every open socket of
its game once the database answers.

An action sent on the socket costs the server less than one posted over HTTP: no
request to parse and route, and the answer carries the view that the socket would
send anyway.  The page sends its actions here while the socket is open,
and over HTTP otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from limits import RateLimitItem, parse_many
from limits.strategies import MovingWindowRateLimiter
from pydantic import TypeAdapter, ValidationError

from quads.site.games import actions
from quads.site.games.seats import load_visible
from quads.storage import (
    GameNotFoundError,
    GameStore,
    StorageError,
    StorageUnavailableError,
    StoredGame,
)
from quads.web.errors import Refusal, invalid, refusal
from quads.web.game_requests import action_of
from quads.web.lane import DatabaseLane, lane_for
from quads.web.middleware.identity import CLOSE_UNAVAILABLE, caller
from quads.web.middleware.origins import same_origin
from quads.web.middleware.windows import Windows
from quads.web.schemas.live import (
    ActMessage,
    ClientMessage,
    GoneMessage,
    PingMessage,
    PongMessage,
    RefusedMessage,
    ServerMessage,
    SyncMessage,
)
from quads.web.schemas.refusals import ErrorDetail
from quads.web.settings import Settings, client_address

__all__ = ["CLOSE_BUSY", "CLOSE_TOKEN_CHANGED", "CLOSE_UNAVAILABLE", "LiveHub", "router"]

router = APIRouter(prefix="/api")

logger = logging.getLogger(__name__)

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


class _Wake:
    """A flag raised on every change, as :class:`asyncio.Event` has it, awaited as a
    plain future: ``asyncio.wait`` then needs no task of its own each round."""

    __slots__ = ("_raised", "_waiter")

    def __init__(self) -> None:
        self._raised = False
        self._waiter: asyncio.Future[None] | None = None

    def set(self) -> None:
        self._raised = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        self._raised = False

    def is_set(self) -> bool:
        return self._raised

    def waiter(self) -> asyncio.Future[None]:
        """A future that is done once the flag is raised (at once if it is)."""
        waiter = self._waiter
        if waiter is None or waiter.done():
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            if self._raised:
                waiter.set_result(None)
        return waiter


@dataclass(eq=False)
class _Socket:
    """One connection's mailbox: a flag raised on every change, and the newest game."""

    game_id: str
    player: str | None
    wake: _Wake = field(default_factory=_Wake)
    latest: StoredGame | None = None
    reload: bool = False
    """A change was published without the saved game: read it from the store."""
    gone: bool = False
    ended: bool = False
    """The caller's token was replaced or revoked: the socket closes with
    :data:`CLOSE_TOKEN_CHANGED`."""


@dataclass(eq=False)
class _Game:
    """What the hub holds of one game with sockets on this process."""

    sockets: set[_Socket] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)
    """Sockets of each player (spectators without an identity are not counted)."""
    seats: frozenset[str] = frozenset()
    """The players who hold a seat, as the newest version seen says."""
    seats_revision: int = -1
    """The revision that ``seats`` were read from."""
    present: frozenset[str] = frozenset()
    """The seat holders of ``counts``, kept built."""
    remote: frozenset[str] = frozenset()
    """The seat holders who have it open on other processes, as last heard."""
    views: dict[tuple[int, frozenset[str], str | None, int], str] = field(
        default_factory=dict)
    """View messages built, by revision, presence, seat holder and (while a clock runs)
    the moment they were built, to :data:`_CLOCK_STEP`."""
    shared: tuple[int, dict[str, Any]] | None = None
    """The fields that every view of one revision shares
    (:func:`~quads.web.views.shared_fields`), and that revision."""
    loading: asyncio.Future[StoredGame] | None = None
    """The read of the game from the store that is under way, for all its sockets."""
    changes: int = 0
    """How many changes were published without the saved game."""
    loading_after: int = -1
    """``changes`` when ``loading`` began: a read begun before a change is not shared
    with those who heard of the change."""
    absent: frozenset[str] | None = None
    """The seat holders last told to :attr:`LiveHub.on_away` as away (``None``: none told
    yet)."""


class LiveHub:
    """The live sockets of this process, by game, within the limits of ``settings``."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings if settings is not None else Settings()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._games: dict[str, _Game] = {}
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

    def _join(self, socket: _Socket) -> None:
        self._loop = asyncio.get_running_loop()
        game = self._games.get(socket.game_id)
        if game is None:
            game = self._games[socket.game_id] = _Game()
        game.sockets.add(socket)
        if socket.latest is not None:
            self.seen(socket.latest)
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

    def _leave(self, socket: _Socket) -> None:
        game = self._games.get(socket.game_id)
        if game is None or socket not in game.sockets:
            return
        game.sockets.discard(socket)
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


def _same_origin(websocket: WebSocket) -> bool:
    """Whether the socket's ``Origin`` is this server's own scheme, host and port
    (:func:`quads.web.middleware.origins.same_origin`); a socket without one is no browser's."""
    origin = websocket.headers.get("origin")
    if origin is None:  # not a browser: bots send no Origin
        return True
    return same_origin(origin, websocket.scope)



_CLIENT: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


_MESSAGE_IDS = range(2**31)
"""The numbers an ``act`` message may carry."""


async def _receive(
        websocket: WebSocket) -> ClientMessage | RefusedMessage | Literal[False] | None:
    """The next client message; ``None`` once the socket is closed.  A message that
    fits no schema is ``False`` (ignored), unless it is an ``act``: that is answered
    with its refusal (``400``)."""
    try:
        text = await websocket.receive_text()
    except (WebSocketDisconnect, RuntimeError, KeyError):
        return None
    try:
        return _CLIENT.validate_json(text)
    except ValidationError as exc:
        return _malformed(text, exc)


def _malformed(text: str, exc: ValidationError) -> RefusedMessage | Literal[False]:
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if not isinstance(data, dict) or data.get("type") != "act":
        return False
    number = data.get("id")
    known = type(number) is int and number in _MESSAGE_IDS
    # The errors' places start with the message's type: name the field alone.
    errors = [{**error, "loc": error["loc"][1:]} for error in exc.errors()]
    return _refused(number if known else None, invalid(errors))


def _refused(number: int | None, refused: Refusal) -> RefusedMessage:
    return RefusedMessage(type="refused", id=number, status=refused.status,
                          error=ErrorDetail.model_validate(refused.body()))


async def _answer(websocket: WebSocket, hub: LiveHub, socket: _Socket, number: int,
                  acted: StoredGame) -> tuple[int, frozenset[str]]:
    """Send the answer to the ``act`` message ``number``, saved as ``acted``: it
    carries the view, which the socket then need not send again (the state sent is
    returned)."""
    hub.seen(acted)
    if socket.latest is None or acted.revision >= socket.latest.revision:
        socket.latest = acted
    latest = socket.latest
    presence = hub.connected(socket.game_id)
    view = hub.view_json(latest, socket.player, presence)
    await websocket.send_text(
        f'{{"type":"acted","id":{number},"revision":{acted.revision},"view":{view}}}')
    return latest.revision, presence


async def _act(message: ActMessage, hub: LiveHub, store: GameStore, lane: DatabaseLane,
               game_id: str, player: str | None) -> StoredGame | RefusedMessage:
    """Play the action of ``message`` (:func:`quads.site.games.actions.act`): the game as saved,
    or the refusal to send."""
    try:
        action = message.action
        return await lane.run(actions.act, store, hub.publish, game_id, player,
                              action_of(action), action.revision)
    except Exception as exc:
        refused = refusal(exc)
        if refused is None:
            logger.exception("an action on the live socket of game %s failed", game_id)
            refused = Refusal(500, "internal_error", "the server failed on this action")
        return _refused(message.id, refused)


async def _send(websocket: WebSocket, message: ServerMessage) -> None:
    # Nothing is null in a message: what a refusal does not say is left out.
    await websocket.send_text(message.model_dump_json(exclude_none=True))


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    # Accepted only to tell the code (nothing is sent), so that a page knows whether
    # and when to try again.
    await websocket.accept()
    await websocket.close(code=code, reason=reason)


@router.websocket("/games/{game_id}/live")
async def live(websocket: WebSocket, game_id: str) -> None:
    """The live view of a game (see the module's documentation)."""
    store: GameStore = websocket.app.state.store
    hub: LiveHub = websocket.app.state.hub
    player = caller(websocket)
    if not _same_origin(websocket):
        await _refuse(websocket, 4403, "cross-site socket refused")
        return
    client = client_address(websocket.scope)
    refused = hub.admit(game_id, client)
    if refused is not None:
        await _refuse(websocket, CLOSE_BUSY, refused)
        return
    try:
        await _follow(websocket, hub, store, lane_for(store), game_id, player)
    finally:
        hub.release(game_id, client)


async def _follow(websocket: WebSocket, hub: LiveHub, store: GameStore, lane: DatabaseLane,
                  game_id: str, player: str | None) -> None:
    try:
        stored = await lane.run(load_visible, store, game_id, player)
    except GameNotFoundError:
        # Accepted first, so that a browser sees the code and stops reconnecting.
        await _refuse(websocket, 4404, "no such game")
        return
    except StorageUnavailableError:
        await _refuse(websocket, CLOSE_UNAVAILABLE, "the database cannot be reached now")
        return
    await websocket.accept()
    # A change saved after the load above but before the hub knows this socket is
    # published to nobody here: the game is read once more after joining.
    socket = _Socket(game_id, player, latest=stored, reload=True)
    hub._join(socket)
    sent: tuple[int, frozenset[str]] | None = None
    receiver = asyncio.ensure_future(_receive(websocket))
    loader: asyncio.Future[StoredGame] | None = None
    waiter: asyncio.Future[None] | None = None
    again: asyncio.Future[None] | None = None
    """While a read was refused: done when it is time to read again."""
    try:
        while True:
            # Cleared before the game and the presence are read: a change published
            # while this round loads or sends wakes the next round.
            socket.wake.clear()
            if loader is not None and loader.done():
                try:
                    loaded = loader.result()
                except GameNotFoundError:
                    socket.gone = True
                except StorageError:
                    # A change this socket has not sent may be saved: it reads again by
                    # itself once the database lane takes calls again, whether or not
                    # anything else wakes it.
                    socket.reload = True
                    again = lane.try_again()
                else:
                    if socket.latest is None or loaded.revision >= socket.latest.revision:
                        socket.latest = loaded
                    hub.seen(loaded)
                loader = None
            if again is not None and again.done():
                again = None
            # After a finished read, not before: a change published while it was on its
            # way asked for another read, and nothing else would wake this socket for it.
            if socket.reload and not socket.gone and loader is None and again is None:
                socket.reload = False
                loader = asyncio.ensure_future(hub.load(game_id, store, lane))
            if socket.gone:
                await _send(websocket, GoneMessage(type="gone"))
                await websocket.close(code=1000)
                return
            if socket.ended:
                await websocket.close(code=CLOSE_TOKEN_CHANGED, reason="your token changed")
                return
            latest = socket.latest
            assert latest is not None
            presence = hub.connected(game_id)
            state = (latest.revision, presence)
            if state != sent and loader is None:
                await websocket.send_text(hub.view_message(latest, player, presence))
                sent = state
            waiter = socket.wake.waiter()
            waiting: set[asyncio.Future[Any]] = {receiver, waiter}
            if loader is not None:
                waiting.add(loader)
            if again is not None:
                waiting.add(again)
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if receiver in done and not socket.ended:
                message = receiver.result()
                if message is None:
                    return
                if isinstance(message, PingMessage):
                    await _send(websocket, PongMessage(type="pong"))
                elif isinstance(message, SyncMessage):
                    sent = None  # the client asks for the view again
                elif isinstance(message, RefusedMessage):
                    await _send(websocket, message)
                elif isinstance(message, ActMessage):
                    acted = await _act(message, hub, store, lane, game_id, player)
                    if isinstance(acted, RefusedMessage):
                        await _send(websocket, acted)
                    else:
                        sent = await _answer(websocket, hub, socket, message.id, acted)
                receiver = asyncio.ensure_future(_receive(websocket))
    except (WebSocketDisconnect, RuntimeError):
        return
    finally:
        receiver.cancel()
        if waiter is not None:
            waiter.cancel()
        if loader is not None:
            loader.cancel()
        if again is not None:
            again.cancel()
        hub._leave(socket)
