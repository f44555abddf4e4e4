"""Profiles: an account as anyone may see it, its finished games, its rating history and
the leaderboards; and a player's own games written out as records.

A profile is an account's, found by its name in any case; a deleted account has none
(``not_found``, as a name nobody has).  It shows the account's ratings in every
category it played, always (an account that hides ratings hides them only from itself
while it plays), its wins, draws and losses in online games, its puzzle streak, when
it was made, and its handle if it is a bot.  A leaderboard lists the best accounts of
a category whose rating is established (its deviation at most
:data:`quads.ratings.LEADERBOARD`) and recent (a rated game of the category within
``leaderboard_days``).

Nothing here looks at who asks, but :meth:`Profiles.export`: a player's games, every
one that their list of games holds, are theirs alone.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Protocol

from quads.puzzles import streak_of_newest
from quads.ratings import LEADERBOARD, Category, Rating, aged
from quads.record import write_record
from quads.rules import FalseCalls, Rules
from quads.site.accounts.rated import account_name
from quads.site.errors import SiteError
from quads.site.games.play import recorded
from quads.storage import GameNotFoundError, GameStore
from quads.storage.profiles import (
    FinishedGame,
    FinishedPage,
    ProfileAccount,
    ProfileStore,
    Score,
    SideResult,
)
from quads.storage.ratings import PlayerRating
from quads.storage.stored import now

__all__ = ["FIRST_PAGE", "LEADERS", "CategoryRating", "Export", "FinishedGame", "FinishedPage",
           "Leader", "Profile", "ProfileLimits", "Profiles", "RatingHistory", "RatingPoint"]

FIRST_PAGE = 20
"""Finished games on a profile's first page, and on a page by default."""

LEADERS = 100
"""Accounts on a leaderboard at most."""


class ProfileLimits(Protocol):
    """What an operator tunes of profiles (:class:`quads.web.settings.Settings`)."""

    @property
    def leaderboard_days(self) -> float:
        """Days within which an account must have played a rated game of a category to
        be on its leaderboard."""
        ...


@dataclass(frozen=True)
class CategoryRating:
    """An account's rating in one category as a profile shows it."""

    rating: int
    """Rounded to a whole number."""
    deviation: int
    provisional: bool
    """Whether it is still uncertain (:data:`quads.ratings.PROVISIONAL`)."""
    games: int
    """Rated games of the category played."""


@dataclass(frozen=True)
class Profile:
    """An account as anyone may see it, with the first page of its finished games."""

    name: str
    created: datetime.datetime
    bot: str | None
    """Its handle if it is a bot."""
    ratings: dict[str, CategoryRating]
    """By category (``quads-blitz`` ...), those it played a rated game of."""
    score: Score
    streak: int
    """Its run of daily puzzles solved, up to today (:mod:`quads.puzzles.streak`)."""
    puzzles_solved: int
    games: FinishedPage


@dataclass(frozen=True)
class RatingPoint:
    """A point of a rating's history: the rating after a rated game, and when."""

    moment: datetime.datetime
    rating: int
    game: str


@dataclass(frozen=True)
class RatingHistory:
    """An account's rating in one category after each of its rated games there."""

    name: str
    """The account's name as written."""
    category: str
    points: list[RatingPoint]


@dataclass(frozen=True)
class Leader:
    """An account on a leaderboard."""

    name: str
    rating: int
    deviation: int
    games: int


@dataclass(frozen=True)
class Export:
    """A page of a player's games written as records (newest first), and where the
    next page starts (``None``: this was the last)."""

    records: list[str]
    next: tuple[str, str] | None


def _as_of_now(kept: PlayerRating) -> Rating:
    """A rating kept as of its last game, its deviation grown for the days since (as
    lichess shows it: an idle player's rating becomes provisional again)."""
    days = max(0.0, (now() - kept.played).total_seconds() / 86_400)
    return aged(kept.rating, days)


def _category(text: str) -> str:
    """``text`` if it names a rating category.

    :raises SiteError: ``not_found`` if it names none.
    """
    try:
        return str(Category.parse(text))
    except ValueError:
        raise SiteError.not_found(f"no rating category {text!r}: expected RULES-SPEED, such "
                                  "as quads-blitz") from None


@dataclass(frozen=True)
class Profiles:
    """The profiles of the accounts kept in ``store``, and the leaderboards."""

    store: GameStore
    limits: ProfileLimits

    def _account(self, name: str) -> ProfileAccount:
        """The account named ``name`` (in any case).

        :raises SiteError: ``not_found`` if there is none, or it is deleted.
        """
        account = ProfileStore(self.store).account(name)
        if account is None or account.deleted is not None:
            raise SiteError.not_found(f"no account is named {name!r}")
        return account

    def profile(self, name: str, today: datetime.date, limit: int = FIRST_PAGE) -> Profile:
        """The profile of the account named ``name`` (in any case), with its first
        ``limit`` finished games; ``today`` is the date of the day's puzzle.

        :raises SiteError: ``not_found`` for no such account, or a deleted one.
        """
        account = self._account(name)
        player, profiles = account.player, ProfileStore(self.store)
        ratings = {}
        for kept in self.store.ratings(player):
            rating = _as_of_now(kept)
            ratings[kept.category] = CategoryRating(
                rating=rating.shown, deviation=round(rating.deviation),
                provisional=rating.provisional, games=kept.games)
        return Profile(
            name=account.name, created=account.created, bot=account.bot, ratings=ratings,
            score=profiles.score(player),
            streak=streak_of_newest(self.store.solved_dates(player, today), today),
            puzzles_solved=self.store.solved_count(player),
            games=profiles.finished(player, limit=limit))

    def games(self, name: str, rules: str | None = None, result: SideResult | None = None,
              after: tuple[str, str] | None = None, limit: int = FIRST_PAGE) -> FinishedPage:
        """A page of the finished online games of the account named ``name``, the last
        ended first, after the key ``after``; only those of ``rules`` and of ``result``
        from its side, if given (see :meth:`ProfileStore.finished
        <quads.storage.profiles.ProfileStore.finished>`); a rule set whose false calls
        are free stands for itself with any false calls (``classic``: also
        ``classic:losing-calls``, the online default).

        :raises SiteError: ``not_found`` for no such account, or a deleted one.
        :raises InvalidRulesError: if ``rules`` cannot be read.
        """
        player = self._account(name).player
        chosen = None if rules is None else Rules.parse(rules)
        names = (None if chosen is None
                 else {chosen.with_false_calls(calls).name for calls in FalseCalls}
                 if chosen.declare and chosen.free_calls else {chosen.name})
        return ProfileStore(self.store).finished(player, rules=names, result=result,
                                                 limit=limit, after=after)

    def history(self, name: str, category: str) -> RatingHistory:
        """The rating of the account named ``name`` in ``category`` after each of its
        rated games there, the oldest first (the last 1,000).

        :raises SiteError: ``not_found`` for no such account, a deleted one, or no such
            category.
        """
        category = _category(category)
        account = self._account(name)
        return RatingHistory(account.name, category, [
            RatingPoint(change.moment, round(change.after), change.game)
            for change in self.store.rating_history(account.player, category)])

    def leaderboard(self, category: str) -> list[Leader]:
        """The best accounts of ``category`` (:data:`LEADERS` at most), best first:
        those not deleted whose rating's deviation is at most
        :data:`~quads.ratings.LEADERBOARD` and who played a rated game of it within
        ``leaderboard_days``.

        :raises SiteError: ``not_found`` for no such category.
        """
        category = _category(category)
        since = now() - datetime.timedelta(days=self.limits.leaderboard_days)
        leaders = []
        for _, name, kept in self.store.leaderboard(category, deviation=LEADERBOARD,
                                                     since=since, limit=LEADERS):
            rating = _as_of_now(kept)
            if rating.ranked:  # its deviation grew past the bound since its last game
                leaders.append(Leader(name, rating.shown, round(rating.deviation), kept.games))
        return leaders

    # ---- a player's own games ------------------------------------------------

    def export_name(self, player: str | None) -> str:
        """The name of the file of ``player``'s games: ``quads-games-NAME.txt`` for an
        account, else ``quads-games.txt``."""
        name = None if player is None else account_name(self.store, player)
        return "quads-games.txt" if name is None else f"quads-games-{name}.txt"

    def export(self, player: str | None, after: tuple[str, str] | None,
               limit: int) -> Export:
        """A page of ``player``'s games written as records: every game their list of
        games holds (``GET /api/games``: created or seated, finished or not), the most
        recently played first, at most ``limit`` after the key ``after``.  A game
        deleted meanwhile is left out; one played meanwhile moves ahead of the page, as
        in the list.  A caller who is no player has no games."""
        if player is None or limit < 1:
            return Export([], None)
        summaries = self.store.summaries(None, player=player, limit=limit + 1, after=after)
        following = None
        if len(summaries) > limit:
            summaries = summaries[:limit]
            following = self.store.page_key(summaries[-1])
        records = []
        for summary in summaries:
            try:
                stored = self.store.load(summary.id)
            except GameNotFoundError:
                continue
            records.append(write_record(recorded(stored)))
        return Export(records, following)
