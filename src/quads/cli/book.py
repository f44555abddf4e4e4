"""``quads book build`` and ``quads book verify``: opening books."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from quads.book import (
    DEFAULT_MIN_EMPTY,
    BuildProgress,
    build_book,
    pack_journal,
    shipped_path,
    verify_book,
)
from quads.cli.options import add_rules_options, empty_cells, positive_int, rules_from_args

__all__ = ["register"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``book`` command with its ``build`` and ``verify`` subcommands."""
    parser = commands.add_parser(
        "book", help="build and verify opening books",
        description="An opening book holds the exact value of every position near the "
                    "empty board, so that every turn there is judged without search.",
    )
    actions = parser.add_subparsers(dest="book_command", metavar="ACTION", required=True)

    build = actions.add_parser(
        "build", help="solve every position of a book and write it",
        description="Solve every position reachable from the empty board with at least "
                    "MIN_EMPTY empty cells (and those their turns lead to), up to symmetry, "
                    "and write the book. An interrupted build continues where it stopped "
                    "when run again with the same --out.",
    )
    add_rules_options(build)
    build.add_argument("--min-empty", type=empty_cells, default=DEFAULT_MIN_EMPTY, metavar="K",
                       help=f"judge every turn of positions with at least K empty cells "
                            f"(default: {DEFAULT_MIN_EMPTY})")
    build.add_argument("--workers", type=positive_int, metavar="N",
                       help="local worker processes (default: one per core)")
    build.add_argument("--scheduler", metavar="ADDRESS",
                       help="hand the work to the Dask distributed scheduler at ADDRESS "
                            "(e.g. tcp://10.0.0.5:8786) instead of local processes")
    build.add_argument("--out", type=Path, metavar="FILE",
                       help="the book file (default: RULES.qbook in this folder)")
    build.add_argument("--progress", action="store_true",
                       help="show the progress bar even when standard error is not a terminal")
    build.add_argument("--pack", action="store_true",
                       help="solve nothing: write what the stopped build of --out has solved "
                            "to FILE.partial (a compact partial book, which a build started "
                            "beside it takes up), to carry the build to another machine")
    build.set_defaults(run=run_build)

    verify = actions.add_parser(
        "verify", help="re-solve a sample of a book's positions and compare",
        description="Solve a random sample of the book's positions again with the solver "
                    "and check every stored value; exit status 1 on any difference.",
    )
    verify.add_argument("file", type=Path, nargs="?", metavar="FILE",
                        help="the book (default: the book shipped for --rules)")
    add_rules_options(verify)
    verify.add_argument("--sample", type=int, default=20, metavar="N",
                        help="how many positions to re-solve (default: 20; 0: all)")
    verify.add_argument("--seed", type=int, default=0, help="the sample's random seed")
    verify.add_argument("--down-to", type=empty_cells, metavar="K",
                        help="check only the positions with at least K empty cells (finding "
                             "every position of a deep book takes minutes)")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    verify.set_defaults(run=run_verify)


def run_build(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    out = args.out or Path(f"{rules.name.replace(':', '_')}.qbook")
    if args.pack:
        packed = pack_journal(rules, args.min_empty, out)
        print(f"{out}.partial: {packed.positions} positions of {packed.game} solved so far "
              f"for the book with min_empty {packed.min_empty}")
        return 0
    with tqdm(unit="pos", file=sys.stderr, disable=False if args.progress else None,
              desc="solving", dynamic_ncols=True) as bar:

        def report(progress: BuildProgress) -> None:
            if bar.total != progress.total:
                bar.reset(total=progress.total)
                bar.set_postfix(resumed=progress.resumed)
            bar.n = progress.done
            bar.refresh()

        header = build_book(rules, args.min_empty, out, workers=args.workers,
                            scheduler=args.scheduler, progress=report)
    print(f"{out}: {header.positions} positions of {header.game}, every turn judged with "
          f"at least {header.min_empty} empty cells ({out.stat().st_size} bytes)")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    path = args.file or shipped_path(rules)
    report = verify_book(path, rules, sample=args.sample, seed=args.seed,
                         down_to=args.down_to)
    if args.json:
        print(json.dumps(report.as_json(), sort_keys=True))
    else:
        print(f"{path}: {report.checked} of {report.positions} positions re-solved in "
              f"{report.seconds:.1f} s, {len(report.wrong)} wrong")
        for key, stored, solved in report.wrong:
            print(f"  key {key:#x}: stored {stored}, solved {solved}")
    return 1 if report.wrong else 0
