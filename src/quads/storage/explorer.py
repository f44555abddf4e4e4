"""Games that ended on this site (``game_ends``) and what people played in them
(``explored``, :mod:`quads.explorer`).

**Once.**  The transaction that ends a game (a save of its last action, or the
upload of a device game that is over) calls :func:`end_game`, which writes the game's
row of ``game_ends`` if it has none yet and, only then, adds its turns to the
explorer's counts: a game is counted once however often it is saved after its end,
on any number of processes, and no count needs a rescan.

**Counted.**  Games between people (``online``) and against the computer
(``computer``, by level) that were played out (an aborted game counts nothing); a
game of two people on one device, or one imported, is no sign of what people play
here.  A rated game falls in the rating band of its players' mean rating before it
(rounded down to a multiple of :data:`BAND`); any other in band 0.

**Recount.**  :meth:`ExplorerStore.recount_explorer` counts every game of
``game_ends`` again from its stored record and replaces the counts with the result:
equal to them, but for the games a prune removed since they were counted (what
people played stays counted when a game goes; a recount knows only the games
stored).  It reads the games without holding any
lock and writes in one short transaction, which also counts the games that ended
while it read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, func, select
from sqlalchemy import text as sql
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from quads.explorer import PlayedTurn, ending_of, played_turns
from quads.game import Game
from quads.position import Position
from quads.rules import Rules
from quads.storage.database import Database, moment_text
from quads.storage.stored import StoredGame, now, parse_action, rebuild_game
from quads.storage.tables import explored, game_ends, games, rating_changes

__all__ = ["BAND", "Counts", "ExplorerStore", "Filters", "counted_turns", "end_game"]

BAND = 200
"""The width of a rating band."""

_KEY = ["rules", "position", "source", "rated", "band", "result"]
_READ_BATCH = 500
"""Games a recount reads at a time."""

Row = tuple[str, str, str, int, int, str]
"""An ``explored`` row's key: rules, position, source, rated, band, result."""
Tally = dict[Row, list[int]]
"""Counts being made: games, first wins, second wins, draws of each row."""


@dataclass(frozen=True, slots=True)
class Counts:
    """How often a turn was played, and how those games ended."""

    games: int
    first: int
    second: int
    draws: int


@dataclass(frozen=True, slots=True)
class Filters:
    """Which games the explorer's answer counts (``None``: any)."""

    sources: tuple[str, ...] | None = None
    """``people``, ``level-1`` ... ``level-5``."""
    rated: bool | None = None
    bands: tuple[int, int] | None = None
    """The lowest and highest band (inclusive) of rated games."""


def _source(mode: str, level: int | None) -> str | None:
    if mode == "online":
        return "people"
    if mode == "computer" and level is not None:
        return f"level-{level}"
    return None


def _band(connection: Connection, game_id: str) -> int:
    befores = connection.execute(select(rating_changes.c.before).where(
        rating_changes.c.game == game_id)).scalars().all()
    if len(befores) != 2:
        return 0
    return int(sum(befores) / 2 // BAND * BAND)


def _tally(tally: Tally, game: Game, source: str, rated: bool, band: int,
           turns: Sequence[PlayedTurn] | None = None) -> None:
    ending = ending_of(game)
    if ending is None:
        return
    name = game.rules.name
    for turn in played_turns(game) if turns is None else turns:
        counts = tally.setdefault(
            (name, turn.position, source, int(rated), band, turn.result), [0, 0, 0, 0])
        counts[0] += 1
        counts[{"first": 1, "second": 2, "draw": 3}[ending]] += 1


def _add(connection: Connection, tally: Tally, postgres: bool) -> None:
    if not tally:
        return
    make = postgresql_insert if postgres else sqlite_insert
    statement = make(explored)
    statement = statement.on_conflict_do_update(index_elements=_KEY, set_={
        column: explored.c[column] + statement.excluded[column]
        for column in ("games", "first", "second", "draws")})
    connection.execute(statement, [
        dict(zip(_KEY, row, strict=True), games=c[0], first=c[1], second=c[2], draws=c[3])
        for row, c in sorted(tally.items())])  # in key order: no two ends deadlock


def counted_turns(stored: StoredGame) -> list[PlayedTurn] | None:
    """The keyed turns :func:`end_game` counts of ``stored`` (over), or ``None`` for a
    game the explorer does not count: made before the transaction that ends the game,
    so that the keys (most of the counting's time) are not worked out while it holds
    the database."""
    if _source(stored.mode, stored.level) is None or ending_of(stored.game) is None:
        return None
    return played_turns(stored.game)


def end_game(connection: Connection, stored: StoredGame, postgres: bool,
             turns: Sequence[PlayedTurn] | None) -> bool:
    """Note ``stored`` (just over) as ended and count ``turns``, its
    :func:`counted_turns`, in the transaction of ``connection``; whether it was new (a
    game already noted counts nothing)."""
    make = postgresql_insert if postgres else sqlite_insert
    noted = connection.execute(make(game_ends).values(
        game=stored.id, ended=moment_text(now()), mistakes="todo", taken=None, tries=0)
        .on_conflict_do_nothing(index_elements=["game"]).returning(game_ends.c.game)).first()
    if noted is None:
        return False
    source = _source(stored.mode, stored.level)
    if source is not None and turns is not None:
        tally: Tally = {}
        _tally(tally, stored.game, source, stored.rated,
               _band(connection, stored.id) if stored.rated else 0, turns)
        _add(connection, tally, postgres)
    return True


_READ = (select(games.c.id, games.c.rules, games.c.start, games.c.headers, games.c.actions,
                games.c.mode, games.c.level, games.c.rated)
         .join(game_ends, game_ends.c.game == games.c.id))
"""The ended games' rows as a recount reads them."""


def _count_rows(connection: Connection, rows: Sequence[Any], tally: Tally) -> None:
    for row in rows:
        source = _source(row.mode, row.level)
        if source is None:
            continue
        game = rebuild_game(Rules.parse(row.rules), Position.from_string(row.start),
                            json.loads(row.headers),
                            [parse_action(a) for a in json.loads(row.actions)], [])
        _tally(tally, game, source, bool(row.rated),
               _band(connection, row.id) if row.rated else 0)


class ExplorerStore(Database):
    """The explorer's counts."""

    def explorer(self, rules: str, position: str, filters: Filters | None = None
                 ) -> dict[str, Counts]:
        """What was played in the position of key ``position`` under ``rules``: each
        turn's key with its counts, over the games that ``filters`` let through
        (``None``: every game)."""
        filters = filters or Filters()
        query = select(explored.c.result, func.sum(explored.c.games), func.sum(explored.c.first),
                       func.sum(explored.c.second), func.sum(explored.c.draws)).where(
            explored.c.rules == rules, explored.c.position == position)
        if filters.sources is not None:
            query = query.where(explored.c.source.in_(filters.sources))
        if filters.rated is not None:
            query = query.where(explored.c.rated == int(filters.rated))
        if filters.bands is not None:
            low, high = filters.bands
            query = query.where(explored.c.band >= low, explored.c.band <= high)
        with self.begin() as connection:
            rows = connection.execute(query.group_by(explored.c.result)).all()
        return {row[0]: Counts(int(row[1]), int(row[2]), int(row[3]), int(row[4]))
                for row in rows}

    def recount_explorer(self, progress: Callable[[int], None] | None = None) -> int:
        """Count every ended game again and make the counts what this gives; how many
        games were read.  ``progress`` hears the games read so far, now and then."""
        tally: Tally = {}
        seen: set[str] = set()
        after = ""
        while True:
            with self.begin() as connection:
                rows = connection.execute(_READ.where(games.c.id > after)
                                          .order_by(games.c.id).limit(_READ_BATCH)).all()
                _count_rows(connection, rows, tally)
            if not rows:
                break
            seen.update(row.id for row in rows)
            after = rows[-1].id
            if progress is not None:
                progress(len(seen))
        with self.begin(write=True) as connection:
            if self.postgres:  # no game ends between the reading of the late ones and the end
                connection.execute(sql("LOCK TABLE explored IN EXCLUSIVE MODE"))
            late = set(connection.execute(select(game_ends.c.game)).scalars()) - seen
            if late:
                _count_rows(connection, connection.execute(
                    _READ.where(games.c.id.in_(sorted(late)))).all(), tally)
            connection.execute(delete(explored))
            _add(connection, tally, self.postgres)
        return len(seen) + len(late)
