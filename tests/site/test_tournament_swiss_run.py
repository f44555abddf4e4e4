"""Swiss events on a real store, SQLite and PostgreSQL: made within bounds, nine
accounts over three rounds paired by the keeper's ticks exactly as the pairing
library re-pairs the same tournament, a round begun only once the one before is over
(or past its deadline), a late entry's half points, a withdrawal, a forfeit, and the
standings with their tie-breaks."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from caissify_pairings.fpc import check_trf

from quads.game import Abort, Agree, Resign
from quads.outcome import Player
from quads.site.errors import SiteError
from quads.site.tournaments import service, swiss_run
from quads.site.tournaments.swiss import Entrant
from quads.storage import GameStore
from quads.storage.accounts import AccountStore
from quads.storage.stored import now
from swiss_helpers import trf_report

NAMES = ("Ada", "Bea", "Cai", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
PLAYERS = {format(index, "x") * 64: name for index, name in enumerate(NAMES, start=1)}
GRACE = 30.0


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameStore]:
    location = (tmp_path / "swiss.sqlite3" if request.param == "sqlite"
                else request.getfixturevalue("postgres_url"))
    opened = GameStore(location)
    accounts = AccountStore(opened)
    for player, name in PLAYERS.items():  # accounts as sign-up leaves them, but unhashed
        opened.add_player(player)
        accounts.create(player, name, "not a hash", [], session=f"s-{name}", device="d",
                        trusted=f"t-{name}")
    yield opened
    opened.close()


def _swiss(store: GameStore, rounds: int = 3, **changes: object) -> str:
    settings: dict[str, object] = {"rules": "quads", "clock": "180+2", "rounds": rounds,
                                   "rated": False, "starts": now(), "at": now(),
                                   "grace": GRACE}
    settings.update(changes)
    return service.create_swiss(store, next(iter(PLAYERS)), **settings).id  # type: ignore[arg-type]


def _tick(store: GameStore, at: object = None) -> list[object]:
    return list(service.tick(store, now() if at is None else at, GRACE))  # type: ignore[arg-type]


def _play_round(store: GameStore, event: str, number: int) -> None:
    """End every game of round ``number`` still going by its board's place: the first
    wins, a draw, the second wins, in turn."""
    games = [g for g in store.event_games(event) if g.round == number and g.result is None]
    for board, game in enumerate(games):
        stored = store.load(game.game)
        stored.game.apply((Resign(Player.SECOND), Agree(), Resign(Player.FIRST))[board % 3])
        store.save(stored)


@pytest.mark.parametrize(("rounds", "code"), [(1, "invalid_tournament"),
                                              (16, "invalid_tournament")])
def test_a_swiss_out_of_bounds_is_refused(store: GameStore, rounds: int, code: str) -> None:
    with pytest.raises(SiteError) as refused:
        _swiss(store, rounds)
    assert refused.value.code == code
    with pytest.raises(SiteError) as clock:
        _swiss(store, clock="3d")
    assert clock.value.code == "invalid_clock"
    assert store.tournaments("created") == []


def test_nine_players_over_three_rounds_as_the_library_pairs_them(store: GameStore) -> None:
    event = _swiss(store, 3)
    nine = list(PLAYERS)[:9]
    for player in nine:
        service.join(store, event, player, now())
    for number in (1, 2, 3):
        started = _tick(store)
        assert len(started) == 4, number  # four games and a bye a round
        assert store.tournament(event).round == number  # type: ignore[union-attr]
        assert _tick(store) == []  # the round runs: nothing more until it is over
        _play_round(store, event, number)
    assert store.tournament(event).status == "started"  # type: ignore[union-attr]
    _tick(store)
    assert store.tournament(event).status == "finished"  # type: ignore[union-attr]

    entries = store.entries(event)
    byes = store.byes(event)
    assert sorted(byes) == [1, 2, 3]
    assert len(set(byes.values())) == 3  # nobody has two byes
    history = swiss_run.history(store.event_games(event), byes, 3)
    players = [Entrant(e.player, e.rating) for e in entries]
    report = check_trf(trf_report(players, history))  # the library re-pairs each round
    assert report["summary"]["rounds_checked"] == 3
    assert report["summary"]["rounds_mismatched"] == 0, report["rounds"]
    met = [frozenset((g.first, g.second)) for g in store.event_games(event)]
    assert len(met) == len(set(met)) == 12

    table = service.standings(store, event)
    assert [line.rank for line in table] == list(range(1, 10))
    assert sum(line.points for line in table) == 12 + 3  # a point a game, a point a bye
    assert all(line.buchholz is not None for line in table)
    assert all(len(line.sheet) == 3 for line in table)
    assert [line.points for line in table] == sorted((line.points for line in table),
                                                     reverse=True)


def test_a_late_entry_a_withdrawal_and_a_forfeit(store: GameStore) -> None:
    event = _swiss(store, 3)
    four = list(PLAYERS)[:4]
    for player in four:
        service.join(store, event, player, now())
    assert len(_tick(store)) == 2
    late = list(PLAYERS)[4]
    service.join(store, event, late, now())  # from round 2 on, half a point for round 1
    games = [g for g in store.event_games(event) if g.round == 1]
    stored = store.load(games[0].game)
    stored.game.apply(Abort())  # a forfeit: the side to move did not show
    store.save(stored)
    absent = games[0].first  # the first hands over first: they did not move
    _play_round(store, event, 1)
    service.withdraw(store, event, four[3])
    second = _tick(store)
    seated = {p for paired in second for p in (paired.first, paired.second)}
    assert late in seated | {store.byes(event).get(2)}
    assert absent not in seated  # withdrawn by the forfeit
    assert four[3] not in seated
    table = {line.player: line for line in service.standings(store, event)}
    assert table[late].sheet[0] == 0.5
    assert table[absent].sheet[0] == 0.0
    assert table[absent].paused
    winner = games[0].second
    assert table[winner].sheet[0] == 1.0


def test_a_round_waits_for_its_games_until_the_deadline(store: GameStore) -> None:
    event = _swiss(store, 2)
    for player in list(PLAYERS)[:6]:
        service.join(store, event, player, now())
    _tick(store)
    games = [g for g in store.event_games(event) if g.round == 1]
    assert len(games) == 3
    for game in games[:2]:
        done = store.load(game.game)
        done.game.apply(Resign(Player.FIRST))
        store.save(done)
    assert _tick(store) == []  # one game of the round still runs
    limit = swiss_run.round_limit("180+2", GRACE)
    later = _tick(store, now() + limit + timedelta(seconds=1))
    # Past the deadline the next round begins without the two still playing.
    still = {games[2].first, games[2].second}
    assert len(later) == 2
    for paired in later:
        assert {paired.first, paired.second}.isdisjoint(still)  # type: ignore[attr-defined]
    assert store.tournament(event).round == 2  # type: ignore[union-attr]
    table = {line.player: line for line in service.standings(store, event)}
    assert all(table[player].sheet == (0.0, 0.0) for player in still)  # not over yet
    running = {p for paired in later for p in (paired.first, paired.second)}
    assert all(len(table[player].sheet) == 1 for player in running)  # round 2 runs


def test_the_first_round_waits_for_a_second_player(store: GameStore) -> None:
    event = _swiss(store, 3)
    first, second = list(PLAYERS)[:2]
    service.join(store, event, first, now())
    assert _tick(store) == []
    assert store.tournament(event).round == 0  # type: ignore[union-attr]
    service.join(store, event, second, now())
    assert len(_tick(store)) == 1
    lonely = _swiss(store, 3)
    service.join(store, lonely, first, now())
    made = store.tournament(lonely)
    assert made is not None
    _tick(store, now() + timedelta(minutes=made.minutes + 1))
    assert store.tournament(lonely).status == "finished"  # type: ignore[union-attr]
