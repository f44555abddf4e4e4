"""Who has a game open, on which server process, and since when a seat holder is
away; and the games whose clock ran out."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import (
    and_,
    delete,
    insert,
    select,
    update,
)

from quads.storage.database import Database, moment_text
from quads.storage.stored import now
from quads.storage.tables import connections, games, processes

__all__ = ["PresenceStore"]

_IDS_PER_QUERY = 500
"""Games whose presence one query reads at most."""


class PresenceStore(Database):
    """Presence and clocks in the database."""

    def due_games(self, at: datetime, limit: int = 100) -> list[str]:
        """The games going on whose clock (or grace) had run out by ``at``, soonest
        first (``limit`` at most)."""
        with self.begin() as connection:
            rows = connection.execute(
                select(games.c.id).where(games.c.deadline <= moment_text(at),
                                         games.c.status == "ongoing")
                .order_by(games.c.deadline).limit(limit)).all()
        return [row[0] for row in rows]

    def mark_away(self, game_id: str, player: str, away: bool,
                  at: datetime | None = None) -> None:
        """Record that ``player`` (in a seat of ``game_id``) has left it everywhere, at
        ``at`` (default: now), unless already recorded, or (``away`` false) that they
        are back.  Not a save: the revision stays."""
        moment = None if not away else moment_text(now() if at is None else at)
        with self.begin(write=True) as connection:
            for seat, column in ((games.c.first_player, "first_away"),
                                 (games.c.second_player, "second_away")):
                condition = and_(games.c.id == game_id, seat == player)
                if away:
                    condition = and_(condition, games.c[column].is_(None))
                connection.execute(update(games).where(condition).values({column: moment}))

    def process_alive(self, process: str) -> None:
        """Record that server ``process`` lives, now."""
        seen = moment_text(now())
        with self.begin(write=True) as connection:
            done = connection.execute(update(processes).where(processes.c.id == process)
                                      .values(seen=seen))
            if done.rowcount == 0:
                connection.execute(insert(processes), {"id": process, "seen": seen})

    def process_ended(self, process: str) -> None:
        """Forget server ``process`` and its connections."""
        with self.begin(write=True) as connection:
            games_open = connection.execute(select(connections.c.game).distinct()
                                            .where(connections.c.process == process)).all()
            connection.execute(delete(connections).where(connections.c.process == process))
            connection.execute(delete(processes).where(processes.c.id == process))
            for (game_id,) in games_open:
                self.notify(connection, f"{game_id} presence")

    def set_connected(self, process: str, game_id: str, player: str, open_: bool) -> None:
        """Record whether ``player`` has ``game_id`` open on a socket of ``process``, and
        tell the other processes."""
        key = (connections.c.process == process, connections.c.game == game_id,
               connections.c.player == player)
        with self.begin(write=True) as connection:
            connection.execute(delete(connections).where(*key))
            if open_:
                connection.execute(insert(connections), {"process": process, "game": game_id,
                                                         "player": player})
            self.notify(connection, f"{game_id} presence")

    def connected_elsewhere(self, game_ids: Collection[str], process: str,
                            alive_since: datetime) -> dict[str, frozenset[str]]:
        """For each of ``game_ids``, the players who have it open on another process
        that was alive at ``alive_since`` or later (an empty set if none)."""
        found: dict[str, set[str]] = {game_id: set() for game_id in game_ids}
        ids = list(found)
        with self.begin() as connection:
            for start in range(0, len(ids), _IDS_PER_QUERY):
                query = (select(connections.c.game, connections.c.player).distinct()
                         .join(processes, processes.c.id == connections.c.process)
                         .where(connections.c.game.in_(ids[start:start + _IDS_PER_QUERY]),
                                connections.c.process != process,
                                processes.c.seen >= moment_text(alive_since)))
                for game_id, player in connection.execute(query):
                    found[game_id].add(player)
        return {game_id: frozenset(players) for game_id, players in found.items()}
