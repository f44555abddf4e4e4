"""The mistakes of ended games, looked for from the queue (quads.site.mistakes.finder)
on a real store: a game in which a player throws away a win leaves exactly the
exercises its review says, for the people who played it (each their own turns; both
sides of a game on one device; no bot's), once however often it is saved; a game
taken by a process that died is taken again after the lease, and one that keeps
failing is given up."""

from __future__ import annotations

import random
from datetime import timedelta

from quads import Game, Position, Rules
from quads.mistakes import exercises
from quads.outcome import Player
from quads.site.mistakes.finder import LEASE, MOST_TRIES, find_next
from quads.storage import GameStore, StoredGame
from quads.storage.bots import Bots
from quads.storage.stored import now
from quads.turn import Turn

QUADS = Rules.parse("quads")
START = Position.from_string("A0../1F.D/27../4.BC 8")
ADA, BEA, BOT = "a" * 64, "b" * 64, "c" * 64


def _thrown_away() -> Game:
    """From START the side to move hands the win away (B43: only 6 keeps it), then the
    game is played out at random."""
    game = Game(QUADS, START)
    game.play(Turn.parse("B43"))
    chooser = random.Random(5)
    while not game.is_over():
        game.play(chooser.choice(list(game.position.legal_turns(QUADS))))
    return game


def _ended(store: GameStore, game_id: str, game: Game, **fields: object) -> StoredGame:
    """Store ``game`` unfinished, then save it with its last action: it ends."""
    moment = now()
    begun = Game(QUADS, START)
    for action in game.actions[:-1]:
        begun.apply(action)
    values: dict[str, object] = {"mode": "local", "level": None, "human": None, "seed": 1,
                                 "owner": ADA, "created": moment, "updated": moment}
    values.update(fields)
    stored = StoredGame(id=game_id, game=begun, **values)  # type: ignore[arg-type]
    store.create(stored)
    stored.game.apply(game.actions[-1])
    store.save(stored)
    return stored


def _keys(store: GameStore, player: str) -> list[str]:
    return sorted(e.key for e in store.exercises_of(player))


def test_a_win_thrown_away_against_the_computer(store: GameStore) -> None:
    game = _thrown_away()
    mover = game.states[0].to_move
    assert mover is not None
    _ended(store, "g1", game, mode="computer", level=2, human=mover)
    expected = exercises(game, mover, seconds=5)
    assert [e.kind for e in expected][:1] == ["give"]
    assert find_next(store, now(), 5) == "g1"
    kept = store.exercises_of(ADA)
    assert sorted(e.key for e in kept) == sorted(e.key for e in expected)
    give = next(e for e in kept if e.kind == "give")
    assert (give.played, give.answers, give.keep, give.game) == ("3", ("6",), "win", "g1")
    assert find_next(store, now(), 5) is None  # looked at once


def test_each_person_learns_from_their_own_turns(store: GameStore) -> None:
    game = _thrown_away()
    mover = game.states[0].to_move
    assert mover is not None
    seats = {mover: ADA, mover.other: BEA}
    _ended(store, "online", game, mode="online", first_player=seats[Player.FIRST],
           second_player=seats[Player.SECOND])
    find_next(store, now(), 5)
    assert _keys(store, ADA) == sorted(e.key for e in exercises(game, mover, seconds=5))
    assert _keys(store, BEA) == sorted(e.key for e in exercises(game, mover.other, seconds=5))


def test_a_game_on_one_device_teaches_its_owner_both_sides(store: GameStore) -> None:
    game = _thrown_away()
    stored = _ended(store, "local", game)
    store.save(stored)  # saved again once over: still one look
    assert find_next(store, now(), 5) == "local"
    assert find_next(store, now(), 5) is None
    assert _keys(store, ADA) == sorted({e.key for e in exercises(game, seconds=5)})


def test_a_bot_learns_nothing(store: GameStore) -> None:
    game = _thrown_away()
    mover = game.states[0].to_move
    assert mover is not None
    Bots(store).upgrade(BOT, "k" * 64)
    seats = {mover: BOT, mover.other: BEA}
    _ended(store, "bot", game, mode="online", first_player=seats[Player.FIRST],
           second_player=seats[Player.SECOND])
    assert find_next(store, now(), 5) == "bot"
    assert _keys(store, BOT) == []
    assert _keys(store, BEA) == sorted(e.key for e in exercises(game, mover.other, seconds=5))


def test_a_game_left_by_a_dead_process_is_taken_again_then_given_up(store: GameStore) -> None:
    _ended(store, "g1", _thrown_away(), mode="computer", level=1, human=Player.FIRST)
    at = now()
    assert store.take_ended(at, LEASE, MOST_TRIES) == "g1"  # taken, never finished
    assert store.take_ended(at, LEASE, MOST_TRIES) is None  # within the lease
    for attempt in range(1, MOST_TRIES):
        at += LEASE + timedelta(seconds=1)
        assert store.take_ended(at, LEASE, MOST_TRIES) == "g1", attempt
    at += LEASE + timedelta(seconds=1)
    assert store.take_ended(at, LEASE, MOST_TRIES) is None  # given up
    assert find_next(store, at + LEASE * 2, 5) is None
