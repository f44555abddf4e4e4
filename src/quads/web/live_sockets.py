"""What the hub of live sockets (:mod:`quads.web.live_hub`) holds: each socket's
mailbox, and each game's sockets with what is shared among them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from quads.storage import StoredGame

__all__ = ["GameSockets", "LiveSocket", "Wake"]


class Wake:
    """A flag raised on every change, as :class:`asyncio.Event` has it, awaited as a
    plain future: ``asyncio.wait`` then needs no task of its own each round."""

    __slots__ = ("_raised", "_waiter")

    def __init__(self) -> None:
        self._raised = False
        self._waiter: asyncio.Future[None] | None = None

    def set(self) -> None:
        self._raised = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        self._raised = False

    def is_set(self) -> bool:
        return self._raised

    def waiter(self) -> asyncio.Future[None]:
        """A future that is done once the flag is raised (at once if it is)."""
        waiter = self._waiter
        if waiter is None or waiter.done():
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            if self._raised:
                waiter.set_result(None)
        return waiter


@dataclass(eq=False)
class LiveSocket:
    """One connection's mailbox: a flag raised on every change, and the newest game."""

    game_id: str
    player: str | None
    wake: Wake = field(default_factory=Wake)
    latest: StoredGame | None = None
    reload: bool = False
    """A change was published without the saved game: read it from the store."""
    gone: bool = False
    talk: bool = False
    """Something was said at the game's table: read what is new."""
    counted: bool = False
    """The socket asked to hear how many watch the game (``?watchers=1``)."""
    watchers: bool = False
    """Those who watch the game may have changed: say how many, if another number."""
    ended: bool = False
    """The caller's token was replaced or revoked: the socket closes with
    :data:`~quads.web.live_hub.CLOSE_TOKEN_CHANGED`."""


@dataclass(eq=False)
class GameSockets:
    """What the hub holds of one game with sockets on this process."""

    sockets: set[LiveSocket] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)
    """Sockets of each player (spectators without an identity are not counted)."""
    seats: frozenset[str] = frozenset()
    """The players who hold a seat, as the newest version seen says."""
    seats_revision: int = -1
    """The revision that ``seats`` were read from."""
    present: frozenset[str] = frozenset()
    """The seat holders of ``counts``, kept built."""
    remote: frozenset[str] = frozenset()
    """The seat holders who have it open on other processes, as last heard."""
    views: dict[tuple[int, frozenset[str], str | None, int], str] = field(
        default_factory=dict)
    """View messages built, by revision, presence, seat holder and (while a clock runs)
    the moment they were built, to a tenth of a second."""
    shared: tuple[int, dict[str, Any]] | None = None
    """The fields that every view of one revision shares
    (:func:`~quads.web.views.shared_fields`), and that revision."""
    loading: asyncio.Future[StoredGame] | None = None
    """The read of the game from the store that is under way, for all its sockets."""
    changes: int = 0
    """How many changes were published without the saved game."""
    loading_after: int = -1
    """``changes`` when ``loading`` began: a read begun before a change is not shared
    with those who heard of the change."""
    absent: frozenset[str] | None = None
    """The seat holders last told to :attr:`LiveHub.on_away` as away (``None``: none told
    yet)."""
