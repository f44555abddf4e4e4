"""The explorer's counts in a real store, SQLite and PostgreSQL: a game counted once
when the save that ends it commits (not again at a later save), by kind of game,
rated or not and rating band; games of one device, aborted ones and unfinished ones
count nothing; a recount gives the same counts, and counts a game that ended while
it read."""

from __future__ import annotations

import random

from quads import Game, Position, Rules, read_record, write_record
from quads.explorer import ending_of, played_turns, position_key, turns_from
from quads.game import Abort
from quads.outcome import Player
from quads.players import make_player
from quads.review import game_turns
from quads.storage import GameStore
from quads.storage.explorer import Counts, Filters
from quads.storage.stored import StoredGame
from storage.conftest import ADA, BEA
from storage.store_helpers import stored_game

QUADS = Rules.parse("quads")
EMPTY = Position.from_string("..../..../..../.... -")
ALL = Filters()


def _played_out(seed: int) -> Game:
    """A game of random legal turns to its end."""
    chooser = random.Random(seed)
    game = Game(QUADS)
    while not game.is_over():
        game.play(chooser.choice(list(game.position.legal_turns(QUADS))))
    return game


def _store_and_end(store: GameStore, game_id: str, game: Game, **fields: object) -> StoredGame:
    """Store ``game`` as it was before its last turn, then save it with that turn."""
    last = len(game.actions) - 1
    while last > 0 and game.states[last - 1].to_move is game.states[last].to_move:
        last -= 1  # the start of the last turn
    begun = Game(game.rules, game.start)
    for action in game.actions[:last]:
        begun.apply(action)
    stored = stored_game(game_id, begun, owner=ADA, **fields)
    store.create(stored)
    for action in game.actions[last:]:
        stored.game.apply(action)
    store.save(stored)
    return stored


def _first_turn(store: GameStore, game: Game, filters: Filters = ALL) -> Counts:
    """The counts of the first hand-over of ``game`` from the empty board."""
    counts = store.explorer("quads", position_key(EMPTY, QUADS), filters)
    first = next(key for key, turns in turns_from(EMPTY, QUADS).items()
                 if game.actions[0].piece in [t.give for t in turns])  # type: ignore[attr-defined]
    return counts[first]


def test_a_game_counts_once_when_it_ends(store: GameStore) -> None:
    game = _played_out(1)
    stored = _store_and_end(store, "g1", game, mode="computer", level=3, human=Player.FIRST)
    counts = _first_turn(store, game)
    ending = {"first": (1, 0, 0), "second": (0, 1, 0), "draw": (0, 0, 1)}
    winner = game.outcome.winner if game.outcome else None
    expected = ending["draw" if winner is None else winner.name.lower()]
    assert counts == Counts(1, *expected)
    store.save(stored)  # saved again after its end (a rematch offered, say)
    assert _first_turn(store, game) == counts
    # each of its turns, under the key of the position it was played in
    position = game.start
    for _, _, _, turn in game_turns(game):
        found = store.explorer("quads", position_key(position, QUADS))
        after = position.play(turn)
        assert found[position_key(after, QUADS)].games == 1
        position = after


def test_kinds_of_game_and_filters(store: GameStore) -> None:
    game = _played_out(2)
    _store_and_end(store, "people", game, mode="online", first_player=ADA, second_player=BEA)
    _store_and_end(store, "level2", game, mode="computer", level=2, human=Player.SECOND)
    _store_and_end(store, "level5", game, mode="computer", level=5, human=Player.FIRST)
    _store_and_end(store, "local", game)  # two people on one device: not counted
    assert _first_turn(store, game).games == 3
    assert _first_turn(store, game, Filters(sources=("people",))).games == 1
    assert _first_turn(store, game, Filters(sources=("level-2", "level-5"))).games == 2
    assert _first_turn(store, game, Filters(rated=False)).games == 3
    assert "x" not in store.explorer("quads", "x")
    assert store.explorer("classic", position_key(EMPTY, QUADS)) == {}


def test_aborted_and_unfinished_games_count_nothing(store: GameStore) -> None:
    aborted = Game(QUADS)
    aborted.play(next(EMPTY.legal_turns(QUADS)))
    stored = stored_game("aborted", aborted, mode="online", owner=ADA, first_player=ADA,
                         second_player=BEA)
    store.create(stored)
    stored.game.apply(Abort())
    store.save(stored)
    ongoing = stored_game("ongoing", _played_out(3), mode="computer", level=1,
                          human=Player.FIRST, owner=ADA)
    ongoing.game.undo()
    store.create(ongoing)
    assert store.explorer("quads", position_key(EMPTY, QUADS)) == {}


def test_a_recount_gives_the_same_counts(store: GameStore) -> None:
    for seed in range(6):
        _store_and_end(store, f"g{seed}", _played_out(seed), mode="computer", level=1 + seed % 5,
                       human=Player.FIRST)
    key = position_key(EMPTY, QUADS)
    before = store.explorer("quads", key)
    assert sum(c.games for c in before.values()) == 6
    heard: list[int] = []
    assert store.recount_explorer(heard.append) == 6
    assert store.explorer("quads", key) == before
    assert heard
    assert heard[-1] == 6


def test_a_rated_game_falls_in_its_players_band(store: GameStore) -> None:
    game = _played_out(4)
    _store_and_end(store, "rated", game, mode="online", first_player=ADA, second_player=BEA,
                   rated=True, category="quads-blitz")
    _store_and_end(store, "casual", game, mode="online", first_player=ADA, second_player=BEA)
    assert _first_turn(store, game, Filters(rated=True)).games == 1
    # two new players, both at 1500 before the game: the band from 1400
    assert _first_turn(store, game, Filters(rated=True, bands=(1400, 1400))).games == 1
    assert _first_turn(store, game, Filters(bands=(1400, 2000))).games == 1
    counts = store.explorer("quads", position_key(EMPTY, QUADS), Filters(bands=(1600, 2000)))
    assert counts == {}
    before = store.explorer("quads", position_key(EMPTY, QUADS), Filters(bands=(1400, 1400)))
    store.recount_explorer()
    assert store.explorer("quads", position_key(EMPTY, QUADS),
                          Filters(bands=(1400, 1400))) == before


def _between_levels(number: int) -> tuple[Game, int]:
    """A game between two computer players of levels 1 to 3 (seeded by ``number``), and
    the level counted (the second player's)."""
    first, second = 1 + number % 3, 1 + (number // 3) % 3
    players = {Player.FIRST: make_player(first, number), Player.SECOND: make_player(second, number)}
    game = Game(QUADS)
    while not game.is_over():
        for action in players[game.to_move].actions(game):  # type: ignore[index]
            game.apply(action)
    return game, second


def test_two_hundred_games_between_levels_count_as_their_records_say(
        store: GameStore) -> None:
    """The counts of 200 games between computer levels, stored as they end, are those of
    their records counted afresh: every position of every game, every turn."""
    expected: dict[tuple[str, str, str], list[int]] = {}
    for number in range(200):
        game, level = _between_levels(number)
        record = write_record(game)
        _store_and_end(store, f"g{number:03}", game, mode="computer", level=level,
                       human=Player.FIRST)
        replayed = read_record(record)  # counted from the record, not from the game object
        ending = ending_of(replayed)
        assert ending is not None
        for turn in played_turns(replayed):
            counts = expected.setdefault((turn.position, f"level-{level}", turn.result),
                                         [0, 0, 0, 0])
            counts[0] += 1
            counts[{"first": 1, "second": 2, "draw": 3}[ending]] += 1
    for (position, source, result), (games, first, second, draws) in expected.items():
        found = store.explorer("quads", position, Filters(sources=(source,)))
        assert found[result] == Counts(games, first, second, draws), (position, source, result)
    positions = {position for position, _, _ in expected}
    total = {position: sum(c.games for c in store.explorer("quads", position).values())
             for position in positions}
    assert store.recount_explorer() == 200
    assert {position: sum(c.games for c in store.explorer("quads", position).values())
            for position in positions} == total
