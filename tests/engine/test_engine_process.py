"""``quads engine`` as a real process, and engine programs as players of a match."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from quads import Rules
from quads.clock import RealTime
from quads.engine.client import EngineError, EnginePlayer, EngineProcess
from quads.engine.protocol import parse_position
from quads.engine.session import replay
from quads.outcome import Termination
from quads.players import make_player
from quads.players.match import play_game, play_match

QUADS_ENGINE = f"{shlex.quote(sys.executable)} -m quads.cli.main engine"
MISBEHAVING = Path(__file__).with_name("misbehaving_engine.py")


def words(line: str) -> list[str]:
    """A protocol line as the session splits it."""
    return line.split()


def misbehaving(mode: str) -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(MISBEHAVING))} {mode}"


@pytest.fixture
def engine() -> Iterator[EngineProcess]:
    process = EngineProcess(QUADS_ENGINE)
    yield process
    process.close()


def test_the_engine_introduces_itself_and_answers_a_bad_line(engine: EngineProcess) -> None:
    assert engine.name.startswith("Quads ")
    engine.send("go sometimes")
    assert engine.read_until(lambda line: True, 10) == [
        "info string error: go: unknown limit 'sometimes'"]
    engine.ready()


def test_go_infinite_waits_for_stop(engine: EngineProcess) -> None:
    engine.send("position startpos moves 7 A1F")  # the book knows it at once
    engine.send("go infinite")
    with pytest.raises(EngineError) as silent:
        engine.read_until(lambda line: line.startswith("bestmove"), 0.5)
    assert silent.value.reason == "engine_timeout"
    engine.send("stop")
    best = engine.read_until(lambda line: line.startswith("bestmove"), 10)[-1]
    assert best.split()[1][:2] in {f"{c}{r}" for c in "ABCD" for r in "1234"}


def test_quit_ends_the_program(engine: EngineProcess) -> None:
    engine.send("quit")
    assert engine.process.wait(timeout=10) == 0


def test_an_engine_plays_whole_games_against_a_level() -> None:
    player = EnginePlayer(QUADS_ENGINE, movetime=150)
    try:
        result = play_match(lambda seed: make_player(1, seed), lambda seed: player, 2,
                            Rules.parse("classic"))
    finally:
        player.close()
    assert result.games == 2
    assert result.adjudications == []
    assert player.cpu_seconds > 0
    assert len(result.seconds_b) >= 8  # the engine's turns, each timed


def test_an_engine_on_the_clock() -> None:
    player = EnginePlayer(QUADS_ENGINE)
    try:
        game = play_game(player, make_player(2, 1), Rules.parse("quads"),
                         time_control=RealTime(20, 1))
    finally:
        player.close()
    assert game.outcome is not None
    assert "Adjudication" not in game.headers


@pytest.mark.parametrize(("mode", "reason"), [
    ("illegal", "engine_illegal"), ("occupied", "engine_illegal"), ("crash", "engine_exited"),
])
def test_a_misbehaving_engine_loses_the_game(mode: str, reason: str) -> None:
    player = EnginePlayer(misbehaving(mode))
    try:
        game = play_game(player, make_player(1, 0), Rules.parse("quads"))
        again = play_game(make_player(1, 0), player, Rules.parse("quads"))  # started again
    finally:
        player.close()
    for played in (game, again):
        assert played.outcome is not None
        assert played.outcome.termination is Termination.RESIGNATION
        assert "engine 'misbehaving'" in played.headers["Adjudication"]
    first = game.outcome
    assert first is not None
    assert first.winner is not None
    assert first.winner.value == 1  # the engine handed over first and lost
    taken = replay(parse_position(words("position startpos moves 5 A16")), Rules.parse("quads"))
    with pytest.raises(EngineError) as caught:
        player.timed_actions(taken, None)  # A1 is taken
    assert caught.value.reason == reason
    player.close()


def test_a_silent_engine_loses_on_time() -> None:
    player = EnginePlayer(misbehaving("silent"))
    try:
        game = play_game(player, make_player(1, 0), Rules.parse("quads"),
                         time_control=RealTime(1, 0))
    finally:
        player.close()
    assert game.outcome is not None
    assert game.outcome.termination is Termination.TIME
    assert "said nothing" in game.headers["Adjudication"]


def test_the_match_command_runs_an_engine() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "quads.cli.main", "match", "1", f"engine:{QUADS_ENGINE}",
         "--games", "2", "--movetime", "100", "--rules", "classic", "--json"],
        capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 2
    assert data["a"] == "beginner"
    assert data["b"].startswith("Quads ")
    assert data["engine_cpu_seconds_a"] is None
    assert data["engine_cpu_seconds_b"] > 0
    assert data["adjudications"] == []


def test_the_match_command_refuses_an_empty_engine() -> None:
    result = subprocess.run([sys.executable, "-m", "quads.cli.main", "match", "1", "engine:"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "engine: needs the command" in result.stderr


def test_the_match_command_names_an_engine_that_does_not_start() -> None:
    result = subprocess.run([sys.executable, "-m", "quads.cli.main", "match", "1",
                             "engine:/nonexistent/engine --fast"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "cannot start engine '/nonexistent/engine --fast'" in result.stderr
