"""A player's mistakes as exercises: ``GET /api/mistakes`` lists the caller's (with
``?due=true`` the day's queue) and their counts, ``POST /api/mistakes/{id}/answer``
judges an answer and schedules the exercise, ``POST /api/mistakes/answers`` counts the
answers a device gave offline (:mod:`quads.site.mistakes`).  Nobody sees or answers
another player's exercises; answers are counted as puzzles are (``rate_puzzles``; a
request of late answers once)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from quads.errors import QuadsError
from quads.site.mistakes import service
from quads.storage.stored import now
from quads.web.dispatch import quick
from quads.web.errors import error_body, library_code
from quads.web.middleware import rates
from quads.web.openapi import refusals
from quads.web.schemas.mistakes import (
    AnswerRequest,
    AnswerView,
    ExerciseCounts,
    ExerciseList,
    LateAnswerItem,
    LateAnswerRequest,
    LateAnswersView,
    LateAnswerView,
    exercise_view,
)
from quads.web.schemas.refusals import ErrorDetail
from quads.web.wiring import CallerOf, StoreOf

__all__ = ["router"]

router = APIRouter(prefix="/api")

ExerciseId = Annotated[str, Path(description="The exercise's id",
                                 pattern=r"^[A-Za-z0-9_-]{1,32}$")]


@router.get("/mistakes", tags=["mistakes"])
@quick
def mistakes(store: StoreOf, player: CallerOf,
             due: Annotated[bool, Query(description="Only those due now")] = False
             ) -> ExerciseList:
    """The caller's exercises, the soonest due first, and how many are learnt, due and
    new."""
    at = now()
    found = service.exercises_of(store, player, at, due=due)
    learnt, due_now, new = (0, 0, 0) if player is None else store.exercise_counts(player, at)
    return ExerciseList(exercises=[exercise_view(e) for e in found],
                        counts=ExerciseCounts(learnt=learnt, due=due_now, new=new))


@router.post("/mistakes/{exercise_id}/answer", tags=["mistakes"],
             responses=refusals(404, 422, 429))
@quick
def answer_mistake(request: Request, exercise_id: ExerciseId, body: AnswerRequest, store: StoreOf,
           player: CallerOf) -> AnswerView:
    """Answer an exercise of the caller's: right when the turn (for a hand-over exercise,
    its piece) keeps the value; a right answer pushes the next showing out, a wrong one
    brings it back soon."""
    rates.charge(request, "puzzles")
    done = service.answer(store, player, exercise_id, body.turn, now())
    return AnswerView(right=done.right, answers=list(done.exercise.answers),
                      exercise=exercise_view(done.exercise))


def _late(store: StoreOf, player: str | None, item: LateAnswerItem) -> LateAnswerView:
    late = service.LateAnswer(id=item.id, rules=item.rules, position=item.position,
                              kind=item.kind, turn=item.turn, at=item.at, device=item.device)
    try:
        done = service.answer_late(store, player, late, now())
    except QuadsError as exc:
        return LateAnswerView(id=item.id, state="refused", error=ErrorDetail.model_validate(
            error_body(library_code(exc), str(exc), exc.reason, exc.params)))
    if done.answered is None:
        return LateAnswerView(id=item.id, state=done.state)
    return LateAnswerView(id=item.id, state=done.state, right=done.answered.right,
                          exercise=exercise_view(done.answered.exercise))


@router.post("/mistakes/answers", tags=["mistakes"], responses=refusals(422, 429))
@quick
def late_answers(request: Request, body: LateAnswerRequest, store: StoreOf,
                 player: CallerOf) -> LateAnswersView:
    """Count the answers the caller's device gave while it could not reach the server,
    each at the moment it was given, and each once however often it is sent; say what
    became of each (one that cannot be read is refused alone)."""
    rates.charge(request, "puzzles")
    return LateAnswersView(answers=[_late(store, player, item) for item in body.answers])
