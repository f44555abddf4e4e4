"""Judging a player's attempt at a puzzle, one turn at a time.

The player may play any turn that keeps a forced win within the goal, not
only the turns of :attr:`~quads.puzzles.Puzzle.solution` (later in the line
several turns may win in time).  :func:`check_turn` says whether a turn does,
and answers it with the defender's longest resistance, so that a page can
play the puzzle through against the solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from quads.errors import IllegalActionError
from quads.position import Position
from quads.puzzles.generate import TABLE_MB
from quads.puzzles.puzzle import Puzzle
from quads.solver import Value, solve
from quads.turn import Turn

__all__ = ["Verdict", "check_turn", "line_solves", "needs_handover", "position_after"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a player's turn does to the puzzle."""

    accepted: bool
    """Whether the turn keeps a forced win within the goal (or wins now)."""
    solved: bool
    """Whether the turn's placement wins the game within the goal: the puzzle is solved."""
    position: Position
    """The position after the turn, as the defender sees it."""
    reply: Turn | None
    """The defender's best answer: by longest resistance when the turn is accepted and
    the game goes on; when the turn is refused, the defender's fastest win if it has one,
    else its best defence.  ``None`` when the puzzle is solved or the game is over."""
    plies_left: int
    """The placements of both sides left within the goal after the turn and the reply
    (0 once solved; what the goal left before the turn when refused)."""
    value: Value
    """The value after the turn for the defender (``LOSS`` when accepted)."""
    plies: int | None
    """The placements until the end after the turn, when ``value`` is a win or a loss."""


def position_after(puzzle: Puzzle, played: Sequence[Turn]) -> Position:
    """The position after ``played`` (the player's and the defender's turns, alternating).

    :raises IllegalActionError: if a turn is not legal where it is played.
    """
    position = puzzle.position
    for turn in played:
        if position.hand is None:
            raise IllegalActionError(f"turn {turn.text!r} comes after the end of the game",
                                     "after_end", turn=turn.text)
        position = _play(position, turn, puzzle)
    return position


def _wins(position: Position, turn: Turn, puzzle: Puzzle) -> bool:
    return (turn.place is not None and position.hand is not None
            and bool(position.winning_cells(position.hand, puzzle.rules) >> turn.place & 1))


def _play(position: Position, turn: Turn, puzzle: Puzzle) -> Position:
    if _wins(position, turn, puzzle):
        assert turn.place is not None
        return position.place(turn.place)  # the game ends with the placement
    if turn.give is None and position.empty_count > 1:
        raise IllegalActionError(
            f"turn {turn.text!r} in {position.to_string()!r}: a piece must be handed over",
            "piece_missing", turn=turn.text
        )
    return position.play(turn)


def needs_handover(puzzle: Puzzle, turn: Turn, played: Sequence[Turn] = ()) -> bool:
    """Whether ``turn``, a placement alone, still lacks its hand-over.

    It does when the placement neither wins nor fills the last empty cell: the
    game goes on, so a piece must be handed over before the turn can be judged.
    A page can send the placement first and ask for the piece only when needed.

    :raises IllegalActionError: if ``played`` is not legal or the game is over.
    """
    if turn.give is not None or turn.place is None:
        return False
    position = position_after(puzzle, played)
    if position.hand is None:
        raise IllegalActionError("the puzzle's game is over", "game_over")
    return not _wins(position, turn, puzzle) and position.empty_count > 1


def check_turn(puzzle: Puzzle, turn: Turn, played: Sequence[Turn] = ()) -> Verdict:
    """Judge the player's ``turn`` after the turns ``played`` since the puzzle position.

    ``played`` alternates the player's accepted turns and the defender's
    replies (empty for the first turn).  A placement that wins is accepted
    whatever it hands over, since the game ends with it.  Otherwise the turn is
    accepted when the defender, to move next, loses within the placements the
    goal has left; the verdict then carries the defender's reply.  A refused
    turn carries the defender's best answer too, so that a page can show what
    the mistake allows.

    :raises IllegalActionError: if ``played`` or ``turn`` is not legal, or the
        turns played so far leave the defender to move.
    """
    if len(played) % 2:
        raise IllegalActionError("it is the defender's turn: the turns played so far are odd",
                                 "defenders_turn")
    position = position_after(puzzle, played)
    left = puzzle.plies - len(played)
    if position.hand is None:
        raise IllegalActionError("the puzzle's game is over", "game_over")
    after = _play(position, turn, puzzle)
    if _wins(position, turn, puzzle):
        return Verdict(left >= 1, left >= 1, after, None, 0, Value.LOSS, 0)
    answer = solve(after, puzzle.rules, threads=1, table_mb=TABLE_MB)
    accepted = (answer.value is Value.LOSS and answer.plies is not None
                and answer.plies <= left - 1)
    if not accepted:
        return Verdict(False, False, after, answer.best, left, answer.value, answer.plies)
    return Verdict(True, False, after, answer.best, left - 2, answer.value, answer.plies)


def line_solves(puzzle: Puzzle, line: Sequence[Turn]) -> bool:
    """Whether ``line``, a whole attempt played without the server (the player's turns
    and the defender's replies alternating, from the puzzle position), solves the
    puzzle: each of the player's turns is accepted by :func:`check_turn` after the
    turns before it, and the last one wins.  The defender's replies need only be legal,
    since the player's turns must win against every reply.

    :raises IllegalActionError: if a turn of ``line`` is not legal where it is played
        (a turn after the end of the game, a turn that hands over nothing while the
        game goes on).
    """
    position_after(puzzle, line)
    if len(line) % 2 == 0:
        return False  # empty, or ending with a reply: the player has not won
    for index in range(0, len(line), 2):
        verdict = check_turn(puzzle, line[index], line[:index])
        if not verdict.accepted:
            return False
        if verdict.solved:
            return index == len(line) - 1
    return False
