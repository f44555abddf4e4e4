"""``quads admin prune`` and ``quads admin recount-explorer``: the operator's upkeep of
a server's database."""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from quads.cli.serve import default_db_path

if TYPE_CHECKING:
    from quads.storage import GameStore

_T = TypeVar("_T")

__all__ = ["register"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``admin`` command with its ``prune`` and ``recount-explorer``
    subcommands."""
    parser = commands.add_parser(
        "admin", help="look after the database of quads serve",
        description="Upkeep of the database that quads serve plays on.",
    )
    actions = parser.add_subparsers(dest="admin_command", metavar="ACTION", required=True)
    prune = actions.add_parser(
        "prune", help="delete expired games and players",
        description="Delete the games nobody acted in and the players with no game and "
                    "no puzzle result once unplayed_days have passed, and finished or "
                    "abandoned games once ended_days have passed (the settings of "
                    "--config; docs/deploy.md). The server does the same every "
                    "prune_interval seconds.",
    )
    _db_option(prune)
    prune.add_argument("--config", default=None, metavar="FILE",
                       help="the TOML settings file of quads serve (for the retention times)")
    prune.add_argument("--dry-run", action="store_true",
                       help="count what would be deleted, and delete nothing")
    prune.set_defaults(run=run_prune)
    recount = actions.add_parser(
        "recount-explorer", help="count what people played again, from the stored games",
        description="Count the turns of every game that ended on the site again, from "
                    "their records, and make the explorer's counts what this gives (they "
                    "are counted as games end; this rebuilds them, after an upgrade or to "
                    "check them). Servers may go on meanwhile.",
    )
    _db_option(recount)
    recount.add_argument("--progress", action="store_true",
                         help="show the progress bar even when standard error is not a "
                              "terminal")
    recount.set_defaults(run=run_recount)


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None, metavar="PATH_OR_URL",
                        help="the database: a SQLite file, or a postgresql:// URL "
                             "(default: $QUADS_DB, else ~/.local/share/quads/quads.sqlite3)")


def _with_store(args: argparse.Namespace, work: Callable[[GameStore], _T]) -> _T | None:
    """``work`` on the store of ``--db``, closed after it; ``None`` (the error told) if
    the store cannot be opened or fails."""
    from quads.storage import GameStore, StorageError

    location = args.db if args.db is not None else str(default_db_path())
    try:
        store = GameStore(location)
    except StorageError as exc:
        print(f"quads: error: {exc}", file=sys.stderr)
        return None
    try:
        return work(store)
    except StorageError as exc:
        print(f"quads: error: {exc}", file=sys.stderr)
        return None
    finally:
        store.close()


def run_recount(args: argparse.Namespace) -> int:
    """Run ``quads admin recount-explorer``: print how many games were counted."""
    from tqdm import tqdm

    def recount(store: GameStore) -> int:
        with tqdm(unit="games", file=sys.stderr, disable=False if args.progress else None,
                  desc="recount") as bar:
            def report(read: int) -> None:
                bar.update(read - bar.n)

            return store.recount_explorer(report)

    counted = _with_store(args, recount)
    if counted is None:
        return 2
    print(f"Counted the turns of {counted} games that ended.")
    return 0


def run_prune(args: argparse.Namespace) -> int:
    """Run ``quads admin prune``: print what was (or would be) deleted."""
    from quads.web.settings import Settings, SettingsError

    try:
        settings = Settings.from_file(args.config) if args.config else Settings()
    except SettingsError as exc:
        print(f"quads: error: {exc}", file=sys.stderr)
        return 2
    pruned = _with_store(args, lambda store: store.prune(
        datetime.timedelta(days=settings.unplayed_days),
        datetime.timedelta(days=settings.ended_days), dry_run=args.dry_run))
    if pruned is None:
        return 2
    if pruned.skipped:
        print("Another process is pruning this database now: nothing done.")
        return 0
    verb = "Would delete" if pruned.dry_run else "Deleted"
    print(f"{verb}: {pruned.unplayed_games} unplayed games (after {settings.unplayed_days:g} "
          f"days), {pruned.ended_games} finished and {pruned.abandoned_games} abandoned games "
          f"(after {settings.ended_days:g} days), {pruned.players} players with nothing.")
    return 0
