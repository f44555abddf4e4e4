"""Arenas on a real store, SQLite and PostgreSQL: made by accounts within bounds,
joined, started and paired by the tick, each result counted once in the save that
ends its game, a no-show paused, nobody in two games of one arena even when two
processes tick at once, and the arena ended on time with its last games counting."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from quads.errors import InvalidRulesError
from quads.game import Abort, Resign
from quads.outcome import Player
from quads.site.errors import SiteError
from quads.site.tournaments import schedule, service
from quads.storage import GameStore
from quads.storage.accounts import AccountStore
from quads.storage.stored import now
from quads.storage.tables import tournament_games
from quads.storage.tournaments import Paired, SeatTaken

PLAYERS = {p * 64: name for p, name in zip("abcdef", ("Ada", "Bea", "Cai", "Dan", "Eve", "Fay"),
                                             strict=True)}
A, B, C, D, E, F = PLAYERS
NOBODY = "9" * 64  # a player without an account
GRACE = 30.0


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    location = (tmp_path / "events.sqlite3" if request.param == "sqlite"
                else request.getfixturevalue("postgres_url"))
    opened = GameStore(location)
    accounts = AccountStore(opened)
    for player, name in PLAYERS.items():  # accounts as sign-up leaves them, but unhashed:
        opened.add_player(player)  # what counts here is that they are accounts
        accounts.create(player, name, "not a hash", [], session=f"s-{name}", device="d",
                        trusted=f"t-{name}")
    opened.add_player(NOBODY)
    yield opened
    opened.close()


def _arena(store: GameStore, **changes: object) -> str:
    settings: dict[str, object] = {"rules": "quads", "clock": "180+2", "minutes": 30,
                                   "rated": False, "starts": now(), "at": now()}
    settings.update(changes)
    return service.create_arena(store, A, **settings).id  # type: ignore[arg-type]


def _end(store: GameStore, game_id: str, loser: Player | None = None, *,
         abort: bool = False) -> None:
    """End the game ``game_id``: ``loser`` resigns, or it is aborted."""
    stored = store.load(game_id)
    stored.game.apply(Abort() if abort else Resign(loser))
    store.save(stored)


def _seated(store: GameStore, tournament_id: str) -> dict[str, str]:
    """Each player of the arena in a game now, and that game."""
    return {e.player: e.current for e in store.entries(tournament_id) if e.current}


@pytest.mark.parametrize(("changes", "code"), [
    ({"clock": "3d"}, "invalid_clock"),
    ({"clock": "soon"}, "invalid_clock"),
    ({"minutes": 2}, "invalid_tournament"),
    ({"minutes": 721}, "invalid_tournament"),
    ({"starts": now() + timedelta(days=31)}, "invalid_tournament"),
    ({"min_rated": 10}, "invalid_tournament"),  # a minimum only for a rated arena
    ({"rules": "lines:color", "rated": True}, "cannot_be_rated"),
])
def test_an_arena_out_of_bounds_is_refused(store: GameStore, changes: dict[str, object],
                                          code: str) -> None:
    with pytest.raises(SiteError) as refused:
        _arena(store, **changes)
    assert refused.value.code == code
    assert store.tournaments("created") == []


def test_an_arena_of_rules_that_cannot_be_read_is_refused(store: GameStore) -> None:
    with pytest.raises(InvalidRulesError):
        _arena(store, rules="nothing-like-rules")
    assert store.tournaments("created") == []


def test_only_accounts_make_and_join_arenas(store: GameStore) -> None:
    with pytest.raises(SiteError) as refused:
        service.create_arena(store, NOBODY, rules="quads", clock="180+2", minutes=30,
                             rated=False, starts=now(), at=now())
    assert refused.value.code == "account_needed"
    with pytest.raises(SiteError) as refused:  # nobody at all is not the site's schedule
        service.create_arena(store, None, rules="quads", clock="180+2", minutes=30,
                             rated=False, starts=now(), at=now())
    assert refused.value.code == "account_needed"
    site = service.create_arena(store, A, rules="quads", clock="180+2", minutes=30,
                                rated=False, starts=now(), at=now(), by_site=True)
    assert site.creator is None
    arena = _arena(store)
    with pytest.raises(SiteError) as refused:
        service.join(store, arena, NOBODY, now())
    assert refused.value.code == "account_needed"
    with pytest.raises(SiteError) as refused:
        service.join(store, "no-such-arena", A, now())
    assert refused.value.code == "not_found"
    assert store.entries(arena) == []


def test_a_rated_arena_asks_its_minimum_of_rated_games(store: GameStore) -> None:
    arena = _arena(store, rated=True, min_rated=1)
    with pytest.raises(SiteError) as refused:
        service.join(store, arena, B, now())
    assert refused.value.code == "not_enough_rated_games"


def test_the_tick_starts_pairs_and_counts_each_result_once(store: GameStore) -> None:
    arena = _arena(store)
    for player in (A, B, C, D):
        service.join(store, arena, player, now())
    started = service.tick(store, now(), GRACE)
    assert store.tournament(arena).status == "started"  # type: ignore[union-attr]
    assert len(started) == 2
    seated = _seated(store, arena)
    assert sorted(seated) == sorted((A, B, C, D))
    assert service.tick(store, now(), GRACE) == []  # nobody free: nothing more
    # Each game is an online game on the arena's clock, started, between its pair.
    games = {p.game.id: p for p in started}
    for game_id, paired in games.items():
        stored = store.load(game_id)
        assert (stored.first_player, stored.second_player) == (paired.first, paired.second)
        assert stored.clock is not None
        assert stored.invite is None

    # The first game ends: its winner scores 2, its players are free again, but they
    # just met, so neither is paired while the other game runs.
    first = started[0]
    _end(store, first.game.id, Player.SECOND)
    store.save(store.load(first.game.id))  # saved again once over: counted once
    table = {s.player: s for s in service.standings(store, arena)}
    assert table[first.first].points == 2
    assert table[first.first].sheet == (2,)
    assert table[first.second].points == 0
    assert table[first.second].games == 1
    assert table[first.first].rank == 1
    assert first.first not in _seated(store, arena)
    assert service.tick(store, now(), GRACE) == []

    # The second ends: now four are free and nobody meets their last opponent.
    second = started[1]
    _end(store, second.game.id, Player.FIRST)
    again = service.tick(store, now(), GRACE)
    assert len(again) == 2
    last = {first.first: first.second, first.second: first.first,
            second.first: second.second, second.second: second.first}
    for paired in again:
        assert last[paired.first] != paired.second

    # Saving a game's end again counts nothing twice.
    with store.begin() as connection:
        counted = connection.execute(select(func.count()).select_from(tournament_games).where(
            tournament_games.c.result.is_not(None))).scalar_one()
    assert counted == 2


def test_a_game_not_begun_pauses_the_player_who_did_not_show(store: GameStore) -> None:
    arena = _arena(store)
    for player in (A, B):
        service.join(store, arena, player, now())
    (paired,) = service.tick(store, now(), GRACE)
    _end(store, paired.game.id, abort=True)  # the first player never handed over
    entries = {e.player: e for e in store.entries(arena)}
    assert not entries[paired.first].active
    assert entries[paired.second].active
    table = {s.player: s for s in service.standings(store, arena)}
    assert table[paired.first].paused
    assert table[paired.first].points == 0
    assert table[paired.second].games == 0  # an aborted game counts for nobody
    # Joining again, the player is in once more.
    service.join(store, arena, paired.first, now())
    assert {e.player: e for e in store.entries(arena)}[paired.first].active


def test_a_withdrawn_player_is_not_paired(store: GameStore) -> None:
    arena = _arena(store)
    for player in (A, B, C):
        service.join(store, arena, player, now())
    service.withdraw(store, arena, C)
    with pytest.raises(SiteError) as refused:
        service.withdraw(store, arena, D)
    assert refused.value.code == "not_in_tournament"
    (paired,) = service.tick(store, now(), GRACE)
    assert {paired.first, paired.second} == {A, B}


def test_two_ticks_at_once_seat_nobody_twice(store: GameStore) -> None:
    arena = _arena(store)
    for player in PLAYERS:
        service.join(store, arena, player, now())
    service.tick(store, now(), GRACE)  # started; then paired by both at once below
    for game_id in set(_seated(store, arena).values()):
        _end(store, game_id, abort=False, loser=Player.FIRST)
    with ThreadPoolExecutor(4) as pool:
        made = [p for batch in pool.map(lambda _: service.tick(store, now(), GRACE), range(4))
                for p in batch]
    seated = [player for p in made for player in (p.first, p.second)]
    assert len(seated) == len(set(seated))  # nobody in two games
    assert len(made) == 3


def test_the_arena_ends_on_time_and_its_last_games_count(store: GameStore) -> None:
    arena = _arena(store, minutes=5)
    for player in (A, B):
        service.join(store, arena, player, now())
    (paired,) = service.tick(store, now(), GRACE)
    assert service.tick(store, now() + timedelta(minutes=6), GRACE) == []
    assert store.tournament(arena).status == "finished"  # type: ignore[union-attr]
    _end(store, paired.game.id, Player.FIRST)  # ends after the arena: still counts
    table = {s.player: s for s in service.standings(store, arena)}
    assert table[paired.second].points == 2
    with pytest.raises(SiteError) as refused:
        service.join(store, arena, C, now())
    assert refused.value.code == "tournament_over"


def test_the_site_announces_its_own_arenas_once_whoever_ticks(store: GameStore) -> None:
    at = datetime(2026, 12, 6, 21, 56, tzinfo=UTC)
    # At 21:56 the 21:00 arena (55 minutes) is over: the next two are announced.
    assert schedule.starts_of(schedule.SLOTS[0], at) == [
        datetime(2026, 12, 6, 22, tzinfo=UTC), datetime(2026, 12, 6, 23, tzinfo=UTC)]
    assert schedule.starts_of(schedule.SLOTS[0], at.replace(minute=30)) == [
        datetime(2026, 12, 6, 21, tzinfo=UTC), datetime(2026, 12, 6, 22, tzinfo=UTC),
        datetime(2026, 12, 6, 23, tzinfo=UTC)]
    assert schedule.starts_of(schedule.SLOTS[1], at) == [datetime(2026, 12, 7, 18, tzinfo=UTC)]
    assert schedule.starts_of(schedule.SLOTS[1], at.replace(hour=19)) == [
        datetime(2026, 12, 6, 18, tzinfo=UTC), datetime(2026, 12, 7, 18, tzinfo=UTC)]
    with ThreadPoolExecutor(4) as pool:  # four processes at once: each arena made once
        made = [e for batch in pool.map(lambda _: schedule.keep_scheduled(store, at), range(4))
                for e in batch]
    assert sorted(e.id for e in made) == [
        "daily-classic-2026120718", "hourly-quads-2026120622", "hourly-quads-2026120623"]
    assert schedule.keep_scheduled(store, at) == []
    hourly = store.tournament("hourly-quads-2026120622")
    assert hourly is not None
    assert (hourly.creator, hourly.rated, hourly.rules, hourly.clock, hourly.minutes) == (
        None, True, "quads", "180+2", 55)


def test_an_event_that_fails_its_turn_stops_no_other(store: GameStore) -> None:
    """A Swiss event whose record seats a player it does not know fails its turn; the
    arena beside it is paired all the same, and the failure is handed on."""
    broken = service.create_swiss(store, A, rules="quads", clock="180+2", rounds=3,
                                  rated=False, starts=now(), at=now(), grace=GRACE).id
    for player in (A, B):
        service.join(store, broken, player, now())
    arena = _arena(store)
    for player in (C, D):
        service.join(store, arena, player, now())
    service.tick(store, now(), GRACE)  # both started; the Swiss event's first round too
    with store.begin(write=True) as connection:  # a game of round 1 with a stranger
        connection.execute(tournament_games.insert().values(
            game="forged", tournament=broken, first=NOBODY, second=A, started="2026-01-01",
            result="first", no_show=None, ended="2026-01-01", round=1))
    for game in store.event_games(broken):
        if game.result is None:
            _end(store, game.game, Player.FIRST)
    for game in store.event_games(arena):
        _end(store, game.game, Player.FIRST)
    failures: list[str] = []
    started = service.tick(store, now(), GRACE,
                           failed=lambda event, error: failures.append(event.id))
    assert failures == [broken]
    assert started == []  # the arena's two met last: nobody new to pair, and no fault
    with pytest.raises(ValueError, match="round 1"):
        service.tick(store, now(), GRACE)  # without ``failed``, the fault is raised


def test_a_player_gone_between_the_look_and_the_seat_starts_nothing(store: GameStore) -> None:
    """A player who withdraws while the keeper pairs (between its read and its seating)
    makes the store start nothing that round: the next tick pairs anew."""
    arena = _arena(store)
    for player in (A, B, C):
        service.join(store, arena, player, now())
    assert store.set_status(arena, "created", "started")
    service.withdraw(store, arena, C)  # after the keeper's look, say
    event = store.tournament(arena)
    assert event is not None

    def stale(free: list[object], games: list[object]) -> list[Paired]:
        return [Paired(A, B, service._game(event, A, B, now(), GRACE)),
                Paired(C, D, service._game(event, C, D, now(), GRACE))]

    with pytest.raises(SeatTaken):
        store.pair(arena, stale, now())
    assert store.event_games(arena) == []  # not even the game of the two still free
    assert _seated(store, arena) == {}
    (paired,) = service.tick(store, now(), GRACE)  # the next tick pairs anew
    assert {paired.first, paired.second} == {A, B}
