"""``quads show``: a position on the terminal, with its supply and safe pieces."""

from __future__ import annotations

import argparse
import json

from quads.bits import iter_bits
from quads.cli.board import LEGEND, describe, draw_board, piece_list
from quads.cli.options import (
    add_position_argument,
    add_rules_options,
    position_from_args,
    rules_from_args,
)
from quads.pieces import piece_name
from quads.position import Position
from quads.rules import Rules

__all__ = ["register"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``show`` command."""
    parser = commands.add_parser(
        "show", help="draw a position with its supply and safe pieces",
        description="Draw a position: the board, the piece in hand, the supply and the "
                    "safe pieces (supply pieces that cannot complete a winning shape now).",
    )
    add_position_argument(parser)
    add_rules_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def position_summary(position: Position, rules: Rules) -> dict[str, object]:
    """The JSON fields of ``show``: position, rules, hand, supply, safe."""
    return {
        "position": position.to_string(),
        "rules": rules.name,
        "hand": None if position.hand is None else piece_name(position.hand),
        "supply": [piece_name(p) for p in iter_bits(position.supply)],
        "safe": [piece_name(p) for p in iter_bits(position.safe_pieces(rules))],
    }


def run(args: argparse.Namespace) -> int:
    """Run ``quads show``."""
    rules = rules_from_args(args)
    position = position_from_args(args, rules)
    if args.json:
        print(json.dumps(position_summary(position, rules)))
        return 0
    print(f"Position: {position}")
    print(f"Rules:    {rules.name} ({rules.shapes.value}; counting "
          f"{', '.join(t.identifier for t in rules.counted_traits)}; {rules.calling.value})")
    print()
    print(draw_board(position))
    print(LEGEND)
    print()
    if position.hand is None:
        print("In hand:  none; the side to move hands over a piece")
    else:
        print(f"In hand:  {describe(position.hand)}")
    supply = position.supply
    safe = position.safe_pieces(rules)
    print(f"Supply:   {piece_list(supply)} ({supply.bit_count()})")
    print(f"Safe:     {piece_list(safe)} ({safe.bit_count()} of {supply.bit_count()})")
    return 0
