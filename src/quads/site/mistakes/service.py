"""What a player does with their exercises: the exercises found in a game kept
(:func:`keep_found`), the list and the day's queue (:func:`exercises_of`), and an
answer judged and scheduled (:func:`answer`).

An answer is right when it is one of the turns that keep the value (for a hand-over
exercise, the piece alone counts); the exercise's memory then moves as
:mod:`quads.site.mistakes.schedule` says, and the answer counts whatever its moment:
of two answers the later one's memory stands (:mod:`quads.storage.exercises`).

A device that cannot reach the server judges its answers itself and sends them later
(:func:`answer_late`): each names its exercise by the position and kind (the device may
have found the exercise in its own game before the server did) and carries the moment
it was given and an id of the device's, so that one sent twice counts once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from quads.mistakes import Exercise, exercise_key
from quads.position import Position
from quads.rules import Rules
from quads.site.dates import device_moment
from quads.site.errors import SiteError
from quads.site.mistakes.schedule import Memory, answered, new_memory
from quads.storage import GameStore
from quads.storage.exercises import NewExercise, StoredExercise
from quads.turn import Turn

__all__ = ["Answered", "LateAnswer", "LateAnswered", "answer", "answer_late", "exercises_of",
           "found_exercises", "keep_found"]


@dataclass(frozen=True, slots=True)
class Answered:
    """What an answer did: whether it was right, the turns that were, and the
    exercise as it stands now (its next due date among it)."""

    right: bool
    exercise: StoredExercise


@dataclass(frozen=True, slots=True)
class LateAnswer:
    """An answer a device gave while it could not reach the server, sent later."""

    id: str
    """The device's id for the answer: the same answer sent again counts once."""
    rules: str
    position: str
    """The exercise's position string (the device's own, or the server's)."""
    kind: Literal["turn", "give"]
    turn: str
    at: str
    """When it was given, as the device wrote it (ISO 8601 with its offset)."""
    device: str | None = None
    """The id of the device's game the device found the exercise in, if it did."""


@dataclass(frozen=True, slots=True)
class LateAnswered:
    """What became of a late answer: ``kept`` (counted and scheduled, with what it did),
    ``waiting`` (the device's game it came from is not looked at yet: send it again
    later) or ``gone`` (the caller has no such exercise, nor will have)."""

    state: Literal["kept", "waiting", "gone"]
    answered: Answered | None = None


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
    return _judged(store, player, exercise, Turn.parse(text), at)


def _judged(store: GameStore, player: str, exercise: StoredExercise, turn: Turn,
            at: datetime, once: str | None = None) -> Answered:
    """Judge ``turn``, given at ``at``, count it and schedule the exercise (``once``: the
    device's id of the answer, counted once)."""
    right = _is_right(exercise, turn)
    memory = answered(Memory(exercise.due, exercise.learnt, exercise.card), right, at)
    store.answer_exercise(player, exercise.id, memory.card, memory.due, memory.learnt, at,
                          once=once)
    now = store.exercise(player, exercise.id)
    assert now is not None
    return Answered(right, now)


def answer_late(store: GameStore, player: str | None, late: LateAnswer,
                at: datetime) -> LateAnswered:
    """Count and schedule ``late``, an answer ``player``'s device gave offline, at the
    moment it was given (the server's ``at`` if the device dates it later); once only.

    :raises QuadsError: if its rules, position, turn or moment cannot be read (a moment
        before 2000 or more than a day after ``at`` is ``invalid_date``).
    """
    rules = Rules.parse(late.rules)
    position = Position.from_string(late.position)
    turn = Turn.parse(late.turn)
    given = device_moment(late.at, at)
    if player is None:
        return LateAnswered("gone")
    exercise = store.exercise_by_key(player, exercise_key(position, rules, late.kind))
    if exercise is None:
        return LateAnswered(_not_yet(store, player, late.device))
    return LateAnswered("kept", _judged(store, player, exercise, turn, given, once=late.id))


def _not_yet(store: GameStore, player: str, device: str | None) -> Literal["waiting", "gone"]:
    """Whether an exercise the caller lacks may still come: from the device's game
    ``device`` while the server has not stored it or not looked at its mistakes."""
    if device is None:
        return "gone"
    game = store.find_device(player, device)
    return "gone" if game is not None and store.mistakes_looked_for(game.id) else "waiting"
