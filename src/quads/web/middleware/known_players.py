"""The tokens a server process checked lately, by their hashes, with their players:
the identity middleware (:mod:`quads.web.middleware.identity`) asks the store only for
those it does not know.  What leads nowhere any more (a bot's token replaced, a
session ended, an anonymous player merged into an account) is forgotten on the
news of it, here or from another process through the database; while such news could
be missed (the listener cut off), nothing is believed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

__all__ = ["KNOWN_CACHE", "KnownPlayers"]

KNOWN_CACHE = 100_000
"""How many tokens checked are remembered in memory."""


class KnownPlayers:
    """The tokens this process checked lately, by their hashes, with their players
    (never a bot's own token: see the module's documentation), believed only while
    :attr:`trusted` says so."""

    def __init__(self) -> None:
        self._players: dict[str, str] = {}
        """The player of each token hash."""
        self._hashes: dict[str, set[str]] = {}
        """The token hashes of each player."""
        self._forgotten = 0
        """Counts every :meth:`forget` and :meth:`clear`."""
        self._lock = threading.Lock()
        self.trusted: Callable[[], bool] = lambda: True
        """Whether no news of a token that stopped leading to its player can be missed
        now (on PostgreSQL: while the listener listens)."""

    def get(self, token_hash: str) -> str | None:
        """The player of ``token_hash``, if it was checked lately and is trusted."""
        player = self._players.get(token_hash)
        return player if player is not None and self.trusted() else None

    def __contains__(self, player: object) -> bool:
        return player in self._hashes and self.trusted()

    def mark(self) -> int:
        """A mark to give :meth:`add` for what is read from the store after it."""
        return self._forgotten

    def add(self, player: str, mark: int | None = None, token_hash: str | None = None) -> None:
        """Remember that ``token_hash`` (default: ``player``, the hash of its first
        token) leads to ``player``, unless somebody was forgotten since ``mark`` (what
        was read then may be out of date)."""
        with self._lock:
            if mark is not None and mark != self._forgotten:
                return
            if len(self._players) >= KNOWN_CACHE:
                self._players.clear()
                self._hashes.clear()
            hashed = player if token_hash is None else token_hash
            self._players[hashed] = player
            self._hashes.setdefault(player, set()).add(hashed)

    def forget(self, player: str) -> None:
        """Forget every token of ``player`` (one of them changed or ended).  From any
        thread."""
        with self._lock:
            self._forgotten += 1
            for hashed in self._hashes.pop(player, ()):
                self._players.pop(hashed, None)

    def clear(self) -> None:
        """Forget everybody (news may have been missed).  From any thread."""
        with self._lock:
            self._forgotten += 1
            self._players.clear()
            self._hashes.clear()
