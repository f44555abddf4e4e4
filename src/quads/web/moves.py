"""A person's action, whichever way it comes: the route ``POST
/api/games/{id}/actions`` (:mod:`quads.web.api`) and an ``act`` message on the
game's live socket (:mod:`quads.web.live`) check and change the game here, alike.

Each function runs in the database lane: it loads, checks who may do what
(:mod:`quads.web.seats`), changes the game through :mod:`quads.web.play`, saves
and tells the game's sockets.  A refusal raises before anything is saved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from quads.storage import GameStore, StoredGame
from quads.storage.stored import now
from quads.web import clocks, play, seats
from quads.web.errors import ApiError
from quads.web.schemas import ActionRequest
from quads.web.seats import load_visible

if TYPE_CHECKING:  # the live socket plays through this module
    from quads.web.live import LiveHub

__all__ = ["act", "save", "timed"]


def save(store: GameStore, hub: LiveHub, stored: StoredGame) -> None:
    """Save ``stored`` and tell its sockets.

    :raises StaleGameError: if it changed since it was loaded.
    """
    store.save(stored)
    hub.publish(stored.id, stored)


def timed(store: GameStore, hub: LiveHub, stored: StoredGame,
          change: Callable[[], None]) -> None:
    """Make ``change`` to ``stored`` and save it, within the clock: if the time of the
    side to move ran out before, the game ends on time (or is aborted) instead and the
    change is refused (``409 out_of_time``)."""
    at = now()
    if clocks.expire(stored, at):
        save(store, hub, stored)
        raise ApiError(409, "out_of_time",
                       "the clock ran out before this request: the game has ended")
    mover = stored.game.to_move
    change()
    clocks.after_change(stored, mover, at)
    save(store, hub, stored)


def act(store: GameStore, hub: LiveHub, game_id: str, player: str | None,
        request: ActionRequest) -> StoredGame:
    """Play one action of ``player`` (the caller's id, ``None`` without one) on
    ``game_id``, and answer the game as saved.

    :raises GameNotFoundError: if there is no such game, or ``player`` may not see it.
    :raises ApiError: ``403`` for a caller without a seat, ``409`` when it is not
        their turn, the request's revision is not the game's (``stale``), the game
        is over or the clock ran out.
    :raises QuadsError: if the rules refuse the action (``422``).
    """
    action = play.parse_request_action(request)
    stored = load_visible(store, game_id, player)
    seats.require_not_on_device(stored)
    seats.require_turn(stored, player)
    play.check_revision(stored, request.revision)
    timed(store, hub, stored, lambda: play.apply_action(stored, action))
    return stored
