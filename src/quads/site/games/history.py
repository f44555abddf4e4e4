"""Undo and redo by whole turns, as the page offers them.

A *turn* here is a run of consecutive actions by one player: a hand-over
alone (the first turn), a placement and its hand-over, a placement and its
declaration, a claim.  The player of an action is the one to move in the
state before it.

* Between two people (``person is None``) undo takes back the last turn and
  redo plays one turn again.
* Against the computer, undo takes back turns until one of the person's own
  turns is taken back: back to the point where the person last had to act.
  Redo plays one turn again and then any following turns, up to the next
  point where the person has to act.

Only :meth:`Game.undo` and :meth:`Game.redo` change the game, so the redo
trail stays the library's own.
"""

from __future__ import annotations

from quads.game import Game
from quads.outcome import Player

__all__ = ["can_redo", "can_undo", "redo", "undo"]


def _last_player(game: Game) -> Player:
    """The player of the last action (there must be one)."""
    return game.states[-2].to_move


def _undo_turn(game: Game) -> Player:
    player = _last_player(game)
    while game.can_undo() and _last_player(game) is player:
        game.undo()
    return player


def _redo_turn(game: Game) -> None:
    player = game.state.to_move
    game.redo()
    while game.can_redo() and not game.is_over() and game.state.to_move is player:
        game.redo()


def can_undo(game: Game, person: Player | None) -> bool:
    """Whether :func:`undo` has something to take back."""
    if person is None:
        return game.can_undo()
    return any(state.to_move is person for state in game.states[:-1])


def can_redo(game: Game, person: Player | None) -> bool:
    """Whether :func:`redo` has something to play again."""
    return game.can_redo()


def undo(game: Game, person: Player | None) -> None:
    """Take back one turn (two people), or back to the person's last turn (against
    the computer).  Call only when :func:`can_undo`."""
    if person is None:
        _undo_turn(game)
        return
    while _undo_turn(game) is not person:
        pass


def redo(game: Game, person: Player | None) -> None:
    """Play one turn again (two people), or up to the person's next turn (against
    the computer).  Call only when :func:`can_redo`."""
    _redo_turn(game)
    if person is None:
        return
    while game.can_redo() and not game.is_over() and game.state.to_move is not person:
        _redo_turn(game)
