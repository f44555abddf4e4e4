"""The routes of games under ``/api/``: each reads a request, calls the site's games
(:class:`quads.site.games.service.Games`), and answers a view.

Who may see and do what, and every change, is the site's; every change is published
to the game's live sockets (:mod:`quads.web.live`).

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

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import PlainTextResponse
from starlette.concurrency import run_in_threadpool

from quads.catalogue import catalogue
from quads.outcome import Player
from quads.record import write_record
from quads.site.errors import SiteError
from quads.site.games import clocks, play, seats
from quads.site.games.service import Games
from quads.web.clock_views import control_of, spec_of
from quads.web.dispatch import quick
from quads.web.fields import GAME_ID_PATTERN, INVITE_PATTERN, MAX_REVISION, UUID_PATTERN
from quads.web.game_requests import action_of, device_game
from quads.web.lane import lane_of
from quads.web.middleware import rates
from quads.web.middleware.identity import acting, anonymous
from quads.web.openapi import refusals
from quads.web.paging import CURSOR_PATTERN, read_cursor, write_cursor
from quads.web.qr import qr_svg
from quads.web.schemas.analysis import ReviewView
from quads.web.schemas.game_actions import (
    AbandonClaim,
    ActionRequest,
    DrawAnswer,
    JoinRequest,
    RevisionRequest,
    UndoAnswer,
)
from quads.web.schemas.game_views import GameList, GameView, HintView, InviteView
from quads.web.schemas.new_games import (
    ComputerGame,
    DeviceUpload,
    ImportComputer,
    ImportGame,
    NewGame,
    OnlineGame,
)
from quads.web.thinking import reviewed, thinking
from quads.web.views import hint_view, invite_path, review_view, summary_view
from quads.web.wiring import CallerOf, GamesOf, LobbyOf, ViewerOf

__all__ = ["router"]

router = APIRouter(prefix="/api")

GameId = Annotated[str, Path(description="The game's id", pattern=GAME_ID_PATTERN)]
DeviceId = Annotated[str, Path(description="The id the device gave the game: a UUID in "
                                           "lower case", pattern=UUID_PATTERN)]

REVIEW_SECONDS = 3.0
"""The solver's time for each position of a review that the opening book does not hold."""


@router.post("/games", status_code=201, tags=["games"], responses=refusals(
    403, 422, 429, s403="`account_needed`: a rated game asked by a player without an account",
    s422="`cannot_be_rated`: a rated game of rules of no preset, without a clock, or not "
         "online"))
@acting
@quick
def create_game(request: Request, body: NewGame, games: GamesOf, lobby: LobbyOf,
                player: CallerOf, view: ViewerOf) -> GameView:
    """Start a new game, owned by the caller (``online``: seated as ``host``)."""
    rates.charge(request, "games")
    if isinstance(body, ComputerGame):
        stored = games.new(body.rules, body.mode, player, level=body.level, human=body.human)
    elif isinstance(body, OnlineGame):
        # The name the other player and spectators read, made up if the host has none.
        name = None if player is None else lobby.name(player)
        stored = games.new(body.rules, body.mode, player, host=body.host,
                           clock=None if body.clock is None else control_of(body.clock),
                           rated=body.rated, false_calls=body.false_calls,
                           safe_pieces=body.safe_pieces)
        stored.names = (name if stored.first_player == player else None,
                        name if stored.second_player == player else None)
        lobby.started(player)
    else:
        stored = games.new(body.rules, body.mode, player)
    return view(stored)


@router.post("/games/import", status_code=201, tags=["games"], responses=refusals(422, 429))
@acting
@quick
def import_game(request: Request, body: ImportGame, games: GamesOf, player: CallerOf,
                view: ViewerOf) -> GameView:
    """Start a game from a record, replayed to its last action."""
    rates.charge(request, "games")
    level, human = (body.level, body.human) if isinstance(body, ImportComputer) else (None, None)
    return view(games.imported(body.record, body.mode, player, level=level, human=human))


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
                body: DeviceUpload, games: GamesOf, player: CallerOf,
                view: ViewerOf) -> GameView:
    """Store a game played on the caller's device as one of the caller's games, every
    action replayed by the rules: `201` the first time, then `200`.  Idempotent: the
    same upload again, or one not newer (`device_revision`), changes nothing; a newer
    one replaces the actions of the game while it goes on."""
    assert player is not None  # an acting route always has a caller
    stored, change = games.upload(player, device_id, device_game(body),
                                  lambda: rates.charge(request, "games"))
    if change == "created":
        response.status_code = 201
    return view(stored)


@router.get("/games", tags=["games"], responses=refusals(
    422, s422="A cursor of the right form that this server did not write"))
@quick
def list_games(
    games: GamesOf,
    player: CallerOf,
    status: Annotated[Literal["ongoing", "over"] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Games on the page at most")] = 50,
    cursor: Annotated[str | None, Query(
        pattern=CURSOR_PATTERN,
        description="Where the page starts: the `next` of the page before")] = None,
) -> GameList:
    """The caller's games (created or seated) in which somebody has acted, most
    recently played first, a page at a time."""
    after = None if cursor is None else read_cursor(cursor)
    summaries, following = games.page(player, status, limit, after)
    return GameList(games=[summary_view(s, player) for s in summaries],
                    next=None if following is None else write_cursor(following))


@router.get("/games/{game_id}", tags=["games"], responses=refusals(404))
@quick
def get_game(game_id: GameId, games: GamesOf, player: CallerOf, view: ViewerOf) -> GameView:
    """A game as it stands, as the caller sees it."""
    return view(games.load(game_id, player))


@router.delete("/games/{game_id}", status_code=204, tags=["games"],
               responses=refusals(403, 404, 409),
               response_class=Response)
@quick
def delete_game(
    game_id: GameId, games: GamesOf, player: CallerOf,
    revision: Annotated[int, Query(ge=0, le=MAX_REVISION,
                                   description="The revision the caller last saw: "
                                               "`409 stale` if the game moved on")],
) -> Response:
    """Delete one of the caller's unfinished games (not an online game whose both
    seats are taken: resign it instead), as the caller saw it at ``revision``."""
    games.delete(game_id, player, revision)
    return Response(status_code=204)


@router.get("/invites/{token}", tags=["online"],
            responses=refusals(404, s404="No game has this invitation"))
@quick
def get_invite(token: Annotated[str, Path(pattern=INVITE_PATTERN)], games: GamesOf,
               player: CallerOf) -> InviteView:
    """The online game that an invitation (``/join/TOKEN``) seats one in."""
    stored = games.by_invite(token)
    free = [side for side in Player if stored.seat(side) is None]
    seated = [name for side, name in zip(Player, stored.names, strict=True)
              if stored.seat(side) is not None and name]
    control = clocks.time_control(stored)
    return InviteView(game=stored.id, rules=stored.game.rules.name,
                      calling=stored.game.rules.calling.value,
                      seat=None if not free else "first" if free[0] is Player.FIRST
                      else "second",
                      joined=player is not None and stored.seat_of(player) is not None,
                      host=seated[0] if len(seated) == 1 else None,
                      clock=None if control is None else spec_of(control), rated=stored.rated,
                      safe_help=play.safe_help(stored))


@router.post("/games/{game_id}/join", tags=["online"],
             responses=refusals(403, 404, 409, 429, s403="`bad_invite`, `private_game`, or "
                                "`account_needed`: a rated game joined without an account"))
@acting
@quick
def join_game(request: Request, game_id: GameId, body: JoinRequest, games: GamesOf,
              lobby: LobbyOf, player: CallerOf, view: ViewerOf) -> GameView:
    """Take the free seat of an online game with its invitation.  A player without a
    name is given one (made up), which the other player and spectators read."""
    rates.charge(request, "joins")
    assert player is not None
    lobby.name(player)  # before the join, whose view and news carry it
    return view(games.join(game_id, player, body.invite))


@router.get(
    "/games/{game_id}/invite.svg", tags=["online"], response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}},
                     "description": "A QR code of the invitation's address"},
               **refusals(403, 404, 409, s409="No open invitation: both seats are taken, "
                                                "or it is not an online game")},
)
async def invite_qr(request: Request, game_id: GameId, games: GamesOf,
                    player: CallerOf) -> Response:
    """The invitation of an online game as a QR code, for a seated player while a seat
    is free."""
    stored = await lane_of(request.app).run(games.load, game_id, player)
    seats.require_seat(stored, player)
    path = invite_path(stored, player)
    if path is None:
        raise SiteError("no_invitation",
                       "this game has no open invitation: both seats are taken, or it is "
                       "not an online game")
    address = str(request.base_url).rstrip("/") + path
    drawing = await run_in_threadpool(qr_svg, address)
    return Response(drawing, media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store"})


@router.post("/games/{game_id}/actions", tags=["games"], responses=refusals(403, 404, 409, 422))
@quick
def act(game_id: GameId, body: ActionRequest, games: GamesOf, player: CallerOf,
        view: ViewerOf) -> GameView:
    """Play one action of a person (as the game's live socket can too)."""
    return view(games.act(game_id, player, action_of(body), body.revision))


@router.post("/games/{game_id}/computer", tags=["games"],
             responses=refusals(403, 404, 409, 429))
async def computer_turn(request: Request, game_id: GameId, body: RevisionRequest,
                        games: GamesOf, player: CallerOf, view: ViewerOf) -> GameView:
    """Play the computer's whole turn."""
    lane = lane_of(request.app)
    stored = await lane.run(games.computer_to_move, game_id, player, body.revision)
    turn = await thinking(request, "play", lambda: play.computer_actions(stored))
    return view(await lane.run(games.computer_played, stored, turn))


@router.post("/games/{game_id}/undo", tags=["games"], responses=refusals(403, 404, 409))
@quick
def undo(game_id: GameId, body: RevisionRequest, games: GamesOf, player: CallerOf,
         view: ViewerOf) -> GameView:
    """Take back the last turn; against the computer, back to the person's last turn.
    Online, ask the other player, who accepts or refuses (``undo/answer``)."""
    return view(games.undo(game_id, player, body.revision))


@router.post("/games/{game_id}/undo/answer", tags=["online"], responses=refusals(403, 404, 409))
@quick
def answer_undo(game_id: GameId, body: UndoAnswer, games: GamesOf, player: CallerOf,
                view: ViewerOf) -> GameView:
    """Accept or refuse the other player's undo request in an online game."""
    return view(games.answer_undo(game_id, player, body.revision, body.accept))


@router.post("/games/{game_id}/draw", tags=["online"], responses=refusals(403, 404, 409))
@quick
def offer_draw(game_id: GameId, body: RevisionRequest, games: GamesOf, player: CallerOf,
               view: ViewerOf) -> GameView:
    """Offer the other player a draw: it stands until they answer it (``draw/answer``)
    or play on. One offer waits at a time, and each side makes three at most in a game
    (``too_many_draw_offers``); an offer while the other's waits accepts theirs."""
    return view(games.offer_draw(game_id, player, body.revision))


@router.post("/games/{game_id}/draw/answer", tags=["online"],
             responses=refusals(403, 404, 409))
@quick
def answer_draw(game_id: GameId, body: DrawAnswer, games: GamesOf, player: CallerOf,
                view: ViewerOf) -> GameView:
    """Accept (the game is drawn, ``agreement``) or decline the other player's offer."""
    return view(games.answer_draw(game_id, player, body.revision, body.accept))


@router.post("/games/{game_id}/redo", tags=["games"], responses=refusals(403, 404, 409))
@quick
def redo(game_id: GameId, body: RevisionRequest, games: GamesOf, player: CallerOf,
         view: ViewerOf) -> GameView:
    """Play again what undo took back (not in online games)."""
    return view(games.redo(game_id, player, body.revision))


@router.post("/games/{game_id}/resign", tags=["games"], responses=refusals(403, 404, 409))
@quick
def resign(game_id: GameId, body: RevisionRequest, games: GamesOf, player: CallerOf,
           view: ViewerOf) -> GameView:
    """Give up: the caller's side loses (on one device, the side to move)."""
    return view(games.resign(game_id, player, body.revision))


@router.post("/games/{game_id}/abandoned", tags=["online"],
             responses=refusals(403, 404, 409, s409="`not_abandoned` (with `retry_after`, "
                                "seconds) while the opponent may still come back, "
                                "`no_abandonment` in a correspondence game, `game_over`, "
                                "`stale`"))
@quick
def claim_abandoned(game_id: GameId, body: AbandonClaim, games: GamesOf, player: CallerOf,
                    view: ViewerOf) -> GameView:
    """Claim the win (or a draw) of an online game whose other player has had it open
    nowhere during their turn for `abandon_after` seconds."""
    return view(games.claim_abandoned(game_id, player, body.revision, body.draw))


@router.post("/games/{game_id}/rematch", status_code=201, tags=["games"],
             responses=refusals(403, 404, 409, 429))
@quick
def rematch(request: Request, game_id: GameId, games: GamesOf, lobby: LobbyOf,
            player: CallerOf, view: ViewerOf) -> GameView:
    """"Play again": the next game with the same players, rules and level, and the sides
    swapped.  Asked again (by either player), it answers the same new game."""
    following = games.rematch(game_id, player, lambda: rates.charge(request, "games"))
    lobby.started(player)
    return view(following)


@router.get(
    "/games/{game_id}/record", tags=["games"], response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "The game record"},
               **refusals(404)},
)
@quick
def record(game_id: GameId, games: GamesOf, player: CallerOf) -> PlainTextResponse:
    """The game record, as a download."""
    return PlainTextResponse(
        write_record(games.record(game_id, player)),
        headers={"Content-Disposition": f'attachment; filename="quads-{game_id}.qds"'},
    )


@router.get("/games/{game_id}/hint", tags=["games"],
            responses=refusals(403, 404, 409, 429))
async def get_hint(request: Request, game_id: GameId, games: GamesOf, player: CallerOf,
                   lang: Annotated[Literal["en", "de"], Query()] = "en") -> HintView:
    """Advice for the person to move: the safe pieces, a suggested turn and why.
    Never in an online game (``403 hint_online``), for either seat or a spectator."""
    stored = await lane_of(request.app).run(games.load, game_id, player)
    games.hint_allowed(stored, player)
    return hint_view(await thinking(request, "play", lambda: play.advice(stored)), lang)


@router.get("/games/{game_id}/review", tags=["games"], responses=refusals(404, 409, 429))
async def get_review(request: Request, game_id: GameId, games: GamesOf,
                     player: CallerOf) -> ReviewView:
    """Every turn of a finished game with its value before and after it was played
    (slow: each position the opening book does not hold is solved)."""
    stored = await lane_of(request.app).run(games.load, game_id, player)
    return review_view(await reviewed(request, Games.reviewable(stored), REVIEW_SECONDS))


@router.get("/messages/{lang}", tags=["messages"])
@anonymous
def messages(lang: Annotated[Literal["en", "de"], Path()]) -> dict[str, str]:
    """The message catalogue of ``lang``."""
    return catalogue(lang)
