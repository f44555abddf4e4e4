"""The lobby's seeks (offers to play) and players' names, in the store's database.

A seek is taken in one transaction that deletes it and stores the game it
starts: of any number of accepts of one seek, on any number of processes, the
one whose delete finds the row starts the game and every other one finds it gone
(:class:`SeekGoneError`).  Quick pairing takes the compatible seek that the
site's pairing chooses (:mod:`quads.site.lobby.pairing`) or adds one; on
PostgreSQL it holds a transaction lock of its pool (rules and clock), so that two
players pairing at once meet instead of both waiting.

On PostgreSQL every change is announced on :data:`LOBBY_CHANNEL` (``add ID``,
``drop ID`` and ``paired SEEK GAME SEEKER TAKER``), so that each process's lobby sockets hear
of it (:mod:`quads.web.notify`).
"""

from __future__ import annotations

import secrets
import zlib
from collections.abc import Callable, Collection
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, TypeVar

from sqlalchemy import Connection, RowMapping, delete, func, insert, select, update
from sqlalchemy import text as sql

from quads.storage.errors import StorageError, StorageUnavailableError
from quads.storage.store import GameStore
from quads.storage.stored import StoredGame, now
from quads.storage.tables import players, seeks

__all__ = [
    "LOBBY_CHANNEL",
    "Lobby",
    "OwnSeekError",
    "Paired",
    "Seek",
    "SeekGoneError",
    "SeekRating",
    "SeekSide",
    "TooManySeeksError",
]

LOBBY_CHANNEL = "quads_lobby"
"""The PostgreSQL channel of the lobby's changes."""

SeekSide = Literal["first", "second", "random"]
"""The side the seeker takes: ``first`` hands over first."""

_IDS_PER_QUERY = 500

_T = TypeVar("_T")

_TRIES = 4
"""Times a transaction that PostgreSQL rolled back for a deadlock is tried."""

_ROLLED_BACK = ("40P01", "40001")
"""SQLSTATEs of a deadlock and of a serialization failure: try again."""


class SeekGoneError(StorageError):
    """The seek was taken by somebody else, withdrawn, or never was."""


class OwnSeekError(StorageError):
    """A player cannot accept their own seek."""


class TooManySeeksError(StorageError):
    """The player has as many open seeks as one may."""


@dataclass(frozen=True)
class Seek:
    """An open offer to play."""

    id: str
    player: str
    name: str
    """The seeker's name, as others see it."""
    rules: str
    """The canonical name of the rule set."""
    clock: str
    """The time control: ``300+3`` or ``3d``."""
    side: SeekSide
    created: datetime
    seen: datetime
    bot: bool = False
    """Whether the seeker is a bot."""
    rated: bool = False
    """Whether the game it starts is rated (its seeker has an account)."""
    rating: int | None = None
    """The seeker's rating in the seek's category when it was opened (``None``: no
    account)."""
    rating_min: int | None = None
    """The lowest rating of a taker a rated seek accepts (``None``: no bound)."""
    rating_max: int | None = None
    """The highest rating of a taker a rated seek accepts (``None``: no bound)."""
    provisional: bool = False
    """Whether the seeker's :attr:`rating` was provisional (a high deviation)."""


@dataclass(frozen=True)
class SeekRating:
    """What a new seek says of ratings: whether it is rated, the seeker's rating, and
    the bounds of the takers' it accepts."""

    rated: bool = False
    rating: int | None = None
    low: int | None = None
    high: int | None = None
    provisional: bool = False


@dataclass(frozen=True)
class Paired:
    """A seek taken: the game it started, the seek, and every seek that went with it
    (the seek itself, and the other seeks of both players)."""

    game: StoredGame
    seek: Seek
    dropped: tuple[str, ...]


def _time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _seek(row: RowMapping) -> Seek:
    return Seek(id=row["id"], player=row["player"], name=row["name"], rules=row["rules"],
                clock=row["clock"], side=row["side"],
                created=datetime.fromisoformat(row["created"]),
                seen=datetime.fromisoformat(row["seen"]), bot=bool(row["bot"]),
                rated=bool(row["rated"]), rating=row["rating"], rating_min=row["rating_min"],
                rating_max=row["rating_max"], provisional=bool(row["provisional"]))


class Lobby:
    """The seeks and names kept in ``store``'s database."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def _notify(self, connection: Connection, payload: str) -> None:
        if self.store.postgres:
            connection.execute(sql("SELECT pg_notify(:channel, :payload)"),
                               {"channel": LOBBY_CHANNEL, "payload": payload})

    def _write(self) -> AbstractContextManager[Connection]:
        return self.store.begin(write=True)

    # -- names -----------------------------------------------------------------------

    def name(self, player: str, make: Callable[[], str]) -> str:
        """``player``'s name; one from ``make`` is given and kept if they have none."""
        with self.store.begin() as connection:
            found = connection.execute(select(players.c.name).where(players.c.id == player))
            name = found.scalar()
        if name is not None:
            return str(name)
        return self.rename(player, make(), only_if_none=True)

    def rename(self, player: str, name: str, *, only_if_none: bool = False) -> str:
        """Give ``player`` the name ``name`` (checked by the caller); with
        ``only_if_none``, only if they have none.  Return the name they now have.
        Their open seeks show the new name from now on."""
        with self._write() as connection:
            self.store.keep_players(connection, player)
            condition = players.c.id == player
            if only_if_none:
                condition = condition & players.c.name.is_(None)
            connection.execute(update(players).where(condition).values(name=name))
            current = connection.execute(
                select(players.c.name).where(players.c.id == player)).scalar()
            if not only_if_none:
                renamed = connection.execute(update(seeks).where(seeks.c.player == player)
                                             .values(name=name).returning(seeks.c.id))
                for (seek_id,) in renamed:
                    self._notify(connection, f"add {seek_id}")
        return str(current if current is not None else name)

    # -- seeks -------------------------------------------------------------------------

    def seeks(self, limit: int = 200) -> list[Seek]:
        """The open seeks, oldest first (``limit`` at most)."""
        with self.store.begin() as connection:
            rows = connection.execute(select(seeks).order_by(seeks.c.created, seeks.c.id)
                                      .limit(limit)).mappings().all()
        return [_seek(row) for row in rows]

    def seek(self, seek_id: str) -> Seek | None:
        """The open seek ``seek_id``, if it is still open."""
        with self.store.begin() as connection:
            row = connection.execute(select(seeks).where(seeks.c.id == seek_id)).mappings().first()
        return None if row is None else _seek(row)

    def add(self, player: str, name: str, rules: str, clock: str, side: SeekSide, *,
            most: int, rating: SeekRating | None = None) -> Seek:
        """Open a seek of ``player`` (rated or not, with the seeker's rating and the
        takers' it accepts: ``rating``).

        :raises TooManySeeksError: if they have ``most`` open already.
        """
        with self._write() as connection:
            return self._add(connection, player, name, rules, clock, side, most, rating)

    def _add(self, connection: Connection, player: str, name: str, rules: str, clock: str,
             side: SeekSide, most: int, rating: SeekRating | None = None) -> Seek:
        if self.store.postgres:  # one player's seeks are counted one request at a time
            connection.execute(sql("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": _lock_key("player", player)})
        count = connection.execute(select(func.count()).select_from(seeks)
                                   .where(seeks.c.player == player)).scalar_one()
        if count >= most:
            raise TooManySeeksError(f"{player} has {count} open seeks")
        moment = now()
        self.store.keep_players(connection, player)
        bot = connection.execute(select(players.c.bot).where(players.c.id == player)).scalar()
        rated = rating or SeekRating()
        seek = Seek(id=secrets.token_urlsafe(12), player=player, name=name, rules=rules,
                    clock=clock, side=side, created=moment, seen=moment, bot=bot is not None,
                    rated=rated.rated, rating=rated.rating, rating_min=rated.low,
                    rating_max=rated.high, provisional=rated.provisional)
        connection.execute(insert(seeks), {
            "id": seek.id, "player": player, "name": name, "rules": rules, "clock": clock,
            "side": side, "created": _time(moment), "seen": _time(moment),
            "bot": int(seek.bot), "rated": int(seek.rated), "rating": seek.rating,
            "rating_min": seek.rating_min, "rating_max": seek.rating_max,
            "provisional": int(seek.provisional)})
        self._notify(connection, f"add {seek.id}")
        return seek

    def cancel(self, seek_id: str, player: str) -> bool:
        """Withdraw ``player``'s seek ``seek_id``; ``False`` if they have no such seek."""
        with self._write() as connection:
            gone = connection.execute(delete(seeks).where(seeks.c.id == seek_id,
                                                          seeks.c.player == player))
            if gone.rowcount:
                self._notify(connection, f"drop {seek_id}")
            return bool(gone.rowcount)

    def drop_player(self, player: str) -> list[str]:
        """Withdraw every seek of ``player`` (they started a game); return their ids."""
        with self._write() as connection:
            return self._drop(connection, seeks.c.player == player)

    def _drop(self, connection: Connection, condition: object) -> list[str]:
        ids = [row[0] for row in connection.execute(
            delete(seeks).where(condition).returning(seeks.c.id))]  # type: ignore[arg-type]
        for seek_id in ids:
            self._notify(connection, f"drop {seek_id}")
        return ids

    def take(self, seek_id: str, player: str,
             make_game: Callable[[Seek], StoredGame]) -> Paired:
        """``player`` accepts the seek ``seek_id``: it goes, with every other seek of
        both players, and the game ``make_game`` makes of it is stored, in one
        transaction.

        :raises SeekGoneError: if it is not open (taken, withdrawn, never was).
        :raises OwnSeekError: if it is ``player``'s own (nothing changes).
        """
        return _again(lambda: self._take(seek_id, player, make_game))

    def _take(self, seek_id: str, player: str,
              make_game: Callable[[Seek], StoredGame]) -> Paired:
        with self._write() as connection:
            row = connection.execute(select(seeks).where(seeks.c.id == seek_id)).mappings().first()
            if row is None:
                raise SeekGoneError(f"no open seek {seek_id!r}")
            if row["player"] == player:
                raise OwnSeekError("this seek is your own")
            return self._start(connection, _seek(row), player, make_game)

    def _start(self, connection: Connection, seek: Seek, player: str,
               make_game: Callable[[Seek], StoredGame]) -> Paired:
        taken = connection.execute(delete(seeks).where(seeks.c.id == seek.id))
        if taken.rowcount == 0:  # another transaction took it first
            raise SeekGoneError(f"no open seek {seek.id!r}")
        stored = make_game(seek)
        self.store.create_in(connection, stored)
        dropped = [seek.id, *self._drop(connection, seeks.c.player.in_((seek.player, player)))]
        self._notify(connection, f"drop {seek.id}")
        self._notify(connection, f"paired {seek.id} {stored.id} {seek.player} {player}")
        return Paired(stored, seek, tuple(dropped))

    def pair(self, player: str, name: str, rules: str, clock: str,
             make_game: Callable[[Seek], StoredGame], *, most: int,
             choose: Callable[[list[Seek]], Seek | None], candidates: int,
             rating: SeekRating | None = None) -> Paired | Seek:
        """Quick pairing: take the seek that ``choose`` picks among the ``candidates``
        oldest seeks of other players with the same rules, clock and ratedness, or (if
        it picks none) open a seek (``random`` side, ``rating``) and wait.

        :raises TooManySeeksError: if a seek is to be opened and ``player`` has ``most``.
        """
        return _again(lambda: self._pair(player, name, rules, clock, make_game, most,
                                         choose, candidates, rating or SeekRating()))

    def _pair(self, player: str, name: str, rules: str, clock: str,
              make_game: Callable[[Seek], StoredGame], most: int,
              choose: Callable[[list[Seek]], Seek | None], candidates: int,
              rating: SeekRating) -> Paired | Seek:
        with self._write() as connection:
            if self.store.postgres:
                connection.execute(sql("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": _lock_key(rules, clock)})
            tried: list[str] = []
            while True:  # an accept (which takes no pool lock) may take a seek first
                rows = connection.execute(
                    select(seeks).where(seeks.c.rules == rules, seeks.c.clock == clock,
                                        seeks.c.rated == int(rating.rated),
                                        seeks.c.player != player, seeks.c.id.notin_(tried))
                    .order_by(seeks.c.created, seeks.c.id).limit(candidates)).mappings()
                chosen = choose([_seek(row) for row in rows])
                if chosen is None:
                    break
                try:
                    return self._start(connection, chosen, player, make_game)
                except SeekGoneError:
                    tried.append(chosen.id)
            return self._add(connection, player, name, rules, clock, "random", most, rating)

    # -- liveness ----------------------------------------------------------------------

    def keep(self, players_here: Collection[str]) -> None:
        """The seeks of ``players_here`` (players with a live socket) are still wanted."""
        ids = sorted(players_here)
        if not ids:
            return
        moment = _time(now())
        with self._write() as connection:
            for start in range(0, len(ids), _IDS_PER_QUERY):
                connection.execute(update(seeks).where(
                    seeks.c.player.in_(ids[start:start + _IDS_PER_QUERY]))
                    .values(seen=moment))

    def drop_unseen(self, before: datetime) -> list[str]:
        """Withdraw the seeks whose player had no live socket since ``before``."""
        with self._write() as connection:
            return self._drop(connection, seeks.c.seen < _time(before))


def _again(attempt: Callable[[], _T]) -> _T:
    """``attempt()``, tried again when PostgreSQL rolled it back for a deadlock with
    another transaction (two accepts of two seeks of one player each withdraw the
    other seek): of the two, one goes through and the other then sees what changed."""
    for left in range(_TRIES - 1, -1, -1):
        try:
            return attempt()
        except StorageUnavailableError as exc:
            state = getattr(getattr(exc.__cause__, "orig", None), "sqlstate", None)
            if left == 0 or state not in _ROLLED_BACK:
                raise
    raise AssertionError("unreachable")


def _lock_key(*parts: str) -> int:
    """A PostgreSQL advisory lock key (a signed 64-bit integer) for ``parts``."""
    return zlib.crc32("\0".join(("quads-lobby", *parts)).encode()) - 2**31
