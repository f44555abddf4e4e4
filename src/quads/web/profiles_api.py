"""The routes of profiles and leaderboards, which anyone may read, and of the caller's
own games as one file of records.

``/api/players/{name}`` names an account (3 to 20 letters, digits, ``_`` and ``-``):
``/api/players/me`` (:mod:`quads.web.players_api`) is routed first, and ``me`` is no
account's name.  A profile and a leaderboard do not look at the caller (they are
answered even to a token this server does not know); each is read in the database
lane (:func:`~quads.web.dispatch.quick`).

``GET /api/account/export`` writes every game of the caller's list of games as a
record, one page of games at a time, each page a short call of the database lane
(so that an export never holds the lane past its deadline), and streams the file as
it goes: at most ``export_games`` games, counted against ``rate_exports``.  A refusal
can only come before the file begins; a database lost later cuts the file short (the
transfer ends without its last chunk, and the client sees it fail).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import PlainTextResponse, StreamingResponse

from quads.outcome import Player
from quads.site.players.profiles import FIRST_PAGE, FinishedGame, FinishedPage
from quads.web.dispatch import quick
from quads.web.fields import RulesName
from quads.web.lane import lane_of
from quads.web.middleware import rates
from quads.web.middleware.identity import anonymous
from quads.web.openapi import refusals
from quads.web.paging import CURSOR_PATTERN, read_cursor, write_cursor
from quads.web.schemas.profiles import (
    CategoryRatingView,
    FinishedGameList,
    FinishedGameView,
    GameRatingView,
    LeaderboardView,
    LeaderView,
    OpponentView,
    ProfileView,
    PuzzleRecordView,
    RatingHistoryView,
    RatingPointView,
    ResultsView,
)
from quads.web.wiring import CallerOf, ProfilesOf, SettingsOf, TodayOf

__all__ = ["EXPORT_PAGE", "router"]

router = APIRouter(prefix="/api")

EXPORT_PAGE = 25
"""Games read and written in one call of the database lane while exporting."""

AccountName = Annotated[str, Path(
    description="An account's name, in any case (any other name a player shows, such as "
                "`Quiet Heron 42`, names no account: `404`)", min_length=1, max_length=64)]
CategoryName = Annotated[str, Path(
    description="A rating category, `RULES-SPEED`: `quads`, `classic` or `advanced`, and "
                "`blitz`, `rapid`, `classical` or `correspondence` (`quads-blitz`)",
    pattern=r"^[a-z]{1,20}-[a-z]{1,20}$")]

_NO_ACCOUNT = "No account has this name, or it was deleted"
_NO_CATEGORY = "No account has this name (or it was deleted), or no such category"


def _game_view(game: FinishedGame) -> FinishedGameView:
    rating = None
    if game.rating_before is not None and game.rating_after is not None:
        before, after = round(game.rating_before), round(game.rating_after)
        rating = GameRatingView(before=before, after=after, change=after - before)
    return FinishedGameView(
        id=game.id, rules=game.rules, clock=None if game.control is None else str(game.control),
        rated=game.rated, category=game.category,
        side="first" if game.side is Player.FIRST else "second", result=game.result,
        opponent=OpponentView(name=game.opponent_name, account=game.opponent_account,
                              bot=game.opponent_bot),
        rating=rating, ply=game.ply, created=game.created, ended=game.updated)


def _next(page: FinishedPage) -> str | None:
    return None if page.next is None else write_cursor(page.next)


@router.get("/players/{name}", tags=["players"], responses=refusals(404, s404=_NO_ACCOUNT))
@anonymous
@quick
def get_profile(name: AccountName, profiles: ProfilesOf, today: TodayOf) -> ProfileView:
    """An account's profile: its ratings, results, puzzle streak, and the first page of
    its finished online games (the last ended first)."""
    profile = profiles.profile(name, today)
    return ProfileView(
        name=profile.name, created=profile.created, bot=profile.bot,
        ratings={category: CategoryRatingView(rating=r.rating, deviation=r.deviation,
                                              provisional=r.provisional, games=r.games)
                 for category, r in profile.ratings.items()},
        results=ResultsView(wins=profile.score.wins, draws=profile.score.draws,
                            losses=profile.score.losses),
        puzzles=PuzzleRecordView(streak=profile.streak, solved=profile.puzzles_solved),
        games=[_game_view(game) for game in profile.games.games], next=_next(profile.games))


@router.get("/players/{name}/games", tags=["players"], responses=refusals(
    404, 422, s404=_NO_ACCOUNT,
    s422="A cursor of the right form that this server did not write"))
@anonymous
@quick
def get_profile_games(
    name: AccountName,
    profiles: ProfilesOf,
    rules: Annotated[RulesName | None, Query(description="Only games of this rule set")] = None,
    result: Annotated[Literal["win", "draw", "loss"] | None, Query(
        description="Only games of this result, from the account's side")] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Games on the page at most")]
    = FIRST_PAGE,
    cursor: Annotated[str | None, Query(
        pattern=CURSOR_PATTERN,
        description="Where the page starts: the `next` of the page before")] = None,
) -> FinishedGameList:
    """A page of an account's finished online games, the last ended first.  With
    `result`, a page may hold fewer than `limit` games while `next` goes on (games that
    ended before the server kept results are read one page at a time)."""
    after = None if cursor is None else read_cursor(cursor)
    page = profiles.games(name, rules, result, after, limit)
    return FinishedGameList(games=[_game_view(game) for game in page.games], next=_next(page))


@router.get("/players/{name}/ratings/{category}", tags=["players"],
            responses=refusals(404, s404=_NO_CATEGORY))
@anonymous
@quick
def get_rating_history(name: AccountName, category: CategoryName,
                       profiles: ProfilesOf) -> RatingHistoryView:
    """An account's rating in a category after each of its rated games there, the oldest
    first: the points of its chart."""
    history = profiles.history(name, category)
    return RatingHistoryView(name=history.name, category=history.category, points=[
        RatingPointView(moment=p.moment, rating=p.rating, game=p.game)
        for p in history.points])


@router.get("/leaderboard/{category}", tags=["players"],
            responses=refusals(404, s404="No such category"))
@anonymous
@quick
def get_leaderboard(category: CategoryName, profiles: ProfilesOf) -> LeaderboardView:
    """The best accounts of a category: established ratings (deviation 75 or less) of
    accounts not deleted that played a rated game of it lately, best first."""
    return LeaderboardView(category=category, players=[
        LeaderView(name=p.name, rating=p.rating, deviation=p.deviation, games=p.games)
        for p in profiles.leaderboard(category)])


@router.get(
    "/account/export", tags=["accounts"], response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}},
                     "description": "Every game of the caller as records, a blank line "
                                    "between two"},
               **refusals(429, s429="Too many exports from the caller or their address "
                                    "(`rate_exports`): try again after `Retry-After` seconds")},
)
async def export_games(request: Request, profiles: ProfilesOf, settings: SettingsOf,
                       player: CallerOf) -> StreamingResponse:
    """Every game of the caller's list of games (any mode, finished or not), the most
    recently played first, as one text file of records with their headers (`export_games`
    at most).  A caller without a token gets an empty file."""
    rates.charge(request, "exports")
    lane, bound = lane_of(request.app), settings.export_games
    filename = await lane.run(profiles.export_name, player)
    first = await lane.run(profiles.export, player, None, min(EXPORT_PAGE, bound))

    async def records() -> AsyncIterator[bytes]:
        page, written = first, 0
        while True:
            for record in page.records:
                yield (record if not written else "\n" + record).encode()
                written += 1
            if page.next is None or written >= bound:
                return
            page = await lane.run(profiles.export, player, page.next,
                                  min(EXPORT_PAGE, bound - written))

    return StreamingResponse(
        records(), media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'})
