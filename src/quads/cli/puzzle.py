"""``quads puzzle``: the daily puzzle of a date."""

from __future__ import annotations

import argparse
import datetime
import json

from quads.cli.board import LEGEND, describe, draw_board
from quads.puzzles import Puzzle, parse_date, puzzle_for

__all__ = ["parse_date", "register", "run"]

def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``puzzle`` command."""
    parser = commands.add_parser(
        "puzzle", help="the daily puzzle: force a win within the goal",
        description="Show the puzzle of a date: a position where the side to move can force "
                    "a win, with exactly one winning first turn. The same date always gives "
                    "the same puzzle. The goal rises from Monday (a win at once) to Sunday; "
                    "Thursday's puzzle is in classic Quarto.",
    )
    parser.add_argument("--date", metavar="YYYY-MM-DD",
                        help="the puzzle's date (default: today's local date)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--solution", action="store_true",
                        help="also give the solution: the winning line against the longest "
                             "resistance")
    parser.set_defaults(run=run)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def goal_text(puzzle: Puzzle) -> str:
    """The goal in words, e.g. ``win in 3 of your own placements (5 placements in all)``."""
    if puzzle.moves == 1:
        return "win at once: place the piece in hand where it completes a winning shape"
    return (f"force a win in {_plural(puzzle.moves, 'placement')} of your own "
            f"({puzzle.plies} placements of both sides, your winning one included)")


def run(args: argparse.Namespace) -> int:
    """Run ``quads puzzle``."""
    date = datetime.date.today() if args.date is None else parse_date(args.date)
    puzzle = puzzle_for(date)
    if args.json:
        print(json.dumps(puzzle.summary(solution=args.solution)))
        return 0
    print(f"Puzzle of {puzzle.weekday} {date.isoformat()}: difficulty {puzzle.difficulty} "
          f"of 7, rules {puzzle.rules.name}")
    print(draw_board(puzzle.position))
    print(LEGEND)
    hand = puzzle.position.hand
    if hand is not None:
        print(f"In hand:  {describe(hand)}")
    print(f"Position: {puzzle.position}")
    print(f"Goal:     {goal_text(puzzle)}")
    if puzzle.rules.declare:
        print("          (classic rules: declare the win when you complete a shape)")
    if args.solution:
        print(f"Solution: {' '.join(puzzle.solution_tokens())}")
        print("          (your turns and the longest resistance alternate; "
              "A1F places on A1 and hands over F, ! marks the win)")
    return 0
