"""A store replays only what is new in a game it replayed lately (quads.storage.replays),
and every load is still the game as saved: checked on a real SQLite file by two
stores (as two server processes would be) taking turns at changing one game."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from quads import CLASSIC, QUADS, Game, Player
from quads.errors import IllegalActionError
from quads.storage import GameStore, StoredGame
from quads.storage.replays import Replays
from quads.storage.stored import action_text, redo_trail
from storage.store_helpers import facts, stored_game

OPERATIONS = st.lists(st.tuples(st.sampled_from("ab"),
                                st.sampled_from(["act", "act", "act", "undo", "redo", "resign"]),
                                st.integers(0, 200)), max_size=24)


def _change(stored: StoredGame, operation: str, choice: int) -> bool:
    """Change ``stored`` as a request would; ``False`` if the change is not allowed now."""
    game = stored.game
    try:
        if operation == "act":
            legal = game.legal_actions()
            if not legal:
                return False
            game.apply(legal[choice % len(legal)])
        elif operation == "undo":
            game.undo()
        elif operation == "redo":
            game.redo()
        elif not game.is_over():
            game.resign(Player.FIRST if choice % 2 else Player.SECOND)
        else:
            return False
    except IllegalActionError:
        return False
    return True


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS, classic=st.booleans())
def test_every_load_is_the_game_as_saved(tmp_path: Path, operations: list[tuple[str, str, int]],
                                         classic: bool) -> None:
    path = tmp_path / f"replays-{len(list(tmp_path.iterdir()))}.sqlite3"
    stores = {"a": GameStore(path), "b": GameStore(path)}
    try:
        stores["a"].create(stored_game("g", Game(CLASSIC if classic else QUADS)))
        for name, operation, choice in operations:
            stored = stores[name].load("g")
            if not _change(stored, operation, choice):
                continue
            stores[name].save(stored)
            for store in stores.values():
                loaded = store.load("g")
                assert facts(loaded) == facts(stored)
                assert loaded.game.states == stored.game.states
                # the game handed out is the caller's to change: the next load is not
                _change(loaded, "act", choice)
                assert facts(store.load("g")) == facts(stored)
    finally:
        for store in stores.values():
            store.close()


def test_a_record_that_is_no_continuation_is_replayed_from_the_start() -> None:
    replays = Replays()
    game = Game(QUADS)
    for action in game.legal_actions()[:1]:
        game.apply(action)
    texts = [action_text(a) for a in game.actions]
    first = replays.game("g", "quads", game.start.to_string(), "{}", texts, [])
    assert first.actions == game.actions
    # another record under the same id (not one that continues it): replayed afresh
    other = Game(QUADS)
    other.apply(other.legal_actions()[3])
    again = replays.game("g", "quads", other.start.to_string(), "{}",
                         [action_text(a) for a in other.actions], [])
    assert again.actions == other.actions
    # an undone record (a redo trail) is replayed as saved too
    other.undo()
    undone = replays.game("g", "quads", other.start.to_string(), "{}", [],
                          [action_text(a) for a in redo_trail(other)])
    assert undone.actions == ()
    assert redo_trail(undone) == redo_trail(other)


def test_the_games_kept_are_bounded() -> None:
    replays = Replays(kept=3)
    start = Game(QUADS).start.to_string()
    for index in range(10):
        replays.game(f"g{index}", "quads", start, "{}", [], [])
    assert len(replays) == 3
    replays.game("g7", "quads", start, "{}", [], [])  # used again: kept the longest
    replays.game("g10", "quads", start, "{}", [], [])
    assert "g7" in replays._replays
    assert "g8" not in replays._replays
    replays.forget("g9")
    assert len(replays) == 2


def test_an_unplayable_record_is_refused() -> None:
    replays = Replays()
    start = Game(QUADS).start.to_string()
    with pytest.raises(IllegalActionError):
        replays.game("g", "quads", start, "{}", ["place A1"], [])  # no piece in hand
    assert len(replays) == 0


def test_the_games_not_used_for_a_while_are_forgotten() -> None:
    now = [0.0]
    replays = Replays(kept=100, idle=600.0, clock=lambda: now[0])
    start = Game(QUADS).start.to_string()
    for index in range(50):
        replays.game(f"old{index}", "quads", start, "{}", [], [])
    now[0] = 500.0
    replays.game("old7", "quads", start, "{}", [], [])  # used again: kept
    now[0] = 700.0  # the others idled longer than ten minutes
    replays.game("new", "quads", start, "{}", [], [])
    assert set(replays._replays) == {"old7", "new"}
    now[0] = 1200.0
    replays.game("newer", "quads", start, "{}", [], [])
    assert set(replays._replays) == {"new", "newer"}
