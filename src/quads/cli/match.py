"""``quads match``: computer players of two levels play a series of games."""

from __future__ import annotations

import argparse
import json
import sys

from tqdm import tqdm

from quads.cli.options import add_rules_options, rules_from_args
from quads.errors import QuadsError
from quads.players import LEVELS, make_player
from quads.players.match import MatchResult, TurnTimes, play_match

__all__ = ["register"]


def _level(text: str) -> int:
    try:
        level = int(text)
    except ValueError:
        level = 0
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(f"invalid level {text!r}: expected 1 to {len(LEVELS)}")
    return level


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``match`` command."""
    parser = commands.add_parser(
        "match", help="let two computer levels play a series of games",
        description="Computer players of levels A and B (1 beginner .. 5 perfect) play N "
                    "games, taking turns to hand over first; prints the score and their "
                    "thinking times.",
    )
    parser.add_argument("a", type=_level, metavar="A", help="level of player A, 1-5")
    parser.add_argument("b", type=_level, metavar="B", help="level of player B, 1-5")
    parser.add_argument("--games", type=int, default=10, metavar="N", help="games (default 10)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed; the same seed replays the same match (default 0)")
    add_rules_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def _times(seconds: list[float]) -> dict[str, float]:
    times = TurnTimes.of(seconds)
    return {"median": round(times.median, 6), "p95": round(times.p95, 6),
            "max": round(times.max, 6)}


def run(args: argparse.Namespace) -> int:
    """Run ``quads match``."""
    rules = rules_from_args(args)
    if args.games < 1:
        raise QuadsError(f"invalid number of games {args.games!r}: at least 1")
    with tqdm(total=args.games, unit="game", file=sys.stderr, disable=None,
              desc=f"{args.a} vs {args.b}") as bar:

        def progress(result: MatchResult) -> None:
            bar.set_postfix_str(f"{result.wins_a}-{result.wins_b}, {result.draws} drawn")
            bar.update(1)

        result = play_match(lambda seed: make_player(args.a, seed),
                            lambda seed: make_player(args.b, seed),
                            args.games, rules, args.seed, progress)
    summary = {
        "games": result.games, "wins_a": result.wins_a, "wins_b": result.wins_b,
        "draws": result.draws, "rules": rules.name,
        "move_seconds_a": _times(result.seconds_a), "move_seconds_b": _times(result.seconds_b),
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    name_a, name_b = LEVELS[args.a].name, LEVELS[args.b].name
    print(f"{rules.name}: level {args.a} ({name_a}) vs level {args.b} ({name_b}), "
          f"{result.games} games")
    print(f"  {name_a} wins {result.wins_a}, {name_b} wins {result.wins_b}, "
          f"{result.draws} drawn: {name_a} scores {100 * result.score_a:.1f}%")
    for name, seconds in ((name_a, result.seconds_a), (name_b, result.seconds_b)):
        times = TurnTimes.of(seconds)
        print(f"  {name} per turn: median {times.median:.3f} s, p95 {times.p95:.3f} s, "
              f"slowest {times.max:.3f} s")
    return 0
