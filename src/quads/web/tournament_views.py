"""Tournaments as the API shows them: an event read once (:func:`read_event`: the
event, its players, their names, its games and a Swiss event's byes, four or five
reads), then worded for the
lists, for a caller, or for everybody alike (the live socket's shared message) with
each viewer's own part beside it (:func:`personal`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from quads.site.errors import SiteError
from quads.site.tournaments import service
from quads.storage import GameStore
from quads.storage.stored import now
from quads.storage.tournaments import Entry, Tournament, TournamentGame
from quads.web.schemas.tournaments import (
    EventGameView,
    StandingView,
    TournamentMe,
    TournamentSummary,
    TournamentView,
)

__all__ = ["GAMES_SHOWN", "EventData", "personal", "read_event", "summary", "view"]

GAMES_SHOWN = 100
"""Games of one event shown at most, the latest."""


@dataclass(frozen=True, slots=True)
class EventData:
    """What one view of an event needs, as read at one moment."""

    event: Tournament
    entries: Sequence[Entry]
    names: dict[str, tuple[str, bool]]
    """Each player's name, and whether they are a bot."""
    games: Sequence[TournamentGame]
    byes: dict[int, str]
    """A Swiss event's byes, by round."""
    read: datetime
    """When its reading began: of two, the one read later holds the newer state."""

    @property
    def settled(self) -> bool:
        """Whether nothing more can change: over, with every game over."""
        return self.event.status == "finished" and all(
            game.result is not None for game in self.games)


def read_event(store: GameStore, tournament_id: str) -> EventData:
    """The event ``tournament_id`` with its players and games.

    :raises SiteError: ``not_found``.
    """
    began = now()
    event = store.tournament(tournament_id)
    if event is None:
        raise SiteError("not_found", f"no tournament with id {tournament_id!r}")
    return EventData(event, store.entries(tournament_id), store.names(tournament_id),
                     store.event_games(tournament_id),
                     store.byes(tournament_id) if event.kind == "swiss" else {}, began)


def summary(event: Tournament, players: int) -> TournamentSummary:
    """``event`` as the lists show it."""
    return TournamentSummary(
        id=event.id, kind=event.kind, name=event.name, rules=event.rules, clock=event.clock,
        rated=event.rated, min_rated=event.min_rated, starts=event.starts,
        ends=event.starts + timedelta(minutes=event.minutes), status=event.status,
        players=players, by_site=event.creator is None, rounds=event.rounds,
        round=event.round)


def personal(data: EventData, caller: str | None) -> TournamentMe:
    """What of ``data`` is the caller's own: their name, whether they are in and not
    paused, and the game of the event they play now."""
    entry = next((e for e in data.entries if e.player == caller), None)
    playing = next((g.game for g in reversed(data.games) if g.result is None
                    and caller in (g.first, g.second)), None)
    named = None if caller is None else data.names.get(caller)
    return TournamentMe(name=None if named is None else named[0],
                        joined=entry is not None and entry.active, playing=playing)


def view(data: EventData, caller: str | None) -> TournamentView:
    """The event with its standings (``you`` marks the caller's line) and its latest
    games, as ``caller`` sees it (``None``: as everybody does)."""
    names = {player: name for player, (name, _) in data.names.items()}
    bots = {player for player, (_, bot) in data.names.items() if bot}
    table = (service.swiss_ranked(data.event, data.entries, data.games, data.byes)
             if data.event.kind == "swiss" else service.ranked(data.entries, data.games))
    me = personal(data, caller)
    return TournamentView(
        **summary(data.event, len(data.entries)).model_dump(),
        standings=[StandingView(rank=s.rank, name=names.get(s.player, "?"), points=s.points,
                                sheet=list(s.sheet), on_fire=s.on_fire, games=s.games,
                                performance=s.performance, rating=s.rating, paused=s.paused,
                                bot=s.player in bots, buchholz=s.buchholz,
                                sonneborn_berger=s.sonneborn_berger,
                                you=caller is not None and s.player == caller)
                   for s in table],
        games=[EventGameView(id=g.game, first=names.get(g.first, "?"),
                             second=names.get(g.second, "?"), result=g.result, round=g.round)
               for g in reversed(data.games[-GAMES_SHOWN:])],
        joined=me.joined, playing=me.playing, at=now(), read=data.read)
