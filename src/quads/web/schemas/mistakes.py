"""A player's exercises (``/api/mistakes``): the list with the day's queue and the
counts, an answer, and what it did."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from quads.storage.exercises import StoredExercise
from quads.web.fields import UUID_PATTERN, PositionText, TimeText, TurnText
from quads.web.schemas.refusals import ErrorDetail

__all__ = [
    "MOST_LATE_ANSWERS",
    "AnswerRequest",
    "AnswerView",
    "ExerciseCounts",
    "ExerciseList",
    "ExerciseView",
    "LateAnswerItem",
    "LateAnswerRequest",
    "LateAnswerView",
    "LateAnswersView",
    "exercise_view",
]

MOST_LATE_ANSWERS = 50
"""Late answers in one request at most."""


class ExerciseView(BaseModel):
    """An exercise: where the caller threw away a win or a draw, and when it comes back.
    The turns that keep the value are not shown before an answer."""

    id: str
    rules: str
    position: str = Field(description="The position string, the caller to act")
    kind: Literal["turn", "give"] = Field(description="`turn`: place the piece in hand and "
                                                      "hand one over; `give`: hand one over")
    keep: Literal["win", "draw"] = Field(description="The value to keep")
    played: str = Field(description="What the caller played there in the game")
    game: str | None = Field(description="The game it was first found in")
    found: datetime
    seen: int = Field(ge=1, description="How often the mistake was made")
    due: datetime = Field(description="When it comes back")
    learnt: bool
    tries: int = Field(ge=0, description="Answers given")


class ExerciseCounts(BaseModel):
    """The caller's exercises: learnt, due now, and never answered."""

    learnt: int = Field(ge=0)
    due: int = Field(ge=0)
    new: int = Field(ge=0)


class ExerciseList(BaseModel):
    """The caller's exercises, the soonest due first (100 at most), and the counts."""

    exercises: list[ExerciseView]
    counts: ExerciseCounts


class AnswerRequest(BaseModel):
    """An answer: a turn (`B46`), or for a hand-over exercise a piece (`6`)."""

    model_config = ConfigDict(extra="forbid")

    turn: TurnText


class AnswerView(BaseModel):
    """What an answer did: right or wrong, every turn that was right, and the exercise
    as it stands now (`due`: when it comes back)."""

    right: bool
    answers: list[str] = Field(description="Every turn (or piece) that keeps the value")
    exercise: ExerciseView


class LateAnswerItem(BaseModel):
    """An answer the device gave while it could not reach the server: the exercise by
    its position and kind, the turn, when, and the device's id for the answer."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(pattern=UUID_PATTERN,
                    description="The device's id for the answer (sent again, it counts once)")
    rules: str = Field(min_length=1, max_length=200)
    position: PositionText
    kind: Literal["turn", "give"]
    turn: TurnText
    at: TimeText = Field(description="When it was given on the device")
    device: str | None = Field(default=None, pattern=UUID_PATTERN,
                               description="The device's game the device found the "
                                           "exercise in, if it did")


class LateAnswerRequest(BaseModel):
    """Answers given offline, oldest first."""

    model_config = ConfigDict(extra="forbid")

    answers: list[LateAnswerItem] = Field(min_length=1, max_length=MOST_LATE_ANSWERS)


class LateAnswerView(BaseModel):
    """What became of one late answer."""

    id: str
    state: Literal["kept", "waiting", "gone", "refused"] = Field(
        description="`kept`: counted and scheduled; `waiting`: its game is not looked at "
                    "yet, send it again later; `gone`: no such exercise of the caller's "
                    "(nor will there be); `refused`: it cannot be read (`error`)")
    right: bool | None = None
    exercise: ExerciseView | None = Field(default=None,
                                          description="The exercise as it stands now")
    error: ErrorDetail | None = Field(default=None, description="Why it was refused")


class LateAnswersView(BaseModel):
    """Each late answer's fate, in the order sent."""

    answers: list[LateAnswerView]


def exercise_view(exercise: StoredExercise) -> ExerciseView:
    """``exercise`` as the API shows it."""
    return ExerciseView(id=exercise.id, rules=exercise.rules, position=exercise.position,
                        kind=exercise.kind, keep=exercise.keep, played=exercise.played,
                        game=exercise.game, found=exercise.found, seen=exercise.seen,
                        due=exercise.due, learnt=exercise.learnt, tries=exercise.tries)
