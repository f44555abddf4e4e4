"""What a player does with their exercises: the exercises found in a game kept
(:func:`keep_found`), the list and the day's queue (:func:`exercises_of`), and an
answer judged and scheduled (:func:`answer`).

An answer is right when it is one of the turns that keep the value (for a hand-over
exercise, the piece alone counts); the exercise's memory then moves as
:mod:`quads.site.mistakes.schedule` says, and the answer counts whatever its moment:
of two answers the later one's memory stands (:mod:`quads.storage.exercises`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from quads.mistakes import Exercise
from quads.site.errors import SiteError
from quads.site.mistakes.schedule import Memory, answered, new_memory
from quads.storage import GameStore
from quads.storage.exercises import NewExercise, StoredExercise
from quads.turn import Turn

__all__ = ["Answered", "answer", "exercises_of", "found_exercises", "keep_found"]


@dataclass(frozen=True, slots=True)
class Answered:
    """What an answer did: whether it was right, the turns that were, and the
    exercise as it stands now (its next due date among it)."""

    right: bool
    exercise: StoredExercise


def found_exercises(found: Sequence[Exercise], game: str | None,
                    at: datetime) -> list[NewExercise]:
    """The exercises ``found`` in ``game`` as the store keeps them, new: due at once."""
    fresh = new_memory(at)
    return [NewExercise(key=exercise.key, rules=exercise.rules.name,
                        position=exercise.position.to_string(), kind=exercise.kind,
                        keep=exercise.keep, played=exercise.played.text,
                        answers=tuple(turn.text for turn in exercise.right), game=game,
                        card=fresh.card, due=fresh.due)
            for exercise in found]


def keep_found(store: GameStore, player: str, found: Sequence[Exercise], game: str | None,
               at: datetime) -> int:
    """Keep the exercises found for ``player`` in ``game`` (new ones due at once);
    how many were new."""
    return store.keep_exercises(player, found_exercises(found, game, at), at)


def exercises_of(store: GameStore, player: str | None, at: datetime, *,
                 due: bool = False, limit: int = 100) -> list[StoredExercise]:
    """``player``'s exercises, the soonest due first; with ``due``, those due at ``at``
    (the day's queue).  A player the server does not know has none."""
    if player is None:
        return []
    return store.exercises_of(player, due_by=at if due else None, limit=limit)


def _is_right(exercise: StoredExercise, turn: Turn) -> bool:
    if exercise.kind == "give":
        return turn.give is not None and Turn(None, turn.give).text in exercise.answers
    return turn.text in exercise.answers


def answer(store: GameStore, player: str | None, exercise_id: str, text: str,
           at: datetime) -> Answered:
    """Judge ``player``'s answer ``text`` (a turn, ``B46``; for a hand-over exercise a
    piece, ``6``) to their exercise, given at ``at``, and schedule it.

    :raises SiteError: ``not_found`` (no such exercise of the caller's).
    :raises InvalidCellError: if ``text`` names no cell where it should.
    :raises InvalidPieceError: if ``text`` names no piece where it should.
    """
    exercise = None if player is None else store.exercise(player, exercise_id)
    if exercise is None or player is None:
        raise SiteError("not_found", f"no exercise {exercise_id!r} of yours")
    turn = Turn.parse(text)
    right = _is_right(exercise, turn)
    memory = answered(Memory(exercise.due, exercise.learnt, exercise.card), right, at)
    store.answer_exercise(player, exercise_id, memory.card, memory.due, memory.learnt, at)
    now = store.exercise(player, exercise_id)
    assert now is not None
    return Answered(right, now)
