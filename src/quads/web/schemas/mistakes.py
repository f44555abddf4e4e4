"""A player's exercises (``/api/mistakes``): the list with the day's queue and the
counts, an answer, and what it did."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from quads.storage.exercises import StoredExercise
from quads.web.fields import TurnText

__all__ = ["AnswerRequest", "AnswerView", "ExerciseCounts", "ExerciseList", "ExerciseView",
           "exercise_view"]


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


def exercise_view(exercise: StoredExercise) -> ExerciseView:
    """``exercise`` as the API shows it."""
    return ExerciseView(id=exercise.id, rules=exercise.rules, position=exercise.position,
                        kind=exercise.kind, keep=exercise.keep, played=exercise.played,
                        game=exercise.game, found=exercise.found, seen=exercise.seen,
                        due=exercise.due, learnt=exercise.learnt, tries=exercise.tries)
