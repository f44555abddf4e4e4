"""Quick messages at the table: a few preset lines the two players of an online game
may say to each other.

A message is one of :data:`PRESETS`, never free text: each reader's page words it in
their own language, so a German and an English player understand each other, and
nothing anybody says can offend or leak.  Only the two seated players say and read
them, once both seats are taken, during the game and after it ("Well played",
"Rematch?"); spectators read none.  How often a player may speak is the web layer's
rate (``rate_talk``); muting is the reader's own switch, in their page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, get_args

from quads.outcome import Player
from quads.site.errors import SiteError
from quads.site.games.seats import load_visible, require_seat, viewer_side
from quads.storage import GameStore, StoredGame
from quads.storage.stored import now
from quads.storage.talk import Said

__all__ = ["PRESETS", "Preset", "at_table", "heard", "say", "side_at_table"]

Preset = Literal["hello", "good_luck", "well_played", "thanks", "oops", "rematch"]
"""The names of the lines that may be said."""

PRESETS: tuple[str, ...] = get_args(Preset)
"""The lines that may be said, in the order the page offers them."""


def at_table(stored: StoredGame, player: str | None) -> bool:
    """Whether ``player`` holds a seat of the online game ``stored``, and so reads what
    is said at its table (as its live socket does)."""
    return stored.mode == "online" and viewer_side(stored, player) is not None


def side_at_table(stored: StoredGame, player: str | None) -> Player:
    """The seat of ``player`` at the table of ``stored``.

    :raises SiteError: ``not_online`` for a game that is not between two people
        online, ``not_your_game`` for a caller without a seat (a spectator), and
        ``waiting_for_opponent`` while a seat is free.
    """
    if stored.mode != "online":
        raise SiteError("not_online", "messages are said in online games only")
    side = require_seat(stored, player)
    assert side is not None
    if stored.first_player is None or stored.second_player is None:
        raise SiteError("waiting_for_opponent", "nobody has joined yet: there is nobody "
                        "to talk to")
    return side


def say(store: GameStore, game_id: str, player: str | None, message: str,
        announce: Callable[[str], None]) -> Said:
    """``player`` says the preset ``message`` at the table of ``game_id``; ``announce``
    tells this process's sockets of the game (other processes hear the store's
    notification).

    :raises GameNotFoundError: if there is no such game.
    :raises SiteError: those of :func:`side_at_table`, ``private_game``, and
        ``not_a_preset`` for a line that is not one of :data:`PRESETS`.
    """
    if message not in PRESETS:
        raise SiteError("not_a_preset", f"only these may be said: {', '.join(PRESETS)}")
    stored = load_visible(store, game_id, player)
    side = side_at_table(stored, player)
    said = store.say(game_id, side, message, now())
    announce(game_id)
    return said


def heard(store: GameStore, game_id: str, player: str | None, after: int = 0) -> list[Said]:
    """What was said at the table of ``game_id`` after the message numbered ``after``,
    as one of its players reads it (the newest 50 at most).

    :raises GameNotFoundError: if there is no such game.
    :raises SiteError: those of :func:`side_at_table`, ``private_game``.
    """
    side_at_table(load_visible(store, game_id, player), player)
    return store.talk(game_id, after)
