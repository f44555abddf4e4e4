"""A bot's token replaced or revoked, by the bot itself or by its owner.

The bot replaces its own token (the one it called with is refused from then on) or
revokes it (no token works until its owner makes a new one).  The owner does the
same whoever else holds the token, proving it with the owner's key that making the
bot gave once; no token changes that key, so that a stolen token cannot keep the bot
from its owner.  Whoever remembers a token is told at once (``changed``): the
bot's event stream and live sockets end.

Only hashes are handed in: the web layer makes tokens and hashes them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from quads.site.errors import SiteError
from quads.storage.bot_keys import BotKeys, WrongOwnerKeyError

__all__ = ["BotTokens"]


@dataclass(frozen=True)
class BotTokens:
    """The bots' tokens of ``keys``; ``changed(player)`` hears of each change."""

    keys: BotKeys
    changed: Callable[[str], None]

    def replace(self, player: str | None, token_hash: str) -> None:
        """Make ``token_hash`` the only good token of the calling bot ``player``.

        :raises SiteError: ``not_a_bot``.
        """
        if player is None or not self.keys.replace(player, token_hash):
            raise SiteError("not_a_bot", "only a bot's token is replaced: POST /api/bot/upgrade")
        self.changed(player)

    def replace_as_owner(self, handle: str, owner_key_hash: str, token_hash: str) -> None:
        """Make ``token_hash`` the only good token of the bot ``handle``, for its owner.

        :raises SiteError: ``bad_owner_key``, ``not_found`` (no bot has ``handle``).
        """
        try:
            player = self.keys.replace_as_owner(handle, owner_key_hash, token_hash)
        except WrongOwnerKeyError:
            raise SiteError("bad_owner_key", "this is not the owner's key of this bot") \
                from None
        if player is None:
            raise SiteError.not_found("no bot has this handle")
        self.changed(player)
