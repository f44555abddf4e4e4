"""What a bot's event stream tells, look after look.

Each look reads the bot's games under way, its games last ended and the seats
offered to it; :meth:`BotEvents.look` compares them with what the stream told before
and answers what to tell now: a seat offered (:class:`Invited`), an online game under
way with both seats taken (:class:`Started`, those going on when the stream opens
first), and its end (:class:`Finished`; a game begun and ended between two looks gets
both at once).  A look the database refused (:meth:`BotEvents.missed`) tells nothing
and forgets the offers, so that they are told again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from quads.storage import GameSummary
from quads.storage.bots import Invitation

__all__ = ["BotEvent", "BotEvents", "Finished", "Invited", "Started"]


@dataclass(frozen=True)
class Invited:
    """A seat offered to the bot."""

    invitation: Invitation


@dataclass(frozen=True)
class Started:
    """An online game of the bot under way, both seats taken; the bot plays ``side``."""

    game: GameSummary
    side: Literal["first", "second"]


@dataclass(frozen=True)
class Finished:
    """A game of the bot told as started has ended."""

    game: str


BotEvent = Invited | Started | Finished
"""One thing a bot's stream tells."""


def _started(summary: GameSummary) -> bool:
    return (summary.mode == "online" and summary.first_player is not None
            and summary.second_player is not None)


@dataclass
class BotEvents:
    """What the stream of ``bot``, opened at ``opened``, has told so far."""

    bot: str
    opened: datetime
    known: dict[str, GameSummary] = field(default_factory=dict)
    """The games told as started and not yet as finished."""
    offered: set[str] = field(default_factory=set)
    """The games whose offered seat was told."""
    ended: set[str] = field(default_factory=set)
    """The games whose end was told, as long as a look may see them again."""

    def _start(self, summary: GameSummary) -> Started:
        return Started(summary, "first" if summary.first_player == self.bot else "second")

    def look(self, found: Sequence[GameSummary], over: Sequence[GameSummary],
             invited: Sequence[Invitation]) -> list[BotEvent]:
        """What to tell after a look that found the games ``found`` under way, the games
        ``over`` last ended (newest first) and the seats ``invited``."""
        events: list[BotEvent] = [Invited(invitation) for invitation in invited
                                  if invitation.game not in self.offered]
        self.offered = {invitation.game for invitation in invited}
        games = {summary.id: summary for summary in found if _started(summary)}
        events += [self._start(summary) for game_id, summary in games.items()
                   if game_id not in self.known]
        for game_id in self.known.keys() - games.keys():
            events.append(Finished(game_id))
            self.ended.add(game_id)
        for summary in reversed(over):  # begun and ended between two looks: both at once
            if (summary.id in self.ended or summary.id in self.known
                    or not _started(summary) or summary.updated < self.opened):
                continue
            events += [self._start(summary), Finished(summary.id)]
            self.ended.add(summary.id)
        if over:  # only what the next look can see again need be remembered
            self.ended &= {summary.id for summary in over} | games.keys()
        self.known = games
        return events

    def missed(self) -> list[BotEvent]:
        """A look the database refused: nothing is told, the games told stay, and the
        seats offered will be told again."""
        return self.look(list(self.known.values()), [], [])
