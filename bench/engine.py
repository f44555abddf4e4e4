"""How promptly ``quads engine`` answers: ``go movetime`` and ``stop``, over real pipes.

Usage (from the repository root)::

    python bench/engine.py [--repeats 20] [--movetime 100] [--stop-after 300]
                           [--engine "python -m quads.cli.main engine"] [--json]

The engine runs as its own process, as a match or a GUI runs it.  Positions are
taken past the opening book (classic and Quads, 11 to 13 empty cells, from
``shared/bench/positions.txt`` style play: seeded games between computer levels),
where the search uses its whole budget.

* ``go movetime MS``: from sending ``go`` to reading ``bestmove``; the goal is
  within MS + 50 ms.
* ``stop``: a ``go infinite`` left thinking ``--stop-after`` milliseconds, then
  ``stop``; from sending it to reading ``bestmove``; the goal is within 20 ms.

Printed: p50, p95 and max of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import sys
import time

from quads.engine.client import EngineProcess
from quads.errors import InvalidPositionError
from quads.game import Game
from quads.notation import write_tokens
from quads.players import make_player
from quads.rules import Rules


def game_prefixes(rules: Rules, count: int, seed: int) -> list[list[str]]:
    """Move lists of seeded games between levels 3 and 4, cut at 11 to 13 empty cells."""
    rng = random.Random(seed)
    found: list[list[str]] = []
    while len(found) < count:
        game = Game(rules)
        players = (make_player(3, rng.randrange(1 << 30)), make_player(4, rng.randrange(1 << 30)))
        stop_at = rng.choice((11, 12, 13))
        side = 0
        while not game.is_over() and game.position.empty_count > stop_at:
            players[side].play(game)
            side = 1 - side
        if game.is_over() or game.position.hand is None:
            continue
        try:
            game.position.check(rules)
        except InvalidPositionError:
            continue
        found.append(write_tokens(tuple(game.states), tuple(game.actions)))
    return found


def _best(engine: EngineProcess, seconds: float) -> str:
    return engine.read_until(lambda line: line.startswith("bestmove"), seconds)[-1]


def measure(command: str, repeats: int, movetime: int, stop_after: int) -> dict[str, list[float]]:
    """The answer times of ``go movetime`` and of ``stop``, in milliseconds."""
    engine = EngineProcess(command)
    figures: dict[str, list[float]] = {"movetime": [], "stop": []}
    try:
        for index in range(repeats):
            rules = Rules.parse("classic" if index % 2 else "quads")
            moves = game_prefixes(rules, 1, index)[0]
            engine.send(f"setoption name Rules value {rules.name}")
            engine.send("uginewgame")
            engine.send("position startpos moves " + " ".join(moves))
            engine.ready()
            start = time.perf_counter()
            engine.send(f"go movetime {movetime}")
            _best(engine, movetime / 1000 + 5)
            figures["movetime"].append((time.perf_counter() - start) * 1000)

            engine.send("go infinite")
            time.sleep(stop_after / 1000)
            start = time.perf_counter()
            engine.send("stop")
            _best(engine, 5)
            figures["stop"].append((time.perf_counter() - start) * 1000)
            print(f"\r{index + 1}/{repeats}", end="", file=sys.stderr, flush=True)
    finally:
        print(file=sys.stderr)
        engine.close()
    return figures


def summary(values: list[float]) -> dict[str, float]:
    """p50, p95 and max, rounded to 0.1 ms."""
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"p50": round(statistics.median(ordered), 1), "p95": round(p95, 1),
            "max": round(ordered[-1], 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds")
    parser.add_argument("--stop-after", type=int, default=300, help="milliseconds")
    parser.add_argument("--engine",
                        default=f"{shlex.quote(sys.executable)} -m quads.cli.main engine")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = measure(args.engine, args.repeats, args.movetime, args.stop_after)
    rows = {"go movetime": summary(figures["movetime"]), "stop": summary(figures["stop"])}
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{args.repeats} positions past the book, classic and quads, one engine process")
    print(f"{'':24} {'p50':>8} {'p95':>8} {'max':>8}  (ms)")
    for name, row in (("go movetime " + str(args.movetime), rows["go movetime"]),
                      (f"stop after {args.stop_after} ms", rows["stop"])):
        print(f"{name:24} {row['p50']:8.1f} {row['p95']:8.1f} {row['max']:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
