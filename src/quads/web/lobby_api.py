"""The lobby's routes: seeks, accepting one, quick pairing, and players' names.

Every lobby game has a clock.  A seek is taken once (:mod:`quads.storage.lobby`):
of two accepts of one seek, the second is refused ``409 seek_gone``.  A player
has at most ``seeks_per_player`` seeks open, opens them at ``rate_seeks`` at
most (and all players of an address at ``rate_seeks_per_address``), and loses
them when they start a game or leave (no live socket for ``seek_linger``
seconds, :mod:`quads.web.timekeeper`).  Changes reach the lobby sockets through
:class:`~quads.web.lobby_live.LobbyHub`.  A name chosen is counted against
``rate_names``: the player stays who they were, so it is no new identity.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from quads.clock import parse_time_control
from quads.rules import Rules
from quads.site.errors import SiteError
from quads.site.games import clocks, play
from quads.storage import StoredGame
from quads.storage.bots import Bots
from quads.storage.lobby import OwnSeekError, Seek, SeekGoneError, TooManySeeksError
from quads.storage.stored import now
from quads.web import rates
from quads.web.clock_views import control_of
from quads.web.dispatch import quick
from quads.web.identity import acting, caller
from quads.web.lobby_live import LobbyHub, seek_view
from quads.web.lobby_schemas import (
    NameRequest,
    PairingAnswer,
    PairingRequest,
    PlayerView,
    SeekList,
    SeekRequest,
    SeekView,
)
from quads.web.names import made_up_name
from quads.web.openapi import refusals
from quads.web.schemas import ClockSpec, GameView
from quads.web.settings import Settings
from quads.web.views import game_view

__all__ = ["router"]

router = APIRouter(prefix="/api")

SeekId = Annotated[str, Path(description="The seek's id", pattern=r"^[A-Za-z0-9_-]{1,64}$")]

_LISTED = 500
"""Seeks listed at most (the oldest)."""


def _hub(request: Request) -> LobbyHub:
    lobby: LobbyHub = request.app.state.lobby
    return lobby


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _player(request: Request) -> str:
    player = caller(request)
    assert player is not None  # an acting route always has a caller
    return player


def _clock_text(spec: ClockSpec) -> str:
    return str(control_of(spec))


def _maker(acceptor: str, settings: Settings) -> Callable[[Seek], StoredGame]:
    def make(seek: Seek) -> StoredGame:
        side = seek.side if seek.side != "random" else secrets.choice(("first", "second"))
        stored = play.new_game(seek.rules, "online", None, None, seek.player,
                               "first" if side == "first" else "second",
                               parse_time_control(seek.clock))
        if stored.first_player is None:
            stored.first_player = acceptor
        else:
            stored.second_player = acceptor
        stored.invite = None
        clocks.start(stored, now(), settings.clock_grace)
        return stored
    return make


def _game(request: Request, stored: StoredGame) -> GameView:
    return game_view(stored, caller(request), request.app.state.hub.connected(stored.id),
                     _settings(request))


@router.get("/seeks", tags=["lobby"])
@quick
def list_seeks(request: Request) -> SeekList:
    """The open seeks, oldest first."""
    player = caller(request)
    return SeekList(seeks=[seek_view(s, player) for s in _hub(request).lobby.seeks(_LISTED)])


@router.post("/seeks", status_code=201, tags=["lobby"], responses=refusals(
    409, 429, s409="`too_many_seeks`: the caller has `seeks_per_player` seeks open"))
@acting
@quick
def open_seek(request: Request, body: SeekRequest) -> SeekView:
    """Offer a game in the lobby, until someone accepts it, the caller withdraws it or
    starts another game, or leaves (no live socket for a few seconds)."""
    rates.charge(request, "seeks")
    player, hub = _player(request), _hub(request)
    name = hub.lobby.name(player, made_up_name)
    try:
        seek = hub.lobby.add(player, name, Rules.parse(body.rules).name,
                             _clock_text(body.clock), body.side,
                             most=_settings(request).seeks_per_player)
    except TooManySeeksError:
        raise SiteError("too_many_seeks", "you have as many seeks open as one may: "
                                              "withdraw one first") from None
    hub.opened(seek)
    return seek_view(seek, player)


@router.delete("/seeks/{seek_id}", status_code=204, tags=["lobby"], response_class=Response,
               responses=refusals(403, 404))
@quick
def withdraw_seek(request: Request, seek_id: SeekId) -> Response:
    """Withdraw one of the caller's seeks."""
    player, hub = caller(request), _hub(request)
    if player is None or not hub.lobby.cancel(seek_id, player):
        if hub.lobby.seek(seek_id) is not None:
            raise SiteError("not_your_seek", "only its player withdraws a seek")
        raise SiteError.not_found("no such seek is open")
    hub.dropped([seek_id])
    return Response(status_code=204)


@router.post("/seeks/{seek_id}/accept", status_code=201, tags=["lobby"], responses=refusals(
    409, 429, s409="`seek_gone`: taken by someone else, withdrawn or left; `own_seek`"))
@acting
@quick
def accept_seek(request: Request, seek_id: SeekId) -> GameView:
    """Accept a seek: the game starts for both players at once (the seeker's lobby
    sockets hear `paired`)."""
    rates.charge(request, "games")
    player, hub = _player(request), _hub(request)
    hub.lobby.name(player, made_up_name)  # the seeker sees whom they play
    try:
        paired = hub.lobby.take(seek_id, player, _maker(player, _settings(request)))
    except SeekGoneError:
        raise SiteError("seek_gone", "this seek is no longer open: someone took it, "
                                         "or its player withdrew it") from None
    except OwnSeekError:
        raise SiteError("own_seek", "this seek is your own") from None
    hub.paired(paired)
    return _game(request, hub.store.load(paired.game.id))


@router.post("/pairing", tags=["lobby"], responses={
    201: {"model": PairingAnswer, "description": "A seek met: the game (`game`)"},
    202: {"model": PairingAnswer, "description": "No seek met: the caller's seek (`seek`) "
                                                 "waits in the lobby"},
    **refusals(409, 429, s409="`too_many_seeks`")})
@acting
@quick
def pairing(request: Request, response: Response, body: PairingRequest) -> PairingAnswer:
    """Play now: pair with the oldest seek of the same rules and clock, or wait as a
    new seek (`202`); the game starts for both at once."""
    rates.charge(request, "seeks")
    player, hub = _player(request), _hub(request)
    name = hub.lobby.name(player, made_up_name)  # the seeker sees whom they play
    try:
        met = hub.lobby.pair(player, name, Rules.parse(body.rules).name,
                             _clock_text(body.clock), _maker(player, _settings(request)),
                             most=_settings(request).seeks_per_player)
    except TooManySeeksError:
        raise SiteError("too_many_seeks", "you have as many seeks open as one may: "
                                              "withdraw one first") from None
    if isinstance(met, Seek):
        hub.opened(met)
        response.status_code = 202
        return PairingAnswer(game=None, seek=seek_view(met, player))
    hub.paired(met)
    response.status_code = 201
    return PairingAnswer(game=_game(request, hub.store.load(met.game.id)), seek=None)


@router.get("/players/me", tags=["players"])
@quick
def who_am_i(request: Request) -> PlayerView:
    """The caller's name as others see it (one is made up for a player without one);
    null for a caller who is no player yet."""
    player = caller(request)
    if player is None:
        return PlayerView(name=None)
    hub = _hub(request)
    return PlayerView(name=hub.lobby.name(player, made_up_name),
                      bot=Bots(hub.store).handle(player))


@router.put("/players/me", tags=["players"], responses=refusals(422, 429))
@acting
@quick
def rename(request: Request, body: NameRequest) -> PlayerView:
    """Choose the name others see (in the lobby, on open seeks)."""
    rates.charge(request, "names")  # the same player: no new identity
    player, hub = _player(request), _hub(request)
    name = hub.lobby.rename(player, body.name)
    for seek in hub.lobby.seeks(_LISTED):
        if seek.player == player:
            hub.opened(seek)
    return PlayerView(name=name, bot=Bots(hub.store).handle(player))
