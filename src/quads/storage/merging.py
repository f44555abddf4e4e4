"""One player merged into another: what a device did before it signed in becomes the
account's, and nothing of it is lost.

Where both have a row that may exist once per player, the one kept is the one that
says more: of two uploads of the same device game, the later revision; of two records
of one puzzle day or one attempt, the account's (they say the same).
"""

from __future__ import annotations

from sqlalchemy import Connection, and_, delete, select, update

from quads.storage.tables import (
    connections,
    exercise_answers,
    exercises,
    games,
    puzzle_results,
    puzzle_solves,
    seeks,
)

__all__ = ["merge_player"]


def merge_player(connection: Connection, source: str, target: str) -> int:
    """Make every game, seat, puzzle result and seek of ``source`` ``target``'s, in the
    transaction of ``connection``; how many rows changed hands."""
    _settle_device_games(connection, source, target)
    moved = 0
    for column in (games.c.owner, games.c.first_player, games.c.second_player):
        moved += int(connection.execute(
            update(games).where(column == source).values({column.name: target})).rowcount)
    theirs = select(puzzle_results.c.attempt).where(
        puzzle_results.c.player == target, puzzle_results.c.attempt.is_not(None))
    connection.execute(delete(puzzle_results).where(
        puzzle_results.c.player == source, puzzle_results.c.attempt.in_(theirs)))
    moved += int(connection.execute(update(puzzle_results)
                                    .where(puzzle_results.c.player == source)
                                    .values(player=target)).rowcount)
    days = select(puzzle_solves.c.date).where(puzzle_solves.c.player == target)
    connection.execute(delete(puzzle_solves).where(
        puzzle_solves.c.player == source, puzzle_solves.c.date.in_(days)))
    moved += int(connection.execute(update(puzzle_solves)
                                    .where(puzzle_solves.c.player == source)
                                    .values(player=target)).rowcount)
    # An exercise both have (the same position up to symmetry) stays the target's.
    keys = select(exercises.c.key).where(exercises.c.player == target)
    doubles = select(exercises.c.id).where(exercises.c.player == source,
                                           exercises.c.key.in_(keys))
    connection.execute(delete(exercise_answers).where(exercise_answers.c.exercise.in_(doubles)))
    connection.execute(delete(exercises).where(
        exercises.c.player == source, exercises.c.key.in_(keys)))
    moved += int(connection.execute(update(exercises).where(exercises.c.player == source)
                                    .values(player=target)).rowcount)
    moved += int(connection.execute(update(seeks).where(seeks.c.player == source)
                                    .values(player=target)).rowcount)
    connection.execute(delete(connections).where(connections.c.player == source))
    return moved


def _settle_device_games(connection: Connection, source: str, target: str) -> None:
    """Of each game uploaded from a device by both players (one device id: the same
    game), keep the later revision and delete the other, so that the owners' device ids
    stay unique."""
    mine, theirs = games.alias("mine"), games.alias("theirs")
    pairs = connection.execute(
        select(mine.c.id, mine.c.device_revision, theirs.c.id, theirs.c.device_revision)
        .join(theirs, and_(theirs.c.owner == target, theirs.c.device == mine.c.device))
        .where(mine.c.owner == source, mine.c.device.is_not(None))).all()
    for source_game, source_revision, target_game, target_revision in pairs:
        later = (source_revision or 0) > (target_revision or 0)
        loser = target_game if later else source_game
        connection.execute(delete(games).where(games.c.id == loser))
