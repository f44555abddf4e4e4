"""The tokens a server process checked lately, by their hashes, with their players:
the identity middleware (:mod:`quads.web.middleware.identity`) asks the store only for
those it does not know.  What leads nowhere any more (a bot's token replaced, a
session ended, an anonymous player merged into an account) is forgotten on the
news of it, here or from another process through the database; while such news could
be missed (the listener cut off), nothing is believed.
"""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from collections.abc import Callable

__all__ = ["KNOWN_CACHE", "KnownPlayers"]

KNOWN_CACHE = 10_000
"""How many tokens checked are remembered in memory (some 150 bytes each): those
used least lately are forgotten first, and asked of the store again when they come
back."""


class KnownPlayers:
    """The tokens this process checked lately, by their hashes, with their players
    (never a bot's own token: see the module's documentation), believed only while
    :attr:`trusted` says so; at most :data:`KNOWN_CACHE`, the least lately used
    forgotten first."""

    def __init__(self, most: int = KNOWN_CACHE) -> None:
        self.most = most
        """How many token hashes are remembered at most."""
        self._players: OrderedDict[str, str] = OrderedDict()
        """The player of each token hash, the least lately used first."""
        self._sessions: dict[str, set[str]] = {}
        """The token hashes of each player other than its id (its sessions): most
        players have none, and keep no set."""
        self._forgotten = 0
        """Counts every :meth:`forget` and :meth:`clear`."""
        self._lock = threading.Lock()
        self.trusted: Callable[[], bool] = lambda: True
        """Whether no news of a token that stopped leading to its player can be missed
        now (on PostgreSQL: while the listener listens)."""

    def __len__(self) -> int:
        return len(self._players)

    def get(self, token_hash: str) -> str | None:
        """The player of ``token_hash``, if it was checked lately and is trusted."""
        player = self._players.get(token_hash)
        if player is None or not self.trusted():
            return None
        with contextlib.suppress(KeyError):  # forgotten meanwhile, by another thread
            self._players.move_to_end(token_hash)
        return player

    def __contains__(self, player: object) -> bool:
        known = player in self._sessions or (
            isinstance(player, str) and self._players.get(player) == player)
        return known and self.trusted()

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
            hashed = player if token_hash is None else token_hash
            self._players[hashed] = player
            self._players.move_to_end(hashed)
            if hashed != player:
                self._sessions.setdefault(player, set()).add(hashed)
            while len(self._players) > self.most:
                self._drop(*self._players.popitem(last=False))

    def _drop(self, hashed: str, player: str) -> None:
        """Under the lock: ``hashed`` (taken out already) no longer leads to ``player``."""
        sessions = self._sessions.get(player)
        if sessions is not None:
            sessions.discard(hashed)
            if not sessions:
                del self._sessions[player]

    def forget(self, player: str) -> None:
        """Forget every token of ``player`` (one of them changed or ended).  From any
        thread."""
        with self._lock:
            self._forgotten += 1
            if self._players.get(player) == player:
                del self._players[player]
            for hashed in self._sessions.pop(player, ()):
                self._players.pop(hashed, None)

    def clear(self) -> None:
        """Forget everybody (news may have been missed).  From any thread."""
        with self._lock:
            self._forgotten += 1
            self._players.clear()
            self._sessions.clear()
