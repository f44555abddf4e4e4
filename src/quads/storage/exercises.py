"""A player's exercises (``exercises``): the positions where they threw away a win or a
draw (:mod:`quads.mistakes`), one per position up to symmetry, and when each comes back.

An exercise found again (the same mistake in another game, or on a mirrored board) is
not kept twice: its count of times ``seen`` goes up.  An answer writes the exercise's
new memory only if no later answer was written meanwhile, so that answers given on
two devices, or sent late by a device that was offline, end with the latest one's
memory whatever order they arrive in; none is lost from the count of ``tries``.  An
answer a device gave offline comes with an id of its own: sent again, it is counted
once (``exercise_answers``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Connection, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from quads.storage.database import Database, moment_text
from quads.storage.tables import exercise_answers, exercises, game_ends

__all__ = ["ExerciseStore", "NewExercise", "StoredExercise"]


@dataclass(frozen=True, slots=True)
class NewExercise:
    """An exercise found in a game, as the store keeps it (texts, not objects)."""

    key: str
    rules: str
    position: str
    kind: Literal["turn", "give"]
    keep: Literal["win", "draw"]
    played: str
    answers: tuple[str, ...]
    game: str | None
    card: str
    due: datetime


@dataclass(frozen=True, slots=True)
class StoredExercise(NewExercise):
    """An exercise of a player, with its memory: the exercise found, and its id, when
    it was first found, how often the mistake was made, whether it is learnt, the
    answers given and the last answer's moment."""

    id: str
    found: datetime
    seen: int
    learnt: bool
    tries: int
    answered: datetime | None


def _stored(row: Any) -> StoredExercise:
    return StoredExercise(
        key=row.key, rules=row.rules, position=row.position, kind=row.kind, keep=row.keep,
        played=row.played, answers=tuple(row.answers.split()), game=row.game, card=row.card,
        due=datetime.fromisoformat(row.due), id=row.id,
        found=datetime.fromisoformat(row.found), seen=row.seen, learnt=bool(row.learnt),
        tries=row.tries,
        answered=None if row.answered is None else datetime.fromisoformat(row.answered))


class ExerciseStore(Database):
    """The players' exercises."""

    def keep_exercises(self, player: str, found: Sequence[NewExercise], at: datetime) -> int:
        """Keep the exercises ``player`` was found to need at ``at``; one kept already
        (the same key) is seen once more instead.  How many were new."""
        if not found:
            return 0
        with self.begin(write=True) as connection:
            return self._keep(connection, player, found, at)

    def _keep(self, connection: Connection, player: str, found: Sequence[NewExercise],
              at: datetime) -> int:
        make = postgresql_insert if self.postgres else sqlite_insert
        new = 0
        for exercise in found:
            statement = make(exercises).values(
                id=secrets.token_urlsafe(9), player=player, key=exercise.key,
                rules=exercise.rules, position=exercise.position, kind=exercise.kind,
                keep=exercise.keep, played=exercise.played,
                answers=" ".join(exercise.answers), game=exercise.game,
                found=moment_text(at), seen=1, card=exercise.card,
                due=moment_text(exercise.due), learnt=0, tries=0, answered=None)
            kept = connection.execute(statement.on_conflict_do_nothing(
                index_elements=["player", "key"]).returning(exercises.c.id)).first()
            if kept is not None:
                new += 1
                continue
            connection.execute(update(exercises).where(
                exercises.c.player == player, exercises.c.key == exercise.key)
                .values(seen=exercises.c.seen + 1))
        return new

    # -- the ended games whose mistakes are to be looked for ---------------------------

    def take_ended(self, at: datetime, lease: timedelta, most_tries: int) -> str | None:
        """The game that ended first of those whose mistakes are still to be looked
        for, taken at ``at`` for ``lease`` (no other process takes it meanwhile); one
        taken ``most_tries`` times already is given up.  ``None``: nothing to do."""
        free = or_(game_ends.c.taken.is_(None), game_ends.c.taken < moment_text(at - lease))
        with self.begin(write=True) as connection:
            query = select(game_ends.c.game, game_ends.c.tries).where(
                game_ends.c.mistakes == "todo", free).order_by(game_ends.c.ended).limit(1)
            if self.postgres:
                query = query.with_for_update(skip_locked=True)
            row = connection.execute(query).first()
            if row is None:
                return None
            given_up = row.tries >= most_tries
            connection.execute(update(game_ends).where(game_ends.c.game == row.game).values(
                taken=moment_text(at), tries=row.tries + 1,
                mistakes="done" if given_up else "todo"))
        return None if given_up else str(row.game)

    def finish_ended(self, game: str, found: Mapping[str, Sequence[NewExercise]],
                     at: datetime) -> int:
        """Keep the exercises ``found`` in the ended ``game`` for each of its players
        and mark it looked at, at once; how many exercises were new."""
        with self.begin(write=True) as connection:
            done = connection.execute(update(game_ends).where(
                game_ends.c.game == game, game_ends.c.mistakes == "todo")
                .values(mistakes="done"))
            if done.rowcount != 1:
                return 0  # another process finished it (its lease ran out here)
            return sum(self._keep(connection, player, exercises_found, at)
                       for player, exercises_found in found.items())

    def mistakes_looked_for(self, game: str) -> bool:
        """Whether the mistakes of ``game`` were looked for (or given up on): ``False``
        while it goes on or waits in the queue."""
        with self.begin() as connection:
            row = connection.execute(select(game_ends.c.mistakes).where(
                game_ends.c.game == game)).first()
        return row is not None and row.mistakes == "done"

    def exercises_of(self, player: str, *, due_by: datetime | None = None,
                     limit: int = 100) -> list[StoredExercise]:
        """``player``'s exercises, the soonest due first; with ``due_by``, those due
        by then only."""
        query = select(exercises).where(exercises.c.player == player)
        if due_by is not None:
            query = query.where(exercises.c.due <= moment_text(due_by))
        with self.begin() as connection:
            rows = connection.execute(query.order_by(exercises.c.due, exercises.c.id)
                                      .limit(limit)).all()
        return [_stored(row) for row in rows]

    def exercise_counts(self, player: str, at: datetime) -> tuple[int, int, int]:
        """How many of ``player``'s exercises are learnt, due at ``at``, and new (never
        answered)."""
        with self.begin() as connection:
            row = connection.execute(select(
                func.count().filter(exercises.c.learnt == 1),
                func.count().filter(exercises.c.due <= moment_text(at)),
                func.count().filter(exercises.c.tries == 0)).where(
                exercises.c.player == player)).one()
        return int(row[0]), int(row[1]), int(row[2])

    def exercise(self, player: str, exercise_id: str) -> StoredExercise | None:
        """``player``'s exercise ``exercise_id`` (another player's is nobody's here)."""
        with self.begin() as connection:
            row = connection.execute(select(exercises).where(
                exercises.c.id == exercise_id, exercises.c.player == player)).first()
        return None if row is None else _stored(row)

    def exercise_by_key(self, player: str, key: str) -> StoredExercise | None:
        """``player``'s exercise of ``key`` (a position up to symmetry, and a kind)."""
        with self.begin() as connection:
            row = connection.execute(select(exercises).where(
                exercises.c.player == player, exercises.c.key == key)).first()
        return None if row is None else _stored(row)

    def answer_exercise(self, player: str, exercise_id: str, card: str, due: datetime,
                        learnt: bool, at: datetime, *, once: str | None = None) -> bool:
        """Count an answer given at ``at`` and, unless a later answer is written
        already, keep the memory it leads to; whether the memory was kept.  ``once``:
        the id a device gave the answer; one counted already under it changes nothing."""
        moment = moment_text(at)
        make = postgresql_insert if self.postgres else sqlite_insert
        with self.begin(write=True) as connection:
            owned = connection.execute(select(exercises.c.id).where(
                exercises.c.id == exercise_id, exercises.c.player == player)).first()
            if owned is None:
                return False
            if once is not None:
                first = connection.execute(make(exercise_answers).values(
                    exercise=exercise_id, answer=once, at=moment).on_conflict_do_nothing(
                    index_elements=["exercise", "answer"])
                    .returning(exercise_answers.c.answer)).first()
                if first is None:
                    return False
            connection.execute(update(exercises).where(exercises.c.id == exercise_id)
                               .values(tries=exercises.c.tries + 1))
            kept = connection.execute(update(exercises).where(
                exercises.c.id == exercise_id,
                or_(exercises.c.answered.is_(None), exercises.c.answered <= moment))
                .values(card=card, due=moment_text(due), learnt=int(learnt),
                        answered=moment))
        return bool(kept.rowcount)
