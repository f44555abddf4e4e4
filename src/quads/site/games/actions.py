"""A person's action on a game, whichever way it comes (a request, or a message on
the game's live socket): checked, played, saved and told, alike.

Each function loads, checks who may do what (:mod:`quads.site.games.seats`),
changes the game through :mod:`quads.site.games.play`, saves, and tells whoever
follows the game through ``publish``.  A refusal raises before anything is saved.
The store's calls block: the web layer runs these in its database lane.
"""

from __future__ import annotations

from collections.abc import Callable

from quads.game import Action
from quads.site.errors import SiteError
from quads.site.games import clocks, play, seats
from quads.site.games.seats import load_visible
from quads.storage import GameStore, StoredGame
from quads.storage.stored import now

__all__ = ["Publish", "act", "save", "timed"]

Publish = Callable[[str, StoredGame], None]
"""Tell the followers of game ``id`` its state as saved (the web layer's live hub)."""


def save(store: GameStore, publish: Publish, stored: StoredGame) -> None:
    """Save ``stored`` and tell its followers.

    :raises StaleGameError: if it changed since it was loaded.
    """
    store.save(stored)
    publish(stored.id, stored)


def timed(store: GameStore, publish: Publish, stored: StoredGame,
          change: Callable[[], None]) -> None:
    """Make ``change`` to ``stored`` and save it, within the clock: if the time of the
    side to move ran out before, the game ends on time (or is aborted) instead and the
    change is refused (``out_of_time``)."""
    at = now()
    if clocks.expire(stored, at):
        save(store, publish, stored)
        raise SiteError("out_of_time",
                        "the clock ran out before this request: the game has ended")
    mover = stored.game.to_move
    change()
    clocks.after_change(stored, mover, at)
    save(store, publish, stored)


def act(store: GameStore, publish: Publish, game_id: str, player: str | None,
        action: Action, revision: int) -> StoredGame:
    """Play ``action`` of ``player`` (the caller's id, ``None`` without one) on
    ``game_id`` as seen at ``revision``, and answer the game as saved.

    :raises GameNotFoundError: if there is no such game, or ``player`` may not see it.
    :raises SiteError: ``not_your_game`` for a caller without a seat; ``not_your_turn``,
        ``stale`` (``revision`` is not the game's), ``game_over``, ``on_device`` or
        ``out_of_time``.
    :raises QuadsError: if the rules refuse the action.
    """
    stored = load_visible(store, game_id, player)
    seats.require_not_on_device(stored)
    seats.require_turn(stored, player)
    play.check_revision(stored, revision)
    timed(store, publish, stored, lambda: play.apply_action(stored, action))
    return stored
