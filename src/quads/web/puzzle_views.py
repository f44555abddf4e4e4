"""The puzzles as the API shows them: a puzzle without its solution, the verdict on
a turn (judged by :mod:`quads.puzzles`), a player's history and what storing an
attempt changed.  Which puzzles exist and what counts as solved is the site's
(:mod:`quads.site.puzzles`)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Literal

from quads.bits import iter_bits
from quads.cells import cell_name
from quads.pieces import piece_name
from quads.position import Position
from quads.puzzles import (
    Puzzle,
    check_turn,
    needs_handover,
    own_placements,
    position_after,
    streak,
)
from quads.rules import Rules
from quads.site.puzzles.days import ARCHIVE_DAYS
from quads.site.puzzles.results import Recorded
from quads.storage import PuzzleResult
from quads.turn import Turn
from quads.web.schemas.puzzles import (
    PuzzleDay,
    PuzzleGoal,
    PuzzleHistory,
    PuzzleResultAnswer,
    PuzzleResultView,
    PuzzleView,
    SolverValue,
    VerdictView,
)

__all__ = ["check", "history_view", "puzzle_view", "result_answer"]


def _pieces(mask: int) -> list[str]:
    return [piece_name(piece) for piece in iter_bits(mask)]


def _board(position: Position) -> list[str | None]:
    return [None if (piece := position.piece_at(cell)) is None else piece_name(piece)
            for cell in range(16)]


def _winning_cells(position: Position, rules: Rules) -> list[str]:
    cells = 0
    for shape in position.winning_shapes(rules):
        cells |= shape.cells
    return [cell_name(cell) for cell in iter_bits(cells)]


def puzzle_view(puzzle: Puzzle, today: datetime.date) -> PuzzleView:
    """The puzzle without its solution."""
    position = puzzle.position
    assert position.hand is not None  # a puzzle always starts with a piece in hand
    return PuzzleView(
        date=puzzle.date,
        today=puzzle.date == today,
        rules=puzzle.rules.name,
        calling=puzzle.rules.calling.value,
        position=position.to_string(),
        goal=PuzzleGoal(result="win", plies=puzzle.plies, moves=puzzle.moves),
        weekday=puzzle.weekday,
        difficulty=puzzle.difficulty,
        board=_board(position),
        hand=piece_name(position.hand),
        supply=_pieces(position.supply),
    )


def check(puzzle: Puzzle, played_tokens: Sequence[str], turn_token: str) -> VerdictView:
    """Judge the player's turn ``turn_token`` after ``played_tokens``.

    :raises QuadsError: if a token cannot be read (``invalid_cell``, ``invalid_piece``)
        or a turn is not legal (``illegal_action``).
    """
    played = [Turn.parse(token) for token in played_tokens]
    turn = Turn.parse(turn_token)
    if needs_handover(puzzle, turn, played):
        assert turn.place is not None
        shown = position_after(puzzle, played).place(turn.place)
        return _verdict(puzzle, shown, [*played, turn], needs_give=True, accepted=False,
                        solved=False, turn=turn, reply=None, value="unknown", moves_left=0)
    verdict = check_turn(puzzle, turn, played)
    line = [*played, turn, *([verdict.reply] if verdict.reply is not None else [])]
    shown = position_after(puzzle, line)
    moves_left = (own_placements(verdict.plies_left)
                  if verdict.accepted and verdict.plies_left > 0 else 0)
    return _verdict(puzzle, shown, line, needs_give=False, accepted=verdict.accepted,
                    solved=verdict.solved, turn=turn, reply=verdict.reply,
                    value=verdict.value.value, moves_left=moves_left)


def _verdict(puzzle: Puzzle, shown: Position, line: Sequence[Turn], *, needs_give: bool,
             accepted: bool, solved: bool, turn: Turn, reply: Turn | None, value: SolverValue,
             moves_left: int) -> VerdictView:
    cells = [] if needs_give else _winning_cells(shown, puzzle.rules)
    winner: Literal["player", "opponent"] | None = (
        None if not cells else "player" if solved else "opponent")
    return VerdictView(
        needs_give=needs_give,
        accepted=accepted,
        solved=solved,
        turn=turn.text,
        reply=None if reply is None else reply.text,
        played=[step.text for step in line],
        value=value,
        moves_left=moves_left,
        position=shown.to_string(),
        board=_board(shown),
        hand=None if shown.hand is None else piece_name(shown.hand),
        supply=_pieces(shown.supply),
        winner=winner,
        cells=cells,
    )


RESULTS_SHOWN = 1000
"""The attempts a history lists at most."""


def _first_solves(results: Sequence[PuzzleResult]) -> tuple[
        dict[datetime.date, PuzzleResult], dict[datetime.date, int]]:
    """Each date's first solve, and its count of attempts."""
    first_solve: dict[datetime.date, PuzzleResult] = {}
    attempts: dict[datetime.date, int] = {}
    for result in results:
        attempts[result.date] = attempts.get(result.date, 0) + 1
        if result.solved and result.date not in first_solve:
            first_solve[result.date] = result
    return first_solve, attempts


def _day(date: datetime.date, first_solve: dict[datetime.date, PuzzleResult],
         attempts: dict[datetime.date, int]) -> PuzzleDay:
    solve = first_solve.get(date)
    return PuzzleDay(
        date=date,
        solved=solve is not None,
        tries=None if solve is None else solve.tries,
        seconds=None if solve is None else solve.seconds,
        attempts=attempts.get(date, 0),
    )


def _result_view(result: PuzzleResult) -> PuzzleResultView:
    return PuzzleResultView(date=result.date, tries=result.tries, seconds=result.seconds,
                            solved=result.solved, recorded=result.recorded)


def history_view(results: Sequence[PuzzleResult], today: datetime.date,
                 days: int = ARCHIVE_DAYS) -> PuzzleHistory:
    """A player's results, streak and the archive of the last ``days`` dates; the
    attempts listed are the :data:`RESULTS_SHOWN` first of ``results`` (newest date
    first)."""
    first_solve, attempts = _first_solves(results)
    archive = [_day(today - datetime.timedelta(days=back), first_solve, attempts)
               for back in range(days)]
    shown = results[:RESULTS_SHOWN]
    return PuzzleHistory(
        today=today,
        streak=streak(first_solve, today),
        solved=len(first_solve),
        days=archive,
        results=[_result_view(r) for r in shown],
    )


def result_answer(recorded: Recorded, today: datetime.date) -> PuzzleResultAnswer:
    """What storing an attempt changed (:meth:`PuzzleResults.record
    <quads.site.puzzles.results.PuzzleResults.record>`)."""
    stored, first_solve = recorded.result, recorded.first_solve
    return PuzzleResultAnswer(
        today=today,
        streak=recorded.streak,
        solved=recorded.solved,
        day=_day(stored.date, {} if first_solve is None else {stored.date: first_solve},
                 {stored.date: recorded.attempts}),
        result=_result_view(stored),
    )
