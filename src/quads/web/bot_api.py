"""Bots: players that are programs, and the routes of their own under ``/api/bot/``.

A player makes itself a bot with ``POST /api/bot/upgrade``, for good: a caller
with no token becomes a new player there, and the answer hands its token over
once (``token``), for ``Authorization: Bearer``.  A bot plays through the same
routes as a person (seeks and pairing in the lobby, joining by invitation, the
game's actions and live socket), under the same limits, and is marked as a bot
wherever its name shows (seeks, the seats of its games).

``GET /api/bot/stream`` is the bot's event stream, newline-delimited JSON: one
``{"type": "gameStart", "game": ID, "rules": ..., "side": "first"|"second"}`` for
each online game of the bot that is under way with both seats taken (those going
on when the stream opens first), one ``{"type": "gameFinish", "game": ID}`` when
such a game ends, and an empty line after :attr:`~quads.web.settings.Settings.
bot_heartbeat` seconds of silence.  It looks for changes every
:attr:`~quads.web.settings.Settings.bot_poll` seconds; while it is open the bot's
seeks stay in the lobby.  One stream per bot, ``bot_streams`` per process.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from quads.storage import GameStore, GameSummary, StorageError
from quads.storage.bots import AlreadyBotError, Bots
from quads.web import rates
from quads.web.dispatch import quick
from quads.web.errors import ApiError
from quads.web.identity import acting, caller, issued_token
from quads.web.lane import lane_of
from quads.web.lobby_live import LobbyHub
from quads.web.lobby_schemas import BotUpgrade
from quads.web.names import made_up_name
from quads.web.openapi import refusals
from quads.web.settings import Settings

__all__ = ["router"]

router = APIRouter(prefix="/api/bot")

_GAMES_WATCHED = 200
"""Games under way that one stream follows at most (the most recently changed)."""
_SMALLEST_POLL = 0.05


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _streams(request: Request) -> set[str]:
    """The bots with a stream open on this process."""
    streams: set[str] | None = getattr(request.app.state, "bot_streams", None)
    if streams is None:
        streams = set()
        request.app.state.bot_streams = streams
    return streams


@router.post("/upgrade", tags=["bots"], responses=refusals(
    409, 429, s409="`already_bot`: the caller is a bot already"))
@acting
@quick
def upgrade(request: Request) -> BotUpgrade:
    """Make the caller a bot, for good: marked as one on every page, it plays through
    the API (a caller without a token becomes a new player, whose token this answer
    holds, once)."""
    player = caller(request)
    assert player is not None  # an acting route always has a caller
    if issued_token(request) is None:
        rates.charge(request, "identities")  # a newcomer was charged when it was made
    lobby: LobbyHub = request.app.state.lobby
    try:
        handle = Bots(lobby.store).upgrade(player)
    except AlreadyBotError:
        raise ApiError(409, "already_bot", "you are a bot already; it cannot be undone") \
            from None
    name = lobby.lobby.name(player, made_up_name)
    for seek in lobby.lobby.seeks(500):
        if seek.player == player:
            again = lobby.lobby.seek(seek.id)
            if again is not None:
                lobby.opened(again)  # marked as a bot's from now on
    return BotUpgrade(bot=handle, name=name, token=issued_token(request))


def _started(summary: GameSummary) -> bool:
    return (summary.mode == "online" and summary.first_player is not None
            and summary.second_player is not None)


def _event(kind: str, **fields: object) -> bytes:
    return (json.dumps({"type": kind, **fields}, separators=(",", ":")) + "\n").encode()


@router.get("/stream", tags=["bots"], response_class=StreamingResponse, responses={
    200: {"content": {"application/x-ndjson": {}},
          "description": "The bot's events, one JSON object a line"},
    **refusals(403, 409, 429, s403="`not_a_bot`", s409="`stream_open`: one stream per bot",
               s429="`streams_full`: this process holds as many streams as it may")})
async def stream(request: Request) -> StreamingResponse:
    """The bot's games begun and ended, as they happen (see the module's documentation)."""
    player = caller(request)
    lobby: LobbyHub = request.app.state.lobby
    store: GameStore = lobby.store
    lane = lane_of(request.app)
    if player is None or await lane.run(Bots(store).handle, player) is None:
        raise ApiError(403, "not_a_bot", "only a bot has an event stream: POST /api/bot/upgrade")
    settings, streams = _settings(request), _streams(request)
    if player in streams:
        raise ApiError(409, "stream_open", "this bot has a stream open already")
    if len(streams) >= settings.bot_streams:
        raise ApiError(429, "streams_full", "this server holds as many bot streams as it "
                                            "may; try again later")
    streams.add(player)
    lobby.arrive(player)

    async def events() -> AsyncIterator[bytes]:
        known: dict[str, GameSummary] = {}
        quiet = 0.0
        poll = max(_SMALLEST_POLL, settings.bot_poll)
        try:
            while True:
                try:
                    found = await lane.run(store.summaries, "ongoing", player=player,
                                           limit=_GAMES_WATCHED)
                except StorageError:  # the database is away: look again next time
                    found = list(known.values())
                now = {s.id: s for s in found if _started(s)}
                sent = False
                for game_id, summary in now.items():
                    if game_id not in known:
                        side = "first" if summary.first_player == player else "second"
                        yield _event("gameStart", game=game_id, rules=summary.rules,
                                     side=side)
                        sent = True
                for game_id in known.keys() - now.keys():
                    yield _event("gameFinish", game=game_id)
                    sent = True
                known = now
                quiet = 0.0 if sent else quiet + poll
                if quiet >= settings.bot_heartbeat:
                    yield b"\n"
                    quiet = 0.0
                await asyncio.sleep(poll)
        finally:
            streams.discard(player)
            lobby.leave(player)

    return StreamingResponse(events(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store"})
