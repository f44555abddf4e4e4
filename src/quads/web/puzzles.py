"""What the puzzle routes do: find the day's puzzle (generated once per date and
kept in memory), judge a turn through :mod:`quads.puzzles`, and build the views
of the puzzle, of a verdict and of a player's history.

The puzzle logic itself (the goal, what wins, the defender's reply, the
streak) lives in :mod:`quads.puzzles`; this module only calls it.
"""

from __future__ import annotations

import datetime
import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Literal

from quads.bits import iter_bits
from quads.cells import cell_name
from quads.errors import InvalidDateError
from quads.pieces import piece_name
from quads.position import Position
from quads.puzzles import (
    Puzzle,
    check_turn,
    needs_handover,
    own_placements,
    parse_date,
    position_after,
    puzzle_for,
    streak,
)
from quads.rules import Rules
from quads.site.errors import SiteError
from quads.storage import PuzzleResult
from quads.turn import Turn
from quads.web.fields import EARLIEST
from quads.web.schemas import (
    PuzzleDay,
    PuzzleGoal,
    PuzzleHistory,
    PuzzleResultAnswer,
    PuzzleResultView,
    PuzzleView,
    SolverValue,
    VerdictView,
)

__all__ = [
    "AHEAD_DAYS",
    "ARCHIVE_DAYS",
    "PuzzleCache",
    "ahead_dates",
    "check",
    "history_view",
    "puzzle_date",
    "puzzle_view",
]

ARCHIVE_DAYS = 30
"""The dates the archive lists by default: today and the days before."""

AHEAD_DAYS = 14
"""The days after today whose puzzles the page keeps, to play them without a network."""


def ahead_dates(today: datetime.date) -> list[datetime.date]:
    """Today and the ``AHEAD_DAYS`` dates after it."""
    return [today + datetime.timedelta(days=days) for days in range(AHEAD_DAYS + 1)]


class PuzzleCache:
    """The puzzles of recent dates, each generated once (0.1 to 3 seconds) and then
    kept in memory.  Requests for a date being generated wait for that run rather
    than start another."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._puzzles: OrderedDict[datetime.date, Puzzle] = OrderedDict()
        self._lock = threading.Lock()
        self._generating: dict[datetime.date, threading.Lock] = {}

    def known(self, date: datetime.date) -> Puzzle | None:
        """The puzzle of ``date`` if it is generated already (at once), else ``None``."""
        with self._lock:
            return self._puzzles.get(date)

    def get(self, date: datetime.date) -> Puzzle:
        """The puzzle of ``date``."""
        with self._lock:
            if date in self._puzzles:
                self._puzzles.move_to_end(date)
                return self._puzzles[date]
            busy = self._generating.setdefault(date, threading.Lock())
        with busy:
            with self._lock:
                if date in self._puzzles:
                    return self._puzzles[date]
            puzzle = puzzle_for(date)
            with self._lock:
                self._puzzles[date] = puzzle
                self._generating.pop(date, None)
                while len(self._puzzles) > self.size:
                    self._puzzles.popitem(last=False)
        return puzzle

    def warm(self, dates: Sequence[datetime.date], stop: threading.Event) -> None:
        """Generate the puzzles of ``dates`` not known yet, one after the other, until
        ``stop`` is set (between two puzzles)."""
        for date in dates:
            if stop.is_set():
                return
            self.get(date)


def puzzle_date(text: str, today: datetime.date) -> datetime.date:
    """The date of a puzzle address: ``today`` or ``YYYY-MM-DD``, from
    :data:`~quads.web.fields.EARLIEST` to ``today``.

    :raises InvalidDateError: if ``text`` is not a date, or one before ``EARLIEST``.
    :raises SiteError: ``404 not_found`` for a date after ``today``.
    """
    date = today if text == "today" else parse_date(text)
    if date < EARLIEST:
        raise InvalidDateError(
            f"invalid date {text!r}: the puzzles start on {EARLIEST.isoformat()}",
            "date_range", date=text, earliest=EARLIEST.isoformat())
    if date > today:
        raise SiteError.not_found(
            f"no puzzle for {date.isoformat()} yet: the puzzles go up to today, "
            f"{today.isoformat()}"
        )
    return date


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


def result_answer(stored: PuzzleResult, today: datetime.date, *, solved: int, streak: int,
                  attempts: int, first_solve: PuzzleResult | None) -> PuzzleResultAnswer:
    """What storing ``stored`` changed: the player's count of dates ``solved`` and
    ``streak``, and the ``attempts`` at its date and the ``first_solve`` of it."""
    return PuzzleResultAnswer(
        today=today,
        streak=streak,
        solved=solved,
        day=_day(stored.date, {} if first_solve is None else {stored.date: first_solve},
                 {stored.date: attempts}),
        result=_result_view(stored),
    )
