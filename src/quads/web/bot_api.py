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
from quads.site.errors import SiteError
from quads.site.games import clocks, play
from quads.site.games.seats import load_visible
from quads.site.players.names import made_up_name
from quads.storage import GameStore, GameSummary, StorageError, StoredGame
from quads.storage.bots import AlreadyBotError, Bots, Invitation
from quads.storage.stored import now
from quads.web import rates
from quads.web.api import GameId
from quads.web.bot_streams import BotStreams
from quads.web.clock_views import spec_of
from quads.web.dispatch import quick
from quads.web.identity import KnownPlayers, acting, caller, issued_token, player_id
from quads.web.lane import lane_of
from quads.web.live import LiveHub
from quads.web.lobby_live import LobbyHub
from quads.web.lobby_schemas import BotList, BotUpgrade, BotView
from quads.web.openapi import refusals
from quads.web.schemas import BotInvitationRequest, GameView
from quads.web.settings import Settings
from quads.web.views import game_view

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


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _streams(request: Request) -> BotStreams:
    """The bots' streams open on this process."""
    streams: BotStreams = request.app.state.bot_streams
    return streams


@router.post("/upgrade", tags=["bots"], responses=refusals(
    409, 429, s409="`already_bot`: the caller is a bot already"))
@acting
@quick
def upgrade(request: Request) -> BotUpgrade:
    """Make the caller a bot, for good: marked as one on every page, it plays through
    the API (a caller without a token becomes a new player, whose token this answer
    holds, once).  The answer holds the owner's key too, once: kept apart from the
    token, it replaces or revokes the token whoever else holds it."""
    player = caller(request)
    assert player is not None  # an acting route always has a caller
    if issued_token(request) is None:
        rates.charge(request, "identities")  # a newcomer was charged when it was made
    lobby: LobbyHub = request.app.state.lobby
    owner_key = secrets.token_urlsafe(KEY_BYTES)
    try:
        handle = Bots(lobby.store).upgrade(player, player_id(owner_key))
    except AlreadyBotError:
        raise SiteError("already_bot", "you are a bot already; it cannot be undone") \
            from None
    known: KnownPlayers = request.app.state.known_players
    known.forget(player)  # its token may be replaced from now on: checked every time
    name = lobby.lobby.name(player, made_up_name)
    for seek in lobby.lobby.seeks(500):
        if seek.player == player:
            again = lobby.lobby.seek(seek.id)
            if again is not None:
                lobby.opened(again)  # marked as a bot's from now on
    return BotUpgrade(bot=handle, name=name, token=issued_token(request), owner_key=owner_key)


def _started(summary: GameSummary) -> bool:
    return (summary.mode == "online" and summary.first_player is not None
            and summary.second_player is not None)


def _invitation_event(invitation: Invitation) -> bytes:
    clock = None
    if invitation.clock is not None:
        clock = spec_of(parse_time_control(invitation.clock))
    return _event("invitation", game=invitation.game, rules=invitation.rules,
                  clock=None if clock is None else clock.model_dump(), side=invitation.side,
                  host=invitation.host)


def _start_event(summary: GameSummary, bot: str) -> bytes:
    side = "first" if summary.first_player == bot else "second"
    return _event("gameStart", game=summary.id, rules=summary.rules, side=side)


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
        raise SiteError("not_a_bot", "only a bot has an event stream: POST /api/bot/upgrade")
    settings, streams = _settings(request), _streams(request)
    if player in streams:
        raise SiteError("stream_open", "this bot has a stream open already")
    if len(streams) >= settings.bot_streams:
        raise SiteError("streams_full", "this server holds as many bot streams as it "
                                            "may; try again later")
    own = streams.open(player)  # before the first look: no change is missed after it
    lobby.arrive(player)

    bots = Bots(store)
    heartbeat = max(_SHORTEST, settings.bot_heartbeat)
    sweep = max(_SHORTEST, settings.bot_sweep)

    async def events() -> AsyncIterator[bytes]:
        known: dict[str, GameSummary] = {}
        offered: set[str] = set()
        ended: set[str] = set()  # the games whose gameFinish was sent
        opened = now()
        clock = asyncio.get_running_loop().time
        said = clock()  # when the stream last sent a line
        # The streams of a process opened together do not sweep together.
        due = clock() + random.uniform(0.5, 1.0) * sweep  # the next look by itself
        try:
            with contextlib.suppress(StorageError):
                await lane.run(bots.seen, player)
            while not own.ended:
                # Lowered before the look: a change saved meanwhile raises it again.
                own.wake.clear()
                failed = False
                try:
                    found = await lane.run(store.summaries, "ongoing", player=player,
                                           limit=_GAMES_WATCHED)
                    over = await lane.run(store.summaries, "over", player=player,
                                          limit=_ENDED_WATCHED)
                    invited = await lane.run(bots.invitations, player)
                except StorageError:  # the database is away: look again soon
                    found, over, invited = list(known.values()), [], []
                    failed = True
                games = {s.id: s for s in found if _started(s)}
                sent = False
                for invitation in invited:
                    if invitation.game not in offered:
                        yield _invitation_event(invitation)
                        sent = True
                offered = {invitation.game for invitation in invited}
                for game_id, summary in games.items():
                    if game_id not in known:
                        yield _start_event(summary, player)
                        sent = True
                for game_id in known.keys() - games.keys():
                    yield _event("gameFinish", game=game_id)
                    ended.add(game_id)
                    sent = True
                # a game begun and ended between two looks: both events at once
                for summary in reversed(over):
                    if (summary.id in ended or summary.id in known or not _started(summary)
                            or summary.updated < opened):
                        continue
                    yield _start_event(summary, player)
                    yield _event("gameFinish", game=summary.id)
                    ended.add(summary.id)
                    sent = True
                if over:  # only what the next look can see again need be remembered
                    ended &= {summary.id for summary in over} | games.keys()
                known = games
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


def _changed(request: Request, stored: StoredGame) -> GameView:
    """Save ``stored``, tell its sockets, and answer its view as stored (the seats'
    names and marks read again)."""
    lobby: LobbyHub = request.app.state.lobby
    hub: LiveHub = request.app.state.hub
    lobby.store.save(stored)
    stored = lobby.store.load(stored.id)
    hub.publish(stored.id, stored)
    return game_view(stored, caller(request), hub.connected(stored.id), _settings(request))


def _invited(request: Request, game_id: str) -> tuple[StoredGame, str]:
    """The game ``game_id`` whose free seat is offered to the calling bot, and the bot."""
    lobby: LobbyHub = request.app.state.lobby
    player = caller(request)
    stored = load_visible(lobby.store, game_id, player)
    if player is None or stored.bot_invited != player or stored.bot_declined:
        raise SiteError.not_found("no seat of this game is offered to you")
    return stored, player


@router.post("/invitations/{game_id}/accept", tags=["bots"], responses=refusals(
    404, 409, 429, s404="No seat of this game is offered to the caller",
    s409="`seat_taken`, `game_over`"))
@quick
def accept_invitation(request: Request, game_id: GameId) -> GameView:
    """Take the seat offered to the calling bot: the game starts."""
    rates.charge(request, "joins")
    stored, player = _invited(request, game_id)
    if stored.is_over():
        raise SiteError.game_over()
    if stored.invite is None:
        raise SiteError("seat_taken", "both seats of this game are taken")
    play.join(stored, player, stored.invite)
    stored.bot_invited = None
    clocks.start(stored, now(), _settings(request).clock_grace)
    return _changed(request, stored)


@router.post("/invitations/{game_id}/decline", status_code=204, tags=["bots"],
             response_class=Response, responses=refusals(404))
@quick
def decline_invitation(request: Request, game_id: GameId) -> Response:
    """Decline the seat offered to the calling bot (its players are told at once)."""
    stored, _ = _invited(request, game_id)
    stored.bot_declined = True
    _changed(request, stored)
    return Response(status_code=204)


@people.get("/bots", tags=["bots"])
@quick
def list_bots(request: Request) -> BotList:
    """The bots whose event stream is open now (or was a moment ago), by name."""
    lobby: LobbyHub = request.app.state.lobby
    recent = now() - timedelta(seconds=3 * _settings(request).bot_heartbeat)
    return BotList(bots=[BotView(bot=bot.handle, name=bot.name or bot.handle)
                         for bot in Bots(lobby.store).seen_since(recent, _LISTED)])


@people.post("/games/{game_id}/invite-bot", tags=["bots"], responses=refusals(
    403, 404, 409, 422, 429,
    s409="`seat_taken` (no free seat), `game_over`, `own_bot` (the caller is that bot)",
    s422="`no_such_bot`: no bot has the handle named"))
@quick
def invite_bot(request: Request, game_id: GameId, body: BotInvitationRequest) -> GameView:
    """Offer the free seat of one's online game to a bot: its event stream hears of it,
    and it accepts or declines (an invitation to another bot replaces it)."""
    rates.charge(request, "games")
    lobby: LobbyHub = request.app.state.lobby
    player = caller(request)
    stored = load_visible(lobby.store, game_id, player)
    if player is None or stored.mode != "online" or stored.seat_of(player) is None:
        raise SiteError("not_your_game", "only a player seated in this online game "
                                             "offers its free seat")
    if stored.is_over():
        raise SiteError.game_over()
    if stored.first_player is not None and stored.second_player is not None:
        raise SiteError("seat_taken", "both seats of this game are taken")
    bot = Bots(lobby.store).find(body.bot)
    if bot is None:
        raise SiteError("no_such_bot", "no bot has this handle")
    if bot.player == player:
        raise SiteError("own_bot", "the seat is offered to another player, not to oneself")
    lobby.lobby.name(player, made_up_name)  # the bot sees who offers the seat
    stored.bot_invited, stored.bot_declined = bot.player, False
    return _changed(request, stored)
