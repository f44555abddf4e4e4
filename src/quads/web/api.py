"""The routes under ``/api/``: each reads a request, calls the library through
:mod:`quads.web.play`, saves, and answers a view.

Who may see and do what is checked by :mod:`quads.web.seats` before anything
changes; every change is published to the game's live sockets
(:mod:`quads.web.live`).

The routes are plain functions.  Those marked :func:`~quads.web.dispatch.quick`
only use the store and quick library calls: they run in the database lane
(:mod:`quads.web.lane`), never on the event loop.  The computer's turn, hints and
reviews are coroutines that load and save through that lane and hand their
thinking to the engine's lanes (:mod:`quads.web.thinking`); the invitation's QR
code loads its game through the lane too, and is drawn in a worker thread.

Every change is saved before it is answered; a save that finds the game changed
since it was loaded is refused as ``409 stale``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import PlainTextResponse
from starlette.concurrency import run_in_threadpool

from quads.catalogue import catalogue
from quads.clock import clock_headers
from quads.outcome import Player
from quads.record import write_record
from quads.storage import GameNotFoundError, GameStore, StaleGameError, StoredGame
from quads.storage.stored import now
from quads.web import clocks, moves, play, rates, seats, uploads
from quads.web.dispatch import quick
from quads.web.errors import ApiError
from quads.web.fields import GAME_ID_PATTERN, INVITE_PATTERN, MAX_REVISION, UUID_PATTERN
from quads.web.identity import acting, anonymous, caller
from quads.web.lane import lane_of
from quads.web.live import LiveHub
from quads.web.lobby_live import LobbyHub
from quads.web.openapi import refusals
from quads.web.paging import CURSOR_PATTERN, read_cursor, write_cursor
from quads.web.qr import qr_svg
from quads.web.reviews import reviewed
from quads.web.schemas import (
    AbandonClaim,
    ActionRequest,
    ComputerGame,
    DeviceUpload,
    GameList,
    GameView,
    HintView,
    ImportComputer,
    ImportGame,
    InviteView,
    JoinRequest,
    NewGame,
    OnlineGame,
    ReviewView,
    RevisionRequest,
    UndoAnswer,
)
from quads.web.seats import load_visible
from quads.web.settings import Settings
from quads.web.thinking import thinking
from quads.web.views import game_view, hint_view, invite_path, review_view, summary_view

__all__ = ["router"]

router = APIRouter(prefix="/api")

GameId = Annotated[str, Path(description="The game's id", pattern=GAME_ID_PATTERN)]
DeviceId = Annotated[str, Path(description="The id the device gave the game: a UUID in "
                                           "lower case", pattern=UUID_PATTERN)]

REVIEW_SECONDS = 3.0
"""The solver's time for each position of a review that the opening book does not hold."""


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def _hub(request: Request) -> LiveHub:
    hub: LiveHub = request.app.state.hub
    return hub


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _lobby(request: Request) -> LobbyHub:
    lobby: LobbyHub = request.app.state.lobby
    return lobby


def _view(request: Request, stored: StoredGame) -> GameView:
    return game_view(stored, caller(request), _hub(request).connected(stored.id),
                     _settings(request))


def _load(request: Request, game_id: str) -> StoredGame:
    return load_visible(_store(request), game_id, caller(request))


def _changed(request: Request, stored: StoredGame) -> GameView:
    moves.save(_store(request), _hub(request), stored)
    return _view(request, stored)


def _timed(request: Request, stored: StoredGame, change: Callable[[], None]) -> GameView:
    """Make ``change`` within the clock (:func:`quads.web.moves.timed`), save it and
    answer the view."""
    moves.timed(_store(request), _hub(request), stored, change)
    return _view(request, stored)


def _started(request: Request, player: str | None) -> None:
    """``player`` started a game: their open seeks go."""
    if player is not None:
        lobby = _lobby(request)
        lobby.dropped(lobby.lobby.drop_player(player))


@router.post("/games", status_code=201, tags=["games"], responses=refusals(429))
@acting
@quick
def create_game(request: Request, body: NewGame) -> GameView:
    """Start a new game, owned by the caller (``online``: seated as ``host``)."""
    rates.charge(request, "games")
    online = isinstance(body, OnlineGame)
    stored = play.new_game(body.rules, body.mode,
                           body.level if isinstance(body, ComputerGame) else None,
                           body.human if isinstance(body, ComputerGame) else None,
                           caller(request), body.host if isinstance(body, OnlineGame) else None,
                           clocks.control_of(body.clock)
                           if isinstance(body, OnlineGame) and body.clock else None)
    _store(request).create(stored)
    if online:
        _started(request, caller(request))
    return _view(request, stored)


@router.post("/games/import", status_code=201, tags=["games"], responses=refusals(422, 429))
@acting
@quick
def import_game(request: Request, body: ImportGame) -> GameView:
    """Start a game from a record, replayed to its last action."""
    rates.charge(request, "games")
    level, human = (body.level, body.human) if isinstance(body, ImportComputer) else (None, None)
    stored = play.imported_game(body.record, body.mode, level, human, caller(request))
    _store(request).create(stored)
    return _view(request, stored)


@router.put(
    "/games/device/{device_id}", tags=["games"],
    responses={201: {"model": GameView, "description": "The game, stored for the first time"},
               **refusals(409, 422, 429, s409="A newer upload of a game that is over on the "
                          "server (`game_over`), or one naming other rules or players than "
                          "before (`device_mismatch`)",
                          s422="An action (or one undone) that the rules refuse where it is "
                          "played, or a `created` that no calendar has: nothing was stored")},
)
@acting
@quick
def upload_game(request: Request, response: Response, device_id: DeviceId,
                body: DeviceUpload) -> GameView:
    """Store a game played on the caller's device as one of the caller's games, every
    action replayed by the rules: `201` the first time, then `200`.  Idempotent: the
    same upload again, or one not newer (`device_revision`), changes nothing; a newer
    one replaces the actions of the game while it goes on."""
    player = caller(request)
    assert player is not None  # an acting route always has a caller
    stored, change = uploads.upload(_store(request), player, device_id, body,
                                    lambda: rates.charge(request, "games"))
    if change == "created":
        response.status_code = 201
    elif change == "replaced":
        _hub(request).publish(stored.id, stored)
    return _view(request, stored)


@router.get("/games", tags=["games"], responses=refusals(
    422, s422="A cursor of the right form that this server did not write"))
@quick
def list_games(
    request: Request,
    status: Annotated[Literal["ongoing", "over"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Games on the page at most")] = 50,
    cursor: Annotated[str | None, Query(
        pattern=CURSOR_PATTERN,
        description="Where the page starts: the `next` of the page before")] = None,
) -> GameList:
    """The caller's games (created or seated) in which somebody has acted, most
    recently played first, a page at a time."""
    player = caller(request)
    after = None if cursor is None else read_cursor(cursor)
    store = _store(request)
    summaries = (store.summaries(status, player=player, limit=limit + 1, after=after)
                 if player else [])
    following = None
    if len(summaries) > limit:
        summaries = summaries[:limit]
        following = write_cursor(store.page_key(summaries[-1]))
    return GameList(games=[summary_view(s, player) for s in summaries], next=following)


@router.get("/games/{game_id}", tags=["games"], responses=refusals(404))
@quick
def get_game(request: Request, game_id: GameId) -> GameView:
    """A game as it stands, as the caller sees it."""
    return _view(request, _load(request, game_id))


@router.delete("/games/{game_id}", status_code=204, tags=["games"],
               responses=refusals(403, 404, 409),
               response_class=Response)
@quick
def delete_game(
    request: Request, game_id: GameId,
    revision: Annotated[int, Query(ge=0, le=MAX_REVISION,
                                   description="The revision the caller last saw: "
                                               "`409 stale` if the game moved on")],
) -> Response:
    """Delete one of the caller's unfinished games (not an online game whose both
    seats are taken: resign it instead), as the caller saw it at ``revision``."""
    stored = _load(request, game_id)
    if stored.owner != caller(request):
        raise ApiError(403, "not_your_game", "only the player who created a game deletes it")
    play.check_revision(stored, revision)
    if stored.is_over():
        raise ApiError(409, "game_over", "a finished game stays in the list")
    if stored.mode == "online" and stored.first_player and stored.second_player:
        raise ApiError(409, "in_play", "your opponent has joined: resign the game instead")
    _store(request).delete(stored.id, stored.revision)
    _hub(request).publish(stored.id, gone=True)
    return Response(status_code=204)


@router.get("/invites/{token}", tags=["online"],
            responses=refusals(404, s404="No game has this invitation"))
@quick
def get_invite(request: Request,
               token: Annotated[str, Path(pattern=INVITE_PATTERN)]) -> InviteView:
    """The online game that an invitation (``/join/TOKEN``) seats one in."""
    game_id = _store(request).find_invite(token)
    if game_id is None:
        raise ApiError.not_found("no game has this invitation: it may have been deleted")
    stored = _store(request).load(game_id)
    player = caller(request)
    free = [side for side in Player if stored.seat(side) is None]
    return InviteView(game=stored.id, rules=stored.game.rules.name,
                      calling=stored.game.rules.calling.value,
                      seat=None if not free else "first" if free[0] is Player.FIRST
                      else "second",
                      joined=player is not None and stored.seat_of(player) is not None)


@router.post("/games/{game_id}/join", tags=["online"],
             responses=refusals(403, 404, 409, 429))
@acting
@quick
def join_game(request: Request, game_id: GameId, body: JoinRequest) -> GameView:
    """Take the free seat of an online game with its invitation."""
    rates.charge(request, "joins")
    stored = _load(request, game_id)
    player = caller(request)
    assert player is not None
    if play.join(stored, player, body.invite):
        clocks.start(stored, now(), _settings(request).clock_grace)
        _store(request).save(stored)
        seated = _load(request, game_id)  # read again: with the new seat's name
        _hub(request).publish(seated.id, seated)
        return _view(request, seated)
    return _view(request, stored)


@router.get(
    "/games/{game_id}/invite.svg", tags=["online"], response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}},
                     "description": "A QR code of the invitation's address"},
               **refusals(403, 404, 409, s409="No open invitation: both seats are taken, "
                                                "or it is not an online game")},
)
async def invite_qr(request: Request, game_id: GameId) -> Response:
    """The invitation of an online game as a QR code, for a seated player while a seat
    is free."""
    stored = await lane_of(request.app).run(_load, request, game_id)
    seats.require_seat(stored, caller(request))
    path = invite_path(stored, caller(request))
    if path is None:
        raise ApiError(409, "no_invitation",
                       "this game has no open invitation: both seats are taken, or it is "
                       "not an online game")
    address = str(request.base_url).rstrip("/") + path
    drawing = await run_in_threadpool(qr_svg, address)
    return Response(drawing, media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@router.post("/games/{game_id}/actions", tags=["games"], responses=refusals(403, 404, 409, 422))
@quick
def act(request: Request, game_id: GameId, body: ActionRequest) -> GameView:
    """Play one action of a person (as the game's live socket can too)."""
    return _view(request, moves.act(_store(request), _hub(request), game_id,
                                    caller(request), body))


@router.post("/games/{game_id}/computer", tags=["games"],
             responses=refusals(403, 404, 409, 429))
async def computer_turn(request: Request, game_id: GameId, body: RevisionRequest) -> GameView:
    """Play the computer's whole turn."""
    lane = lane_of(request.app)
    stored = await lane.run(_load, request, game_id)
    seats.require_not_on_device(stored)
    seats.require_seat(stored, caller(request))
    play.check_revision(stored, body.revision)
    actions = await thinking(request, "play", lambda: play.computer_actions(stored))
    for action in actions:
        stored.game.apply(action)
    return await lane.run(_changed, request, stored)


@router.post("/games/{game_id}/undo", tags=["games"], responses=refusals(403, 404, 409))
@quick
def undo(request: Request, game_id: GameId, body: RevisionRequest) -> GameView:
    """Take back the last turn; against the computer, back to the person's last turn.
    Online, ask the other player, who accepts or refuses (``undo/answer``)."""
    stored = _load(request, game_id)
    seats.require_not_on_device(stored)
    side = seats.require_seat(stored, caller(request))
    play.check_revision(stored, body.revision)
    if stored.mode == "online":
        assert side is not None
        clocks.require_no_clock(stored)
        play.request_undo(stored, side)
    else:
        play.undo(stored)
    return _changed(request, stored)


@router.post("/games/{game_id}/undo/answer", tags=["online"], responses=refusals(403, 404, 409))
@quick
def answer_undo(request: Request, game_id: GameId, body: UndoAnswer) -> GameView:
    """Accept or refuse the other player's undo request in an online game."""
    stored = _load(request, game_id)
    side = seats.require_seat(stored, caller(request))
    play.check_revision(stored, body.revision)
    if side is None:
        raise ApiError(409, "no_undo_request", "undo requests are made in online games only")
    play.answer_undo(stored, side, body.accept)
    return _changed(request, stored)


@router.post("/games/{game_id}/redo", tags=["games"], responses=refusals(403, 404, 409))
@quick
def redo(request: Request, game_id: GameId, body: RevisionRequest) -> GameView:
    """Play again what undo took back (not in online games)."""
    stored = _load(request, game_id)
    seats.require_not_on_device(stored)
    seats.require_seat(stored, caller(request))
    play.check_revision(stored, body.revision)
    play.redo(stored)
    return _changed(request, stored)


@router.post("/games/{game_id}/resign", tags=["games"], responses=refusals(403, 404, 409))
@quick
def resign(request: Request, game_id: GameId, body: RevisionRequest) -> GameView:
    """Give up: the caller's side loses (on one device, the side to move)."""
    stored = _load(request, game_id)
    seats.require_not_on_device(stored)
    side = seats.require_seat(stored, caller(request))
    play.check_revision(stored, body.revision)
    if stored.mode == "online" and (stored.first_player is None
                                    or stored.second_player is None):
        raise ApiError(409, "waiting_for_opponent",
                       "nobody has joined yet: delete the game instead")
    if side is None:
        side = stored.game.to_move
    if side is None:
        raise ApiError.game_over()
    resigning = side
    return _timed(request, stored, lambda: play.resign(stored, resigning))


@router.post("/games/{game_id}/abandoned", tags=["online"],
             responses=refusals(403, 404, 409, s409="`not_abandoned` (with `retry_after`, "
                                "seconds) while the opponent may still come back, "
                                "`no_abandonment` in a correspondence game, `game_over`, "
                                "`stale`"))
@quick
def claim_abandoned(request: Request, game_id: GameId, body: AbandonClaim) -> GameView:
    """Claim the win (or a draw) of an online game whose other player has had it open
    nowhere during their turn for `abandon_after` seconds."""
    stored = _load(request, game_id)
    side = seats.require_seat(stored, caller(request))
    play.check_revision(stored, body.revision)
    if side is None:
        raise ApiError(409, "no_abandonment", "only an online game can be abandoned")
    at = now()
    if clocks.expire(stored, at):  # the time ran out first: the game ends on time instead
        return _changed(request, stored)
    clocks.claim_abandonment(stored, side, body.draw, _hub(request).connected(stored.id),
                             at, _settings(request))
    return _changed(request, stored)


@router.post("/games/{game_id}/rematch", status_code=201, tags=["games"],
             responses=refusals(403, 404, 409, 429))
@quick
def rematch(request: Request, game_id: GameId) -> GameView:
    """"Play again": the next game with the same players, rules and level, and the sides
    swapped.  Asked again (by either player), it answers the same new game."""
    stored = _load(request, game_id)
    side = seats.require_seat(stored, caller(request))
    if stored.rematch is not None:
        try:
            return _view(request, _store(request).load(stored.rematch))
        except GameNotFoundError:
            pass  # its owner deleted it (unplayed): start another
    rates.charge(request, "games")
    following = play.rematch(stored)
    clocks.start(following, now(), _settings(request).clock_grace)
    _started(request, caller(request))
    stored.rematch = following.id
    stored.rematch_by = side if stored.mode == "online" else None
    _store(request).create(following)
    try:
        _changed(request, stored)
    except StaleGameError:
        _store(request).delete(following.id, following.revision)
        raise
    return _view(request, following)


@router.get(
    "/games/{game_id}/record", tags=["games"], response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "The game record"},
               **refusals(404)},
)
@quick
def record(request: Request, game_id: GameId) -> PlainTextResponse:
    """The game record, as a download."""
    stored = _load(request, game_id)
    game = stored.game.copy()
    game.headers.update(play.opponent_headers(stored))
    if stored.clock is not None:
        game.headers.update(clock_headers(stored.clock))
    return PlainTextResponse(
        write_record(game),
        headers={"Content-Disposition": f'attachment; filename="quads-{stored.id}.qds"'},
    )


@router.get("/games/{game_id}/hint", tags=["games"],
            responses=refusals(403, 404, 409, 429))
async def get_hint(request: Request, game_id: GameId,
                   lang: Annotated[Literal["en", "de"], Query()] = "en") -> HintView:
    """Advice for the person to move: the safe pieces, a suggested turn and why.
    Never in an online game (``403 hint_online``), for either seat or a spectator."""
    stored = await lane_of(request.app).run(_load, request, game_id)
    play.require_hints(stored)
    seats.require_turn(stored, caller(request))
    return hint_view(await thinking(request, "play", lambda: play.advice(stored)), lang)


@router.get("/games/{game_id}/review", tags=["games"], responses=refusals(404, 409, 429))
async def get_review(request: Request, game_id: GameId) -> ReviewView:
    """Every turn of a finished game with its value before and after it was played
    (slow: each position the opening book does not hold is solved)."""
    stored = await lane_of(request.app).run(_load, request, game_id)
    if not stored.is_over():
        raise ApiError(409, "not_over", "a game is reviewed once it is over")
    return review_view(await reviewed(request, stored.game.copy(), REVIEW_SECONDS))


@router.get("/messages/{lang}", tags=["messages"])
@anonymous
def messages(lang: Annotated[Literal["en", "de"], Path()]) -> dict[str, str]:
    """The message catalogue of ``lang``."""
    return catalogue(lang)
