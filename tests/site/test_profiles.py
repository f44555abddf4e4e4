"""Profiles on a real store: an account's ratings, results, games and history after
rated games played through the lobby; the leaderboards; a player's own games written
out as records."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import insert, update
from tests.site.site_helpers import Limits, Told

from quads.errors import InvalidRulesError
from quads.game import Abandon, Give
from quads.outcome import Player
from quads.record import read_record
from quads.site.accounts.service import Accounts
from quads.site.errors import SiteError
from quads.site.games.service import Games
from quads.site.lobby.service import Lobby
from quads.site.players.profiles import FIRST_PAGE, Export, Profiles
from quads.storage import GameStore, PuzzleResult
from quads.storage.accounts import AccountStore
from quads.storage.database import moment_text
from quads.storage.lobby import Lobby as Seeks
from quads.storage.stored import now
from quads.storage.tables import ratings

ADA, BEA, CAL = "a" * 64, "b" * 64, "c" * 64
GOOD = "a quiet heron by the lake"
TODAY = date(2026, 12, 6)


@dataclass(frozen=True)
class Days:
    """The operator's leaderboard window, stated here."""

    leaderboard_days: float = 30.0


@pytest.fixture
def accounts(store: GameStore) -> Accounts:
    accounts = Accounts(AccountStore(store))
    for player, name in ((ADA, "Ada"), (BEA, "Bea")):
        store.add_player(player)
        accounts.sign_up(player, name, GOOD, "d")
    store.add_player(CAL)  # no account
    return accounts


@pytest.fixture
def lobby(store: GameStore, told: Told, accounts: Accounts) -> Lobby:
    return Lobby(Seeks(store), told, Limits())


@pytest.fixture
def games(store: GameStore, told: Told) -> Games:
    return Games(store, told, Limits())


@pytest.fixture
def profiles(store: GameStore) -> Profiles:
    return Profiles(store, Days())


def _played(lobby: Lobby, games: Games, host: str, guest: str, loser: str, *,
            rules: str = "quads", clock: str = "180+2", rated: bool = True) -> str:
    """A game from a seek of ``host`` that ``guest`` accepts, which ``loser`` resigns."""
    seek = lobby.open(host, rules, clock, "first", rated=rated)
    stored = lobby.accept(seek.id, guest)
    games.resign(stored.id, loser, stored.revision)
    return stored.id


def _refused(code: str) -> pytest.RaisesExc[SiteError]:
    return pytest.raises(SiteError, check=lambda e: e.code == code)


def test_a_profile_shows_ratings_results_and_games_after_rated_games(
        store: GameStore, lobby: Lobby, games: Games, profiles: Profiles) -> None:
    won = _played(lobby, games, ADA, BEA, BEA)
    lost = _played(lobby, games, BEA, ADA, ADA)
    casual = _played(lobby, games, ADA, BEA, BEA, rules="classic", rated=False)
    drawn = lobby.accept(lobby.open(BEA, "quads", "180+2", "first", rated=True).id, ADA)
    drawn.game.apply(Abandon(Player.FIRST, draw=True))  # as a claim of abandonment saves it
    store.save(drawn)
    profile = profiles.profile("ADA", TODAY)
    assert profile.name == "Ada"
    assert profile.bot is None
    assert abs(profile.created - now()) < timedelta(minutes=1)
    assert list(profile.ratings) == ["quads-rapid"]
    rating = profile.ratings["quads-rapid"]
    assert rating.games == 3
    assert rating.provisional  # three games are far from an established rating
    assert isinstance(rating.rating, int)
    assert isinstance(rating.deviation, int)
    assert (profile.score.wins, profile.score.draws, profile.score.losses) == (2, 1, 1)
    page = profile.games
    assert [g.id for g in page.games] == [drawn.id, casual, lost, won]
    assert page.next is None
    assert [g.result for g in page.games] == ["draw", "win", "loss", "win"]
    first = page.games[-1]
    assert (first.opponent_name, first.opponent_account, first.side) == ("Bea", True,
                                                                        Player.FIRST)
    assert first.rating_before == 1500.0
    assert first.rating_after is not None
    assert first.rating_after > 1500.0
    assert page.games[1].rating_before is None  # casual: no rating changed
    assert str(page.games[0].control) == "180+2"


def test_games_are_filtered_and_paged(lobby: Lobby, games: Games, profiles: Profiles) -> None:
    played = [_played(lobby, games, ADA, BEA, BEA) for _ in range(3)]
    played.append(_played(lobby, games, ADA, BEA, ADA, rules="classic"))
    assert [g.id for g in profiles.games("ada", result="win").games] == played[2::-1]
    assert [g.id for g in profiles.games("ada", result="loss").games] == [played[3]]
    assert [g.id for g in profiles.games("bea", result="win").games] == [played[3]]
    assert [g.id for g in profiles.games("ada", rules="classic").games] == [played[3]]
    assert profiles.games("ada", result="draw").games == []
    with pytest.raises(InvalidRulesError):
        profiles.games("ada", rules="no such rules")
    first = profiles.games("ada", limit=3)
    assert [g.id for g in first.games] == played[:0:-1]
    assert first.next is not None
    rest = profiles.games("ada", limit=3, after=first.next)
    assert [g.id for g in rest.games] == [played[0]]
    assert rest.next is None
    assert len(profiles.profile("Ada", TODAY, limit=2).games.games) == 2
    assert FIRST_PAGE >= 4


def test_nobody_deleted_or_unknown_has_a_profile(
        store: GameStore, lobby: Lobby, games: Games, accounts: Accounts,
        profiles: Profiles) -> None:
    _played(lobby, games, ADA, BEA, BEA)
    lobby.rename(CAL, "Calvin")
    for name in ("Calvin", "nobody-here"):
        with _refused("not_found"):
            profiles.profile(name, TODAY)
    accounts.delete(BEA, "Bea", GOOD)
    for call in (lambda: profiles.profile("Bea", TODAY), lambda: profiles.games("bea"),
                 lambda: profiles.history("bea", "quads-rapid")):
        with _refused("not_found"):
            call()
    (game,) = profiles.profile("Ada", TODAY).games.games
    assert (game.opponent_name, game.opponent_account) == ("deleted player", False)


def test_the_history_is_the_rating_after_each_rated_game(
        lobby: Lobby, games: Games, profiles: Profiles) -> None:
    won = _played(lobby, games, ADA, BEA, BEA)
    lost = _played(lobby, games, ADA, BEA, ADA)
    _played(lobby, games, ADA, BEA, BEA, clock="60+0")  # blitz: another category
    history = profiles.history("ada", "quads-rapid")
    assert (history.name, history.category) == ("Ada", "quads-rapid")
    points = history.points
    assert [p.game for p in points] == [won, lost]
    assert points[0].rating > 1500
    assert points[1].rating < points[0].rating
    assert points[0].moment <= points[1].moment
    assert profiles.profile("Ada", TODAY).ratings["quads-rapid"].rating == points[-1].rating
    assert len(profiles.history("Ada", "quads-blitz").points) == 1
    assert profiles.history("Ada", "advanced-correspondence").points == []
    for category in ("quads", "chess-blitz", "QUADS-BLITZ"):
        with _refused("not_found"):
            profiles.history("Ada", category)


def _rate(store: GameStore, player: str, category: str, rating: float, deviation: float,
          played: datetime) -> None:
    """Write a rating row as many rated games would have left it: an established rating
    takes dozens of games, which this test does not play."""
    with store.begin(write=True) as connection:
        connection.execute(insert(ratings), {
            "player": player, "category": category, "rating": rating,
            "deviation": deviation, "volatility": 0.06, "games": 40,
            "played": moment_text(played)})


def test_a_leaderboard_lists_established_recent_accounts_best_first(
        store: GameStore, accounts: Accounts, profiles: Profiles) -> None:
    recent, old = now() - timedelta(days=2), now() - timedelta(days=31)
    names = {"d" * 64: "Dora", "e" * 64: "Emil", "f" * 64: "Finn", "0" * 64: "Gone",
             "1" * 64: "Aged"}
    for player, name in names.items():
        store.add_player(player)
        accounts.sign_up(player, name, GOOD, "d")
    _rate(store, ADA, "quads-blitz", 1700.4, 60.0, recent)
    _rate(store, BEA, "quads-blitz", 1850.6, 74.0, recent)
    _rate(store, "d" * 64, "quads-blitz", 2100.0, 76.0, recent)  # not established
    # Established at its last game, but its deviation has grown since past 75.
    _rate(store, "1" * 64, "quads-blitz", 2150.0, 75.0, recent)
    _rate(store, "e" * 64, "quads-blitz", 2000.0, 50.0, old)  # not recent
    _rate(store, "f" * 64, "quads-rapid", 1900.0, 50.0, recent)  # another category
    _rate(store, "0" * 64, "quads-blitz", 2200.0, 50.0, recent)
    accounts.delete("0" * 64, "Gone", GOOD)
    board = profiles.leaderboard("quads-blitz")
    assert [(p.name, p.rating, p.deviation, p.games) for p in board] == [
        ("Bea", 1851, 74, 40), ("Ada", 1700, 60, 40)]
    assert [p.name for p in profiles.leaderboard("quads-rapid")] == ["Finn"]
    assert [p.name for p in Profiles(store, Days(40)).leaderboard("quads-blitz")] == [
        "Emil", "Bea", "Ada"]
    assert profiles.leaderboard("advanced-classical") == []
    with _refused("not_found"):
        profiles.leaderboard("blitz")
    # A profile shows every rating, established or not.
    assert profiles.profile("Dora", TODAY).ratings["quads-blitz"].provisional is False


def test_a_profile_shows_the_puzzle_streak(store: GameStore, accounts: Accounts,
                                          profiles: Profiles) -> None:
    moment = datetime(2026, 12, 6, 12, tzinfo=UTC)
    for days in (0, 1, 2, 4):
        store.add_result(PuzzleResult(player=ADA, date=TODAY - timedelta(days=days), tries=1,
                                      seconds=30, solved=True, recorded=moment))
    profile = profiles.profile("Ada", TODAY)
    assert (profile.streak, profile.puzzles_solved) == (3, 4)
    assert profiles.profile("Ada", TODAY + timedelta(days=2)).streak == 0


def test_an_export_writes_every_game_of_the_player_as_a_record(
        store: GameStore, lobby: Lobby, games: Games, profiles: Profiles) -> None:
    rated = _played(lobby, games, ADA, BEA, BEA)
    started = lobby.accept(lobby.open(BEA, "classic", "3d", "second").id, ADA)
    ongoing = games.act(started.id, ADA, Give(7), started.revision).id  # Ada hands over first
    computer = games.new("advanced", "computer", ADA, level=1, human="first")
    games.act(computer.id, ADA, Give(7), computer.revision)  # acted in: listed
    games.new("quads", "local", ADA)  # nobody acted: not listed, not exported
    _played(lobby, games, BEA, CAL, BEA, rated=False)  # not Ada's
    listed = [s.id for s in store.summaries(player=ADA)]
    records: list[str] = []
    after = None
    while True:
        page = profiles.export(ADA, after, 2)
        records += page.records
        if page.next is None:
            break
        after = page.next
    assert len(records) == len(listed) == 3
    read = [read_record(text) for text in records]
    by_mode = {game.headers["Mode"]: game for game in read}
    online = [game for game in read if game.headers["Mode"] == "online"]
    assert {g.headers.get("TimeControl") for g in online} == {"180+2", "3d"}
    won = next(g for g in online if g.headers.get("Rated") == "yes")
    assert (won.headers["First"], won.headers["Second"]) == ("Ada", "Bea")
    assert won.headers["Category"] == "quads-rapid"
    assert won.outcome is not None
    assert won.outcome.result == "1-0"
    assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", won.headers["Date"])
    still = next(g for g in online if g.headers.get("Rated") == "no")
    assert still.rules.name == "classic:losing-calls"
    assert still.outcome is None
    assert (still.headers["First"], still.headers["Second"]) == ("Ada", "Bea")  # Bea sought second
    assert set(listed) == {rated, ongoing, computer.id}
    mine = by_mode["computer"]
    assert (mine.headers["Level"], mine.headers["Human"]) == ("1", "first")
    assert "Rated" not in mine.headers
    assert mine.rules.name == "advanced"
    assert len(mine.actions) == 1
    assert profiles.export(None, None, 10).records == []
    assert profiles.export(ADA, None, 0) == Export([], None)
    assert profiles.export_name(ADA) == "quads-games-Ada.txt"
    assert profiles.export_name(CAL) == "quads-games.txt"
    assert profiles.export_name(None) == "quads-games.txt"


def test_an_idle_rating_shows_its_grown_deviation(store: GameStore,
                                                  profiles: Profiles) -> None:
    idle = "e" * 64
    store.add_player(idle)
    AccountStore(store).create(idle, "Idle", None, [], "s", "d", "t")
    with store.engine.begin() as connection:
        connection.execute(insert(ratings), {
            "player": idle, "category": "quads-blitz", "rating": 1700.0, "deviation": 60.0,
            "volatility": 0.06, "games": 40,
            "played": moment_text(now() - timedelta(days=400))})
    shown = profiles.profile("idle", TODAY).ratings["quads-blitz"]
    assert shown.provisional  # a year idle: provisional again
    assert shown.deviation > 110
    with store.engine.begin() as connection:
        connection.execute(update(ratings).values(played=moment_text(now())))
    assert not profiles.profile("idle", TODAY).ratings["quads-blitz"].provisional
