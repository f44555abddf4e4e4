"""Games played on a device and uploaded from it (``PUT /api/games/device/{device_id}``).

The page plays games on the device itself when the server cannot be reached,
and sends each one when it can: the rule set, who plays, the actions played and
those undone, the time it started, and the device's revision of it, which moves
on with every change there.  The server replays every action by the rules and
refuses what they refuse; nothing of a refused upload is stored.

An upload is idempotent.  The caller has at most one game per device id (a
unique index of the store): an upload repeated, or two at once, make one game;
an upload whose device revision is not newer than the one stored changes
nothing.  A newer one replaces the actions of that game while it goes on (the
device owns it: the other changing routes refuse it with ``on_device``,
:func:`quads.site.games.seats.require_not_on_device`); once it is over it is a
finished game like any other, which no upload changes again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC
from typing import Literal

from quads.game import Game
from quads.outcome import Player
from quads.position import EMPTY
from quads.rules import Rules
from quads.site.dates import device_moment
from quads.site.errors import SiteError
from quads.storage import DeviceGameExistsError, GameStore, StaleGameError, StoredGame
from quads.storage.stored import action_text, now, parse_action, rebuild_game, redo_trail

__all__ = ["ATTEMPTS", "Change", "DeviceGame", "upload"]

Change = Literal["created", "replaced", "unchanged"]
"""What an upload did: stored a new game, stored a newer state of one, or nothing."""


@dataclass(frozen=True)
class DeviceGame:
    """A game played on a device, as the device has it now."""

    rules: str
    """The name of its rule set."""
    mode: Literal["local", "computer"]
    """Two people on the device, or a person against the computer."""
    actions: Sequence[str]
    """The actions played, from the empty board, as the store writes them."""
    redo: Sequence[str]
    """The actions undone that redo would play again, the next one first."""
    created: str
    """When it started on the device (ISO 8601 with its offset)."""
    device_revision: int
    """Its revision on the device, which moves on with every change there."""
    level: int | None = None
    """The computer's level (``computer`` mode)."""
    human: Player | None = None
    """The person's side (``computer`` mode)."""

ATTEMPTS = 5
"""How often an upload that raced another change of the same game is tried again."""


def _replayed(body: DeviceGame, headers: dict[str, str]) -> Game:
    """The game the upload describes, replayed by the rules.

    :raises QuadsError: if an action (or one undone) is not allowed where it is played.
    """
    return rebuild_game(Rules.parse(body.rules), EMPTY, headers,
                        [parse_action(text) for text in body.actions],
                        [parse_action(text) for text in body.redo])


def _players(body: DeviceGame) -> tuple[int | None, Player | None]:
    return (body.level, body.human) if body.mode == "computer" else (None, None)


def _same(stored: StoredGame, body: DeviceGame) -> bool:
    """Whether ``stored`` holds exactly the game of ``body``."""
    game = stored.game
    return ((game.rules.name, stored.mode, (stored.level, stored.human)) ==
            (body.rules, body.mode, _players(body))
            and [action_text(a) for a in game.actions] == list(body.actions)
            and [action_text(a) for a in redo_trail(game)] == list(body.redo))


def upload(store: GameStore, owner: str, device_id: str, body: DeviceGame,
           charge: Callable[[], None]) -> tuple[StoredGame, Change]:
    """Store the upload of ``owner``'s device game ``device_id``: the game as it is now
    and what this upload changed.  ``charge`` counts a new game against the
    caller's rate; it is called only when one is about to be created.

    :raises QuadsError: if the rules refuse an action of ``body`` (nothing is stored), or
        its time is none or out of range (``invalid_date``).
    :raises SiteError: ``game_over`` for a newer upload of a game that is over on the
        server, ``device_mismatch`` for one naming other rules or players.
    """
    start = device_moment(body.created, now())
    headers = {"Date": start.astimezone(UTC).strftime("%Y.%m.%d")}
    game = _replayed(body, headers)
    level, human = _players(body)
    for _ in range(ATTEMPTS):
        stored = store.find_device(owner, device_id)
        if stored is None:
            charge()
            created = now()
            fresh = StoredGame(id=secrets.token_urlsafe(16), mode=body.mode, level=level,
                               human=human, seed=secrets.randbits(32), game=game,
                               created=start, updated=created, revision=1, owner=owner,
                               device=device_id, device_revision=body.device_revision)
            try:
                store.create(fresh)
            except DeviceGameExistsError:
                continue  # another upload of it came first: judge this one against it
            return fresh, "created"
        if body.device_revision <= (stored.device_revision or 0):
            return stored, "unchanged"  # a repeated or late upload
        same = _same(stored, body)
        if stored.is_over():
            if same:
                return stored, "unchanged"
            raise SiteError("game_over",
                           "this game is over on the server: it stays as it ended")
        if (stored.game.rules.name, stored.mode, (stored.level, stored.human)) != (
                body.rules, body.mode, (level, human)):
            raise SiteError("device_mismatch",
                           "this device game was uploaded with other rules or players")
        if not same:
            stored.game = _replayed(body, dict(stored.game.headers))
        stored.device_revision = body.device_revision
        try:
            store.save(stored)
        except StaleGameError:
            continue
        return stored, "replaced"
    raise StaleGameError(f"device game {device_id!r} kept changing while it was uploaded")
