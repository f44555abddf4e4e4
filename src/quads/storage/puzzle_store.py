"""Every attempt at a daily puzzle, and the dates each player's checked turns solved."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from datetime import datetime

from sqlalchemy import (
    RowMapping,
    and_,
    distinct,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from quads.storage.database import Database, moment_text
from quads.storage.results import PuzzleResult
from quads.storage.stored import now
from quads.storage.tables import puzzle_results, puzzle_solves

__all__ = ["PuzzleResultStore"]

_SOLVED_PAGE = 64
"""Solved dates that one query of :meth:`PuzzleResultStore.solved_dates` reads at most."""


def _result(row: RowMapping) -> PuzzleResult:
    return PuzzleResult(
        player=row["player"],
        date=dt.date.fromisoformat(row["date"]),
        tries=row["tries"],
        seconds=row["seconds"],
        solved=bool(row["solved"]),
        recorded=datetime.fromisoformat(row["recorded"]),
        attempt=row["attempt"],
    )


class PuzzleResultStore(Database):
    """The puzzle results of the database."""

    def add_result(self, result: PuzzleResult, *, solve: bool = False) -> bool:
        """Store one attempt at a puzzle; ``False`` (and nothing stored) when the player
        has an attempt of the same :attr:`~PuzzleResult.attempt` id already.

        With ``solve``, record in the same transaction that the player solved the
        puzzle of its date (as :meth:`add_solve`, the first solve standing).
        """
        make = postgresql_insert if self.postgres else sqlite_insert
        with self.begin(write=True) as connection:
            self.keep_players(connection, result.player)
            if solve:
                connection.execute(make(puzzle_solves).values({
                    "player": result.player, "date": result.date.isoformat(),
                    "solved": moment_text(result.recorded)}).on_conflict_do_nothing(
                        index_elements=["player", "date"]))
            done = connection.execute(make(puzzle_results).values({
                "player": result.player,
                "date": result.date.isoformat(),
                "tries": result.tries,
                "seconds": result.seconds,
                "solved": int(result.solved),
                "recorded": moment_text(result.recorded),
                "attempt": result.attempt,
            }).on_conflict_do_nothing(index_elements=["player", "attempt"])
                .returning(puzzle_results.c.id))
            return done.first() is not None

    def adopt_results(self, legacy: str, player: str) -> int:
        """Give the puzzle results stored under ``legacy`` (an id that a page made up
        itself, before players were known by the server) to ``player``; return how many.

        Ids of the server's own players (64 hex digits) are never taken this way.
        """
        if len(legacy) == 64 and all(c in "0123456789abcdef" for c in legacy):
            return 0
        with self.begin(write=True) as connection:
            result = connection.execute(update(puzzle_results)
                                        .where(puzzle_results.c.player == legacy)
                                        .values(player=player))
            solved = connection.execute(
                select(puzzle_results.c.date, puzzle_results.c.recorded)
                .where(puzzle_results.c.player == player, puzzle_results.c.solved == 1)
                .order_by(puzzle_results.c.id)).all()
            known = {row[0] for row in connection.execute(
                select(puzzle_solves.c.date).where(puzzle_solves.c.player == player))}
            for date, recorded in solved:
                if date not in known:
                    known.add(date)
                    connection.execute(insert(puzzle_solves),
                                       {"player": player, "date": date, "solved": recorded})
        return int(result.rowcount)

    def add_solve(self, player: str, date: dt.date) -> None:
        """Record that ``player``'s checked turns solved the puzzle of ``date``."""
        try:
            with self.begin(write=True) as connection:
                self.keep_players(connection, player)
                connection.execute(insert(puzzle_solves), {
                    "player": player, "date": date.isoformat(), "solved": moment_text(now())})
        except IntegrityError:
            pass  # solved before: the first solve stands

    def has_solve(self, player: str, date: dt.date) -> bool:
        """Whether ``player``'s checked turns solved the puzzle of ``date``."""
        with self.begin() as connection:
            row = connection.execute(select(puzzle_solves.c.player).where(
                puzzle_solves.c.player == player, puzzle_solves.c.date == date.isoformat()))
            return row.first() is not None

    def puzzle_day(self, player: str, date: dt.date) -> tuple[int, PuzzleResult | None]:
        """How many attempts ``player`` made at the puzzle of ``date``, and the first of
        them posted as solved (``None`` if none was)."""
        mine = and_(puzzle_results.c.player == player,
                    puzzle_results.c.date == date.isoformat())
        with self.begin() as connection:
            attempts = connection.execute(
                select(func.count()).select_from(puzzle_results).where(mine)).scalar_one()
            first = connection.execute(
                select(puzzle_results).where(mine, puzzle_results.c.solved == 1)
                .order_by(puzzle_results.c.id).limit(1)).mappings().first()
        return int(attempts), None if first is None else _result(first)

    def solved_count(self, player: str) -> int:
        """How many puzzle dates ``player`` solved (posted a solved result for)."""
        with self.begin() as connection:
            count = connection.execute(
                select(func.count(distinct(puzzle_results.c.date))).where(
                    puzzle_results.c.player == player, puzzle_results.c.solved == 1)
            ).scalar_one()
        return int(count)

    def solved_dates(self, player: str, until: dt.date,
                     page: int = _SOLVED_PAGE) -> Iterator[dt.date]:
        """The puzzle dates ``player`` solved, up to ``until``, newest first, each once:
        read ``page`` dates at a time, as far as the caller reads (a streak stops at
        its first gap)."""
        bound = puzzle_results.c.date <= until.isoformat()
        while True:
            with self.begin() as connection:
                dates = list(connection.execute(
                    select(puzzle_results.c.date).distinct().where(
                        puzzle_results.c.player == player, puzzle_results.c.solved == 1,
                        bound).order_by(puzzle_results.c.date.desc()).limit(page)).scalars())
            yield from (dt.date.fromisoformat(date) for date in dates)
            if len(dates) < page:
                return
            bound = puzzle_results.c.date < dates[-1]

    def results(self, player: str) -> list[PuzzleResult]:
        """Every attempt of ``player`` at a puzzle, newest puzzle date first, and within a
        date in the order they were stored."""
        with self.begin() as connection:
            rows = connection.execute(
                select(puzzle_results).where(puzzle_results.c.player == player)
                .order_by(puzzle_results.c.date.desc(), puzzle_results.c.id)
            ).mappings().all()
        return [_result(row) for row in rows]

    def result_of(self, player: str, attempt: str) -> PuzzleResult | None:
        """``player``'s attempt stored under the client's id ``attempt``, if any."""
        with self.begin() as connection:
            row = connection.execute(select(puzzle_results).where(
                puzzle_results.c.player == player, puzzle_results.c.attempt == attempt)
            ).mappings().first()
        return None if row is None else _result(row)
