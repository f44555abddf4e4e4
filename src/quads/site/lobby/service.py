"""What a player does in the lobby: open and withdraw seeks, accept one, pair at once,
and choose the name others see.

Every lobby game has a clock.  A rated seek (:mod:`quads.site.accounts.rated`) is
opened and taken by accounts only, and taken only by a player whose rating in its
category lies within its bounds.  A seek is taken once (:mod:`quads.storage.lobby`): of
two accepts of one seek, the second is refused ``seek_gone``.  A player has at most
``seeks_per_player`` seeks open and loses them when they start a game (and when they
leave: the web layer's timekeeper).  Each change is told to the lobby's followers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from quads.clock import parse_time_control
from quads.ratings import PROVISIONAL, category_of
from quads.rules import Rules
from quads.site.accounts.rated import account_name, rated_category, rating_in, require_account
from quads.site.errors import SiteError
from quads.site.games.calls import online_rules
from quads.site.lobby import pairing
from quads.site.players.names import made_up_name
from quads.storage import StoredGame
from quads.storage.lobby import Lobby as Seeks
from quads.storage.lobby import (
    OwnSeekError,
    Paired,
    Seek,
    SeekGoneError,
    SeekRating,
    SeekSide,
    TooManySeeksError,
)

__all__ = ["Lobby", "LobbyFollowers", "LobbyRules"]

LISTED = 500
"""Seeks listed at most (the oldest)."""


class LobbyFollowers(Protocol):
    """Who follows the lobby as it changes: the web layer's lobby hub."""

    def opened(self, seek: Seek) -> None:
        """A seek was opened, or its player renamed."""
        ...

    def dropped(self, ids: list[str] | tuple[str, ...]) -> None:
        """Seeks went: withdrawn, left or taken."""
        ...

    def paired(self, paired: Paired) -> None:
        """A seek started a game."""
        ...


class LobbyRules(Protocol):
    """What an operator tunes of the lobby (:class:`quads.web.settings.Settings`)."""

    @property
    def seeks_per_player(self) -> int:
        """Seeks one player may have open."""
        ...

    @property
    def clock_grace(self) -> float:
        """Seconds for each side's first turn of a real-time game."""
        ...


def _too_many() -> SiteError:
    return SiteError("too_many_seeks", "you have as many seeks open as one may: "
                                       "withdraw one first")


@dataclass(frozen=True)
class Lobby:
    """The lobby of ``seeks``, followed by ``followers``."""

    seeks: Seeks
    followers: LobbyFollowers
    rules: LobbyRules

    def listed(self) -> list[Seek]:
        """The open seeks, oldest first (:data:`LISTED` at most)."""
        return self.seeks.seeks(LISTED)

    def name(self, player: str) -> str:
        """``player``'s name as others see it; one is made up if they have none."""
        return self.seeks.name(player, made_up_name)

    def rename(self, player: str, name: str) -> str:
        """Give ``player`` the name ``name`` (its form checked by the caller); their open
        seeks show it from now on.  Return the name they now have.

        :raises SiteError: ``account_named`` for an account, whose name is its own.
        """
        if account_name(self.seeks.store, player) is not None:
            raise SiteError("account_named", "an account's name is the one it was made with: "
                            "it cannot be changed here")
        renamed = self.seeks.rename(player, name)
        for seek in self.seeks.seeks(LISTED):
            if seek.player == player:
                self.followers.opened(seek)
        return renamed

    def shown_again(self, player: str) -> None:
        """Show ``player``'s open seeks again (they became a bot: marked as one now)."""
        for seek in self.seeks.seeks(LISTED):
            if seek.player == player:
                again = self.seeks.seek(seek.id)
                if again is not None:
                    self.followers.opened(again)

    def _rating(self, player: str, rules: Rules, clock: str, rated: bool,
                low: int | None, high: int | None) -> SeekRating:
        """What a new seek of ``player`` says of ratings.

        :raises SiteError: ``account_needed``, ``cannot_be_rated``.
        """
        store = self.seeks.store
        if rated:
            require_account(store, player)
            category = rated_category(rules, parse_time_control(clock))
        else:
            found = category_of(rules, parse_time_control(clock))
            if found is None or account_name(store, player) is None:
                return SeekRating()
            category = str(found)
        rating = rating_in(store, player, category)
        return SeekRating(rated, round(rating.rating), low if rated else None,
                          high if rated else None, rating.deviation >= PROVISIONAL)

    def open(self, player: str, rules: str, clock: str, side: SeekSide, *,
             rated: bool = False, low: int | None = None, high: int | None = None,
             false_calls: str | None = None) -> Seek:
        """Open a seek of ``player`` for a game of ``rules`` with ``clock`` (a time
        control's text), ``player`` taking ``side``; a ``rated`` one accepts takers
        rated ``low`` to ``high`` (``None``: no bound).  Its false calls are as
        :func:`quads.site.games.calls.online_rules` makes them of ``false_calls``.

        :raises SiteError: ``too_many_seeks``, ``account_needed``, ``cannot_be_rated``.
        :raises InvalidRulesError: if ``rules`` cannot be read.
        """
        parsed = online_rules(rules, false_calls)
        canonical = parsed.name
        rating = self._rating(player, parsed, clock, rated, low, high)
        try:
            seek = self.seeks.add(player, self.name(player), canonical, clock, side,
                                  most=self.rules.seeks_per_player, rating=rating)
        except TooManySeeksError:
            raise _too_many() from None
        self.followers.opened(seek)
        return seek

    def withdraw(self, seek_id: str, player: str | None) -> None:
        """Withdraw ``player``'s seek ``seek_id``.

        :raises SiteError: ``not_your_seek``, ``not_found``.
        """
        if player is None or not self.seeks.cancel(seek_id, player):
            if self.seeks.seek(seek_id) is not None:
                raise SiteError("not_your_seek", "only its player withdraws a seek")
            raise SiteError.not_found("no such seek is open")
        self.followers.dropped([seek_id])

    def accept(self, seek_id: str, player: str) -> StoredGame:
        """``player`` takes seek ``seek_id``: the game starts for both at once.

        :raises SiteError: ``seek_gone`` (taken, withdrawn or left), ``own_seek``,
            ``account_needed`` or ``out_of_range`` for a rated seek.
        """
        seek = self.seeks.seek(seek_id)
        if seek is not None and seek.rated and seek.player != player:
            store = self.seeks.store
            require_account(store, player)
            category = rated_category(Rules.parse(seek.rules), parse_time_control(seek.clock))
            mine = round(rating_in(store, player, category).rating)
            if not pairing.admits(seek, mine):
                raise SiteError("out_of_range", f"this seek is for ratings {seek.rating_min} "
                                f"to {seek.rating_max}, and yours is {mine}", "",
                                rating=mine)
        self.name(player)  # the seeker sees whom they play
        try:
            paired = self.seeks.take(seek_id, player, self._starter(player))
        except SeekGoneError:
            raise SiteError("seek_gone", "this seek is no longer open: someone took it, "
                                         "or its player withdrew it") from None
        except OwnSeekError:
            raise SiteError("own_seek", "this seek is your own") from None
        self.followers.paired(paired)
        return self.seeks.store.load(paired.game.id)

    def pair(self, player: str, rules: str, clock: str, *, rated: bool = False,
             low: int | None = None, high: int | None = None,
             false_calls: str | None = None) -> StoredGame | Seek:
        """Play now: meet a seek of the same rules, clock and ratedness (:mod:`.pairing`
        chooses which: in a rated pool the nearest rating within both players' bounds)
        and start the game, or wait as a new seek.

        :raises SiteError: ``too_many_seeks`` when a seek is to wait;
            ``account_needed``, ``cannot_be_rated``.
        """
        parsed = online_rules(rules, false_calls)
        rating = self._rating(player, parsed, clock, rated, low, high)
        wanted = (pairing.Wanted(rating.rating, low, high)
                  if rated and rating.rating is not None else None)
        name = self.name(player)  # the seeker sees whom they play
        try:
            met = self.seeks.pair(player, name, parsed.name, clock,
                                  self._starter(player), most=self.rules.seeks_per_player,
                                  choose=lambda seeks: pairing.choose(player, seeks, wanted),
                                  candidates=pairing.CANDIDATES, rating=rating)
        except TooManySeeksError:
            raise _too_many() from None
        if isinstance(met, Seek):
            self.followers.opened(met)
            return met
        self.followers.paired(met)
        return self.seeks.store.load(met.game.id)

    def started(self, player: str | None) -> None:
        """``player`` started a game elsewhere: their open seeks go."""
        if player is not None:
            self.followers.dropped(self.seeks.drop_player(player))

    def _starter(self, taker: str) -> pairing.GameStarter:
        grace = self.rules.clock_grace
        return lambda seek: pairing.seek_game(seek, taker, grace)
