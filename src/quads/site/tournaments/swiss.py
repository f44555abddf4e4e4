"""Swiss events: rounds paired by the FIDE Dutch system, and the standings.

Every player plays every round, against a player of the same score if possible,
never twice against the same opponent; "white" in the Dutch system's terms is the
player who hands over the first piece, and the system keeps each player's firsts
and seconds balanced and alternating as it keeps chess colours.

**Byes.**  With an odd number of players, the pairing leaves one out, who scores a
full point (FIDE's pairing-allocated bye scores 1, as lichess's Swiss byes do) and
never gets that bye twice.  A player who joins late, at round *n*, scores a
half-point bye for each round before *n* and is paired from round *n* on.  A
withdrawn player is not paired again; their games played still count for their
opponents' tie-breaks, and the rounds they miss score 0.

**Standings.**  By points, then Buchholz (the sum of the points of the opponents met),
then Sonneborn-Berger (the sum of the points of the opponents beaten, and half the
points of those drawn), then rating.  A bye is no game: it adds its points to the
player's score but nothing to their Buchholz or Sonneborn-Berger (as a game against
an opponent with no points would).

The pairing itself is `caissify-pairings
<https://github.com/lexisvar/caissify_pairings>`_'s Dutch engine (Apache-2.0, pure
Python), which follows the Dutch rules in force since February 2026 and is checked by
its author against bbpPairings, a FIDE-endorsed program; this module tells it each
player's score, colours, floats and byes, derived from the rounds played.  The other
candidate, py4swiss (MIT), reads a whole tournament report and is typed, but pairs by
the rules of before 2026 (on 158 random rounds it differed from today's bbpPairings in
5, caissify-pairings in one colour of one), has not been released since December 2025,
and ships compiled wheels for a few platforms only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from caissify_pairings import generate_pairings

from quads.site.tournaments.arena import Pairing

__all__ = ["BYE_POINTS", "LATE_BYE_POINTS", "Entrant", "Game", "Outcome", "Pairing", "Round",
           "Standing", "SwissRound", "UnpairableRoundError", "pair_round", "sheets", "standings"]

BYE_POINTS = 1.0
"""The points of the bye of a round with an odd number of players."""
LATE_BYE_POINTS = 0.5
"""The points of each round a late entrant missed."""


class UnpairableRoundError(ValueError):
    """The round cannot be paired under the rules (everyone left has met)."""


class Outcome(Enum):
    """How a game of a Swiss event ended."""

    FIRST_WINS = "1-0"
    DRAW = "1/2-1/2"
    SECOND_WINS = "0-1"


@dataclass(frozen=True)
class Entrant:
    """A player registered for a Swiss event."""

    player: str
    rating: int
    joined: int = 1
    """The first round they are paired in (rounds before score half-point byes)."""
    withdrawn: bool = False


@dataclass(frozen=True)
class Game:
    """A game played in a round: ``first`` handed over the first piece."""

    first: str
    second: str
    outcome: Outcome


@dataclass(frozen=True)
class Round:
    """A round played: its games and the player of its bye, if any."""

    games: tuple[Game, ...]
    bye: str | None = None


@dataclass(frozen=True)
class SwissRound:
    """The pairing of a round: its games, best placed first, and its bye."""

    number: int
    pairings: tuple[Pairing, ...]
    bye: str | None


@dataclass(frozen=True)
class Standing:
    """A player's place in the standings."""

    player: str
    points: float
    buchholz: float
    sonneborn_berger: float
    rating: int
    withdrawn: bool


def _checked(players: Sequence[Entrant], history: Sequence[Round]) -> dict[str, Entrant]:
    by_player = {entrant.player: entrant for entrant in players}
    if len(by_player) != len(players):
        raise ValueError("a player is registered twice")
    for number, played in enumerate(history, start=1):
        seated = [name for game in played.games for name in (game.first, game.second)]
        seated += [] if played.bye is None else [played.bye]
        if len(set(seated)) != len(seated):
            raise ValueError(f"a player is seated twice in round {number}")
        for name in seated:
            if name not in by_player:
                raise ValueError(f"round {number} seats {name!r}, who is not registered")
            if by_player[name].joined > number:
                raise ValueError(f"round {number} seats {name!r}, who joined later")
    return by_player


@dataclass(frozen=True)
class _Played:
    """What one round was for one player: their opponent (``None``: a bye or an
    absence), their side, and the points they scored."""

    opponent: str | None
    first: bool
    points: float
    pairing_bye: bool = False


def _played(entrant: Entrant, number: int, played: Round) -> _Played:
    for game in played.games:
        if entrant.player in (game.first, game.second):
            first = entrant.player == game.first
            won = game.outcome is (Outcome.FIRST_WINS if first else Outcome.SECOND_WINS)
            points = 0.5 if game.outcome is Outcome.DRAW else 1.0 if won else 0.0
            return _Played(game.second if first else game.first, first, points)
    if played.bye == entrant.player:
        return _Played(None, False, BYE_POINTS, pairing_bye=True)
    return _Played(None, False, LATE_BYE_POINTS if number < entrant.joined else 0.0)


def _sheets(by_player: dict[str, Entrant], history: Sequence[Round]) -> dict[str, list[_Played]]:
    return {name: [_played(entrant, number, played)
                   for number, played in enumerate(history, start=1)]
            for name, entrant in by_player.items()}


def _engine_player(entrant: Entrant, number: int, sheets: dict[str, list[_Played]]) -> dict[
        str, object]:
    """What the pairing engine is told of a player: their score, the sides of their
    games, their floats (down when they scored more than their opponent before the
    round, or did not play; up when less) and their pairing byes."""
    sheet = sheets[entrant.player]
    floats = []
    for index, played in enumerate(sheet):
        if played.opponent is None:
            floats.append("down")
            continue
        mine = sum(entry.points for entry in sheet[:index])
        theirs = sum(entry.points for entry in sheets[played.opponent][:index])
        floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
    return {"id": number, "name": entrant.player, "starting_number": number,
            "rating": entrant.rating, "score": sum(entry.points for entry in sheet),
            "color_hist": ["white" if entry.first else "black" for entry in sheet
                           if entry.opponent is not None],
            "float_history": floats,
            "bye_count": sum(entry.pairing_bye for entry in sheet)}


def pair_round(players: Sequence[Entrant], history: Sequence[Round], round_number: int,
               rounds: int | None = None) -> SwissRound:
    """The pairing of round ``round_number`` of the players registered, ``history``
    being the rounds before it; ``rounds`` is the number of rounds of the event (the
    last round's pairing favours the leaders' colours; ``None``: not the last).

    Raises :class:`ValueError` if ``history`` is not the rounds before
    ``round_number`` of these players (a player unknown, seated twice in a round, or
    before they joined), and :class:`UnpairableRoundError` if the rules cannot pair
    it."""
    if round_number != len(history) + 1:
        raise ValueError(f"round {round_number} follows {len(history)} rounds played")
    if rounds is not None and rounds < round_number:
        raise ValueError(f"round {round_number} of an event of {rounds} rounds")
    by_player = _checked(players, history)
    sheets = _sheets(by_player, history)
    paired = sorted((entrant for entrant in players
                     if entrant.joined <= round_number and not entrant.withdrawn),
                    key=lambda entrant: (-entrant.rating, entrant.player))
    if not paired:
        return SwissRound(round_number, (), None)
    numbers = {entrant.player: number for number, entrant in enumerate(paired, start=1)}
    met = {(min(numbers[game.first], numbers[game.second]),
            max(numbers[game.first], numbers[game.second]))
           for played in history for game in played.games
           if game.first in numbers and game.second in numbers}
    try:
        made = generate_pairings(
            "dutch", [_engine_player(entrant, numbers[entrant.player], sheets)
                      for entrant in paired],
            met, round_number, round_number + 1 if rounds is None else rounds,
            bye_value=BYE_POINTS)
    except (ValueError, RuntimeError) as error:
        raise UnpairableRoundError(f"round {round_number} cannot be paired: {error}") from error
    named = [entrant.player for entrant in paired]
    pairings = tuple(Pairing(named[row["white_id"] - 1], named[row["black_id"] - 1])
                     for row in made if row.get("black_id") is not None)
    byes = [named[row["white_id"] - 1] for row in made if row.get("black_id") is None]
    seated = [name for pairing in pairings for name in (pairing.first, pairing.second)]
    if len(byes) > len(paired) % 2 or sorted([*seated, *byes]) != sorted(named):
        raise UnpairableRoundError(f"round {round_number} cannot be paired: "
                                   f"{len(byes)} players would be left out")
    bye = byes[0] if byes else None
    return SwissRound(round_number, pairings, bye)


def sheets(players: Sequence[Entrant], history: Sequence[Round]) -> dict[str, tuple[float, ...]]:
    """Each player's points of each round of ``history``, the first first (a bye's, a
    late entry's half point and an absence's nothing among them).

    Raises :class:`ValueError` as :func:`standings` does."""
    return {name: tuple(entry.points for entry in sheet)
            for name, sheet in _sheets(_checked(players, history), history).items()}


def standings(players: Sequence[Entrant], history: Sequence[Round]) -> tuple[Standing, ...]:
    """The standings after ``history``, best first, by the rules of the module's
    docstring (ties past rating broken by player id).

    Raises :class:`ValueError` if ``history`` seats a player unknown, twice in a
    round, or before they joined."""
    by_player = _checked(players, history)
    sheets = _sheets(by_player, history)
    points = {name: sum(entry.points for entry in sheet) for name, sheet in sheets.items()}
    table = []
    for name, sheet in sheets.items():
        games = [entry for entry in sheet if entry.opponent is not None]
        buchholz = sum(points[entry.opponent] for entry in games if entry.opponent)
        berger = sum(points[entry.opponent] * entry.points for entry in games if entry.opponent)
        entrant = by_player[name]
        table.append(Standing(name, points[name], buchholz, berger, entrant.rating,
                              entrant.withdrawn))
    return tuple(sorted(table, key=lambda standing: (
        -standing.points, -standing.buchholz, -standing.sonneborn_berger, -standing.rating,
        standing.player)))
