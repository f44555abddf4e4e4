"""What a request about a game names, in the site's terms: the library's action of an
action request, the device game of an upload.  Each value fits its schema already."""

from __future__ import annotations

from quads.cells import parse_cell
from quads.game import Action, Claim, Declare, Decline, Give, Place
from quads.outcome import Player
from quads.pieces import parse_piece
from quads.site.games.uploads import DeviceGame
from quads.web.schemas.game_actions import ActionRequest, GiveAction, PlaceAction
from quads.web.schemas.new_games import DeviceComputer, DeviceUpload

__all__ = ["action_of", "device_game"]


def action_of(request: ActionRequest) -> Action:
    """The library action a request names."""
    if isinstance(request, PlaceAction):
        return Place(parse_cell(request.cell))
    if isinstance(request, GiveAction):
        return Give(parse_piece(request.piece))
    simple: dict[str, Action] = {"declare": Declare(), "claim": Claim(), "decline": Decline()}
    return simple[request.action]


def device_game(body: DeviceUpload) -> DeviceGame:
    """The device game an upload describes."""
    if isinstance(body, DeviceComputer):
        return DeviceGame(body.rules, body.mode, body.actions, body.redo, body.created,
                          body.device_revision, body.level, Player[body.human.upper()])
    return DeviceGame(body.rules, body.mode, body.actions, body.redo, body.created,
                      body.device_revision)
