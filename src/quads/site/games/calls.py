"""Calling wins at the table: what no view may tell before a call, and what a false
call costs in each kind of game.

Under ``declare`` calling noticing a win is part of the game, so nothing a server
shows may notice it for a player: the views offer a call at every calling moment
(:meth:`~quads.game.Game.is_declare_moment`), never whether it would win, and while a
claim is pending (:func:`claim_pending`) the mark of the missed declaration (``?``)
is kept from every viewer and from an online game's record.

A false call (a call with nothing to call) is free in games on one device and
against the computer, which teach, unless their rules say otherwise; between two
people online it loses the game unless the game was made otherwise
(:data:`ONLINE_FALSE_CALLS`, :func:`online_rules`): a call that costs nothing would
answer, for free, whether the last piece completed four.
"""

from __future__ import annotations

from quads.errors import InvalidRulesError
from quads.game import Game, Step
from quads.rules import FalseCalls, Rules

__all__ = ["ONLINE_FALSE_CALLS", "claim_pending", "online_rules", "shown_game"]

ONLINE_FALSE_CALLS = FalseCalls.LOSING
"""What a false call costs in a game between two people online whose maker chose
nothing else."""


def online_rules(rules: str, false_calls: str | None = None) -> Rules:
    """The rules of a game between two people online made of ``rules`` (a rule set's
    name) and ``false_calls`` (a :class:`~quads.rules.FalseCalls` value, ``None``:
    the name's own part, else :data:`ONLINE_FALSE_CALLS` under ``declare`` calling).

    :raises InvalidRulesError: if ``rules`` cannot be read, or false calls that cost
        something are asked without ``declare`` calling.
    """
    parsed = Rules.parse(rules)
    if false_calls is not None:
        try:
            chosen = FalseCalls(false_calls)
        except ValueError:
            raise InvalidRulesError(f"invalid false calls {false_calls!r}", "rules") from None
        return parsed.with_false_calls(chosen)
    if not parsed.declare or not parsed.free_calls:
        return parsed
    named = {part.strip() for part in rules.lower().split(":")}
    return parsed if FalseCalls.FREE.value in named else parsed.with_false_calls(
        ONLINE_FALSE_CALLS)


def claim_pending(game: Game) -> bool:
    """Whether the player to move stands where a claim is made (under ``declare``
    calling, before placing the piece handed over right after the opponent's
    placement): whether that hand-over missed a declaration is then kept from every
    viewer, so that noticing it stays the receiver's own doing."""
    state = game.state
    return state.outcome is None and state.step is Step.PLACE and state.moment


def shown_game(game: Game) -> Game:
    """``game`` as it may be shown while it goes on: while a claim is pending, without
    its last hand-over (whose record token would say whether it missed a
    declaration); ``game`` itself otherwise."""
    if not claim_pending(game):
        return game
    shown = game.copy()
    shown.undo()
    return shown
