"""A prune of the database: what expired goes, in short transactions
(:mod:`quads.storage.retention` says what expires)."""

from __future__ import annotations

import datetime as dt
from datetime import datetime

from sqlalchemy import (
    Connection,
    and_,
    delete,
    exists,
    select,
)
from sqlalchemy import text as sql

from quads.storage.database import Database, moment_text
from quads.storage.replays import Replays
from quads.storage.retention import Pruned
from quads.storage.stored import now
from quads.storage.tables import (
    accounts,
    connections,
    exercises,
    game_ends,
    games,
    players,
    puzzle_results,
    puzzle_solves,
)
from quads.storage.talk import forget_talk

__all__ = ["RetentionStore"]

_PRUNE_LOCK = 0x71756164
"""The PostgreSQL advisory lock a prune holds, so that one process prunes at a time."""

_PRUNE_BATCH = 500
"""Rows of each kind that one transaction of a prune deletes at most."""

_PRUNED_KINDS = ("unplayed_games", "ended_games", "abandoned_games", "players")

_IDS_PER_QUERY = 500
"""Presence rows' games that one delete names at most."""


class _DryRunError(Exception):
    """Raised to roll back a prune's deletes (``dry_run``)."""


class RetentionStore(Database):
    """Pruning of the database."""

    _replays: Replays
    """The games replayed lately (:class:`~quads.storage.store.GameStore`'s): a game
    pruned is forgotten there too."""

    def prune(self, unplayed: dt.timedelta, ended: dt.timedelta, *,
              at: datetime | None = None, dry_run: bool = False,
              batch: int = _PRUNE_BATCH) -> Pruned:
        """Delete what expired at ``at`` (default: now), as :mod:`quads.storage.retention`
        says: games nobody acted in and players with nothing after ``unplayed``,
        finished and abandoned games after ``ended``.  Return the counts; with
        ``dry_run``, delete nothing and return the same counts.

        A deleted game's presence rows go with it, its invitation stops working,
        and a rematch link to it leads to a new rematch; on PostgreSQL each
        process hears that the game is gone.  The deletes are short transactions
        of ``batch`` rows of each kind at most, so that other writers never wait
        long (a dry run is one transaction, rolled back); they are idempotent,
        and on PostgreSQL a second process that prunes meanwhile skips.
        """
        moment = now() if at is None else at
        cutoffs = (moment_text(moment - unplayed), moment_text(moment - ended))
        total = dict.fromkeys(_PRUNED_KINDS, 0)
        removed: list[str] = []
        while True:
            try:
                with self.begin(write=True) as connection:
                    if self.postgres and not connection.execute(
                            sql("SELECT pg_try_advisory_xact_lock(:key)"),
                            {"key": _PRUNE_LOCK}).scalar():
                        if removed or any(total.values()):
                            break  # the other process goes on from here
                        return Pruned(dry_run=dry_run, skipped=True)
                    counts, ids = self._prune_batch(connection, *cutoffs,
                                                    None if dry_run else batch)
                    if dry_run:
                        raise _DryRunError
                    for game_id in ids:
                        self.notify(connection, f"{game_id} gone")
                        self._replays.forget(game_id)
            except _DryRunError:
                pass  # rolled back
            for kind, count in counts.items():
                total[kind] += count
            removed.extend(ids)
            if dry_run or max(counts.values()) < batch:
                break
        return Pruned(unplayed_games=total["unplayed_games"],
                      ended_games=total["ended_games"],
                      abandoned_games=total["abandoned_games"], players=total["players"],
                      games=tuple(removed), dry_run=dry_run)

    @staticmethod
    def _prune_batch(connection: Connection, unplayed_before: str, ended_before: str,
                     limit: int | None) -> tuple[dict[str, int], list[str]]:
        """Delete up to ``limit`` expired rows of each kind (all if ``None``)."""
        either = games.c.status.in_(("ongoing", "over"))  # reads games_by_status
        # An account's finished games are its history (its profile lists them): kept.
        of_no_account = and_(*(~exists().where(accounts.c.player == column)
                               for column in (games.c.owner, games.c.first_player,
                                              games.c.second_player)))
        kinds = {
            "unplayed_games": and_(either, games.c.updated < unplayed_before,
                                   games.c.revision == 0),
            "ended_games": and_(games.c.status == "over", games.c.updated < ended_before,
                                games.c.revision > 0, of_no_account),
            "abandoned_games": and_(games.c.status == "ongoing",
                                    games.c.updated < ended_before, games.c.revision > 0),
        }
        counts: dict[str, int] = {}
        removed: list[str] = []
        for kind, condition in kinds.items():
            chosen = select(games.c.id).where(condition).limit(limit).scalar_subquery()
            ids = [row[0] for row in connection.execute(
                delete(games).where(games.c.id.in_(chosen), condition)
                .returning(games.c.id))]
            for start in range(0, len(ids), _IDS_PER_QUERY):
                connection.execute(delete(connections).where(
                    connections.c.game.in_(ids[start:start + _IDS_PER_QUERY])))
            for start in range(0, len(ids), _IDS_PER_QUERY):
                forget_talk(connection, ids[start:start + _IDS_PER_QUERY])
                # its note as ended goes too; what it added to the explorer stays
                connection.execute(delete(game_ends).where(
                    game_ends.c.game.in_(ids[start:start + _IDS_PER_QUERY])))
            counts[kind] = len(ids)
            removed.extend(ids)
        idle = and_(
            players.c.created < unplayed_before,
            ~exists().where(games.c.owner == players.c.id),
            ~exists().where(games.c.first_player == players.c.id),
            ~exists().where(games.c.second_player == players.c.id),
            ~exists().where(puzzle_results.c.player == players.c.id),
            ~exists().where(puzzle_solves.c.player == players.c.id),
            ~exists().where(exercises.c.player == players.c.id),
            ~exists().where(accounts.c.player == players.c.id),
        )
        chosen_players = select(players.c.id).where(idle).limit(limit).scalar_subquery()
        counts["players"] = int(connection.execute(
            delete(players).where(players.c.id.in_(chosen_players), idle)).rowcount)
        return counts, removed
