"""Who may see and do what in a game: decided here, on the server, for every route.

* A ``computer`` or ``local`` game belongs to the player who created it; to
  anyone else it does not exist (``not_found``, exactly as a wrong id).
* An ``online`` game can be watched by anyone who has its link (its id is
  unguessable); only its two seated players act in it.  A caller without a
  seat is refused with ``not_your_game``, and a seated player acting out of
  turn with ``not_your_turn``.
* A game stored before games had owners is adopted by the first player who
  opens it: the person whose page still holds its id.
* A game played on a device and uploaded from it is played on that device until
  it is over: the changing routes refuse it (``on_device``), except deleting.
"""

from __future__ import annotations

from typing import Literal

from quads.outcome import Player
from quads.site.errors import SiteError
from quads.storage import GameStore, StoredGame

__all__ = [
    "Side",
    "acting_side",
    "load_visible",
    "may_see",
    "require_not_on_device",
    "require_seat",
    "require_turn",
    "side_name",
    "viewer_side",
]


Side = Literal["first", "second"]
"""A side as the API names it: the player who hands over first, or the other."""


def may_see(stored: StoredGame, player: str | None) -> bool:
    """Whether ``player`` may see the game (as a player or a spectator)."""
    return stored.mode == "online" or (player is not None and stored.owner == player)


def load_visible(store: GameStore, game_id: str, player: str | None) -> StoredGame:
    """The game, if ``player`` may see it.

    A game against the computer or on one device is its maker's alone; its link,
    opened by anybody else (or by its maker on another device, signed out), says that
    it is private rather than that it does not exist: its id (22 random characters)
    is no secret worth keeping, and "deleted" would be a lie.

    :raises GameNotFoundError: if there is no such game.
    :raises SiteError: ``private_game`` if ``player`` may not see it.
    """
    stored = store.load(game_id)
    if stored.owner is None and stored.mode != "online" and player is not None:
        store.adopt(game_id, player)
        stored.owner = player
    if not may_see(stored, player):
        raise SiteError("private_game", f"game {game_id!r} is private: only the player who "
                        "made it sees it (signed in to the same account, on another device)")
    return stored


def viewer_side(stored: StoredGame, player: str | None) -> Player | None:
    """The side ``player`` plays: their seat online, the person's side against the
    computer; ``None`` in a ``local`` game (both sides) and for a spectator."""
    if stored.mode == "online":
        return None if player is None else stored.seat_of(player)
    if stored.mode == "computer":
        return stored.human
    return None


def require_seat(stored: StoredGame, player: str | None) -> Player | None:
    """The side that ``player`` acts for: their seat online, the person's side against
    the computer, ``None`` (either side) on one device.

    :raises SiteError: ``not_your_game`` for an online caller without a seat.
    """
    if stored.mode != "online":
        return viewer_side(stored, player)
    side = viewer_side(stored, player)
    if side is None:
        raise SiteError("not_your_game", "you hold no seat in this game: you can only watch")
    return side


def require_not_on_device(stored: StoredGame) -> None:
    """Refuse to change a game that its device plays: one uploaded from a device
    (:mod:`quads.site.games.uploads`) that is not over.

    :raises SiteError: ``on_device``.
    """
    if stored.device is not None and not stored.is_over():
        raise SiteError("on_device",
                       "this game is played on the device that uploaded it: go on there")


def require_turn(stored: StoredGame, player: str | None) -> None:
    """Check that ``player`` may play the next action of an online game.

    :raises SiteError: ``not_your_game`` without a seat; ``game_over``;
        ``waiting_for_opponent`` while a seat is free; ``not_your_turn``
        for the other seat.
    """
    side = require_seat(stored, player)
    if stored.mode != "online":
        return
    if stored.is_over():
        raise SiteError.game_over()
    if stored.first_player is None or stored.second_player is None:
        raise SiteError("waiting_for_opponent",
                       "the other seat is still free: share the invitation first")
    if stored.game.to_move is not side:
        raise SiteError.not_your_turn("it is your opponent's turn")


def acting_side(stored: StoredGame, player: str | None) -> Player | None:
    """The side for which ``player`` may act right now, or ``None`` if they may not."""
    if stored.is_over():
        return None
    to_move = stored.game.to_move
    if stored.mode == "local":
        return to_move
    if stored.mode == "computer":
        return to_move if to_move is stored.human else None
    if stored.first_player is None or stored.second_player is None:
        return None
    side = viewer_side(stored, player)
    return side if side is not None and side is to_move else None


def side_name(player: Player | None) -> Side | None:
    """``first`` or ``second``, as the API names a side (``None`` for none)."""
    if player is None:
        return None
    return "first" if player is Player.FIRST else "second"
