"""The models of profiles: an account as anyone may see it, its finished games, its
rating history, and the leaderboards."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

__all__ = [
    "CategoryRatingView",
    "FinishedGameList",
    "FinishedGameView",
    "GameRatingView",
    "LeaderView",
    "LeaderboardView",
    "OpponentView",
    "ProfileView",
    "PuzzleRecordView",
    "RatingHistoryView",
    "RatingPointView",
    "ResultsView",
]

_NEXT = Field(description="The cursor of the next page (`?cursor=`), null on the last page")


class CategoryRatingView(BaseModel):
    """An account's rating in one category."""

    rating: int = Field(description="Rounded to a whole number")
    deviation: int = Field(description="How uncertain it is, in rating points")
    provisional: bool = Field(description="Still uncertain (deviation 110 or more): shown "
                                          "with a `?`")
    games: int = Field(description="Rated games of the category played")


class ResultsView(BaseModel):
    """Wins, draws and losses in finished online games (games that ended before the
    server kept results are not counted)."""

    wins: int
    draws: int
    losses: int


class PuzzleRecordView(BaseModel):
    """The account's daily puzzles."""

    streak: int = Field(description="Consecutive days solved, up to today or yesterday")
    solved: int = Field(description="Puzzle dates solved")


class OpponentView(BaseModel):
    """The other player of a finished game."""

    name: str | None = Field(description="The name others see (`deleted player` for a "
                                         "deleted account); null if it had none")
    account: bool = Field(description="Whether it has an account (not deleted), whose "
                                      "profile is `GET /api/players/{name}`")
    bot: bool


class GameRatingView(BaseModel):
    """What a rated game did to the profile's account's rating."""

    before: int
    after: int
    change: int = Field(description="after - before")


class FinishedGameView(BaseModel):
    """A finished online game from the side of the profile's account."""

    id: str = Field(description="The game's id (`GET /api/games/{id}`, its record ...)")
    rules: str
    clock: str | None = Field(description="Its time control (`300+3`, `3d`), null for none")
    rated: bool
    category: str | None = Field(description="The rating category it counts for, or would; "
                                             "null for a game that cannot be rated")
    side: Literal["first", "second"] = Field(description="The account's seat")
    result: Literal["win", "draw", "loss"] | None = Field(
        description="From the account's side; null for an aborted game")
    opponent: OpponentView
    rating: GameRatingView | None = Field(description="A rated game: the account's rating "
                                                      "change; else null")
    ply: int = Field(description="Actions played")
    created: datetime
    ended: datetime = Field(description="When it ended (its last change)")


class FinishedGameList(BaseModel):
    """A page of an account's finished online games, the last ended first."""

    games: list[FinishedGameView]
    next: str | None = _NEXT


class ProfileView(BaseModel):
    """An account as anyone may see it, with the first page of its finished games."""

    name: str
    created: datetime = Field(description="When the account was made")
    bot: str | None = Field(description="Its handle if it is a bot, else null")
    ratings: dict[str, CategoryRatingView] = Field(
        description="By category (`quads-blitz` ...), those it played a rated game of")
    results: ResultsView
    puzzles: PuzzleRecordView
    games: list[FinishedGameView]
    next: str | None = _NEXT


class RatingPointView(BaseModel):
    """The rating after one rated game."""

    moment: datetime
    rating: int
    game: str = Field(description="The game's id")


class RatingHistoryView(BaseModel):
    """An account's rating in one category after each rated game, the oldest first (the
    last 1,000)."""

    name: str
    category: str
    points: list[RatingPointView]


class LeaderView(BaseModel):
    """An account on a leaderboard."""

    name: str
    rating: int
    deviation: int
    games: int


class LeaderboardView(BaseModel):
    """The best accounts of a category: established ratings (deviation 75 or less) of
    accounts that played it lately, best first, 100 at most."""

    category: str
    players: list[LeaderView]
