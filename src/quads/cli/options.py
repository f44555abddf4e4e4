"""Options shared by the commands: rule sets and positions."""

from __future__ import annotations

import argparse

from quads.position import Position
from quads.rules import QUADS, Rules, parse_traits

__all__ = ["add_position_argument", "add_rules_options", "position_from_args", "rules_from_args"]


def add_rules_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules`` and ``--traits`` to ``parser``."""
    parser.add_argument(
        "--rules", metavar="R", default=QUADS.name,
        help="rule set: quads (default), classic, advanced, or SHAPES:TRAITS:CALLING "
             "such as lines:color,height:auto",
    )
    parser.add_argument(
        "--traits", metavar="LIST",
        help="count only these traits, a comma list of height, color, shape, top",
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rule set that ``--rules`` and ``--traits`` name.

    :raises InvalidRulesError: if either is not understood.
    """
    rules = Rules.parse(args.rules)
    if args.traits is not None:
        rules = rules.with_traits(parse_traits(args.traits))
    return rules


def add_position_argument(parser: argparse.ArgumentParser) -> None:
    """Add the positional ``POSITION`` argument (two words, or one quoted string)."""
    parser.add_argument(
        "position", nargs="+", metavar="POSITION",
        help="a position string such as '..../..../..../.... -' (quote it, or give the "
             "board and the piece in hand as two words)",
    )


def position_from_args(args: argparse.Namespace, rules: Rules) -> Position:
    """The position given on the command line, checked against ``rules``.

    :raises InvalidPositionError: if it is malformed or impossible under ``rules``.
    """
    position = Position.from_string(" ".join(args.position))
    position.check(rules)
    return position


def _whole_number(text: str, low: int, high: int | None, expected: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"expected {expected}, not {text!r}")
    return value


def positive_int(text: str) -> int:
    """An option's value that must be a whole number of at least 1."""
    return _whole_number(text, 1, None, "a positive integer")


def empty_cells(text: str) -> int:
    """An option's value that counts empty cells: 1 to 16."""
    return _whole_number(text, 1, 16, "1 to 16 empty cells")
