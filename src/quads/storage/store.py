"""The game store: games in SQLite or PostgreSQL (SQLAlchemy Core), with the players,
puzzle results, presence and pruning of its bases (:mod:`quads.storage.database`
and the stores beside it), which share its one transaction helper.

A save is *optimistic*: it names the revision it loaded, and the single
``UPDATE ... WHERE id = ? AND revision = ?`` statement that writes it fails
when another save came first, on either engine.  Two requests that both
loaded revision ``n`` can therefore never both be stored.  On PostgreSQL a save
also sends ``NOTIFY quads_games`` in its own transaction, so that every server
process learns of the change once it is committed (:mod:`quads.web.notify`).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    URL,
    Connection,
    RowMapping,
    and_,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from quads.clock import Clock
from quads.game import Game
from quads.outcome import Player
from quads.ratings import category_of
from quads.storage.commits import GroupCommit
from quads.storage.database import CHANNEL, moment_text
from quads.storage.errors import (
    DeviceGameExistsError,
    GameNotFoundError,
    StaleGameError,
    StorageError,
)
from quads.storage.exercises import ExerciseStore
from quads.storage.explorer import ExplorerStore, counted_turns, end_game
from quads.storage.players import PlayerStore
from quads.storage.presence import PresenceStore
from quads.storage.pruning import RetentionStore
from quads.storage.puzzle_store import PuzzleResultStore
from quads.storage.ratings import RatingStore, rate_game, seat_columns, seat_ratings, with_seats
from quads.storage.replays import Replays
from quads.storage.stored import (
    GameSummary,
    Status,
    StoredGame,
    action_text,
    now,
    redo_trail,
)
from quads.storage.tables import (
    games,
    players,
)
from quads.storage.talk import TalkStore, forget_talk
from quads.storage.tournaments import TournamentStore, count_game

__all__ = ["CHANNEL", "GameStore"]

_SUMMARY = (games.c.id, games.c.rules, games.c.mode, games.c.level, games.c.human,
            games.c.ply, games.c.status, games.c.to_move, games.c.created, games.c.updated,
            games.c.owner, games.c.first_player, games.c.second_player, games.c.resigned,
            games.c.revision, games.c.device, games.c.clock, games.c.result)
_PROGRESS = ("actions", "redo", "ply", "status", "result", "to_move", "revision", "updated",
             "first_player", "second_player", "invite", "undo_request", "resigned", "rematch",
             "rematch_by", "device_revision", "clock", "deadline", "bot_invited", "bot_declined",
             "draw_offer", "draws_first", "draws_second", "undos_first", "undos_second")


_SAVE = update(games).where(games.c.id == bindparam("game_id"),
                            games.c.revision == bindparam("loaded_revision"))
"""A save, built once (SQLAlchemy compiles it once too): the columns given with it
(:data:`_PROGRESS`) of the game ``game_id``, if it is still at ``loaded_revision``."""

_FIRST_SEAT, _SECOND_SEAT = players.alias("first_seat"), players.alias("second_seat")
_INVITED = players.alias("invited")
_LOAD = with_seats(
    select(games, _FIRST_SEAT.c.name.label("first_name"),
           _SECOND_SEAT.c.name.label("second_name"),
           _FIRST_SEAT.c.bot.label("first_bot"), _SECOND_SEAT.c.bot.label("second_bot"),
           _INVITED.c.bot.label("invited_handle"), _INVITED.c.name.label("invited_name"),
           *seat_columns())
    .outerjoin(_FIRST_SEAT, _FIRST_SEAT.c.id == games.c.first_player)
    .outerjoin(_SECOND_SEAT, _SECOND_SEAT.c.id == games.c.second_player)
    .outerjoin(_INVITED, _INVITED.c.id == games.c.bot_invited)
).where(games.c.id == bindparam("game_id"))
"""A game's row with its seats' names, bot handles, accounts and ratings, built once."""


def _clock_text(clock: Clock | None) -> str | None:
    return None if clock is None else json.dumps(clock.to_json())


def _clock(text: str | None) -> Clock | None:
    return None if text is None else Clock.from_json(json.loads(text))


def _deadline(stored: StoredGame) -> str | None:
    """When the game's running clock (or grace) runs out, while it goes on."""
    if stored.clock is None or stored.is_over():
        return None
    deadline = stored.clock.deadline()
    return None if deadline is None else moment_text(deadline)


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _player(value: str | None) -> Player | None:
    return None if value is None else Player[value.upper()]


def _identifier(player: Player | None) -> str | None:
    return None if player is None else player.identifier


def _record(game: Game) -> tuple[list[str], list[str]]:
    """The texts of ``game``'s actions and of its redo trail, as a save writes them."""
    return [action_text(a) for a in game.actions], [action_text(a) for a in redo_trail(game)]


class GameStore(PlayerStore, PuzzleResultStore, PresenceStore, RetentionStore, RatingStore,
                TalkStore, TournamentStore, ExerciseStore, ExplorerStore):
    """The games of one database (see :class:`~quads.storage.database.Database` for
    ``location`` and ``statement_timeout``), and through its bases the players, the
    puzzle results, presence and pruning, each of which owns its queries.

    :raises StorageError: if the database cannot be reached or read as a Quads
        database, or is newer than this version of Quads.
    """

    def __init__(self, location: str | Path | URL, *,
                 statement_timeout: float | None = None) -> None:
        super().__init__(location, statement_timeout=statement_timeout)
        self._replays = Replays()
        # SQLite: the saves of threads at the same time share one transaction and one
        # wait for the disk (quads.storage.commits).
        self._commits = None if self.postgres else GroupCommit(
            lambda: self.begin(write=True), (StaleGameError, GameNotFoundError))

    # -- writing ---------------------------------------------------------------

    def create(self, stored: StoredGame) -> None:
        """Store a new game.

        :raises DeviceGameExistsError: if its owner has a game of its device id already
            (:attr:`StoredGame.device`).
        :raises StorageError: if a game with its id exists already.
        """
        try:
            ended = stored.device is not None and stored.is_over()  # played out on a device
            turns = counted_turns(stored) if ended else None
            with self.begin(write=True) as connection:
                self.create_in(connection, stored)
                if ended:
                    end_game(connection, stored, self.postgres, turns)
        except IntegrityError:
            if (stored.device is not None and stored.owner is not None
                    and self.find_device(stored.owner, stored.device) is not None):
                raise DeviceGameExistsError(
                    f"a game of device id {stored.device!r} is stored already") from None
            raise StorageError(f"a game with id {stored.id!r} exists already") from None

    def create_in(self, connection: Connection, stored: StoredGame) -> None:
        """Store a new game in the transaction of ``connection``."""
        game = stored.game
        if stored.mode == "online" and stored.category is None:
            category = category_of(game.rules, None if stored.clock is None
                                   else stored.clock.control)
            stored.category = None if category is None else str(category)
        row = {
            "id": stored.id,
            "rules": game.rules.name,
            "mode": stored.mode,
            "level": stored.level,
            "human": _identifier(stored.human),
            "seed": stored.seed,
            "start": game.start.to_string(),
            "headers": json.dumps(game.headers),
            "created": moment_text(stored.created),
            "owner": stored.owner,
            "device": stored.device,
            "rated": int(stored.rated),
            "category": stored.category,
            **self._progress(stored),
            "updated": moment_text(stored.updated),
        }
        connection.execute(insert(games), row)
        self.keep_players(connection, stored.owner, stored.first_player,
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
        turns = counted_turns(stored) if stored.is_over() else None  # before the lock

        def write(connection: Connection) -> None:
            result = connection.execute(_SAVE, values)
            if result.rowcount == 0:
                found = connection.execute(select(games.c.id).where(games.c.id == stored.id))
                if found.first() is not None:
                    raise StaleGameError(f"game {stored.id!r} has changed since it was loaded")
                raise GameNotFoundError(f"no game with id {stored.id!r}")
            if seats != stored.stored_seats:
                self.keep_players(connection, *seats)
            if stored.rated and stored.is_over():
                rate_game(connection, stored, self.postgres)
            if stored.is_over() and stored.mode == "online":
                count_game(connection, stored)
            if stored.is_over():
                end_game(connection, stored, self.postgres, turns)
            self.notify(connection, " ".join(
                [stored.id, str(stored.revision + 1), *concerned]))

        if self._commits is None:
            with self.begin(write=True) as connection:
                write(connection)
        else:
            self._commits.run(write)
        self._replays.saved(stored.id, stored.game, *record)
        stored.revision += 1
        stored.updated = datetime.fromisoformat(values["updated"])
        stored.stored_seats = seats

    @staticmethod
    def _progress(stored: StoredGame, record: tuple[list[str], list[str]] | None = None
                  ) -> dict[str, Any]:
        actions, redo = record if record is not None else _record(stored.game)
        return {
            "actions": json.dumps(actions),
            "redo": json.dumps(redo),
            "ply": stored.ply,
            "status": stored.status,
            "result": None if stored.game.outcome is None else stored.game.outcome.result,
            "to_move": _identifier(stored.game.to_move),
            "revision": stored.revision,
            "updated": moment_text(now()),
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
            "draw_offer": _identifier(stored.draw_offer),
            "draws_first": stored.draw_offers[0],
            "draws_second": stored.draw_offers[1],
            "undos_first": stored.undo_requests[0],
            "undos_second": stored.undo_requests[1],
        }

    # -- reading ---------------------------------------------------------------

    def load(self, game_id: str) -> StoredGame:
        """The game stored under ``game_id``, replayed.

        :raises GameNotFoundError: if there is no such game.
        """
        with self.begin() as connection:
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
            draw_offer=_player(row["draw_offer"]),
            draw_offers=(row["draws_first"], row["draws_second"]),
            undo_requests=(row["undos_first"], row["undos_second"]),
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
            rated=bool(row["rated"]),
            category=row["category"],
            accounts=(row.get("first_account"), row.get("second_account")),
            ratings=seat_ratings(row),
            stored_seats=(row["first_player"], row["second_player"]),
        )

    def find_device(self, owner: str, device: str) -> StoredGame | None:
        """``owner``'s game uploaded from a device under the id ``device``, if any."""
        with self.begin() as connection:
            row = connection.execute(select(games).where(
                games.c.owner == owner, games.c.device == device)).mappings().first()
        return None if row is None else self._stored(row)

    def summaries(self, status: Status | None = None, *,
                  player: str | None = None, limit: int | None = None,
                  after: tuple[str, str] | None = None,
                  watchable_since: datetime | None = None) -> list[GameSummary]:
        """The games, most recently changed first (ties by id, highest first); only
        those of ``status`` if given.

        With ``player``, only that player's games (created or seated) in which
        somebody has acted (a game that was never saved is left out), and their
        online games nobody acted in yet: those that wait for the other player to
        join, and those a seek taken started.

        ``limit`` and ``after`` read one page: at most ``limit`` games, those that
        come after the game whose ``(updated, id)`` is ``after``
        (:meth:`page_key` of the last game of the page before).  Pages stay in
        step while games are added or played: a game changed meanwhile moves to
        the first page.

        With ``watchable_since``, only the games anybody may find to watch that
        changed since then: online, going on, both seats taken, and made without an
        invitation (in the lobby; an invitation's game, and its rematches, are its
        players' own, found by its link alone).
        """
        query = select(*_SUMMARY, _FIRST_SEAT.c.name.label("first_name"),
                       _SECOND_SEAT.c.name.label("second_name")).select_from(
            games.outerjoin(_FIRST_SEAT, _FIRST_SEAT.c.id == games.c.first_player)
            .outerjoin(_SECOND_SEAT, _SECOND_SEAT.c.id == games.c.second_player))
        if player is not None:
            query = query.where(
                or_(games.c.owner == player, games.c.first_player == player,
                    games.c.second_player == player),
                or_(games.c.revision > 0, games.c.mode == "online"),
            )
        if status is not None:
            query = query.where(games.c.status == status)
        if watchable_since is not None:
            query = query.where(
                games.c.mode == "online", games.c.status == "ongoing",
                games.c.invite.is_(None), games.c.first_player.is_not(None),
                games.c.second_player.is_not(None),
                games.c.updated >= moment_text(watchable_since))
        if after is not None:
            updated, game_id = after
            query = query.where(or_(games.c.updated < updated,
                                    and_(games.c.updated == updated, games.c.id < game_id)))
        query = query.order_by(games.c.updated.desc(), games.c.id.desc())
        if limit is not None:
            query = query.limit(limit)
        with self.begin() as connection:
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
                result=row["result"],
                names=(row["first_name"], row["second_name"]),
            )
            for row in rows
        ]

    @staticmethod
    def page_key(summary: GameSummary) -> tuple[str, str]:
        """Where a page of :meth:`summaries` that ends with ``summary`` ends."""
        return moment_text(summary.updated), summary.id

    def find_invite(self, token: str) -> str | None:
        """The id of the game whose invitation is ``token``, if any."""
        with self.begin() as connection:
            found = connection.execute(select(games.c.id).where(games.c.invite == token))
            row = found.first()
        return None if row is None else str(row[0])

    def delete(self, game_id: str, revision: int) -> None:
        """Delete a game, if it is still at ``revision``.

        :raises StaleGameError: if the game was saved meanwhile.
        :raises GameNotFoundError: if there is no such game.
        """
        with self.begin(write=True) as connection:
            result = connection.execute(
                delete(games).where(games.c.id == game_id, games.c.revision == revision))
            if result.rowcount == 0:
                found = connection.execute(select(games.c.id).where(games.c.id == game_id))
                if found.first() is not None:
                    raise StaleGameError(f"game {game_id!r} has changed since it was loaded")
                raise GameNotFoundError(f"no game with id {game_id!r}")
            forget_talk(connection, [game_id])
            self.notify(connection, f"{game_id} gone")
            self._replays.forget(game_id)

    def adopt(self, game_id: str, player: str) -> None:
        """Give a game stored before games had owners to ``player`` (if it still has none)."""
        with self.begin(write=True) as connection:
            connection.execute(update(games).where(games.c.id == game_id,
                                                   games.c.owner.is_(None))
                               .values(owner=player))

