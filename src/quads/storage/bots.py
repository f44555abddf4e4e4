"""Bots: players that made themselves programs' players, for good.

A player becomes a bot once (:meth:`Bots.upgrade`) and stays one: the row keeps
a public handle (``players.bot``), by which the bot is marked wherever its name
shows.  What a bot may do is what a player may do, through the same routes; the
web layer adds its event stream (:mod:`quads.web.bot_api`).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, or_, select, update

from quads.storage.bot_keys import BotKeys
from quads.storage.errors import StorageError
from quads.storage.store import GameStore
from quads.storage.stored import now
from quads.storage.tables import games, players, seeks

__all__ = ["AlreadyBotError", "Bot", "Bots", "Invitation"]


@dataclass(frozen=True)
class Bot:
    """A bot as others find it: its handle, name, and when its stream was last open."""

    handle: str
    player: str
    name: str | None
    seen: datetime | None


@dataclass(frozen=True)
class Invitation:
    """A free seat of an online game offered to a bot."""

    game: str
    rules: str
    clock: str | None
    """The game's time control (``300+3``, ``3d``), if it has a clock."""
    side: str
    """The seat offered: ``first`` or ``second``."""
    host: str | None
    """The name of the player who offers it."""


def _time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")

_SEEN_AT_ONCE = 500
"""Bots whose stream one statement of :meth:`Bots.seen` notes at most."""

HANDLE_BYTES = 8
"""Random bytes of a bot's handle (written in base 64 for URLs)."""


class AlreadyBotError(StorageError):
    """The player is a bot already (the upgrade cannot be undone or repeated)."""


class Bots:
    """The bots among ``store``'s players."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def upgrade(self, player: str, owner_key_hash: str) -> str:
        """Make ``player`` a bot (for good), whose owner's key hashes to
        ``owner_key_hash`` (:mod:`quads.storage.bot_keys`); its new handle.  Its open
        seeks are marked too, and every server process is told that its token may be
        replaced from now on.

        :raises AlreadyBotError: if it is one already.
        """
        handle = "bot-" + secrets.token_urlsafe(HANDLE_BYTES)
        with self.store.begin(write=True) as connection:
            self.store.keep_players(connection, player)
            changed = connection.execute(
                update(players).where(players.c.id == player, players.c.bot.is_(None))
                .values(bot=handle, owner_key=owner_key_hash)).rowcount
            if not changed:
                raise AlreadyBotError(f"{player} is a bot already")
            connection.execute(update(seeks).where(seeks.c.player == player).values(bot=1))
            BotKeys(self.store).announce(connection, player)
        return handle

    def handle(self, player: str) -> str | None:
        """``player``'s handle if it is a bot, else ``None``."""
        with self.store.begin() as connection:
            found = connection.execute(select(players.c.bot).where(players.c.id == player))
            handle = found.scalar()
        return None if handle is None else str(handle)

    def find(self, handle: str) -> Bot | None:
        """The bot of ``handle``, if there is one."""
        with self.store.begin() as connection:
            row = connection.execute(
                select(players.c.bot, players.c.id, players.c.name, players.c.bot_seen)
                .where(players.c.bot == handle)).first()
        return None if row is None else _bot(row)

    def seen_since(self, moment: datetime, limit: int) -> list[Bot]:
        """The bots whose stream was open at ``moment`` or later, by name (``limit`` at most)."""
        with self.store.begin() as connection:
            rows = connection.execute(
                select(players.c.bot, players.c.id, players.c.name, players.c.bot_seen)
                .where(players.c.bot.is_not(None), players.c.bot_seen >= _time(moment))
                .order_by(players.c.name, players.c.bot).limit(limit)).all()
        return [_bot(row) for row in rows]

    def seen(self, *bots: str) -> None:
        """Note that the streams of ``bots`` are open now (one statement for every
        :data:`_SEEN_AT_ONCE` of them)."""
        moment = _time(now())
        with self.store.begin(write=True) as connection:
            for start in range(0, len(bots), _SEEN_AT_ONCE):
                chunk = bots[start:start + _SEEN_AT_ONCE]
                connection.execute(update(players).where(players.c.id.in_(chunk))
                                   .values(bot_seen=moment))

    def invitations(self, player: str, limit: int = 100) -> list[Invitation]:
        """The free seats offered to the bot ``player`` that it has not declined."""
        host = players.alias("host")
        query = (select(games.c.id, games.c.rules, games.c.headers, games.c.first_player,
                        host.c.name)
                 .outerjoin(host, or_(
                     and_(games.c.first_player.is_not(None),
                          host.c.id == games.c.first_player),
                     and_(games.c.first_player.is_(None), host.c.id == games.c.second_player)))
                 .where(games.c.bot_invited == player, games.c.bot_declined == 0,
                        games.c.status == "ongoing",
                        or_(games.c.first_player.is_(None), games.c.second_player.is_(None)))
                 .order_by(games.c.created).limit(limit))
        with self.store.begin() as connection:
            rows = connection.execute(query).all()
        return [Invitation(game=row[0], rules=row[1],
                           clock=json.loads(row[2]).get("TimeControl"),
                           side="first" if row[3] is None else "second", host=row[4])
                for row in rows]


def _bot(row: Any) -> Bot:
    """A row of (handle, player, name, seen) as a :class:`Bot`."""
    seen: str | None = row[3]
    return Bot(handle=str(row[0]), player=str(row[1]), name=row[2],
               seen=None if seen is None else datetime.fromisoformat(seen))
