"""The lobby's seeks in the store, on SQLite and PostgreSQL: a seek is taken once,
pairing meets the oldest compatible seek, and seeks go with their players."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from quads.game import Game
from quads.rules import Rules
from quads.site.lobby import pairing
from quads.storage import GameStore, StoredGame
from quads.storage.lobby import Lobby, OwnSeekError, Seek, SeekGoneError, TooManySeeksError
from quads.storage.stored import now

A, B, C = "a" * 64, "b" * 64, "c" * 64


def game_of(acceptor: str) -> object:
    def make(seek: Seek) -> StoredGame:
        moment = now()
        return StoredGame(id=f"g-{seek.id}-{acceptor[:4]}", mode="online", level=None,
                          human=None, seed=1, game=Game(Rules.parse(seek.rules)),
                          created=moment, updated=moment, owner=seek.player,
                          first_player=seek.player, second_player=acceptor)
    return make


@pytest.fixture
def lobby(store_location: str | Path) -> Lobby:
    return Lobby(GameStore(store_location))


def test_a_seek_is_listed_taken_once_and_never_by_its_own_player(lobby: Lobby) -> None:
    seek = lobby.add(A, "Ada", "quads", "180+2", "first", most=3)
    assert [s.id for s in lobby.seeks()] == [seek.id]
    with pytest.raises(OwnSeekError):
        lobby.take(seek.id, A, game_of(A))  # type: ignore[arg-type]
    paired = lobby.take(seek.id, B, game_of(B))  # type: ignore[arg-type]
    assert paired.seek == seek
    stored = lobby.store.load(paired.game.id)
    assert (stored.first_player, stored.second_player) == (A, B)
    with pytest.raises(SeekGoneError):
        lobby.take(seek.id, C, game_of(C))  # type: ignore[arg-type]
    assert lobby.seeks() == []


def test_taking_a_seek_withdraws_every_other_seek_of_both_players(lobby: Lobby) -> None:
    first = lobby.add(A, "Ada", "quads", "180+2", "random", most=3)
    other = lobby.add(A, "Ada", "classic", "3d", "random", most=3)
    own = lobby.add(B, "Ben", "advanced", "60+0", "second", most=3)
    kept = lobby.add(C, "Cy", "quads", "180+2", "random", most=3)
    paired = lobby.take(first.id, B, game_of(B))  # type: ignore[arg-type]
    assert set(paired.dropped) == {first.id, other.id, own.id}
    assert [s.id for s in lobby.seeks()] == [kept.id]


def test_a_player_has_a_few_seeks_at_most_and_withdraws_only_their_own(lobby: Lobby) -> None:
    seeks = [lobby.add(A, "Ada", "quads", f"{60 + i}+0", "random", most=2) for i in range(2)]
    with pytest.raises(TooManySeeksError):
        lobby.add(A, "Ada", "quads", "90+0", "random", most=2)
    assert not lobby.cancel(seeks[0].id, B)
    assert lobby.cancel(seeks[0].id, A)
    assert not lobby.cancel(seeks[0].id, A)
    assert lobby.drop_player(A) == [seeks[1].id]


def meets(player: str) -> dict[str, Any]:
    """Quick pairing as the site chooses (:mod:`quads.site.lobby.pairing`)."""
    return {"choose": lambda seeks: pairing.choose(player, seeks),
            "candidates": pairing.CANDIDATES}


def test_pairing_meets_the_oldest_compatible_seek_of_someone_else(lobby: Lobby) -> None:
    other_clock = lobby.add(B, "Ben", "quads", "300+3", "random", most=3)
    oldest = lobby.add(B, "Ben", "quads", "180+2", "random", most=3)
    lobby.add(C, "Cy", "quads", "180+2", "random", most=3)
    mine = lobby.pair(A, "Ada", "quads", "180+2", game_of(A), most=3,  # type: ignore[arg-type]
                      **meets(A))
    assert not isinstance(mine, Seek)
    assert mine.seek.id == oldest.id
    assert other_clock.id in mine.dropped  # Ben's other seek went with his game
    waiting = lobby.pair(A, "Ada", "classic", "3d", game_of(A), most=3,  # type: ignore[arg-type]
                      **meets(A))
    assert isinstance(waiting, Seek)
    assert waiting.side == "random"
    again = lobby.pair(A, "Ada", "classic", "3d", game_of(A), most=3,  # type: ignore[arg-type]
                      **meets(A))
    assert isinstance(again, Seek)  # never paired with oneself


def test_seeks_of_players_without_a_socket_go(lobby: Lobby) -> None:
    gone = lobby.add(A, "Ada", "quads", "180+2", "random", most=3)
    kept = lobby.add(B, "Ben", "quads", "180+2", "random", most=3)
    lobby.keep({B})
    cut = now() - timedelta(microseconds=1)
    lobby.keep({B})
    assert lobby.drop_unseen(cut) == [gone.id]
    assert [s.id for s in lobby.seeks()] == [kept.id]


def test_a_name_is_made_once_and_renaming_shows_in_open_seeks(lobby: Lobby) -> None:
    made = iter(["Quiet Heron", "Other"])
    assert lobby.name(A, lambda: next(made)) == "Quiet Heron"
    assert lobby.name(A, lambda: next(made)) == "Quiet Heron"
    seek = lobby.add(A, "Quiet Heron", "quads", "180+2", "random", most=3)
    assert lobby.rename(A, "Ada") == "Ada"
    assert lobby.seek(seek.id) == Seek(**{**seek.__dict__, "name": "Ada"})


def test_twenty_accepts_of_one_seek_start_one_game(lobby: Lobby) -> None:
    seek = lobby.add(A, "Ada", "quads", "180+2", "random", most=3)
    players = [f"{i:064x}" for i in range(1, 21)]
    started: list[str] = []
    refused: list[str] = []
    barrier = threading.Barrier(len(players))

    def accept(player: str) -> None:
        barrier.wait()
        try:
            started.append(lobby.take(seek.id, player, game_of(player)).game.id)  # type: ignore[arg-type]
        except SeekGoneError:
            refused.append(player)

    threads = [threading.Thread(target=accept, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(started) == 1
    assert len(refused) == 19
    assert [s.id for s in lobby.store.summaries(player=A)] == started
