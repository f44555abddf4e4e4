"""The routes under ``/api/``: each reads a request, calls the library through
:mod:`quads.web.play`, saves, and answers a view.

The routes are plain functions, which FastAPI runs in its thread pool, off the
event loop: the store's file access and the computer's thinking never hold up
other requests.  Every change is saved before it is answered; a save that
finds the game changed since it was loaded is refused as ``409 stale``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import PlainTextResponse

from quads.catalogue import catalogue
from quads.record import write_record
from quads.storage import GameStore, StoredGame
from quads.web import play
from quads.web.errors import ApiError
from quads.web.schemas import (
    ActionRequest,
    ErrorView,
    GameList,
    GameView,
    HintView,
    ImportGame,
    NewGame,
    RevisionRequest,
)
from quads.web.views import game_view, hint_view, summary_view

__all__ = ["router"]

_ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorView, "description": description}
    for status, description in (
        (400, "The request or a value in it cannot be read"),
        (404, "No game with this id"),
        (409, "Stale revision, not your turn, game over, or nothing to undo or redo"),
        (422, "An action the rules forbid now"),
    )
}

router = APIRouter(prefix="/api", responses=_ERRORS)

GameId = Annotated[str, Path(description="The game's id")]


def _store(request: Request) -> GameStore:
    store: GameStore = request.app.state.store
    return store


def _changed(request: Request, stored: StoredGame) -> GameView:
    _store(request).save(stored)
    return game_view(stored)


@router.post("/games", status_code=201, tags=["games"])
def create_game(request: Request, body: NewGame) -> GameView:
    """Start a new game."""
    stored = play.new_game(body.rules, body.mode, body.level, body.human)
    _store(request).create(stored)
    return game_view(stored)


@router.post("/games/import", status_code=201, tags=["games"])
def import_game(request: Request, body: ImportGame) -> GameView:
    """Start a game from a record, replayed to its last action."""
    stored = play.imported_game(body.record, body.mode, body.level, body.human)
    _store(request).create(stored)
    return game_view(stored)


@router.get("/games", tags=["games"])
def list_games(
    request: Request,
    status: Annotated[Literal["ongoing", "over"] | None, Query()] = None,
) -> GameList:
    """The stored games, most recently played first."""
    return GameList(games=[summary_view(s) for s in _store(request).summaries(status)])


@router.get("/games/{game_id}", tags=["games"])
def get_game(request: Request, game_id: GameId) -> GameView:
    """A game as it stands."""
    return game_view(_store(request).load(game_id))


@router.post("/games/{game_id}/actions", tags=["games"])
def act(request: Request, game_id: GameId, body: ActionRequest) -> GameView:
    """Play one action of a person."""
    action = play.parse_request_action(body)
    stored = _store(request).load(game_id)
    play.check_revision(stored, body.revision)
    play.apply_action(stored, action)
    return _changed(request, stored)


@router.post("/games/{game_id}/computer", tags=["games"])
def computer_turn(request: Request, game_id: GameId, body: RevisionRequest) -> GameView:
    """Play the computer's whole turn."""
    stored = _store(request).load(game_id)
    play.check_revision(stored, body.revision)
    for action in play.computer_actions(stored):
        stored.game.apply(action)
    return _changed(request, stored)


@router.post("/games/{game_id}/undo", tags=["games"])
def undo(request: Request, game_id: GameId, body: RevisionRequest) -> GameView:
    """Take back the last turn; against the computer, back to the person's last turn."""
    stored = _store(request).load(game_id)
    play.check_revision(stored, body.revision)
    play.undo(stored)
    return _changed(request, stored)


@router.post("/games/{game_id}/redo", tags=["games"])
def redo(request: Request, game_id: GameId, body: RevisionRequest) -> GameView:
    """Play again what undo took back."""
    stored = _store(request).load(game_id)
    play.check_revision(stored, body.revision)
    play.redo(stored)
    return _changed(request, stored)


@router.get(
    "/games/{game_id}/record", tags=["games"], response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "The game record"}},
)
def record(request: Request, game_id: GameId) -> PlainTextResponse:
    """The game record, as a download."""
    stored = _store(request).load(game_id)
    return PlainTextResponse(
        write_record(stored.game),
        headers={"Content-Disposition": f'attachment; filename="quads-{stored.id}.qds"'},
    )


@router.get("/games/{game_id}/hint", tags=["games"])
def get_hint(request: Request, game_id: GameId,
             lang: Annotated[Literal["en", "de"], Query()] = "en") -> HintView:
    """Advice for the person to move: the safe pieces, a suggested turn and why."""
    stored = _store(request).load(game_id)
    return hint_view(play.advice(stored), lang)


@router.get("/messages/{lang}", tags=["messages"])
def messages(lang: str) -> dict[str, str]:
    """The message catalogue of ``lang`` (``en`` or ``de``)."""
    try:
        return catalogue(lang)
    except KeyError as exc:
        raise ApiError.not_found(str(exc.args[0])) from None
