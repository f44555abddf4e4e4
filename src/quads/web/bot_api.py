"""Bots: players that are programs, and the routes of their own under ``/api/bot/``.

A player makes itself a bot with ``POST /api/bot/upgrade``, for good: a caller
with no token becomes a new player there, and the answer hands its token over
once (``token``), for ``Authorization: Bearer``.  A bot plays through the same
routes as a person (seeks and pairing in the lobby, joining by invitation, the
game's actions and live socket), under the same limits, and is marked as a bot
wherever its name shows (seeks, the seats of its games).

A seated player of an online game may offer its free seat to a bot
(``POST /api/games/{id}/invite-bot``, the bots of ``GET /api/bots``); the bot takes
it or declines (``POST /api/bot/invitations/{id}/accept`` or ``decline``).

``GET /api/bot/stream`` is the bot's event stream, newline-delimited JSON: one
``{"type": "invitation", "game": ID, ...}`` for each seat offered to it, one
``{"type": "gameStart", "game": ID, "rules": ..., "side": "first"|"second"}`` for
each online game of the bot that is under way with both seats taken (those going
on when the stream opens first), one ``{"type": "gameFinish", "game": ID}`` when
such a game ends (a game begun and ended between two looks gets both at once),
and an empty line after :attr:`~quads.web.settings.Settings.bot_heartbeat`
seconds of silence.  It looks for them when one of the bot's games changes, and
every :attr:`~quads.web.settings.Settings.bot_sweep` seconds by itself
(:mod:`quads.web.bot_streams`); while it is open the bot's seeks stay in the lobby.
One stream per bot, ``bot_streams`` per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
from collections.abc import AsyncIterator
from datetime import timedelta

from fastapi import APIRouter, Request, Response
from fastapi.responses import StreamingResponse

from quads.clock import parse_time_control
from quads.site.bots.events import BotEvent, BotEvents, Invited, Started
from quads.site.errors import SiteError
from quads.storage import StorageError
from quads.storage.bots import Bots as BotStore
from quads.storage.stored import now
from quads.web.api import GameId
from quads.web.clock_views import spec_of
from quads.web.dispatch import quick
from quads.web.lane import lane_of
from quads.web.middleware import rates
from quads.web.middleware.identity import acting, issued_token, player_id
from quads.web.openapi import refusals
from quads.web.schemas.game_views import BotInvitationRequest, GameView
from quads.web.schemas.lobby import BotList, BotUpgrade, BotView
from quads.web.wiring import (
    BotsOf,
    BotStreamsOf,
    CallerOf,
    KnownPlayersOf,
    LobbyHubOf,
    SettingsOf,
    StoreOf,
    ViewerOf,
)

__all__ = ["KEY_BYTES", "people", "router"]

router = APIRouter(prefix="/api/bot")
"""The bots' own routes."""
people = APIRouter(prefix="/api")
"""The routes by which people find bots and offer them a seat."""

KEY_BYTES = 32
"""Random bytes of a token and of an owner's key (256 bits)."""

_LISTED = 100
"""Bots listed at most."""

_GAMES_WATCHED = 200
"""Games under way that one stream follows at most (the most recently changed)."""
_ENDED_WATCHED = 20
"""The bot's games last ended that each look reads: those ended since the look before
are among them (a bot ends a few games a second at most)."""
_SHORTEST = 0.05
"""The shortest heartbeat and sweep of a stream."""
_RETRY = 2.0
"""Seconds after which a stream whose look failed (the database away) looks again."""


@router.post("/upgrade", tags=["bots"], responses=refusals(
    409, 429, s409="`already_bot`: the caller is a bot already"))
@acting
@quick
def upgrade(request: Request, bots: BotsOf, known: KnownPlayersOf,
            player: CallerOf) -> BotUpgrade:
    """Make the caller a bot, for good: marked as one on every page, it plays through
    the API (a caller without a token becomes a new player, whose token this answer
    holds, once).  The answer holds the owner's key too, once: kept apart from the
    token, it replaces or revokes the token whoever else holds it."""
    assert player is not None  # an acting route always has a caller
    if issued_token(request) is None:
        rates.charge(request, "identities")  # a newcomer was charged when it was made
    owner_key = secrets.token_urlsafe(KEY_BYTES)
    handle, name = bots.upgrade(player, player_id(owner_key))
    known.forget(player)  # its token may be replaced from now on: checked every time
    return BotUpgrade(bot=handle, name=name, token=issued_token(request), owner_key=owner_key)


def _line(event: BotEvent) -> bytes:
    """One event as a line of the stream."""
    if isinstance(event, Invited):
        invitation = event.invitation
        clock = None
        if invitation.clock is not None:
            clock = spec_of(parse_time_control(invitation.clock)).model_dump()
        return _event("invitation", game=invitation.game, rules=invitation.rules,
                      clock=clock, side=invitation.side, host=invitation.host)
    if isinstance(event, Started):
        return _event("gameStart", game=event.game.id, rules=event.game.rules,
                      side=event.side)
    return _event("gameFinish", game=event.game)


def _event(kind: str, **fields: object) -> bytes:
    return (json.dumps({"type": kind, **fields}, separators=(",", ":")) + "\n").encode()


@router.get("/stream", tags=["bots"], response_class=StreamingResponse, responses={
    200: {"content": {"application/x-ndjson": {}},
          "description": "The bot's events, one JSON object a line"},
    **refusals(403, 409, 429, s403="`not_a_bot`", s409="`stream_open`: one stream per bot",
               s429="`streams_full`: this process holds as many streams as it may")})
async def stream(request: Request, bots: BotsOf, store: StoreOf, lobby: LobbyHubOf,
                 settings: SettingsOf, streams: BotStreamsOf, player: CallerOf,
                 ) -> StreamingResponse:
    """The bot's games begun and ended, as they happen (see the module's documentation)."""
    lane = lane_of(request.app)
    if player is None or await lane.run(bots.handle, player) is None:
        raise SiteError("not_a_bot", "only a bot has an event stream: POST /api/bot/upgrade")
    if player in streams:
        raise SiteError("stream_open", "this bot has a stream open already")
    if len(streams) >= settings.bot_streams:
        raise SiteError("streams_full", "this server holds as many bot streams as it "
                                            "may; try again later")
    own = streams.open(player)  # before the first look: no change is missed after it
    lobby.arrive(player)

    seen = BotStore(store).seen
    heartbeat = max(_SHORTEST, settings.bot_heartbeat)
    sweep = max(_SHORTEST, settings.bot_sweep)

    async def events() -> AsyncIterator[bytes]:
        told = BotEvents(player, now())
        clock = asyncio.get_running_loop().time
        said = clock()  # when the stream last sent a line
        # The streams of a process opened together do not sweep together.
        due = clock() + random.uniform(0.5, 1.0) * sweep  # the next look by itself
        try:
            with contextlib.suppress(StorageError):
                await lane.run(seen, player)
            while not own.ended:
                # Lowered before the look: a change saved meanwhile raises it again.
                own.wake.clear()
                failed = False
                try:
                    found = await lane.run(store.summaries, "ongoing", player=player,
                                           limit=_GAMES_WATCHED)
                    over = await lane.run(store.summaries, "over", player=player,
                                          limit=_ENDED_WATCHED)
                    invited = await lane.run(BotStore(store).invitations, player)
                    events = told.look(found, over, invited)
                except StorageError:  # the database is away: look again soon
                    events = told.missed()
                    failed = True
                for event in events:
                    yield _line(event)
                sent = bool(events)
                if sent:
                    said = clock()
                if failed:
                    due = min(due, clock() + _RETRY)
                # Asleep until woken, with no timer but the heartbeat's and the sweep's.
                while not own.wake.is_set() and not own.ended:
                    moment = clock()
                    if moment >= said + heartbeat:
                        yield b"\n"
                        said = moment
                        continue
                    if moment >= due:
                        break
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(own.wake.wait(),
                                               min(said + heartbeat, due) - moment)
                due = clock() + sweep
        finally:
            streams.close(own)
            lobby.leave(player)

    return StreamingResponse(events(), media_type="application/x-ndjson",
                             headers={"Cache-Control": "no-store"})


# ---- invitations ---------------------------------------------------------------------


@router.post("/invitations/{game_id}/accept", tags=["bots"], responses=refusals(
    404, 409, 429, s404="No seat of this game is offered to the caller",
    s409="`seat_taken`, `game_over`"))
@quick
def accept_invitation(request: Request, game_id: GameId, bots: BotsOf, player: CallerOf,
                      view: ViewerOf) -> GameView:
    """Take the seat offered to the calling bot: the game starts."""
    rates.charge(request, "joins")
    return view(bots.accept(game_id, player))


@router.post("/invitations/{game_id}/decline", status_code=204, tags=["bots"],
             response_class=Response, responses=refusals(404))
@quick
def decline_invitation(game_id: GameId, bots: BotsOf, player: CallerOf) -> Response:
    """Decline the seat offered to the calling bot (its players are told at once)."""
    bots.decline(game_id, player)
    return Response(status_code=204)


@people.get("/bots", tags=["bots"])
@quick
def list_bots(bots: BotsOf, settings: SettingsOf) -> BotList:
    """The bots whose event stream is open now (or was a moment ago), by name."""
    recent = now() - timedelta(seconds=3 * settings.bot_heartbeat)
    return BotList(bots=[BotView(bot=bot.handle, name=bot.name or bot.handle)
                         for bot in bots.seen_since(recent, _LISTED)])


@people.post("/games/{game_id}/invite-bot", tags=["bots"], responses=refusals(
    403, 404, 409, 422, 429,
    s409="`seat_taken` (no free seat), `game_over`, `own_bot` (the caller is that bot)",
    s422="`no_such_bot`: no bot has the handle named"))
@quick
def invite_bot(request: Request, game_id: GameId, body: BotInvitationRequest, bots: BotsOf,
               player: CallerOf, view: ViewerOf) -> GameView:
    """Offer the free seat of one's online game to a bot: its event stream hears of it,
    and it accepts or declines (an invitation to another bot replaces it)."""
    rates.charge(request, "games")
    return view(bots.offer(game_id, player, body.bot))
