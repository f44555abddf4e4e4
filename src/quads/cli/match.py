"""``quads match``: two players, computer levels or engine programs, play a series of games."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from tqdm import tqdm

from quads.cli.options import add_rules_options, rules_from_args
from quads.clock import RealTime, parse_time_control
from quads.engine.client import EnginePlayer
from quads.errors import QuadsError
from quads.players import LEVELS, make_player
from quads.players.base import ComputerPlayer
from quads.players.match import MatchResult, TurnTimes, play_match

__all__ = ["register"]

ENGINE = "engine:"


def _side(text: str) -> int | str:
    """A level (1-5), or ``engine:COMMAND``: the command line of an engine program."""
    if text.startswith(ENGINE):
        command = text[len(ENGINE):].strip()
        if not command:
            raise argparse.ArgumentTypeError("engine: needs the command that starts the engine")
        return command
    try:
        level = int(text)
    except ValueError:
        level = 0
    if level not in LEVELS:
        raise argparse.ArgumentTypeError(
            f"invalid player {text!r}: expected a level 1 to {len(LEVELS)} or engine:COMMAND")
    return level


def _clock(text: str) -> RealTime:
    try:
        control = parse_time_control(text)
    except QuadsError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not isinstance(control, RealTime):
        raise argparse.ArgumentTypeError(f"a match clock is SECONDS+INCREMENT, not {text!r}")
    return control


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``match`` command."""
    parser = commands.add_parser(
        "match", help="let two computer levels or engine programs play a series of games",
        description="Players A and B, each a computer level (1 beginner .. 5 perfect) or "
                    "engine:COMMAND (any program speaking the engine protocol, e.g. "
                    "engine:'quads engine'), play N games, taking turns to hand over first; "
                    "prints the score and their thinking times.  An engine that plays an "
                    "illegal turn, stops answering or runs out of time loses that game.",
    )
    parser.add_argument("a", type=_side, metavar="A", help="player A: a level 1-5 or engine:CMD")
    parser.add_argument("b", type=_side, metavar="B", help="player B: a level 1-5 or engine:CMD")
    parser.add_argument("--games", type=int, default=10, metavar="N", help="games (default 10)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed; the same seed replays the same match (default 0)")
    parser.add_argument("--clock", type=_clock, metavar="S+I",
                        help="both sides on the clock: S seconds for the game plus I per turn, "
                             "e.g. 60+1; who runs out loses on time")
    parser.add_argument("--movetime", type=int, default=1000, metavar="MS",
                        help="without --clock, the milliseconds an engine may think per turn "
                             "(default 1000)")
    add_rules_options(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def _times(seconds: list[float]) -> dict[str, float]:
    times = TurnTimes.of(seconds)
    return {"median": round(times.median, 6), "p95": round(times.p95, 6),
            "max": round(times.max, 6)}


def _maker(side: int | str, movetime: int,
           engines: list[EnginePlayer]) -> Callable[[int], ComputerPlayer]:
    if isinstance(side, int):
        return lambda seed: make_player(side, seed)
    engine = EnginePlayer(side, movetime=movetime)
    engines.append(engine)
    return lambda seed: engine


def _name(side: int | str, maker: Callable[[int], ComputerPlayer]) -> str:
    if isinstance(side, int):
        return LEVELS[side].name
    player = maker(0)
    assert isinstance(player, EnginePlayer)
    return player.engine_name


def _cpu(maker: Callable[[int], ComputerPlayer]) -> float | None:
    """The CPU seconds an engine used in the match (``None`` for a computer level)."""
    player = maker(0)
    return round(player.cpu_seconds, 3) if isinstance(player, EnginePlayer) else None


def run(args: argparse.Namespace) -> int:
    """Run ``quads match``."""
    rules = rules_from_args(args)
    if args.games < 1:
        raise QuadsError(f"invalid number of games {args.games!r}: at least 1")
    if args.movetime < 1:
        raise QuadsError(f"invalid --movetime {args.movetime!r}: at least 1 ms")
    engines: list[EnginePlayer] = []
    make_a = _maker(args.a, args.movetime, engines)
    make_b = _maker(args.b, args.movetime, engines)
    try:
        for engine in engines:
            engine.start(rules)
        with tqdm(total=args.games, unit="game", file=sys.stderr, disable=None,
                  desc=f"{args.a} vs {args.b}") as bar:

            def progress(result: MatchResult) -> None:
                bar.set_postfix_str(f"{result.wins_a}-{result.wins_b}, {result.draws} drawn")
                bar.update(1)

            result = play_match(make_a, make_b, args.games, rules, args.seed, progress,
                                time_control=args.clock)
        name_a, name_b = _name(args.a, make_a), _name(args.b, make_b)
    finally:
        for engine in engines:
            engine.close()
    cpu = {side: _cpu(maker) for side, maker in (("a", make_a), ("b", make_b))}
    summary = {
        "games": result.games, "wins_a": result.wins_a, "wins_b": result.wins_b,
        "draws": result.draws, "rules": rules.name, "a": name_a, "b": name_b,
        "clock": None if args.clock is None else str(args.clock),
        "move_seconds_a": _times(result.seconds_a), "move_seconds_b": _times(result.seconds_b),
        "engine_cpu_seconds_a": cpu["a"], "engine_cpu_seconds_b": cpu["b"],
        "adjudications": result.adjudications,
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    label_a = f"level {args.a} ({name_a})" if isinstance(args.a, int) else f"engine {name_a}"
    label_b = f"level {args.b} ({name_b})" if isinstance(args.b, int) else f"engine {name_b}"
    clock = "" if args.clock is None else f", clock {args.clock}"
    print(f"{rules.name}: {label_a} vs {label_b}, {result.games} games{clock}")
    print(f"  A wins {result.wins_a}, B wins {result.wins_b}, "
          f"{result.draws} drawn: A scores {100 * result.score_a:.1f}%")
    for side, seconds, used in (("A", result.seconds_a, cpu["a"]),
                                ("B", result.seconds_b, cpu["b"])):
        times = TurnTimes.of(seconds)
        engine_cpu = "" if used is None else f"; engine CPU {used:.2f} s in all"
        print(f"  {side} per turn: median {times.median:.3f} s, p95 {times.p95:.3f} s, "
              f"slowest {times.max:.3f} s{engine_cpu}")
    for line in result.adjudications:
        print(f"  adjudicated: {line}")
    return 0
