"""What makes a player a bot, and the free seat of an online game offered to a bot.

A player becomes a bot for good (``already_bot`` the second time); the hash of an
owner's key, kept apart from the bot's token, is stored with it.  A seated player of
an online game with a free seat offers that seat to a bot by its handle; the bot
takes it (the game starts, its clock too) or declines it, and the game's followers
are told either way.  An offer to another bot replaces the one before.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from quads.site.errors import SiteError
from quads.site.games import clocks, play
from quads.site.games.seats import load_visible
from quads.site.games.service import Followers, GameRules
from quads.site.lobby.service import Lobby
from quads.storage import StoredGame
from quads.storage.bots import AlreadyBotError, Bot
from quads.storage.bots import Bots as BotStore
from quads.storage.stored import now

__all__ = ["Bots"]


@dataclass(frozen=True)
class Bots:
    """The bots of ``bots``' store; changes to games are told to ``followers``, and
    ``lobby`` shows bots' names and seeks."""

    bots: BotStore
    followers: Followers
    rules: GameRules
    lobby: Lobby

    def upgrade(self, player: str, owner_key_hash: str) -> tuple[str, str]:
        """Make ``player`` a bot, for good: its handle and its name.  Its open seeks are
        shown again, marked as a bot's.

        :raises SiteError: ``already_bot``.
        """
        try:
            handle = self.bots.upgrade(player, owner_key_hash)
        except AlreadyBotError:
            raise SiteError("already_bot", "you are a bot already; it cannot be undone") \
                from None
        name = self.lobby.name(player)
        self.lobby.shown_again(player)
        return handle, name

    def handle(self, player: str) -> str | None:
        """``player``'s handle if it is a bot."""
        return self.bots.handle(player)

    def seen_since(self, moment: datetime, limit: int) -> list[Bot]:
        """The bots whose stream was open at ``moment`` or since, ``limit`` at most."""
        return self.bots.seen_since(moment, limit)

    def offer(self, game_id: str, player: str | None, handle: str) -> StoredGame:
        """``player``, seated in online game ``game_id``, offers its free seat to the bot
        ``handle``.

        :raises SiteError: ``not_your_game``, ``game_over``, ``seat_taken`` (no free
            seat), ``no_such_bot``, ``own_bot`` (the caller is that bot).
        :raises GameNotFoundError: if there is no such game.
        """
        stored = load_visible(self.bots.store, game_id, player)
        if player is None or stored.mode != "online" or stored.seat_of(player) is None:
            raise SiteError("not_your_game", "only a player seated in this online game "
                                             "offers its free seat")
        if stored.is_over():
            raise SiteError.game_over()
        if stored.first_player is not None and stored.second_player is not None:
            raise SiteError("seat_taken", "both seats of this game are taken")
        bot = self.bots.find(handle)
        if bot is None:
            raise SiteError("no_such_bot", "no bot has this handle")
        if bot.player == player:
            raise SiteError("own_bot", "the seat is offered to another player, not to oneself")
        self.lobby.name(player)  # the bot sees who offers the seat
        stored.bot_invited, stored.bot_declined = bot.player, False
        return self._changed(stored)

    def accept(self, game_id: str, bot: str | None) -> StoredGame:
        """The bot takes the seat of ``game_id`` offered to it: the game starts.

        :raises SiteError: ``not_found`` (no seat offered to it), ``game_over``,
            ``seat_taken``.
        """
        stored, player = self._offered(game_id, bot)
        if stored.is_over():
            raise SiteError.game_over()
        if stored.invite is None:
            raise SiteError("seat_taken", "both seats of this game are taken")
        play.join(stored, player, stored.invite)
        stored.bot_invited = None
        clocks.start(stored, now(), self.rules.clock_grace)
        return self._changed(stored)

    def decline(self, game_id: str, bot: str | None) -> None:
        """The bot declines the seat of ``game_id`` offered to it (its players are told).

        :raises SiteError: ``not_found`` (no seat offered to it).
        """
        stored, _ = self._offered(game_id, bot)
        stored.bot_declined = True
        self._changed(stored)

    def _offered(self, game_id: str, bot: str | None) -> tuple[StoredGame, str]:
        stored = load_visible(self.bots.store, game_id, bot)
        if bot is None or stored.bot_invited != bot or stored.bot_declined:
            raise SiteError.not_found("no seat of this game is offered to you")
        return stored, bot

    def _changed(self, stored: StoredGame) -> StoredGame:
        """Save ``stored`` and tell its followers the game as stored (the seats' names
        and marks read again)."""
        store = self.bots.store
        store.save(stored)
        saved = store.load(stored.id)
        self.followers.publish(saved.id, saved)
        return saved
