"""Ratings: each account's Glicko-2 rating per category, changed by rated games.

A rated game's result changes both ratings in the transaction that saves the game's
end (:func:`rate_game`), whichever process saves it and whatever ended it (a move, a
flag fall, a resignation, an abandonment claimed).  The save is optimistic (it names
the revision it loaded), so only one save ends a game; and each change is a row of
``rating_changes`` keyed by game and player, so that no result is counted twice even
if that were to fail.  The ratings of both players are read ``FOR UPDATE`` (on
PostgreSQL) in a fixed order, so that two games ending at once for one player each
see the other's change, and never deadlock.  An aborted game changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, RowMapping, and_, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from quads.outcome import Player, Termination
from quads.ratings import NEW, Rating, game
from quads.storage.database import Database, moment_text
from quads.storage.stored import SeatRating, StoredGame, now
from quads.storage.tables import accounts, games, rating_changes, ratings

__all__ = ["PlayerRating", "RatingChange", "RatingStore", "rate_game", "seat_columns",
           "seat_ratings", "with_seats"]


@dataclass(frozen=True)
class PlayerRating:
    """An account's rating in one category, with its number of rated games and when
    it last played one."""

    category: str
    rating: Rating
    games: int
    played: datetime


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player's rating."""

    game: str
    category: str
    before: float
    after: float
    deviation: float
    score: float
    moment: datetime


_SEATS = tuple(
    (side, accounts.alias(f"{side}_account"), ratings.alias(f"{side}_rating"),
     rating_changes.alias(f"{side}_change"), column)
    for side, column in (("first", games.c.first_player), ("second", games.c.second_player)))


def seat_columns() -> list[Any]:
    """The columns that :func:`seat_ratings` reads from a game's row (of a query made
    by :func:`with_seats`)."""
    columns: list[Any] = []
    for side, account, rating, change, _ in _SEATS:
        columns += [account.c.name.label(f"{side}_account"),
                    account.c.hide_ratings.label(f"{side}_hides"),
                    rating.c.rating.label(f"{side}_rating"),
                    rating.c.deviation.label(f"{side}_deviation"),
                    rating.c.games.label(f"{side}_games"),
                    change.c.before.label(f"{side}_before"), change.c.after.label(f"{side}_after")]
    return columns


def with_seats(query: Any) -> Any:
    """``query`` of games joined with its seats' accounts, their ratings in the game's
    category, and what the game changed of them."""
    for _, account, rating, change, column in _SEATS:
        query = (query.outerjoin(account, account.c.player == column)
                 .outerjoin(rating, and_(rating.c.player == column,
                                         rating.c.category == games.c.category))
                 .outerjoin(change, and_(change.c.game == games.c.id,
                                         change.c.player == column)))
    return query


def seat_ratings(row: RowMapping) -> tuple[SeatRating | None, SeatRating | None]:
    """The seats' accounts' ratings of a game's row (``None`` for a seat without an
    account; a newcomer's, provisional, for an account that never played a rated game
    of the category)."""
    seats: list[SeatRating | None] = []
    for side in ("first", "second"):
        rating = row.get(f"{side}_rating")
        before = row.get(f"{side}_before")
        if row.get(f"{side}_account") is None and before is None:
            seats.append(None)
            continue
        seats.append(SeatRating(
            rating=rating if rating is not None else NEW.rating,
            deviation=row.get(f"{side}_deviation") or NEW.deviation,
            games=row.get(f"{side}_games") or 0, hidden=bool(row.get(f"{side}_hides")),
            before=before, after=row.get(f"{side}_after")))
    return seats[0], seats[1]


def _score(stored: StoredGame) -> float | None:
    """The first seat's score, or ``None`` for a game without a result."""
    outcome = stored.game.outcome
    if outcome is None or outcome.termination is Termination.ABORTED:
        return None
    if outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner is Player.FIRST else 0.0


def rate_game(connection: Connection, stored: StoredGame, postgres: bool) -> bool:
    """Change both players' ratings by the result of ``stored`` (rated and just over),
    in the transaction of ``connection``; whether they changed."""
    first, second = stored.first_player, stored.second_player
    score = _score(stored)
    if (not stored.rated or stored.category is None or score is None or first is None
            or second is None or first == second):
        return False
    if connection.execute(select(rating_changes.c.game)
                          .where(rating_changes.c.game == stored.id).limit(1)).first():
        return False  # counted already
    moment = now()
    text = moment_text(moment)
    make = postgresql_insert if postgres else sqlite_insert
    connection.execute(make(ratings).values([
        {"player": p, "category": stored.category, "rating": NEW.rating,
         "deviation": NEW.deviation, "volatility": NEW.volatility, "games": 0,
         "played": text} for p in (first, second)]).on_conflict_do_nothing(
        index_elements=["player", "category"]))
    query = (select(ratings).where(ratings.c.category == stored.category,
                                   ratings.c.player.in_((first, second)))
             .order_by(ratings.c.player))
    if postgres:
        query = query.with_for_update()
    rows = {row["player"]: row for row in connection.execute(query).mappings()}
    before = {p: Rating(rows[p]["rating"], rows[p]["deviation"], rows[p]["volatility"])
              for p in (first, second)}
    idle = {p: max(0.0, (moment - datetime.fromisoformat(rows[p]["played"])).total_seconds()
                   / 86_400) if rows[p]["games"] else 0.0 for p in (first, second)}
    after = dict(zip((first, second), game(before[first], before[second], score,
                                           idle[first], idle[second]), strict=True))
    seats: list[SeatRating | None] = []
    for index, (player, own) in enumerate(((first, score), (second, 1.0 - score))):
        new = after[player]
        known = stored.ratings[index]
        seats.append(SeatRating(rating=new.rating, deviation=new.deviation,
                                games=rows[player]["games"] + 1,
                                hidden=known is not None and known.hidden,
                                before=before[player].rating, after=new.rating))
        connection.execute(
            update(ratings).where(ratings.c.player == player,
                                  ratings.c.category == stored.category)
            .values(rating=new.rating, deviation=new.deviation, volatility=new.volatility,
                    games=rows[player]["games"] + 1, played=text))
        connection.execute(insert(rating_changes), {
            "game": stored.id, "player": player, "category": stored.category,
            "before": before[player].rating, "after": new.rating,
            "deviation": new.deviation, "score": own, "moment": text})
    stored.ratings = (seats[0], seats[1])  # the views drawn from it show the change at once
    return True


class RatingStore(Database):
    """The ratings of the database's accounts."""

    def ratings(self, player: str) -> list[PlayerRating]:
        """``player``'s ratings, one per category it played a rated game of."""
        with self.begin() as connection:
            rows = connection.execute(select(ratings).where(ratings.c.player == player)
                                      .order_by(ratings.c.category)).mappings().all()
        return [PlayerRating(row["category"],
                             Rating(row["rating"], row["deviation"], row["volatility"]),
                             row["games"], datetime.fromisoformat(row["played"]))
                for row in rows]

    def rating_history(self, player: str, category: str | None = None,
                       limit: int = 1000) -> list[RatingChange]:
        """What ``player``'s rated games did to its ratings (of ``category`` only, if
        given), the oldest first, the last ``limit`` of them."""
        condition = rating_changes.c.player == player
        if category is not None:
            condition = and_(condition, rating_changes.c.category == category)
        with self.begin() as connection:
            rows = connection.execute(
                select(rating_changes).where(condition)
                .order_by(rating_changes.c.moment.desc()).limit(limit)).mappings().all()
        return [RatingChange(row["game"], row["category"], row["before"], row["after"],
                             row["deviation"], row["score"],
                             datetime.fromisoformat(row["moment"])) for row in reversed(rows)]

    def leaderboard(self, category: str, *, deviation: float, since: datetime,
                    limit: int = 100) -> list[tuple[str, str, PlayerRating]]:
        """The best ratings of ``category`` at most ``deviation`` of accounts that played
        it since ``since`` and are not deleted: (player, name, rating), best first."""
        query = (select(ratings, accounts.c.name)
                 .join(accounts, accounts.c.player == ratings.c.player)
                 .where(ratings.c.category == category, ratings.c.deviation <= deviation,
                        ratings.c.played >= moment_text(since), accounts.c.deleted.is_(None))
                 .order_by(ratings.c.rating.desc(), accounts.c.name_key).limit(limit))
        with self.begin() as connection:
            rows = connection.execute(query).mappings().all()
        return [(row["player"], row["name"],
                 PlayerRating(row["category"],
                              Rating(row["rating"], row["deviation"], row["volatility"]),
                              row["games"], datetime.fromisoformat(row["played"])))
                for row in rows]

    def rated_games(self, player: str) -> int:
        """How many rated games ``player`` finished."""
        with self.begin() as connection:
            return int(connection.execute(
                select(func.count()).select_from(rating_changes)
                .where(rating_changes.c.player == player)).scalar_one())
