"""Which player a token is, now that a bot's token can be replaced.

A player's id is the SHA-256 of the token the server issued it, and for a person
that token stays the good one.  A bot's token may be replaced, by the bot itself or
by its owner (:class:`BotKeys`): ``players.token_hash`` then holds the hash of the
token that is good, and the token whose hash is the id is refused from then on.  A
revoked token is replaced by one that nobody was given.

The owner's key is another secret, handed to whoever made the bot, once
(:meth:`~quads.storage.bots.Bots.upgrade` keeps its hash): with it alone a bot's
token is replaced or revoked, and no token changes it, so that whoever stole a
bot's token cannot keep it from its owner.

Every change of a bot's token is announced on PostgreSQL (``NOTIFY quads_games,
'PLAYER key'``), so that every server process forgets what it knew of that player at
once (:mod:`quads.web.middleware.identity`, :mod:`quads.web.bot_streams`).
"""

from __future__ import annotations

import hmac

from sqlalchemy import Connection, or_, select, update
from sqlalchemy import text as sql

from quads.storage.errors import StorageError
from quads.storage.store import CHANNEL, GameStore
from quads.storage.tables import players, sessions

__all__ = ["KEY_CHANGED", "BotKeys", "WrongOwnerKeyError"]

KEY_CHANGED = "key"
"""What follows the player's id in the announcement of a change of its token."""


class WrongOwnerKeyError(StorageError):
    """The owner's key given is not the bot's (or the bot has none)."""


class BotKeys:
    """The tokens of ``store``'s players, and the bots' owners' keys."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def player_of(self, token_hash: str) -> tuple[str, bool] | None:
        """The player whose good token hashes to ``token_hash``, and whether that can
        change only with an announcement (a person's token, or an account's session:
        see :mod:`quads.storage.accounts`; a bot's token is replaced without one reaching
        every process in time); ``None`` if no player's token does."""
        query = (select(players.c.id, players.c.bot, players.c.token_hash)
                 .where(or_(players.c.id == token_hash, players.c.token_hash == token_hash)))
        with self.store.begin() as connection:
            rows = connection.execute(query).all()
            if not rows:
                session = connection.execute(select(sessions.c.player).where(
                    sessions.c.id == token_hash)).first()
                return None if session is None else (str(session[0]), True)
        for player, _, replaced in rows:
            if replaced == token_hash:
                return str(player), False
        for player, bot, replaced in rows:
            if player == token_hash and replaced is None:
                return str(player), bot is None
        return None

    def replace(self, player: str, token_hash: str) -> bool:
        """Make the token of ``token_hash`` the bot ``player``'s only good one; ``False``
        if ``player`` is no bot."""
        with self.store.begin(write=True) as connection:
            changed = connection.execute(
                update(players).where(players.c.id == player, players.c.bot.is_not(None))
                .values(token_hash=token_hash)).rowcount
            if changed:
                self.announce(connection, player)
        return bool(changed)

    def replace_as_owner(self, handle: str, owner_key_hash: str,
                         token_hash: str) -> str | None:
        """Make the token of ``token_hash`` the only good one of the bot of ``handle``,
        for its owner, who proves it with the hash of the owner's key; the bot's player,
        or ``None`` if no bot has ``handle``.

        :raises WrongOwnerKeyError: if the key is not the bot's.
        """
        with self.store.begin(write=True) as connection:
            row = connection.execute(select(players.c.id, players.c.owner_key)
                                     .where(players.c.bot == handle)).first()
            if row is None:
                return None
            player, kept = str(row[0]), row[1]
            if kept is None or not hmac.compare_digest(str(kept), owner_key_hash):
                raise WrongOwnerKeyError(f"not the owner's key of {handle}")
            connection.execute(update(players).where(players.c.id == player,
                                                     players.c.owner_key == kept)
                               .values(token_hash=token_hash))
            self.announce(connection, player)
        return player

    def announce(self, connection: Connection, player: str) -> None:
        """Tell every server process (PostgreSQL) that ``player``'s token changed, once
        the transaction of ``connection`` commits."""
        if self.store.postgres:
            connection.execute(sql("SELECT pg_notify(:channel, :payload)"),
                               {"channel": CHANNEL, "payload": f"{player} {KEY_CHANGED}"})
