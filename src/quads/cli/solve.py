"""``quads solve`` and ``quads analyse``: perfect play from a position."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, TypeVar

from quads.book import (
    Book,
    BookError,
    BookHeader,
    analyse_with_book,
    book_for,
    load_book,
    solve_with_book,
)
from quads.cells import cell_name
from quads.cli.options import (
    add_position_argument,
    add_rules_options,
    position_from_args,
    positive_int,
    rules_from_args,
)
from quads.pieces import piece_name
from quads.rules import Rules
from quads.solver import Analysis, Progress, Solution, Value, analyse, solve
from quads.solver.search import ProgressCallback
from quads.turn import Turn

__all__ = ["analysis_summary", "register", "solution_summary"]

_Result = TypeVar("_Result", Solution, Analysis)


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``solve`` and ``analyse`` commands."""
    solve_parser = commands.add_parser(
        "solve", help="solve a position: its value with perfect play and a best turn",
        description="Solve a position exactly: win, draw or loss for the side to move, the "
                    "number of placements until the end, and a best turn (the fastest win, "
                    "the longest resistance, or a draw).",
    )
    _add_common(solve_parser)
    solve_parser.set_defaults(run=run_solve)
    analyse_parser = commands.add_parser(
        "analyse", aliases=["analyze"], help="the value of every legal turn of a position",
        description="Solve every legal turn of a position and list them best first, each "
                    "with its value for the player making it.",
    )
    _add_common(analyse_parser)
    analyse_parser.set_defaults(run=run_analyse)


def _add_common(parser: argparse.ArgumentParser) -> None:
    add_position_argument(parser)
    add_rules_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--nodes", type=positive_int, metavar="N",
                        help="stop after about N nodes (the value is then unknown)")
    parser.add_argument("--seconds", type=_positive_float, metavar="S",
                        help="stop after about S seconds (the value is then unknown)")
    parser.add_argument("--table-mb", type=_positive_float, metavar="M",
                        help="transposition table size in MiB (default: by position size, "
                             "at most 1024)")
    parser.add_argument("--progress", action="store_true",
                        help="report progress on standard error even when it is not a terminal")
    books = parser.add_mutually_exclusive_group()
    books.add_argument("--book", type=Path, metavar="FILE",
                       help="answer from this opening book when it covers the position "
                            "(default: the book shipped for the rule set, if any)")
    books.add_argument("--no-book", action="store_true", help="always search")


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return value


def _reporter(args: argparse.Namespace, stream: TextIO = sys.stderr) -> ProgressCallback | None:
    """A progress callback writing one updating line to ``stream``, or ``None``."""
    if not (args.progress or stream.isatty()):
        return None

    def report(progress: Progress) -> None:
        stream.write(
            f"\r{progress.stage}: {progress.done}/{progress.total} turns, "
            f"{progress.nodes:,} nodes, {progress.seconds:.1f} s   "
        )
        stream.flush()

    return report


def _end_progress(report: ProgressCallback | None, stream: TextIO = sys.stderr) -> None:
    if report is not None:
        stream.write("\n")
        stream.flush()


def _turn_fields(turn: Turn | None) -> dict[str, str | None]:
    return {
        "place": None if turn is None or turn.place is None else cell_name(turn.place),
        "give": None if turn is None or turn.give is None else piece_name(turn.give),
    }


def solution_summary(solution: Solution) -> dict[str, object]:
    """The JSON object of ``quads solve``."""
    return {
        "position": solution.position.to_string(),
        "rules": solution.rules.name,
        "value": solution.value.value,
        "plies": solution.plies,
        "best": _turn_fields(solution.best),
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 6),
    }


def analysis_summary(analysis: Analysis) -> dict[str, object]:
    """The JSON object of ``quads analyse``."""
    return {
        "position": analysis.position.to_string(),
        "rules": analysis.rules.name,
        "value": analysis.value.value,
        "plies": analysis.plies,
        "moves": [
            {**_turn_fields(move.turn), "value": move.value.value, "plies": move.plies}
            for move in analysis.moves
        ],
    }


def describe_value(value: Value, plies: int | None) -> str:
    """``win in 5``, ``draw``, ``loss in 2`` or ``unknown``."""
    if value in (Value.WIN, Value.LOSS) and plies is not None:
        return f"{value.value} in {plies}"
    return value.value


_NO_BOOK = Book(Path("-"), BookHeader("-", 17, 0), {})
"""A book that covers nothing: search is asked for."""


def _book(args: argparse.Namespace, rules: Rules) -> Book | None:
    """The book to answer from: ``--book``, else the shipped one; a book that cannot
    be used is named in one line on standard error, and search takes over."""
    if args.no_book:
        return None
    if args.book is None:
        return book_for(rules)
    try:
        return load_book(args.book, rules)
    except BookError as exc:
        print(f"quads: {exc}; solving by search instead", file=sys.stderr)
        return None


def _search(args: argparse.Namespace, search: Callable[..., _Result]) -> tuple[_Result, str]:
    """Run ``search`` (solve or analyse) on the command line's position, with
    progress, unless a book answers: the result and where it came from."""
    rules = rules_from_args(args)
    position = position_from_args(args, rules)
    book = _book(args, rules)
    answer = solve_with_book if search is solve else analyse_with_book
    report = _reporter(args)
    try:
        result, source = answer(position, rules, book or _NO_BOOK, nodes=args.nodes,
                                seconds=args.seconds, table_mb=args.table_mb, progress=report)
    finally:
        _end_progress(report)
    return result, source  # type: ignore[return-value]


def _header(result: Solution | Analysis) -> None:
    print(f"Position: {result.position}")
    print(f"Rules:    {result.rules.name}")
    print(f"Value:    {describe_value(result.value, result.plies)} for the side to move")


def run_solve(args: argparse.Namespace) -> int:
    """Run ``quads solve``."""
    solution, source = _search(args, solve)
    if args.json:
        print(json.dumps({**solution_summary(solution), "source": source}))
        return 0
    _header(solution)
    if solution.best is not None:
        print(f"Best:     {solution.best.text}")
    if not solution.complete:
        print("          (the budget ran out before the search finished)")
    _footer(solution, source)
    return 0


def _footer(result: Solution | Analysis, source: str) -> None:
    if source == "book":
        print("Source:   the opening book")
    else:
        print(f"Searched: {result.nodes:,} nodes in {result.seconds:.2f} s")


def run_analyse(args: argparse.Namespace) -> int:
    """Run ``quads analyse``."""
    analysis, source = _search(args, analyse)
    if args.json:
        print(json.dumps({**analysis_summary(analysis), "source": source}))
        return 0
    _header(analysis)
    print(f"Turns:    {len(analysis.moves)}")
    for move in analysis.moves:
        print(f"  {move.turn.text:<4} {describe_value(move.value, move.plies)}")
    _footer(analysis, source)
    return 0
