"""The measured ladder: a round robin of the five computer levels.

Every pair of levels plays ``--games`` games (default 100) under ``quads`` and
under ``classic``, alternating who hands over first, on both cores.  The table
of scores, the checks the ladder must pass and level 5's thinking times are
printed and written to ``docs/strength.md``.  Then level 5 plays ``--timed``
games (default 20) against level 3 alone on the machine, as ``quads match 5 3
--games 20 --rules R`` does, under each preset that ships an opening book: its
thinking time per turn, which should stay under 0.3 s at the 95th percentile.

    python bench/strength.py [--games 100] [--rules quads,classic] [--timed 20]
                             [--out docs/strength.md]
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from quads.players import LEVELS, make_player
from quads.players.match import MatchResult, TurnTimes, play_match
from quads.rules import Rules

CHUNK = 10
"""Games per task handed to a worker process (an even number, so colours alternate)."""
TIMED_RULES = ("quads", "classic", "advanced")
"""The presets whose level-5 thinking time is measured alone (they ship a book)."""
P95_TARGET = 0.3
"""Level 5's thinking time per turn at the 95th percentile, in seconds, alone on 2 cores."""


@dataclass
class Pair:
    """The accumulated result of one pair of levels under one rule set."""

    a: int
    b: int
    wins_a: int = 0
    wins_b: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins_a + self.wins_b + self.draws

    @property
    def score_a(self) -> float:
        return (self.wins_a + self.draws / 2) / self.games


def _task(rules_name: str, a: int, b: int, games: int, seed: int) -> tuple[
    str, int, int, MatchResult
]:
    result = play_match(lambda s: make_player(a, s), lambda s: make_player(b, s),
                        games, Rules.parse(rules_name), seed)
    return rules_name, a, b, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pair (default 100)")
    parser.add_argument("--rules", default="quads,classic", help="comma list of rule sets")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timed", type=int, default=20,
                        help="games of level 5 against level 3 timed alone (default 20)")
    parser.add_argument("--out", type=Path, default=Path("docs/strength.md"))
    args = parser.parse_args()
    rule_names = [Rules.parse(name).name for name in args.rules.split(",")]
    levels = sorted(LEVELS)
    pairs = {(r, a, b): Pair(a, b) for r in rule_names
             for a, b in itertools.combinations(levels, 2)}
    times: dict[tuple[str, int], list[float]] = {(r, lv): [] for r in rule_names for lv in levels}
    tasks = [(r, a, b, min(CHUNK, args.games - start), 1_000_000 * a + 10_000 * b + start)
             for (r, a, b) in pairs for start in range(0, args.games, CHUNK)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool, tqdm(
        total=len(pairs) * args.games, unit="game", file=sys.stderr
    ) as bar:
        futures = [pool.submit(_task, *task) for task in tasks]
        for future in as_completed(futures):
            rules_name, a, b, result = future.result()
            pair = pairs[rules_name, a, b]
            pair.wins_a += result.wins_a
            pair.wins_b += result.wins_b
            pair.draws += result.draws
            times[rules_name, a].extend(result.seconds_a)
            times[rules_name, b].extend(result.seconds_b)
            bar.update(result.games)
    elapsed = time.perf_counter() - started

    lines = [
        "# Strength of the computer levels",
        "",
        f"Measured by `python bench/strength.py --games {args.games}` on "
        f"{datetime.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, in {elapsed / 60:.0f} minutes. Each cell is the row "
        f"level's score against the column level over {args.games} games (a win 1, a draw "
        "1/2), alternating who hands over first; in brackets wins-losses-draws.",
    ]
    failures: list[str] = []
    for rules_name in rule_names:
        lines += ["", f"## {rules_name}", "",
                  "| level | " + " | ".join(f"vs {b}" for b in levels) + " |",
                  "|---|" + "---|" * len(levels)]
        for a in levels:
            cells = []
            for b in levels:
                if a == b:
                    cells.append("")
                    continue
                pair = pairs[rules_name, min(a, b), max(a, b)]
                won, lost = (pair.wins_a, pair.wins_b) if a < b else (pair.wins_b, pair.wins_a)
                score = pair.score_a if a < b else 1 - pair.score_a
                cells.append(f"{100 * score:.0f}% ({won}-{lost}-{pair.draws})")
            lines.append(f"| {a} {LEVELS[a].name} | " + " | ".join(cells) + " |")
        for lower, upper in itertools.pairwise(levels):
            score = 1 - pairs[rules_name, lower, upper].score_a
            if score < 0.65:
                failures.append(f"{rules_name}: level {upper} scores {100 * score:.0f}% "
                                f"against level {lower} (needs 65%)")
        top = levels[-1]
        losses = sum(pairs[rules_name, a, top].wins_a for a in levels[:-1])
        if losses:
            failures.append(f"{rules_name}: level {top} lost {losses} games")
        lines += ["", "Thinking time per turn (seconds):", "",
                  "| level | median | p95 | slowest |", "|---|---|---|---|"]
        for level in levels:
            t = TurnTimes.of(times[rules_name, level])
            lines.append(f"| {level} {LEVELS[level].name} | {t.median:.3f} | {t.p95:.3f} | "
                         f"{t.max:.3f} |")
            if level == top and (t.median >= 0.5 or t.max >= 3):
                failures.append(f"{rules_name}: level {top} takes median {t.median:.2f} s, "
                                f"slowest {t.max:.2f} s (needs < 0.5 s and < 3 s)")
    if args.timed:
        lines += _timed(args.timed, failures)
    lines += ["", "## Checks", ""]
    lines += [f"- FAILED: {f}" for f in failures] or [
        "- every level scores at least 65% against the level below it;",
        "- level 5 loses no game;",
        "- level 5 thinks under 0.5 s per turn at the median and under 3 s at the slowest;",
        f"- alone, level 5 thinks under {P95_TARGET} s per turn at the 95th percentile.",
    ]
    text = "\n".join(lines) + "\n"
    args.out.write_text(text, encoding="utf-8")
    print(text)
    return 1 if failures else 0


def _timed(games: int, failures: list[str]) -> list[str]:
    """Level 5 against level 3 with nothing else running: the lines of the report."""
    lines = ["", "## Level 5 alone", "",
             f"Level 5 against level 3, {games} games per rule set, one game at a time "
             f"(as `quads match 5 3 --games {games} --rules R`). Thinking time per turn "
             "(seconds):", "",
             "| rules | turns | median | p95 | slowest | level 5's score |",
             "|---|---|---|---|---|---|"]
    for name in TIMED_RULES:
        rules = Rules.parse(name)
        with tqdm(total=games, unit="game", desc=f"level 5 alone, {name}",
                  file=sys.stderr) as bar:
            result = play_match(lambda s: make_player(5, s), lambda s: make_player(3, s),
                                games, rules, progress=lambda _: bar.update())
        t = TurnTimes.of(result.seconds_a)
        lines.append(f"| {name} | {len(result.seconds_a)} | {t.median:.3f} | {t.p95:.3f} | "
                     f"{t.max:.3f} | {100 * result.score_a:.0f}% |")
        if t.p95 >= P95_TARGET:
            failures.append(f"{name}: alone, level 5 takes {t.p95:.2f} s at the 95th "
                            f"percentile (needs < {P95_TARGET} s)")
    return lines


if __name__ == "__main__":
    sys.exit(main())
