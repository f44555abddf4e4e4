"""The game store: games and puzzle results in SQLite or PostgreSQL (SQLAlchemy Core).

Every operation is one short transaction on a pooled connection, so the store
can be used from any thread and by several processes sharing one PostgreSQL
database.

A save is *optimistic*: it names the revision it loaded, and the single
``UPDATE ... WHERE id = ? AND revision = ?`` statement that writes it fails
when another save came first, on either engine.  Two requests that both
loaded revision ``n`` can therefore never both be stored.  On PostgreSQL a save
also sends ``NOTIFY quads_games`` in its own transaction, so that every server
process learns of the change once it is committed (:mod:`quads.web.notify`).
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Collection, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    URL,
    Connection,
    Engine,
    RowMapping,
    and_,
    bindparam,
    delete,
    distinct,
    exists,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy import text as sql
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from quads.clock import Clock
from quads.game import Game
from quads.outcome import Player
from quads.storage.commits import GroupCommit
from quads.storage.engine import database_url, describe, open_engine
from quads.storage.errors import (
    DeviceGameExistsError,
    GameNotFoundError,
    StaleGameError,
    StorageError,
    StorageUnavailableError,
)
from quads.storage.migrate import upgrade
from quads.storage.replays import Replays
from quads.storage.results import PuzzleResult
from quads.storage.retention import Pruned
from quads.storage.stored import (
    GameSummary,
    Status,
    StoredGame,
    action_text,
    now,
    redo_trail,
)
from quads.storage.tables import (
    connections,
    games,
    players,
    processes,
    puzzle_results,
    puzzle_solves,
)

__all__ = ["CHANNEL", "GameStore"]

_PRUNE_LOCK = 0x71756164
"""The PostgreSQL advisory lock a prune holds, so that one process prunes at a time."""

_PRUNE_BATCH = 500
"""Rows of each kind that one transaction of a prune deletes at most."""

_PRUNED_KINDS = ("unplayed_games", "ended_games", "abandoned_games", "players")

_IDS_PER_QUERY = 500
"""Games whose presence one query reads at most."""

_SOLVED_PAGE = 64
"""Solved dates that one query of :meth:`GameStore.solved_dates` reads at most."""

CHANNEL = "quads_games"
"""The PostgreSQL channel of changes: payload ``ID REVISION`` (a save), ``ID gone`` (a
deletion) or ``ID presence`` (a player opened or closed it on some process).  The save
of a game with players seated or a bot offered a seat names them after the revision
(``ID REVISION PLAYER...``), so that their bots' streams hear of it
(:mod:`quads.web.bot_streams`)."""

_SUMMARY = (games.c.id, games.c.rules, games.c.mode, games.c.level, games.c.human,
            games.c.ply, games.c.status, games.c.to_move, games.c.created, games.c.updated,
            games.c.owner, games.c.first_player, games.c.second_player, games.c.resigned,
            games.c.revision, games.c.device, games.c.clock)
_PROGRESS = ("actions", "redo", "ply", "status", "to_move", "revision", "updated",
             "first_player", "second_player", "invite", "undo_request", "resigned", "rematch",
             "rematch_by", "device_revision", "clock", "deadline", "bot_invited", "bot_declined")


_SAVE = update(games).where(games.c.id == bindparam("game_id"),
                            games.c.revision == bindparam("loaded_revision"))
"""A save, built once (SQLAlchemy compiles it once too): the columns given with it
(:data:`_PROGRESS`) of the game ``game_id``, if it is still at ``loaded_revision``."""

_FIRST_SEAT, _SECOND_SEAT = players.alias("first_seat"), players.alias("second_seat")
_INVITED = players.alias("invited")
_LOAD = (select(games, _FIRST_SEAT.c.name.label("first_name"),
                _SECOND_SEAT.c.name.label("second_name"),
                _FIRST_SEAT.c.bot.label("first_bot"), _SECOND_SEAT.c.bot.label("second_bot"),
                _INVITED.c.bot.label("invited_handle"), _INVITED.c.name.label("invited_name"))
         .outerjoin(_FIRST_SEAT, _FIRST_SEAT.c.id == games.c.first_player)
         .outerjoin(_SECOND_SEAT, _SECOND_SEAT.c.id == games.c.second_player)
         .outerjoin(_INVITED, _INVITED.c.id == games.c.bot_invited)
         .where(games.c.id == bindparam("game_id")))
"""A game's row with its seats' names and bot handles, built once."""


def _time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def _result(row: RowMapping) -> PuzzleResult:
    return PuzzleResult(
        player=row["player"],
        date=dt.date.fromisoformat(row["date"]),
        tries=row["tries"],
        seconds=row["seconds"],
        solved=bool(row["solved"]),
        recorded=datetime.fromisoformat(row["recorded"]),
        attempt=row["attempt"],
    )


def _clock_text(clock: Clock | None) -> str | None:
    return None if clock is None else json.dumps(clock.to_json())


def _clock(text: str | None) -> Clock | None:
    return None if text is None else Clock.from_json(json.loads(text))


def _deadline(stored: StoredGame) -> str | None:
    """When the game's running clock (or grace) runs out, while it goes on."""
    if stored.clock is None or stored.is_over():
        return None
    deadline = stored.clock.deadline()
    return None if deadline is None else _time(deadline)


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _player(value: str | None) -> Player | None:
    return None if value is None else Player[value.upper()]


def _identifier(player: Player | None) -> str | None:
    return None if player is None else player.identifier


class _DryRunError(Exception):
    """Raised to roll back a prune's deletes (``dry_run``)."""


def _record(game: Game) -> tuple[list[str], list[str]]:
    """The texts of ``game``'s actions and of its redo trail, as a save writes them."""
    return [action_text(a) for a in game.actions], [action_text(a) for a in redo_trail(game)]


class GameStore:
    """The games and puzzle results in one database, created with its schema when new
    and brought up to the current schema when older.

    ``location`` is a SQLite file's path or a database URL (``postgresql://...``).
    ``statement_timeout`` (seconds, PostgreSQL only) is the longest the database
    may work on one statement (default: the server's own setting).

    :raises StorageError: if the database cannot be reached or read as a Quads
        database, or is newer than this version of Quads.
    """

    def __init__(self, location: str | Path | URL, *,
                 statement_timeout: float | None = None) -> None:
        self.url = location if isinstance(location, URL) else database_url(location)
        self.engine: Engine = open_engine(self.url, statement_timeout)
        self.postgres = self.engine.dialect.name == "postgresql"
        self._replays = Replays()
        # SQLite lets one transaction write at a time.  The threads of this process
        # take turns here, in order, instead of in SQLite's busy handler, which
        # retries after sleeps of up to 100 ms; PostgreSQL needs no such turns.
        self._writing: AbstractContextManager[Any] = (
            nullcontext() if self.postgres else threading.Lock())
        # SQLite: the saves of threads at the same time share one transaction and one
        # wait for the disk (quads.storage.commits).
        self._commits = None if self.postgres else GroupCommit(
            lambda: self._begin(write=True), (StaleGameError, GameNotFoundError))
        where = describe(self.url)
        try:
            upgrade(self.engine)
        except DBAPIError as exc:
            self.engine.dispose()
            reason = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
            raise StorageError(f"cannot open the database {where!r}: {reason}") from None
        except StorageError:
            self.engine.dispose()
            raise
        except Exception as exc:  # e.g. sqlite3.DatabaseError: not a database
            self.engine.dispose()
            raise StorageError(f"cannot open the database {where!r}: {exc}") from None

    @property
    def path(self) -> Path:
        """The SQLite file (only for a SQLite store)."""
        if self.postgres or self.url.database is None:
            raise AttributeError("a PostgreSQL store has no file")
        return Path(self.url.database)

    def close(self) -> None:
        """Close the pooled connections."""
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database for nothing: return once it answers.

        :raises StorageUnavailableError: if it cannot be reached.
        """
        with self._begin() as connection:
            connection.execute(sql("SELECT 1"))

    @contextmanager
    def _begin(self, write: bool = False) -> Iterator[Connection]:
        try:
            with self._writing if write else nullcontext(), self.engine.begin() as connection:
                yield connection
        except (OperationalError, DBAPIError) as exc:
            if isinstance(exc, IntegrityError) or not (
                    isinstance(exc, OperationalError) or exc.connection_invalidated):
                raise
            raise StorageUnavailableError(
                f"the database {describe(self.url)!r} cannot be reached now") from exc

    def _keep_players(self, connection: Connection, *ids: str | None) -> None:
        """Make sure the players ``ids`` (those of 64 hex digits, the server's own) have
        their row, in the transaction that gives them a game, a seat or a result: a
        player that a prune removed while a server process still knew it comes back,
        instead of owning rows that no token leads to."""
        own = sorted({p for p in ids if p is not None and len(p) == 64
                      and all(c in "0123456789abcdef" for c in p)})
        if not own:
            return
        make = postgresql_insert if self.postgres else sqlite_insert
        created = _time(now())
        connection.execute(make(players).values([{"id": p, "created": created} for p in own])
                           .on_conflict_do_nothing(index_elements=["id"]))

    def _notify(self, connection: Connection, payload: str) -> None:
        if self.postgres:
            connection.execute(sql("SELECT pg_notify(:channel, :payload)"),
                               {"channel": CHANNEL, "payload": payload})

    # -- writing ---------------------------------------------------------------

    def create(self, stored: StoredGame) -> None:
        """Store a new game.

        :raises DeviceGameExistsError: if its owner has a game of its device id already
            (:attr:`StoredGame.device`).
        :raises StorageError: if a game with its id exists already.
        """
        try:
            with self._begin(write=True) as connection:
                self._insert(connection, stored)
        except IntegrityError:
            if (stored.device is not None and stored.owner is not None
                    and self.find_device(stored.owner, stored.device) is not None):
                raise DeviceGameExistsError(
                    f"a game of device id {stored.device!r} is stored already") from None
            raise StorageError(f"a game with id {stored.id!r} exists already") from None

    def _insert(self, connection: Connection, stored: StoredGame) -> None:
        """Store a new game in the transaction of ``connection``."""
        game = stored.game
        row = {
            "id": stored.id,
            "rules": game.rules.name,
            "mode": stored.mode,
            "level": stored.level,
            "human": _identifier(stored.human),
            "seed": stored.seed,
            "start": game.start.to_string(),
            "headers": json.dumps(game.headers),
            "created": _time(stored.created),
            "owner": stored.owner,
            "device": stored.device,
            **self._progress(stored),
            "updated": _time(stored.updated),
        }
        connection.execute(insert(games), row)
        self._keep_players(connection, stored.owner, stored.first_player,
                           stored.second_player)
        stored.stored_seats = (stored.first_player, stored.second_player)

    def save(self, stored: StoredGame) -> None:
        """Write the game's actions, redo trail, seats and status; count a new revision.

        The save succeeds only if the stored revision is still the one ``stored``
        was loaded at; on success ``stored.revision`` and ``stored.updated`` are
        brought up to date.

        :raises StaleGameError: if the game was saved by someone else meanwhile.
        :raises GameNotFoundError: if there is no such game.
        """
        record = _record(stored.game)
        values = self._progress(stored, record)
        values["revision"] = stored.revision + 1
        values["game_id"], values["loaded_revision"] = stored.id, stored.revision
        seats = (stored.first_player, stored.second_player)
        concerned = dict.fromkeys(p for p in (*seats, stored.bot_invited) if p)

        def write(connection: Connection) -> None:
            result = connection.execute(_SAVE, values)
            if result.rowcount == 0:
                found = connection.execute(select(games.c.id).where(games.c.id == stored.id))
                if found.first() is not None:
                    raise StaleGameError(f"game {stored.id!r} has changed since it was loaded")
                raise GameNotFoundError(f"no game with id {stored.id!r}")
            if seats != stored.stored_seats:
                self._keep_players(connection, *seats)
            self._notify(connection, " ".join(
                [stored.id, str(stored.revision + 1), *concerned]))

        if self._commits is None:
            with self._begin(write=True) as connection:
                write(connection)
        else:
            self._commits.run(write)
        self._replays.saved(stored.id, stored.game, *record)
        stored.revision += 1
        stored.updated = datetime.fromisoformat(values["updated"])
        stored.stored_seats = seats

    def add_result(self, result: PuzzleResult, *, solve: bool = False) -> bool:
        """Store one attempt at a puzzle; ``False`` (and nothing stored) when the player
        has an attempt of the same :attr:`~PuzzleResult.attempt` id already.

        With ``solve``, record in the same transaction that the player solved the
        puzzle of its date (as :meth:`add_solve`, the first solve standing).
        """
        make = postgresql_insert if self.postgres else sqlite_insert
        with self._begin(write=True) as connection:
            self._keep_players(connection, result.player)
            if solve:
                connection.execute(make(puzzle_solves).values({
                    "player": result.player, "date": result.date.isoformat(),
                    "solved": _time(result.recorded)}).on_conflict_do_nothing(
                        index_elements=["player", "date"]))
            done = connection.execute(make(puzzle_results).values({
                "player": result.player,
                "date": result.date.isoformat(),
                "tries": result.tries,
                "seconds": result.seconds,
                "solved": int(result.solved),
                "recorded": _time(result.recorded),
                "attempt": result.attempt,
            }).on_conflict_do_nothing(index_elements=["player", "attempt"])
                .returning(puzzle_results.c.id))
            return done.first() is not None

    @staticmethod
    def _progress(stored: StoredGame, record: tuple[list[str], list[str]] | None = None
                  ) -> dict[str, Any]:
        actions, redo = record if record is not None else _record(stored.game)
        return {
            "actions": json.dumps(actions),
            "redo": json.dumps(redo),
            "ply": stored.ply,
            "status": stored.status,
            "to_move": _identifier(stored.game.to_move),
            "revision": stored.revision,
            "updated": _time(now()),
            "first_player": stored.first_player,
            "second_player": stored.second_player,
            "invite": stored.invite,
            "undo_request": _identifier(stored.undo_request),
            "resigned": _identifier(stored.resigned),
            "rematch": stored.rematch,
            "rematch_by": _identifier(stored.rematch_by),
            "device_revision": stored.device_revision,
            "clock": _clock_text(stored.clock),
            "deadline": _deadline(stored),
            "bot_invited": stored.bot_invited,
            "bot_declined": int(stored.bot_declined),
        }

    # -- reading ---------------------------------------------------------------

    def load(self, game_id: str) -> StoredGame:
        """The game stored under ``game_id``, replayed.

        :raises GameNotFoundError: if there is no such game.
        """
        with self._begin() as connection:
            row = connection.execute(_LOAD, {"game_id": game_id}).mappings().first()
        if row is None:
            raise GameNotFoundError(f"no game with id {game_id!r}")
        return self._stored(row)

    def _stored(self, row: RowMapping) -> StoredGame:
        game = self._replays.game(row["id"], row["rules"], row["start"], row["headers"],
                                  json.loads(row["actions"]), json.loads(row["redo"]))
        resigned = _player(row["resigned"])
        if resigned is not None and not game.is_over():
            # Saved before resignation was an action of the game: its column says it.
            game.resign(resigned)
        return StoredGame(
            id=row["id"],
            mode=row["mode"],
            level=row["level"],
            human=_player(row["human"]),
            seed=row["seed"],
            game=game,
            created=datetime.fromisoformat(row["created"]),
            updated=datetime.fromisoformat(row["updated"]),
            revision=row["revision"],
            owner=row["owner"],
            first_player=row["first_player"],
            second_player=row["second_player"],
            invite=row["invite"],
            undo_request=_player(row["undo_request"]),
            rematch=row["rematch"],
            rematch_by=_player(row["rematch_by"]),
            device=row["device"],
            device_revision=row["device_revision"],
            clock=_clock(row["clock"]),
            away=(_moment(row["first_away"]), _moment(row["second_away"])),
            names=(row.get("first_name"), row.get("second_name")),
            bots=(row.get("first_bot") is not None, row.get("second_bot") is not None),
            bot_invited=row["bot_invited"],
            bot_declined=bool(row["bot_declined"]),
            invited_bot=(None if row.get("invited_handle") is None
                         else (row["invited_handle"], row.get("invited_name") or "")),
            stored_seats=(row["first_player"], row["second_player"]),
        )

    def find_device(self, owner: str, device: str) -> StoredGame | None:
        """``owner``'s game uploaded from a device under the id ``device``, if any."""
        with self._begin() as connection:
            row = connection.execute(select(games).where(
                games.c.owner == owner, games.c.device == device)).mappings().first()
        return None if row is None else self._stored(row)

    def summaries(self, status: Status | None = None, *,
                  player: str | None = None, limit: int | None = None,
                  after: tuple[str, str] | None = None) -> list[GameSummary]:
        """The games, most recently changed first (ties by id, highest first); only
        those of ``status`` if given.

        With ``player``, only that player's games (created or seated) in which
        somebody has acted (a game that was never saved is left out), and the
        online games they created that wait for the other player to join.

        ``limit`` and ``after`` read one page: at most ``limit`` games, those that
        come after the game whose ``(updated, id)`` is ``after``
        (:meth:`page_key` of the last game of the page before).  Pages stay in
        step while games are added or played: a game changed meanwhile moves to
        the first page.
        """
        query = select(*_SUMMARY)
        if player is not None:
            query = query.where(
                or_(games.c.owner == player, games.c.first_player == player,
                    games.c.second_player == player),
                or_(games.c.revision > 0,
                    and_(games.c.mode == "online", games.c.owner == player)),
            )
        if status is not None:
            query = query.where(games.c.status == status)
        if after is not None:
            updated, game_id = after
            query = query.where(or_(games.c.updated < updated,
                                    and_(games.c.updated == updated, games.c.id < game_id)))
        query = query.order_by(games.c.updated.desc(), games.c.id.desc())
        if limit is not None:
            query = query.limit(limit)
        with self._begin() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            GameSummary(
                id=row["id"],
                rules=row["rules"],
                mode=row["mode"],
                level=row["level"],
                human=_player(row["human"]),
                ply=row["ply"],
                status=row["status"],
                to_move=_player(row["to_move"]),
                created=datetime.fromisoformat(row["created"]),
                updated=datetime.fromisoformat(row["updated"]),
                owner=row["owner"],
                first_player=row["first_player"],
                second_player=row["second_player"],
                resigned=_player(row["resigned"]),
                revision=row["revision"],
                device=row["device"],
                clock=_clock(row["clock"]),
            )
            for row in rows
        ]

    @staticmethod
    def page_key(summary: GameSummary) -> tuple[str, str]:
        """Where a page of :meth:`summaries` that ends with ``summary`` ends."""
        return _time(summary.updated), summary.id

    def find_invite(self, token: str) -> str | None:
        """The id of the game whose invitation is ``token``, if any."""
        with self._begin() as connection:
            found = connection.execute(select(games.c.id).where(games.c.invite == token))
            row = found.first()
        return None if row is None else str(row[0])

    def delete(self, game_id: str, revision: int) -> None:
        """Delete a game, if it is still at ``revision``.

        :raises StaleGameError: if the game was saved meanwhile.
        :raises GameNotFoundError: if there is no such game.
        """
        with self._begin(write=True) as connection:
            result = connection.execute(
                delete(games).where(games.c.id == game_id, games.c.revision == revision))
            if result.rowcount == 0:
                found = connection.execute(select(games.c.id).where(games.c.id == game_id))
                if found.first() is not None:
                    raise StaleGameError(f"game {game_id!r} has changed since it was loaded")
                raise GameNotFoundError(f"no game with id {game_id!r}")
            self._notify(connection, f"{game_id} gone")
            self._replays.forget(game_id)

    def adopt(self, game_id: str, player: str) -> None:
        """Give a game stored before games had owners to ``player`` (if it still has none)."""
        with self._begin(write=True) as connection:
            connection.execute(update(games).where(games.c.id == game_id,
                                                   games.c.owner.is_(None))
                               .values(owner=player))

    # -- players -----------------------------------------------------------------

    def add_player(self, player: str) -> None:
        """Record a new player id (the hash of a token just issued)."""
        try:
            with self._begin(write=True) as connection:
                connection.execute(insert(players), {"id": player, "created": _time(now())})
        except IntegrityError:
            pass  # issued already

    def has_player(self, player: str) -> bool:
        """Whether ``player`` was issued by this server."""
        with self._begin() as connection:
            row = connection.execute(select(players.c.id).where(players.c.id == player))
            return row.first() is not None

    def adopt_results(self, legacy: str, player: str) -> int:
        """Give the puzzle results stored under ``legacy`` (an id that a page made up
        itself, before players were known by the server) to ``player``; return how many.

        Ids of the server's own players (64 hex digits) are never taken this way.
        """
        if len(legacy) == 64 and all(c in "0123456789abcdef" for c in legacy):
            return 0
        with self._begin(write=True) as connection:
            result = connection.execute(update(puzzle_results)
                                        .where(puzzle_results.c.player == legacy)
                                        .values(player=player))
            solved = connection.execute(
                select(puzzle_results.c.date, puzzle_results.c.recorded)
                .where(puzzle_results.c.player == player, puzzle_results.c.solved == 1)
                .order_by(puzzle_results.c.id)).all()
            known = {row[0] for row in connection.execute(
                select(puzzle_solves.c.date).where(puzzle_solves.c.player == player))}
            for date, recorded in solved:
                if date not in known:
                    known.add(date)
                    connection.execute(insert(puzzle_solves),
                                       {"player": player, "date": date, "solved": recorded})
        return int(result.rowcount)

    def add_solve(self, player: str, date: dt.date) -> None:
        """Record that ``player``'s checked turns solved the puzzle of ``date``."""
        try:
            with self._begin(write=True) as connection:
                self._keep_players(connection, player)
                connection.execute(insert(puzzle_solves), {
                    "player": player, "date": date.isoformat(), "solved": _time(now())})
        except IntegrityError:
            pass  # solved before: the first solve stands

    def has_solve(self, player: str, date: dt.date) -> bool:
        """Whether ``player``'s checked turns solved the puzzle of ``date``."""
        with self._begin() as connection:
            row = connection.execute(select(puzzle_solves.c.player).where(
                puzzle_solves.c.player == player, puzzle_solves.c.date == date.isoformat()))
            return row.first() is not None

    def puzzle_day(self, player: str, date: dt.date) -> tuple[int, PuzzleResult | None]:
        """How many attempts ``player`` made at the puzzle of ``date``, and the first of
        them posted as solved (``None`` if none was)."""
        mine = and_(puzzle_results.c.player == player,
                    puzzle_results.c.date == date.isoformat())
        with self._begin() as connection:
            attempts = connection.execute(
                select(func.count()).select_from(puzzle_results).where(mine)).scalar_one()
            first = connection.execute(
                select(puzzle_results).where(mine, puzzle_results.c.solved == 1)
                .order_by(puzzle_results.c.id).limit(1)).mappings().first()
        return int(attempts), None if first is None else _result(first)

    def solved_count(self, player: str) -> int:
        """How many puzzle dates ``player`` solved (posted a solved result for)."""
        with self._begin() as connection:
            count = connection.execute(
                select(func.count(distinct(puzzle_results.c.date))).where(
                    puzzle_results.c.player == player, puzzle_results.c.solved == 1)
            ).scalar_one()
        return int(count)

    def solved_dates(self, player: str, until: dt.date,
                     page: int = _SOLVED_PAGE) -> Iterator[dt.date]:
        """The puzzle dates ``player`` solved, up to ``until``, newest first, each once:
        read ``page`` dates at a time, as far as the caller reads (a streak stops at
        its first gap)."""
        bound = puzzle_results.c.date <= until.isoformat()
        while True:
            with self._begin() as connection:
                dates = list(connection.execute(
                    select(puzzle_results.c.date).distinct().where(
                        puzzle_results.c.player == player, puzzle_results.c.solved == 1,
                        bound).order_by(puzzle_results.c.date.desc()).limit(page)).scalars())
            yield from (dt.date.fromisoformat(date) for date in dates)
            if len(dates) < page:
                return
            bound = puzzle_results.c.date < dates[-1]

    def results(self, player: str) -> list[PuzzleResult]:
        """Every attempt of ``player`` at a puzzle, newest puzzle date first, and within a
        date in the order they were stored."""
        with self._begin() as connection:
            rows = connection.execute(
                select(puzzle_results).where(puzzle_results.c.player == player)
                .order_by(puzzle_results.c.date.desc(), puzzle_results.c.id)
            ).mappings().all()
        return [_result(row) for row in rows]

    def result_of(self, player: str, attempt: str) -> PuzzleResult | None:
        """``player``'s attempt stored under the client's id ``attempt``, if any."""
        with self._begin() as connection:
            row = connection.execute(select(puzzle_results).where(
                puzzle_results.c.player == player, puzzle_results.c.attempt == attempt)
            ).mappings().first()
        return None if row is None else _result(row)

    # -- retention ---------------------------------------------------------------

    def prune(self, unplayed: dt.timedelta, ended: dt.timedelta, *,
              at: datetime | None = None, dry_run: bool = False,
              batch: int = _PRUNE_BATCH) -> Pruned:
        """Delete what expired at ``at`` (default: now), as :mod:`quads.storage.retention`
        says: games nobody acted in and players with nothing after ``unplayed``,
        finished and abandoned games after ``ended``.  Return the counts; with
        ``dry_run``, delete nothing and return the same counts.

        A deleted game's presence rows go with it, its invitation stops working,
        and a rematch link to it leads to a new rematch; on PostgreSQL each
        process hears that the game is gone.  The deletes are short transactions
        of ``batch`` rows of each kind at most, so that other writers never wait
        long (a dry run is one transaction, rolled back); they are idempotent,
        and on PostgreSQL a second process that prunes meanwhile skips.
        """
        moment = now() if at is None else at
        cutoffs = (_time(moment - unplayed), _time(moment - ended))
        total = dict.fromkeys(_PRUNED_KINDS, 0)
        removed: list[str] = []
        while True:
            try:
                with self._begin(write=True) as connection:
                    if self.postgres and not connection.execute(
                            sql("SELECT pg_try_advisory_xact_lock(:key)"),
                            {"key": _PRUNE_LOCK}).scalar():
                        if removed or any(total.values()):
                            break  # the other process goes on from here
                        return Pruned(dry_run=dry_run, skipped=True)
                    counts, ids = self._prune_batch(connection, *cutoffs,
                                                    None if dry_run else batch)
                    if dry_run:
                        raise _DryRunError
                    for game_id in ids:
                        self._notify(connection, f"{game_id} gone")
                        self._replays.forget(game_id)
            except _DryRunError:
                pass  # rolled back
            for kind, count in counts.items():
                total[kind] += count
            removed.extend(ids)
            if dry_run or max(counts.values()) < batch:
                break
        return Pruned(unplayed_games=total["unplayed_games"],
                      ended_games=total["ended_games"],
                      abandoned_games=total["abandoned_games"], players=total["players"],
                      games=tuple(removed), dry_run=dry_run)

    @staticmethod
    def _prune_batch(connection: Connection, unplayed_before: str, ended_before: str,
                     limit: int | None) -> tuple[dict[str, int], list[str]]:
        """Delete up to ``limit`` expired rows of each kind (all if ``None``)."""
        either = games.c.status.in_(("ongoing", "over"))  # reads games_by_status
        kinds = {
            "unplayed_games": and_(either, games.c.updated < unplayed_before,
                                   games.c.revision == 0),
            "ended_games": and_(games.c.status == "over", games.c.updated < ended_before,
                                games.c.revision > 0),
            "abandoned_games": and_(games.c.status == "ongoing",
                                    games.c.updated < ended_before, games.c.revision > 0),
        }
        counts: dict[str, int] = {}
        removed: list[str] = []
        for kind, condition in kinds.items():
            chosen = select(games.c.id).where(condition).limit(limit).scalar_subquery()
            ids = [row[0] for row in connection.execute(
                delete(games).where(games.c.id.in_(chosen), condition)
                .returning(games.c.id))]
            for start in range(0, len(ids), _IDS_PER_QUERY):
                connection.execute(delete(connections).where(
                    connections.c.game.in_(ids[start:start + _IDS_PER_QUERY])))
            counts[kind] = len(ids)
            removed.extend(ids)
        idle = and_(
            players.c.created < unplayed_before,
            ~exists().where(games.c.owner == players.c.id),
            ~exists().where(games.c.first_player == players.c.id),
            ~exists().where(games.c.second_player == players.c.id),
            ~exists().where(puzzle_results.c.player == players.c.id),
            ~exists().where(puzzle_solves.c.player == players.c.id),
        )
        chosen_players = select(players.c.id).where(idle).limit(limit).scalar_subquery()
        counts["players"] = int(connection.execute(
            delete(players).where(players.c.id.in_(chosen_players), idle)).rowcount)
        return counts, removed

    # -- clocks ----------------------------------------------------------------------

    def due_games(self, at: datetime, limit: int = 100) -> list[str]:
        """The games going on whose clock (or grace) had run out by ``at``, soonest
        first (``limit`` at most)."""
        with self._begin() as connection:
            rows = connection.execute(
                select(games.c.id).where(games.c.deadline <= _time(at),
                                         games.c.status == "ongoing")
                .order_by(games.c.deadline).limit(limit)).all()
        return [row[0] for row in rows]

    def mark_away(self, game_id: str, player: str, away: bool,
                  at: datetime | None = None) -> None:
        """Record that ``player`` (in a seat of ``game_id``) has left it everywhere, at
        ``at`` (default: now), unless already recorded, or (``away`` false) that they
        are back.  Not a save: the revision stays."""
        moment = None if not away else _time(now() if at is None else at)
        with self._begin(write=True) as connection:
            for seat, column in ((games.c.first_player, "first_away"),
                                 (games.c.second_player, "second_away")):
                condition = and_(games.c.id == game_id, seat == player)
                if away:
                    condition = and_(condition, games.c[column].is_(None))
                connection.execute(update(games).where(condition).values({column: moment}))

    # -- presence across server processes ----------------------------------------

    def process_alive(self, process: str) -> None:
        """Record that server ``process`` lives, now."""
        seen = _time(now())
        with self._begin(write=True) as connection:
            done = connection.execute(update(processes).where(processes.c.id == process)
                                      .values(seen=seen))
            if done.rowcount == 0:
                connection.execute(insert(processes), {"id": process, "seen": seen})

    def process_ended(self, process: str) -> None:
        """Forget server ``process`` and its connections."""
        with self._begin(write=True) as connection:
            games_open = connection.execute(select(connections.c.game).distinct()
                                            .where(connections.c.process == process)).all()
            connection.execute(delete(connections).where(connections.c.process == process))
            connection.execute(delete(processes).where(processes.c.id == process))
            for (game_id,) in games_open:
                self._notify(connection, f"{game_id} presence")

    def set_connected(self, process: str, game_id: str, player: str, open_: bool) -> None:
        """Record whether ``player`` has ``game_id`` open on a socket of ``process``, and
        tell the other processes."""
        key = (connections.c.process == process, connections.c.game == game_id,
               connections.c.player == player)
        with self._begin(write=True) as connection:
            connection.execute(delete(connections).where(*key))
            if open_:
                connection.execute(insert(connections), {"process": process, "game": game_id,
                                                         "player": player})
            self._notify(connection, f"{game_id} presence")

    def connected_elsewhere(self, game_ids: Collection[str], process: str,
                            alive_since: datetime) -> dict[str, frozenset[str]]:
        """For each of ``game_ids``, the players who have it open on another process
        that was alive at ``alive_since`` or later (an empty set if none)."""
        found: dict[str, set[str]] = {game_id: set() for game_id in game_ids}
        ids = list(found)
        with self._begin() as connection:
            for start in range(0, len(ids), _IDS_PER_QUERY):
                query = (select(connections.c.game, connections.c.player).distinct()
                         .join(processes, processes.c.id == connections.c.process)
                         .where(connections.c.game.in_(ids[start:start + _IDS_PER_QUERY]),
                                connections.c.process != process,
                                processes.c.seen >= _time(alive_since)))
                for game_id, player in connection.execute(query):
                    found[game_id].add(player)
        return {game_id: frozenset(players) for game_id, players in found.items()}
