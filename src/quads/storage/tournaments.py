"""Tournaments in the store: the events, who joined them, and the games they paired.

Three rules hold on SQLite and on PostgreSQL with any number of server processes:

- **One pairer at a time.**  An event's free players are paired in one transaction
  that first takes the event's advisory lock (``pg_try_advisory_xact_lock``) and
  gives up when another process holds it; the lock goes with the transaction, so a
  process killed mid-pairing holds nothing and the next tick of another process pairs.
- **One game at a time.**  Pairing sets each player's ``current`` game only where it
  was empty; if any was not, the whole pairing is rolled back: nobody is ever in two
  games of one event.
- **Each result once.**  A game's result is written by :func:`count_game` in the
  transaction that saves the game's end (:meth:`quads.storage.GameStore.save`), and
  only while the game has none: a save that fails counts nothing, a result is never
  written twice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import func, insert, select, update
from sqlalchemy import text as sql
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from quads.game import ENDINGS
from quads.outcome import Player, Termination
from quads.storage.database import Database, moment_text
from quads.storage.stored import StoredGame, now
from quads.storage.tables import (
    accounts,
    players,
    tournament_byes,
    tournament_games,
    tournament_players,
    tournaments,
)

__all__ = ["Entry", "Kind", "Paired", "PairingTaken", "SeatTaken", "Status", "Tournament",
           "TournamentGame", "TournamentStore", "count_game"]

Status = Literal["created", "started", "finished"]
Kind = Literal["arena", "swiss"]
Result = Literal["first", "second", "draw", "aborted"]


@dataclass(frozen=True, slots=True)
class Tournament:
    """An event: an arena of ``minutes`` from ``starts``, of ``rules`` on ``clock``
    (a time control's text, ``3+2``), rated or not, open to players with at least
    ``min_rated`` rated games; ``creator`` ``None`` for the site's own."""

    id: str
    kind: Kind
    name: str
    rules: str
    clock: str
    rated: bool
    min_rated: int
    creator: str | None
    created: datetime
    starts: datetime
    minutes: int
    status: Status
    rounds: int | None = None
    """A Swiss event's number of rounds (``None`` for an arena)."""
    round: int = 0
    """The Swiss round being played (0 before the first)."""
    round_started: datetime | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """A player of an event: their rating when they joined, whether they are in
    (``active``) or paused, since when they are free, and the game they play now."""

    player: str
    rating: int
    joined: datetime
    active: bool
    free_since: datetime
    current: str | None
    first_round: int = 1
    """The first Swiss round they are paired in (the rounds before: a late entry)."""


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """A game an event paired, and once over its result and who did not show."""

    game: str
    first: str
    second: str
    started: datetime
    result: Result | None
    no_show: str | None
    ended: datetime | None
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Paired:
    """A game to start: its two players (``first`` hands over first) and the game."""

    first: str
    second: str
    game: StoredGame


class PairingTaken(Exception):  # noqa: N818 (a state, not a failure)
    """Another process is pairing this event now (PostgreSQL's advisory lock)."""


class SeatTaken(PairingTaken):
    """A player chosen was no longer free when seated (they withdrew meanwhile):
    nothing was started, and the next tick pairs anew."""


def _moment(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _tournament(row: Any) -> Tournament:
    return Tournament(row.id, row.kind, row.name, row.rules, row.clock, bool(row.rated),
                      row.min_rated, row.creator, datetime.fromisoformat(row.created),
                      datetime.fromisoformat(row.starts), row.minutes, row.status,
                      row.rounds, row.round, _moment(row.round_started))


def _entry(row: Any) -> Entry:
    return Entry(row.player, row.rating, datetime.fromisoformat(row.joined), bool(row.active),
                 datetime.fromisoformat(row.free_since), row.current, row.first_round)


def _game(row: Any) -> TournamentGame:
    return TournamentGame(row.game, row.first, row.second, datetime.fromisoformat(row.started),
                          row.result, row.no_show, _moment(row.ended), row.round)


class TournamentStore(Database):
    """The events, their players and their games."""

    def create_tournament(self, event: Tournament) -> None:
        """Keep the new ``event``."""
        with self.begin(write=True) as connection:
            connection.execute(insert(tournaments).values(
                id=event.id, kind=event.kind, name=event.name, rules=event.rules,
                clock=event.clock, rated=int(event.rated), min_rated=event.min_rated,
                creator=event.creator, created=moment_text(event.created),
                starts=moment_text(event.starts), minutes=event.minutes, status=event.status,
                rounds=event.rounds, round=event.round,
                round_started=None if event.round_started is None
                else moment_text(event.round_started)))

    def create_tournament_once(self, event: Tournament) -> bool:
        """Keep ``event`` unless one of its id is kept already (made meanwhile by
        another process); whether this call kept it."""
        try:
            self.create_tournament(event)
        except IntegrityError:
            return False
        return True

    def tournament(self, tournament_id: str) -> Tournament | None:
        """The event ``tournament_id``, or ``None``."""
        with self.begin() as connection:
            row = connection.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).first()
        return None if row is None else _tournament(row)

    def tournaments(self, status: Status, limit: int = 50) -> list[Tournament]:
        """The events of ``status``: the soonest to start first, but the finished
        ones the latest first; ``limit`` of them at most."""
        order = (tournaments.c.starts.desc() if status == "finished"
                 else tournaments.c.starts.asc())
        with self.begin() as connection:
            rows = connection.execute(select(tournaments).where(
                tournaments.c.status == status).order_by(order).limit(limit)).all()
        return [_tournament(row) for row in rows]

    def set_status(self, tournament_id: str, before: Status, after: Status) -> bool:
        """Move the event from ``before`` to ``after``; whether it was in ``before``
        (of two processes doing it at once, one does)."""
        with self.begin(write=True) as connection:
            done = connection.execute(update(tournaments).where(
                tournaments.c.id == tournament_id, tournaments.c.status == before)
                .values(status=after))
        return bool(done.rowcount)

    def enter(self, tournament_id: str, player: str, rating: int, at: datetime,
              first_round: int = 1) -> Entry:
        """Have ``player`` join the event (or come back to it, paused), free from ``at``
        (a new player of a Swiss event paired from round ``first_round`` on)."""
        with self.begin(write=True) as connection:
            row = connection.execute(select(tournament_players).where(
                tournament_players.c.tournament == tournament_id,
                tournament_players.c.player == player)).first()
            if row is None:
                connection.execute(insert(tournament_players).values(
                    tournament=tournament_id, player=player, rating=rating,
                    joined=moment_text(at), active=1, free_since=moment_text(at),
                    current=None, first_round=first_round))
            elif not row.active:
                values: dict[str, Any] = {"active": 1}
                if row.current is None:
                    values["free_since"] = moment_text(at)
                connection.execute(update(tournament_players).where(
                    tournament_players.c.tournament == tournament_id,
                    tournament_players.c.player == player).values(**values))
            row = connection.execute(select(tournament_players).where(
                tournament_players.c.tournament == tournament_id,
                tournament_players.c.player == player)).one()
        return _entry(row)

    def pause(self, tournament_id: str, player: str) -> bool:
        """Pause ``player`` in the event (they are paired no more until they join
        again; a game they play goes on and counts); whether they were in it."""
        with self.begin(write=True) as connection:
            done = connection.execute(update(tournament_players).where(
                tournament_players.c.tournament == tournament_id,
                tournament_players.c.player == player).values(active=0))
        return bool(done.rowcount)

    def entries(self, tournament_id: str) -> list[Entry]:
        """The players of the event, in the order they joined."""
        with self.begin() as connection:
            rows = connection.execute(select(tournament_players).where(
                tournament_players.c.tournament == tournament_id)
                .order_by(tournament_players.c.joined, tournament_players.c.player)).all()
        return [_entry(row) for row in rows]

    def names(self, tournament_id: str) -> dict[str, tuple[str, bool]]:
        """The names of the event's players, by player, in one read, and whether each
        is a bot: an account's name, or a bot's (a deleted account has none)."""
        with self.begin() as connection:
            rows = connection.execute(
                select(tournament_players.c.player, accounts.c.name, accounts.c.deleted,
                       players.c.name.label("own"), players.c.bot)
                .outerjoin(accounts, accounts.c.player == tournament_players.c.player)
                .outerjoin(players, players.c.id == tournament_players.c.player)
                .where(tournament_players.c.tournament == tournament_id)).all()
        named = {}
        for row in rows:
            if row.name is not None and row.deleted is None:
                named[str(row.player)] = (str(row.name), row.bot is not None)
            elif row.bot is not None and row.own is not None:
                named[str(row.player)] = (str(row.own), True)
        return named

    def player_counts(self, tournament_ids: Sequence[str]) -> dict[str, int]:
        """How many players joined each of the events ``tournament_ids``, in one read."""
        if not tournament_ids:
            return {}
        with self.begin() as connection:
            rows = connection.execute(
                select(tournament_players.c.tournament, func.count())
                .where(tournament_players.c.tournament.in_(tournament_ids))
                .group_by(tournament_players.c.tournament)).all()
        return {tournament: int(count) for tournament, count in rows}

    def event_games(self, tournament_id: str) -> list[TournamentGame]:
        """The games of the event, the first paired first."""
        with self.begin() as connection:
            rows = connection.execute(select(tournament_games).where(
                tournament_games.c.tournament == tournament_id)
                .order_by(tournament_games.c.started, tournament_games.c.game)).all()
        return [_game(row) for row in rows]

    def byes(self, tournament_id: str) -> dict[int, str]:
        """The player of each round's bye of a Swiss event, by round."""
        with self.begin() as connection:
            rows = connection.execute(select(tournament_byes).where(
                tournament_byes.c.tournament == tournament_id)).all()
        return {int(row.round): str(row.player) for row in rows}

    def start_round(self, tournament_id: str, number: int,
                    choose: Callable[[Tournament, list[Entry], list[TournamentGame],
                                      dict[int, str]], tuple[Sequence[Paired], str | None]],
                    at: datetime) -> list[Paired]:
        """Start round ``number`` of a Swiss event that is at the round before: the
        games and the bye that ``choose`` makes, given the event, its players, its games
        and its byes so far, all in one transaction.  Of several processes doing it at
        once, one does; the others find the round started and start nothing.

        :raises PairingTaken: if another process is pairing the event now, or
            :class:`SeatTaken` if a game would seat a player who is no longer free
            (nothing is then started).
        """
        with self.begin(write=True) as connection:
            self._lock(connection, tournament_id)
            row = connection.execute(select(tournaments).where(
                tournaments.c.id == tournament_id)).first()
            if row is None or row.status != "started" or row.round != number - 1:
                return []
            entries = [_entry(entry) for entry in connection.execute(
                select(tournament_players).where(
                    tournament_players.c.tournament == tournament_id)
                .order_by(tournament_players.c.joined, tournament_players.c.player)).all()]
            played = [_game(game) for game in connection.execute(select(tournament_games).where(
                tournament_games.c.tournament == tournament_id)
                .order_by(tournament_games.c.started, tournament_games.c.game)).all()]
            byes = {int(bye.round): str(bye.player) for bye in connection.execute(
                select(tournament_byes).where(tournament_byes.c.tournament == tournament_id))}
            chosen, bye = choose(_tournament(row), entries, played, byes)
            for paired in chosen:
                self._seat(connection, tournament_id, paired, at, number)
            if bye is not None:
                connection.execute(insert(tournament_byes).values(
                    tournament=tournament_id, round=number, player=bye))
            connection.execute(update(tournaments).where(tournaments.c.id == tournament_id)
                               .values(round=number, round_started=moment_text(at)))
        return list(chosen)

    def _lock(self, connection: Connection, tournament_id: str) -> None:
        """Take the event's pairing for this transaction (PostgreSQL's advisory lock;
        SQLite's one writer is lock enough).

        :raises PairingTaken: if another process is pairing the event now.
        """
        if self.postgres:
            got = connection.execute(sql("SELECT pg_try_advisory_xact_lock("
                                         "hashtextextended(:key, 0))"),
                                     {"key": f"tournament {tournament_id}"}).scalar_one()
            if not got:
                raise PairingTaken(tournament_id)

    def _seat(self, connection: Connection, tournament_id: str, paired: Paired,
              at: datetime, number: int | None) -> None:
        """Start ``paired``'s game in the event (of Swiss round ``number``), its players
        seated at it: each must be in the event (not paused) and free.

        :raises SeatTaken: if one is not.
        """
        create_in: Callable[[Connection, StoredGame], None] = self.create_in  # type: ignore[attr-defined]
        create_in(connection, paired.game)
        # Every process hears of it, as of a save: its players' bots' streams.
        self.notify(connection, f"{paired.game.id} {paired.game.revision} "
                                f"{paired.first} {paired.second}")
        connection.execute(insert(tournament_games).values(
            game=paired.game.id, tournament=tournament_id, first=paired.first,
            second=paired.second, started=moment_text(at), result=None, no_show=None,
            ended=None, round=number))
        for player in (paired.first, paired.second):
            seated = connection.execute(update(tournament_players).where(
                tournament_players.c.tournament == tournament_id,
                tournament_players.c.player == player, tournament_players.c.active == 1,
                tournament_players.c.current.is_(None)).values(current=paired.game.id))
            if seated.rowcount != 1:
                raise SeatTaken(f"{player!r} is not free in {tournament_id!r}")

    def event_of(self, game_id: str) -> str | None:
        """The event that paired the game ``game_id``, or ``None``."""
        with self.begin() as connection:
            return connection.execute(select(tournament_games.c.tournament).where(
                tournament_games.c.game == game_id)).scalar_one_or_none()

    def pair(self, tournament_id: str,
             choose: Callable[[list[Entry], list[TournamentGame]], Sequence[Paired]],
             at: datetime) -> list[Paired]:
        """Start the games that ``choose`` makes of the event's free players (active,
        in no game), given them and the event's games so far, all in one transaction.

        :raises PairingTaken: if another process is pairing the event now, or
            :class:`SeatTaken` if a game would seat a player who is no longer free
            (nothing is then started).
        """
        with self.begin() as connection:  # a look first: most ticks find nobody to pair
            free_now = connection.execute(
                select(func.count()).select_from(tournament_players).where(
                    tournament_players.c.tournament == tournament_id,
                    tournament_players.c.active == 1,
                    tournament_players.c.current.is_(None))).scalar_one()
        if free_now < 2:
            return []
        with self.begin(write=True) as connection:
            self._lock(connection, tournament_id)
            rows = connection.execute(select(tournament_players).where(
                tournament_players.c.tournament == tournament_id)).all()
            free = [_entry(row) for row in rows if row.active and row.current is None]
            played = [_game(row) for row in connection.execute(select(tournament_games).where(
                tournament_games.c.tournament == tournament_id)
                .order_by(tournament_games.c.started, tournament_games.c.game)).all()]
            chosen = list(choose(free, played)) if len(free) > 1 else []
            for paired in chosen:
                self._seat(connection, tournament_id, paired, at, None)
        return chosen


def _no_show(stored: StoredGame) -> Player | None:
    """The side that did not show in the ended ``stored``: the side to move when it was
    aborted (its first turn not made), or the loser on time or by leaving who made no
    turn; ``None`` when both showed."""
    outcome = stored.game.outcome
    if outcome is None:
        return None
    states, actions = stored.game.states, stored.game.actions
    if outcome.termination is Termination.ABORTED:
        return states[-1].to_move
    if outcome.termination not in (Termination.TIME, Termination.ABANDONMENT):
        return None
    loser = outcome.winner.other if outcome.winner is not None else None
    if loser is None:
        return None  # a draw claimed against a player who left: they showed
    made = any(state.to_move is loser for state, action in zip(states, actions, strict=False)
               if not isinstance(action, ENDINGS))
    return None if made else loser


def count_game(connection: Connection, stored: StoredGame) -> bool:
    """Write the result of ``stored`` (just over) into its event, in the transaction
    of ``connection``, and free its players (pausing one who did not show); whether
    it was an event's game still to count."""
    outcome = stored.game.outcome
    if outcome is None:
        return False
    row = connection.execute(select(tournament_games).where(
        tournament_games.c.game == stored.id, tournament_games.c.result.is_(None))).first()
    if row is None:
        return False
    absent = _no_show(stored)
    names = {Player.FIRST: row.first, Player.SECOND: row.second}
    result: Result
    if outcome.termination is Termination.ABORTED:
        result = "aborted"
    elif outcome.winner is None:
        result = "draw"
    else:
        result = "first" if outcome.winner is Player.FIRST else "second"
    moment = moment_text(now())
    done = connection.execute(update(tournament_games).where(
        tournament_games.c.game == stored.id, tournament_games.c.result.is_(None)).values(
        result=result, no_show=None if absent is None else names[absent], ended=moment))
    if done.rowcount != 1:
        return False
    for side, player in names.items():
        values: dict[str, Any] = {"current": None, "free_since": moment}
        if side is absent:
            values["active"] = 0
        connection.execute(update(tournament_players).where(
            tournament_players.c.tournament == row.tournament,
            tournament_players.c.player == player,
            tournament_players.c.current == stored.id).values(**values))
    return True

