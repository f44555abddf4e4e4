"""Who may play a rated game, and at which rating.

Rated games are played between two accounts only, in a category (a preset rule set
and a clock's speed, :mod:`quads.ratings`): a game without a clock, or of rules of no
preset, cannot be rated.  A player's rating in a category it never played is the
rating a newcomer has (provisional).
"""

from __future__ import annotations

from quads.clock import TimeControl
from quads.ratings import NEW, Rating, category_of
from quads.rules import Rules
from quads.site.errors import SiteError
from quads.storage import GameStore
from quads.storage.accounts import AccountStore

__all__ = ["account_name", "rated_category", "rating_in", "require_account"]


def account_name(store: GameStore, player: str) -> str | None:
    """``player``'s account's name, if it has one that is not deleted."""
    account = AccountStore(store).of(player)
    return None if account is None or account.deleted is not None else account.name


def require_account(store: GameStore, player: str | None) -> None:
    """Refuse a player without an account a rated game.

    :raises SiteError: ``account_needed``.
    """
    if player is None or account_name(store, player) is None:
        raise SiteError("account_needed", "rated games are played between accounts: sign "
                        "up or sign in first")


def rated_category(rules: Rules, control: TimeControl | None) -> str:
    """The category a rated game of ``rules`` with ``control`` counts for.

    :raises SiteError: ``cannot_be_rated`` for rules of no preset or no clock.
    """
    category = category_of(rules, control)
    if category is None:
        raise SiteError("cannot_be_rated", "only games of the preset rules (quads, classic, "
                        "advanced) with a clock can be rated")
    return str(category)


def rating_in(store: GameStore, player: str, category: str) -> Rating:
    """``player``'s rating in ``category`` (a newcomer's if it has none yet)."""
    for rating in store.ratings(player):
        if rating.category == category:
            return rating.rating
    return NEW
