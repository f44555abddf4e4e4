"""Profiles: an account as others find it by its name, its finished online games, and
its wins, draws and losses.

A game's result from one player's side is read from ``games.result`` (``1-0``,
``0-1``, ``1/2-1/2``, ``*``) and the seat the player held; a game that ended before
Quads kept its result (``NULL``) is loaded and replayed instead, one page at most at a
time.  The opponent's name, account and this player's rating change come with each
game in the same query (outer joins), never a query a game.

This module only reads: what a profile shows, and to whom, is the site's
(:mod:`quads.site.players.profiles`).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import ColumnElement, and_, case, func, or_, select

from quads.clock import Clock, TimeControl
from quads.outcome import Player
from quads.storage.errors import GameNotFoundError
from quads.storage.store import GameStore
from quads.storage.tables import accounts, games, players, rating_changes

__all__ = ["FinishedGame", "FinishedPage", "ProfileAccount", "ProfileStore", "Score",
           "SideResult", "side_result"]

SideResult = Literal["win", "draw", "loss"]
"""A finished game's result from one player's side."""

_WON = {Player.FIRST: "1-0", Player.SECOND: "0-1"}
"""The result by which the side won."""
_DRAWN = "1/2-1/2"


@dataclass(frozen=True)
class ProfileAccount:
    """An account as its profile finds it: its player, its name as written, when it was
    made, since when it is deleted (``None``: it is not), and its handle if a bot."""

    player: str
    name: str
    created: datetime
    deleted: datetime | None
    bot: str | None


@dataclass(frozen=True)
class FinishedGame:
    """A finished online game of one player, from that player's side."""

    id: str
    rules: str
    """The rule set's canonical name."""
    side: Player
    """The seat the player held."""
    result: SideResult | None
    """The result from the player's side; ``None`` for a game with none (aborted)."""
    opponent: str
    """The opponent's player id."""
    opponent_name: str | None
    """The name others see (``players.name``; ``None`` if the opponent had none)."""
    opponent_account: bool
    """Whether the opponent has an account that is not deleted."""
    opponent_bot: bool
    rated: bool
    category: str | None
    control: TimeControl | None
    """Its time control (``None``: no clock)."""
    ply: int
    created: datetime
    updated: datetime
    """When the game ended (its last change)."""
    rating_before: float | None = None
    """A rated game: the player's rating before it (``None``: the game changed none)."""
    rating_after: float | None = None


@dataclass(frozen=True)
class FinishedPage:
    """A page of a player's finished games and where the next one starts (the
    ``(updated, id)`` of its last game; ``None`` on the last page)."""

    games: list[FinishedGame]
    next: tuple[str, str] | None


@dataclass(frozen=True)
class Score:
    """A player's wins, draws and losses in finished online games."""

    wins: int
    draws: int
    losses: int


def side_result(result: str | None, side: Player) -> SideResult | None:
    """The result ``result`` (as a record writes it) from the side of ``side``;
    ``None`` for none (``*``, or not known)."""
    if result == _DRAWN:
        return "draw"
    if result in _WON.values():
        return "win" if result == _WON[side] else "loss"
    return None


def _control(text: str | None) -> TimeControl | None:
    return None if text is None else Clock.from_json(json.loads(text)).control


class ProfileStore:
    """The profiles of ``store``'s accounts, read from its games and ratings."""

    def __init__(self, store: GameStore) -> None:
        self.store = store

    def account(self, name: str) -> ProfileAccount | None:
        """The account named ``name`` (in any case), deleted or not, with its bot handle."""
        query = (select(accounts.c.player, accounts.c.name, accounts.c.created,
                        accounts.c.deleted, players.c.bot)
                 .select_from(accounts.outerjoin(players, players.c.id == accounts.c.player))
                 .where(accounts.c.name_key == name.lower()))
        with self.store.begin() as connection:
            row = connection.execute(query).mappings().first()
        if row is None:
            return None
        return ProfileAccount(
            player=row["player"], name=row["name"],
            created=datetime.fromisoformat(row["created"]),
            deleted=None if row["deleted"] is None else datetime.fromisoformat(row["deleted"]),
            bot=row["bot"])

    @staticmethod
    def _finished(player: str) -> ColumnElement[bool]:
        """The finished online games of ``player`` against somebody else."""
        first, second = games.c.first_player, games.c.second_player
        return and_(or_(first == player, second == player), games.c.mode == "online",
                    games.c.status == "over", first.is_not(None), second.is_not(None),
                    first != second)

    @staticmethod
    def _result_is(player: str, wanted: SideResult) -> ColumnElement[bool]:
        """The games whose result is ``wanted`` from ``player``'s side."""
        first, second, result = games.c.first_player, games.c.second_player, games.c.result
        if wanted == "draw":
            return result == _DRAWN
        won = wanted == "win"
        return or_(and_(first == player, result == ("1-0" if won else "0-1")),
                   and_(second == player, result == ("0-1" if won else "1-0")))

    def finished(self, player: str, *, rules: str | Collection[str] | None = None,
                 result: SideResult | None = None, limit: int = 50,
                 after: tuple[str, str] | None = None) -> FinishedPage:
        """A page of ``player``'s finished online games (both seats taken, by two
        players), the last ended first (ties by id, highest first); only those of the
        rule set ``rules`` (its canonical name, or several) and of ``result`` from ``player``'s
        side, if given.

        ``limit`` and ``after`` read one page as :meth:`GameStore.summaries
        <quads.storage.store.GameStore.summaries>` does: at most ``limit`` games, after
        the game whose ``(updated, id)`` is ``after`` (:attr:`FinishedPage.next` of the
        page before).  A game that ended before its result was kept is loaded to read
        it; with ``result``, one whose result then differs is left out, so that such a
        page may hold fewer than ``limit`` games (even none) and still have a next.
        """
        opponent_id = case((games.c.first_player == player, games.c.second_player),
                           else_=games.c.first_player)
        opponent = players.alias("opponent")
        account = accounts.alias("opponent_account")
        condition = self._finished(player)
        if rules is not None:
            names = [rules] if isinstance(rules, str) else sorted(rules)
            condition = and_(condition, games.c.rules.in_(names))
        if result is not None:
            condition = and_(condition, or_(self._result_is(player, result),
                                            games.c.result.is_(None)))
        if after is not None:
            updated, game_id = after
            condition = and_(condition, or_(games.c.updated < updated,
                                            and_(games.c.updated == updated,
                                                 games.c.id < game_id)))
        query = (
            select(games.c.id, games.c.rules, games.c.result, games.c.first_player,
                   games.c.second_player, games.c.rated, games.c.category, games.c.clock,
                   games.c.ply, games.c.created, games.c.updated,
                   opponent.c.name.label("opponent_name"),
                   opponent.c.bot.label("opponent_bot"),
                   account.c.player.label("opponent_account"),
                   rating_changes.c.before, rating_changes.c.after)
            .select_from(
                games.outerjoin(opponent, opponent.c.id == opponent_id)
                .outerjoin(account, and_(account.c.player == opponent_id,
                                         account.c.deleted.is_(None)))
                .outerjoin(rating_changes, and_(rating_changes.c.game == games.c.id,
                                                rating_changes.c.player == player)))
            .where(condition)
            .order_by(games.c.updated.desc(), games.c.id.desc())
            .limit(limit + 1))
        with self.store.begin() as connection:
            rows = connection.execute(query).mappings().all()
        following = None
        if len(rows) > limit:
            rows = rows[:limit]
            following = (rows[-1]["updated"], rows[-1]["id"])
        found = [self._game(row, player) for row in rows]
        if result is not None:
            found = [game for game in found if game.result == result]
        return FinishedPage(found, following)

    def _game(self, row: Any, player: str) -> FinishedGame:
        side = Player.FIRST if row["first_player"] == player else Player.SECOND
        result = row["result"]
        if result is None:  # ended before Quads kept results: replay it
            try:
                ending = self.store.load(row["id"]).game.outcome
            except GameNotFoundError:  # deleted since the query
                ending = None
            result = None if ending is None else ending.result
        return FinishedGame(
            id=row["id"], rules=row["rules"], side=side, result=side_result(result, side),
            opponent=row["second_player"] if side is Player.FIRST else row["first_player"],
            opponent_name=row["opponent_name"],
            opponent_account=row["opponent_account"] is not None,
            opponent_bot=row["opponent_bot"] is not None, rated=bool(row["rated"]),
            category=row["category"], control=_control(row["clock"]), ply=row["ply"],
            created=datetime.fromisoformat(row["created"]),
            updated=datetime.fromisoformat(row["updated"]),
            rating_before=row["before"], rating_after=row["after"])

    def score(self, player: str) -> Score:
        """``player``'s wins, draws and losses over all its finished online games, in
        one query.  Games that ended before Quads kept results (``games.result`` is
        ``NULL``) are left out of these counts, though :meth:`finished` lists them;
        an aborted game (``*``) counts as none of the three."""
        won = self._result_is(player, "win")
        lost = self._result_is(player, "loss")
        drawn = self._result_is(player, "draw")
        query = select(*(func.coalesce(func.sum(case((condition, 1), else_=0)), 0)
                         for condition in (won, drawn, lost))).where(self._finished(player))
        with self.store.begin() as connection:
            wins, draws, losses = connection.execute(query).one()
        return Score(int(wins), int(draws), int(losses))
