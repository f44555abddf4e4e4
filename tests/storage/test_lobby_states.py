"""The lobby as a state machine (hypothesis): any sequence of seeks opened, withdrawn,
accepted, paired and players leaving keeps the store equal to a plain model, never
starts two games from one seek, and never leaves a player more seeks than allowed."""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from quads.game import Game
from quads.rules import Rules
from quads.site.lobby import pairing
from quads.storage import GameStore, StoredGame
from quads.storage.lobby import (
    Lobby,
    OwnSeekError,
    Paired,
    Seek,
    SeekGoneError,
    TooManySeeksError,
)
from quads.storage.stored import now

PLAYERS = [f"{n:064x}" for n in range(1, 5)]
CLOCKS = ["60+0", "180+2", "3d"]
MOST = 2


def make(acceptor: str) -> object:
    def game(seek: Seek) -> StoredGame:
        moment = now()
        return StoredGame(id=f"{seek.id}-game", mode="online", level=None, human=None, seed=0,
                          game=Game(Rules.parse(seek.rules)), created=moment, updated=moment,
                          owner=seek.player, first_player=seek.player, second_player=acceptor)
    return game


class LobbyMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.directory = TemporaryDirectory()
        self.lobby = Lobby(GameStore(Path(self.directory.name) / "lobby.sqlite3"))
        self.model: dict[str, tuple[str, str]] = {}
        """Open seeks: id -> (player, clock)."""
        self.started: dict[str, str] = {}
        """Seek id -> the game it started."""

    def teardown(self) -> None:
        self.lobby.store.close()
        self.directory.cleanup()

    def _taken(self, paired: Paired, acceptor: str) -> None:
        assert paired.seek.id not in self.started
        self.started[paired.seek.id] = paired.game.id
        gone = {i for i, (p, _) in self.model.items() if p in (paired.seek.player, acceptor)}
        assert set(paired.dropped) == gone | {paired.seek.id}
        for seek_id in gone | {paired.seek.id}:
            self.model.pop(seek_id, None)

    @rule(player=st.sampled_from(PLAYERS), clock=st.sampled_from(CLOCKS))
    def open(self, player: str, clock: str) -> None:
        mine = sum(1 for p, _ in self.model.values() if p == player)
        try:
            seek = self.lobby.add(player, "name", "quads", clock, "random", most=MOST)
        except TooManySeeksError:
            assert mine >= MOST
            return
        assert mine < MOST
        self.model[seek.id] = (player, clock)

    @precondition(lambda self: bool(self.model))
    @rule(data=st.data(), player=st.sampled_from(PLAYERS))
    def accept(self, data: st.DataObject, player: str) -> None:
        seek_id = data.draw(st.sampled_from(list(self.model)))
        owner, _ = self.model[seek_id]
        try:
            paired = self.lobby.take(seek_id, player, make(player))  # type: ignore[arg-type]
        except OwnSeekError:
            assert owner == player
            return
        assert owner != player
        self._taken(paired, player)

    @rule(player=st.sampled_from(PLAYERS), clock=st.sampled_from(CLOCKS))
    def pair(self, player: str, clock: str) -> None:
        others = sorted((i for i, (p, c) in self.model.items() if p != player and c == clock),
                        key=lambda i: (self.lobby.seek(i).created, i))  # type: ignore[union-attr]
        mine = sum(1 for p, _ in self.model.values() if p == player)
        try:
            met = self.lobby.pair(player, "name", "quads", clock, make(player),  # type: ignore[arg-type]
                                  most=MOST, candidates=pairing.CANDIDATES,
                                  choose=lambda seeks: pairing.choose(player, seeks))
        except TooManySeeksError:
            assert not others
            assert mine >= MOST
            return
        if isinstance(met, Seek):
            assert not others
            self.model[met.id] = (player, clock)
        else:
            assert met.seek.id == others[0]
            self._taken(met, player)

    @precondition(lambda self: bool(self.model))
    @rule(data=st.data(), player=st.sampled_from(PLAYERS))
    def withdraw(self, data: st.DataObject, player: str) -> None:
        seek_id = data.draw(st.sampled_from(list(self.model)))
        done = self.lobby.cancel(seek_id, player)
        assert done == (self.model[seek_id][0] == player)
        if done:
            del self.model[seek_id]

    @rule(player=st.sampled_from(PLAYERS))
    def leave(self, player: str) -> None:
        dropped = self.lobby.drop_player(player)
        assert set(dropped) == {i for i, (p, _) in self.model.items() if p == player}
        for seek_id in dropped:
            del self.model[seek_id]

    @precondition(lambda self: bool(self.started))
    @rule(data=st.data(), player=st.sampled_from(PLAYERS))
    def accept_again(self, data: st.DataObject, player: str) -> None:
        seek_id = data.draw(st.sampled_from(list(self.started)))
        try:
            self.lobby.take(seek_id, player, make(player))  # type: ignore[arg-type]
        except SeekGoneError:
            return
        raise AssertionError("a seek was taken twice")

    @invariant()
    def store_equals_model(self) -> None:
        stored = {s.id: (s.player, s.clock) for s in self.lobby.seeks()}
        assert stored == self.model
        for player in PLAYERS:
            assert sum(1 for p, _ in stored.values() if p == player) <= MOST
        games = {s.id for s in self.lobby.store.summaries()}
        assert games == set(self.started.values())


TestLobbyStates = LobbyMachine.TestCase
TestLobbyStates.settings = settings(max_examples=40, stateful_step_count=25, deadline=None)
