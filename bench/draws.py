"""Count the drawn end positions: full boards on which no shape is won.

Usage (from the repository root)::

    python bench/draws.py [--shapes lines,lines+squares] [--traits height,color ...]
                          [--sizes 1,2,3,4] [--threads 2] [--out docs/solved.md]

A full board is one of the 16! ways to put the sixteen pieces on the sixteen
cells; it is drawn under a rule set when none of the rule set's winning shapes
holds four pieces that share a value of a counted trait.  For each shape set
and each chosen set of counted traits (default: both shape sets, all 15 sets),
the script counts the drawn boards with the exact counter ``bench/draws.c``,
which it compiles with the machine's C compiler (``cc -O3``, or ``$CC``) into a
temporary directory, and to which it passes the shape masks and the trait mask
of ``quads.rules.Rules``, so the definitions are the library's own.  It shows
each count's progress on stderr, prints the table, checks that trait sets of
one size give one count (relabelling the traits carries one onto the other)
and that classic Quarto gives the published figure, and with ``--out`` writes
the table into the section "Drawn end positions" of that Markdown file, leaving
the rest of the file as it is.

``--traits`` may be given several times, each a comma list of trait names;
``--no-symmetry`` searches without the symmetry of the pieces (a check);
``--sizes`` picks the trait sets by their number of traits.  ``--board`` counts
the completions of a partly filled board instead (16 characters, a hex digit
or ``.`` a cell, cell A1 first), for the chosen rule sets.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from quads.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bench" / "draws.c"
TRAITS = ("height", "color", "shape", "top")
SHAPES = ("lines", "lines+squares")
FILLINGS = math.factorial(16)
"""All ways to put the sixteen pieces on the sixteen cells."""
PUBLISHED_CLASSIC = 414_298_141_056
"""Drawn full boards of classic Quarto (ten lines, four traits) as published on
Code Golf Stack Exchange, question 154335."""
SECTION = "## Drawn end positions"

Board = Sequence[int | None]
"""A board for the counter: the piece on each cell 0-15, or None for an empty cell."""


class CompilerMissingError(RuntimeError):
    """There is no C compiler to build the counter with."""


@dataclass(frozen=True)
class Count:
    """What the counter found for one rule set and one board."""

    count: int
    """Completed boards with no win."""
    labellings: int
    """Fillings of the empty cells with classes of pieces (see bench/draws.c)."""
    multiplier: int
    """Boards per labelling: the product of the factorials of the pieces left per class."""
    nodes: int
    tasks: int
    seconds: float
    """Wall-clock seconds."""
    cpu_seconds: float
    """Processor seconds of all the counter's threads."""


def build(directory: Path) -> Path:
    """Compile ``bench/draws.c`` into ``directory``; return the program's path.

    :raises CompilerMissingError: if there is no C compiler (``$CC`` or ``cc``).
    """
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        raise CompilerMissingError(
            "no C compiler found: bench/draws.py needs `cc` (or $CC) to build bench/draws.c"
        )
    binary = directory / "draws"
    errors = ""
    # -march=native where the compiler knows it (a quarter faster here), else plain -O3.
    for flags in (["-O3", "-march=native"], ["-O3"]):
        done = subprocess.run([compiler, *flags, "-pthread", "-o", str(binary), str(SOURCE)],
                              capture_output=True, text=True, check=False)
        if done.returncode == 0:
            return binary
        errors = done.stderr
    raise RuntimeError(f"{compiler} could not build {SOURCE}:\n{errors}")


def board_argument(board: Board) -> str:
    """The counter's ``--board`` text: a hex digit per filled cell, ``.`` per empty one."""
    if len(board) != 16:
        raise ValueError(f"a board has 16 cells, not {len(board)}")
    return "".join("." if piece is None else f"{piece:X}" for piece in board)


def count(binary: Path, rules: Rules, board: Board | None = None, *, threads: int = 1,
          symmetry: bool = True, tasks: int | None = None,
          on_progress: Callable[[int, int, float], None] | None = None) -> Count:
    """Count the completions of ``board`` (default: the empty board) with no win under
    ``rules``, with the program that :func:`build` made.

    ``on_progress(done, total, seconds)`` is called every two seconds with the tasks
    done so far; ``symmetry=False`` leaves out the symmetry of the pieces (a check).
    """
    command = [str(binary), "--shapes", ",".join(f"{mask:x}" for mask in rules.shape_masks),
               "--traits", str(rules.traits), "--threads", str(threads)]
    if board is not None:
        command += ["--board", board_argument(board)]
    if not symmetry:
        command.append("--no-symmetry")
    if tasks is not None:
        command += ["--tasks", str(tasks)]
    if on_progress is not None:
        command += ["--progress", "2"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        errors = []
        for line in process.stderr:  # the output on stdout is a few short lines
            match = re.fullmatch(r"progress (\d+) (\d+) ([\d.]+)\n?", line)
            if match and on_progress is not None:
                on_progress(int(match[1]), int(match[2]), float(match[3]))
            elif not match:
                errors.append(line)
        output = process.stdout.read()
        if process.wait() != 0:
            raise RuntimeError(f"{' '.join(command)} failed:\n{''.join(errors)}")
    values = dict(line.split(" ", 1) for line in output.splitlines())
    return Count(int(values["count"]), int(values["labellings"]), int(values["multiplier"]),
                 int(values["nodes"]), int(values["tasks"]), float(values["seconds"]),
                 float(values["cpu"]))


def trait_sets() -> list[tuple[str, ...]]:
    """The 15 non-empty sets of traits, smallest first."""
    return [names for size in range(1, 5) for names in combinations(TRAITS, size)]


def rules_for(shapes: str, names: Sequence[str]) -> Rules:
    """The rule set (calling ``auto``: calling plays no part here) for a shape set and traits."""
    return Rules.parse(f"{shapes}:{','.join(names)}:auto")


@dataclass(frozen=True)
class Row:
    shapes: str
    traits: tuple[str, ...]
    result: Count


def seconds_text(seconds: float) -> str:
    """Seconds with two decimals below ten, one above."""
    return f"{seconds:.2f}" if seconds < 10 else f"{seconds:.1f}"


def table(rows: Sequence[Row], threads: int) -> list[str]:
    """The Markdown table of ``rows``."""
    lines = [
        f"| shapes | counted traits | drawn boards | share of 16! | seconds ({threads} "
        f"thread{'s' if threads != 1 else ''}) | processor seconds |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for row in rows:
        share = row.result.count / FILLINGS
        lines.append(f"| {row.shapes} | {', '.join(row.traits)} | {row.result.count:,} | "
                     f"{share:.4%} | {seconds_text(row.result.seconds)} | "
                     f"{seconds_text(row.result.cpu_seconds)} |")
    return lines


def section(rows: Sequence[Row], threads: int, command: str) -> str:
    """The Markdown section "Drawn end positions" for the table of ``rows``."""
    classic = [r.result.count for r in rows if r.shapes == "lines" and len(r.traits) == 4]
    published = (f"Code Golf Stack Exchange (question 154335) gives {PUBLISHED_CLASSIC:,} "
                 "drawn boards for classic Quarto (the ten lines, all four traits)")
    if not classic:
        comparison = ""
    elif classic[0] == PUBLISHED_CLASSIC:
        comparison = (f"{published}: the count above is the same. It is 384 times "
                      f"{PUBLISHED_CLASSIC // 384:,}, as it must be: flipping traits (16 "
                      "ways) and permuting them (24) carries draws to draws, and no such "
                      "map but the identity leaves a board of sixteen different pieces as "
                      "it is.")
    else:
        comparison = f"{published}; the count above, {classic[0]:,}, differs."
    total = sum(r.result.seconds for r in rows)
    total_cpu = sum(r.result.cpu_seconds for r in rows)
    niceness = os.nice(0)
    nice = f" at `nice -n {niceness}`" if niceness else ""
    paragraphs = [
        "A full board is one of the 16! = 20,922,789,888,000 ways to put the sixteen "
        "pieces on the sixteen cells; every arrangement counts, so a board and its "
        "rotations count separately. It is drawn when no winning shape of the rule set "
        "holds four pieces that share a value (all 1 or all 0) of a counted trait. Such "
        "a board ends a drawn game whatever the order of the moves, since no shape is "
        "won on the way either. The counts, by `bench/draws.c` from the shape masks and "
        "trait masks of `quads.rules.Rules`:",
        "\n".join(table(rows, threads)),
        f"Made by `{command}`{nice} on a 2-core machine ({platform.machine()}) shared "
        f"with other work: {total:.0f} s in all, {total_cpu:.0f} processor seconds. "
        "\"seconds\" is the wall clock of each count, \"processor seconds\" the time of "
        "all its threads; where another program keeps a core busy the wall clock of a "
        "niced count can be longer.",
        "Trait sets of one size give one count, since relabelling the traits carries one "
        "onto the other (the script checks it). " + comparison,
        "The counter is exact, but it does not try the boards one by one. Only the "
        "counted traits matter, so with k of them the pieces fall into 2^k classes of "
        "2^(4-k) interchangeable pieces: it counts the ways to label the cells with "
        "classes, each used 2^(4-k) times, that leave no shape won, and multiplies by "
        "((2^(4-k))!)^(2^k). Flipping and permuting the counted traits carries draws to "
        "draws, so the first cell gets class 0 (the count is multiplied by 2^k) and each "
        "following cell tries one class per orbit of the permutations that fix the "
        "classes placed so far, weighted by the orbit's size. The cells are filled depth "
        "first in an order that completes shapes early; each shape keeps an 8-bit mask "
        "of the trait values its pieces share, so the classes allowed on a shape's last "
        "cell are one table look-up, and a board is dropped as soon as a shape is won.",
        "`tests/test_draws.py` checks the counter against a brute force in Python on "
        "partly filled boards, against a count in Python of the whole board with one "
        "counted trait, and its use of the symmetry against a search without it. "
        "`--no-symmetry` makes the last check for whole boards: without the symmetry "
        "the three-trait counts above come out the same (checked for color, shape, top "
        "under both shape sets) in about 50 times their time.",
    ]
    wrapped = [p if p.startswith("|")
               else textwrap.fill(p, width=80, break_on_hyphens=False)
               for p in paragraphs]
    return SECTION + "\n\n" + "\n\n".join(wrapped) + "\n"


def write_section(path: Path, body: str) -> None:
    """Put ``body`` (a section starting with :data:`SECTION`) into ``path``, replacing the
    section of that title up to the next heading of its level, or adding it at the end."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    start = old.find(SECTION + "\n")
    if start < 0:
        new = (old.rstrip("\n") + "\n\n" if old.strip() else "") + body
    else:
        following = re.search(r"^## ", old[start + len(SECTION):], re.MULTILINE)
        end = start + len(SECTION) + following.start() if following else len(old)
        rest = old[end:]
        new = old[:start] + body + ("\n" + rest if rest else "")
    path.write_text(new, encoding="utf-8")


def show_progress(label: str) -> Callable[[int, int, float], None]:
    """A progress reporter for :func:`count` writing to stderr."""
    tty = sys.stderr.isatty()

    def report(done: int, total: int, seconds: float) -> None:
        text = f"{label}: {done}/{total} tasks, {seconds:.0f} s"
        if tty:
            print(f"\r{text}\x1b[K", end="", file=sys.stderr, flush=True)
        else:
            print(text, file=sys.stderr, flush=True)

    return report


def parse_board(text: str) -> list[int | None]:
    """A ``--board`` argument: 16 characters, a hex digit or ``.`` each."""
    if len(text) != 16 or any(ch not in "0123456789abcdefABCDEF." for ch in text):
        raise argparse.ArgumentTypeError("a board is 16 characters, a hex digit or '.' each")
    return [None if ch == "." else int(ch, 16) for ch in text]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", default=",".join(SHAPES),
                        help="comma list of shape sets (default: both)")
    parser.add_argument("--traits", action="append", default=[], metavar="NAMES",
                        help="a comma list of counted traits; may be repeated (default: all 15 "
                             "sets)")
    parser.add_argument("--sizes", default="1,2,3,4",
                        help="with no --traits: the sizes of the trait sets to count")
    parser.add_argument("--threads", type=int, default=2, help="threads of the counter")
    parser.add_argument("--no-symmetry", action="store_true",
                        help="search without the symmetry of the pieces (a check; slower)")
    parser.add_argument("--board", type=parse_board,
                        help="count the completions of this partly filled board")
    parser.add_argument("--out", type=Path,
                        help="write the table into this Markdown file's section "
                             f"{SECTION[3:]!r}")
    args = parser.parse_args(argv)
    shape_sets = [s.strip() for s in args.shapes.split(",")]
    if args.traits:
        chosen = [tuple(n.strip() for n in names.split(",")) for names in args.traits]
    else:
        sizes = {int(s) for s in args.sizes.split(",")}
        chosen = [names for names in trait_sets() if len(names) in sizes]
    selections = [(shapes, names, rules_for(shapes, names))
                  for shapes in shape_sets for names in chosen]
    if args.out is not None and args.board is not None:
        parser.error("--out writes the table of empty boards; leave out --board")

    rows: list[Row] = []
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="quads-draws-") as directory:
        try:
            binary = build(Path(directory))
        except CompilerMissingError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        for shapes, names, rules in selections:
            label = f"{shapes} {','.join(names)}"
            result = count(binary, rules, args.board, threads=args.threads,
                           symmetry=not args.no_symmetry, on_progress=show_progress(label))
            if sys.stderr.isatty():
                print("\r\x1b[K", end="", file=sys.stderr, flush=True)
            rows.append(Row(shapes, names, result))
            print(f"{shapes:<14} {', '.join(names):<26} {result.count:>20,} "
                  f"{result.count / FILLINGS:>9.4%} {seconds_text(result.seconds):>8} s "
                  f"{seconds_text(result.cpu_seconds):>8} cpu s", flush=True)
    print(f"total {time.monotonic() - began:.1f} s")

    status = 0
    for shapes in shape_sets:
        for size in range(1, 5):
            counts = {r.result.count for r in rows if r.shapes == shapes and len(r.traits) == size}
            if len(counts) > 1:
                print(f"error: {shapes} with {size} traits gives different counts: {counts}",
                      file=sys.stderr)
                status = 1
    if args.board is None:
        for row in rows:
            if row.shapes == "lines" and len(row.traits) == 4:
                same = row.result.count == PUBLISHED_CLASSIC
                print(f"classic Quarto: {row.result.count:,} drawn boards; published "
                      f"{PUBLISHED_CLASSIC:,}: {'the same' if same else 'DIFFERENT'}")
                status = status if same else 1
    if args.out is not None:
        command = " ".join(["python", "bench/draws.py", *sys.argv[1:]] if argv is None
                           else ["python", "bench/draws.py", *argv])
        write_section(args.out, section(rows, args.threads, command))
        print(f"written: {args.out}")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
