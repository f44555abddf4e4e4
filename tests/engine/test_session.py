"""The engine protocol, line by line, through :class:`quads.engine.Session` in this process."""

from __future__ import annotations

import threading
import time

import pytest

from quads import Game, Position, Rules
from quads.engine import Session
from quads.engine.choice import token_of
from quads.engine.protocol import Go, ProtocolError, parse_go, parse_position, parse_setoption
from quads.engine.session import replay
from quads.errors import QuadsError
from quads.notation import parse_token
from quads.outcome import Player
from quads.players import make_player
from quads.solver import Value, solve


def words(line: str) -> list[str]:
    """A protocol line as the session splits it."""
    return line.split()


class Lines:
    """A session with its answers collected, read as they come."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.arrived = threading.Condition()
        self.session = Session(self._write)

    def _write(self, line: str) -> None:
        with self.arrived:
            self.lines.append(line)
            self.arrived.notify_all()

    def send(self, *lines: str) -> list[str]:
        """Send ``lines``; the answers written while they were handled."""
        before = len(self.lines)
        for line in lines:
            assert self.session.handle(line)
        return self.lines[before:]

    def wait_for(self, prefix: str, seconds: float = 60, since: int | None = None) -> str:
        """The first line that starts with ``prefix``, from line ``since`` (by default
        from now) on; searches run on a thread."""
        deadline = time.monotonic() + seconds
        seen = len(self.lines) if since is None else since
        with self.arrived:
            while True:
                for line in self.lines[seen:]:
                    if line.startswith(prefix):
                        return line
                seen = len(self.lines)
                left = deadline - time.monotonic()
                assert left > 0, f"no {prefix!r} line in {seconds} s: {self.lines}"
                self.arrived.wait(left)

    def go(self, *lines: str) -> tuple[list[str], str]:
        """Send ``lines`` (the last a ``go``); the info lines and the token of ``bestmove``."""
        start = len(self.lines)
        self.send(*lines)
        best = self.wait_for("bestmove", since=start)
        answered = self.lines[start:]
        return [line for line in answered if line.startswith("info")], best.split()[1]


@pytest.fixture
def engine() -> Lines:
    return Lines()


# ---- reading lines ---------------------------------------------------------------------


def test_go_reads_every_limit_and_ucis_names() -> None:
    assert parse_go(words("go movetime 100 nodes 5 depth 9")) == Go(movetime=100, nodes=5,
                                                                      depth=9)
    assert parse_go(words("go wtime 1000 btime 2000 winc 10 binc 20 infinite")) == Go(
        p1time=1000, p2time=2000, p1inc=10, p2inc=20, infinite=True)


@pytest.mark.parametrize(("line", "reason"), [
    ("go movetime", "go_number"), ("go movetime -5", "go_number"), ("go movetime 0", "go_range"),
    ("go depth 17", "go_range"), ("go sometime 5", "go_word"),
    ("go nodes 5 nodes 6", "go_twice"), ("go movetime 1e3", "go_number"),
])
def test_go_refuses_a_bad_limit(line: str, reason: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_go(line.split())
    assert caught.value.reason == reason


def test_position_and_setoption_take_words_as_given() -> None:
    command = parse_position(words("position 0.../..../..../.... 1 moves A2F"))
    assert (command.start, command.moves) == ("0.../..../..../.... 1", ("A2F",))
    assert parse_position(words("position startpos")).start is None
    option = parse_setoption(words("setoption name Rules value lines:color,height:auto"))
    assert (option.name, option.value) == ("Rules", "lines:color,height:auto")
    with pytest.raises(ProtocolError):
        parse_position(["position"])
    with pytest.raises(ProtocolError):
        parse_setoption(words("setoption value 3"))


def test_replay_plays_tokens_with_claims_and_declarations() -> None:
    rules = Rules.parse("advanced")
    # 0, 1, 2, 3 share two traits: D1 completes row 1 for the first player
    declared = replay(parse_position(words("position startpos moves 0 A11 B12 C13 D1!")),
                      rules)
    assert declared.outcome is not None
    assert declared.outcome.winner is Player.FIRST
    # the placement sent alone, then its declaration as "!"
    apart = replay(parse_position(words("position startpos moves 0 A11 B12 C13 D1 !")), rules)
    assert apart.outcome == declared.outcome
    # missed (D1?4), then claimed by the other player ("!" before placing)
    claimed = replay(parse_position(words("position startpos moves 0 A11 B12 C13 D1?4 !")),
                     rules)
    assert claimed.outcome is not None
    assert claimed.outcome.winner is Player.SECOND
    with pytest.raises(QuadsError, match="D2"):
        replay(parse_position(words("position startpos moves 0 A11 B12 C13 D2?4")), rules)


# ---- the session -----------------------------------------------------------------------


def test_the_handshake_lists_the_options(engine: Lines) -> None:
    answer = engine.send("ugi")
    assert answer[0].startswith("id name Quads")
    assert answer[-1] == "ugiok"
    names = [line.split()[2] for line in answer if line.startswith("option")]
    assert names == ["Rules", "Level", "Hash", "Threads"]
    assert engine.send("isready") == ["readyok"]
    assert engine.send("uci")[-1] == "uciok"


@pytest.mark.parametrize("line", [
    "bogus", "setoption name Colour value red", "setoption name Level value 6",
    "setoption name Threads value 0", "setoption name Rules value hexagons",
    "setoption name Hash", "position startpos moves Z9", "position startpos moves 0 A10 A11",
    "position ..../..../..../.... 10", "query nothing", "go movetime x", "x" * 5000,
])
def test_a_bad_line_is_answered_and_changes_nothing(engine: Lines, line: str) -> None:
    engine.send("setoption name Rules value classic", "position startpos moves 3 B2C")
    before = (engine.session.rules, engine.session.game.position, engine.session.level)
    answer = engine.send(line)
    assert len(answer) == 1
    assert answer[0].startswith("info string error: ")
    assert (engine.session.rules, engine.session.game.position, engine.session.level) == before
    assert engine.send("isready") == ["readyok"]  # and it goes on


def test_queries_follow_the_game(engine: Lines) -> None:
    assert engine.send("query gameover", "query p1turn", "query result") == [
        "response false", "response true", "response none"]
    engine.send("position startpos moves 0")
    assert engine.send("query p1turn") == ["response false"]
    # 0, 1, 2, 3 share two traits: the first player completes row 1 and declares
    engine.send("position startpos moves 0 A11 B12 C13 D1!")
    assert engine.send("query gameover", "query result") == ["response true", "response p1win"]
    info, best = engine.go("go movetime 50")  # no more turns
    assert best == "(none)"
    assert info == ["info string error: go: the game is over"]


def test_a_won_position_is_played_out_with_its_distance(engine: Lines) -> None:
    start = "0.../1.../2.../.... 3"
    info, best = engine.go(f"position {start}", "go movetime 2000")
    assert best == "A4!"
    summary = next(line for line in info if " score " in line)
    assert " score mate 1 " in summary
    assert summary.endswith("pv A4!")
    assert any(line.startswith("info string value win distance 1 source ") for line in info)


def test_level_five_plays_the_solvers_value(engine: Lines) -> None:
    position = Position.from_string("..E./C..9/0.3./.5.. 7")
    rules = Rules.parse("quads")
    expected = solve(position, rules, threads=1)
    info, best = engine.go(f"position {position.to_string()}", "go nodes 50000000")
    game = Game(rules, position)
    for action in parse_token(best, game.state, rules, last=True):
        game.apply(action)
    after = solve(game.position, rules, threads=1) if not game.is_over() else None
    if expected.value is Value.WIN:
        assert game.is_over() or (after is not None and after.value is Value.LOSS)
    elif expected.value is Value.DRAW:
        assert after is not None
        assert after.value is Value.DRAW
    words = next(line for line in info if line.startswith("info string value"))
    assert words.split()[3] == expected.value.value


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_lower_levels_play_as_the_apps_computer_does(engine: Lines, level: int) -> None:
    moves = ["5", "B2A", "C3E", "A4C"]
    engine.send(f"setoption name Level value {level}", "uginewgame",
                f"position startpos moves {' '.join(moves)}")
    info, best = engine.go("go movetime 100")
    game = replay(parse_position(["position", "startpos", "moves", *moves]), Rules.parse("quads"))
    expected = make_player(level, engine.session.games).actions(game)
    assert best == token_of(game, expected)
    assert info[-1] == f"info string value unknown source level-{level}"


def test_commands_that_change_the_game_wait_for_the_search(engine: Lines) -> None:
    engine.send("position startpos moves 0 A11", "go infinite")
    answer = engine.send("position startpos", "setoption name Level value 2", "go movetime 5")
    assert all(line.startswith("info string error:") and "stop first" in line
               for line in answer)
    assert engine.send("isready", "query p1turn") == ["readyok", "response true"]
    assert not any(line.startswith("bestmove") for line in engine.lines)  # infinite: it waits
    engine.send("stop")
    best = engine.wait_for("bestmove")
    assert best != "bestmove (none)"
    assert engine.session.level == 5


def test_stop_ends_a_long_search_with_a_legal_turn(engine: Lines) -> None:
    # Classic with three pieces down is far past the book and seconds of search away.
    engine.send("setoption name Rules value classic",
                "position 0.../.5../..A./.... 3", "go infinite")
    time.sleep(0.3)
    assert engine.session.searching
    engine.send("stop")
    token = engine.wait_for("bestmove").split()[1]
    game = Game(Rules.parse("classic"), Position.from_string("0.../.5../..A./.... 3"))
    for action in parse_token(token, game.state, game.rules, last=True):
        game.apply(action)  # legal
    assert not engine.session.searching


def test_a_clock_limits_the_search(engine: Lines) -> None:
    engine.send("setoption name Rules value classic", "position 0.../.5../..A./.... 3")
    limits = engine.session._limits(parse_go(words("go p1time 1000 p2time 60000 p1inc 100")))
    assert engine.session.game.to_move is Player.FIRST  # three placed: the first player's turn
    assert limits.seconds is not None
    # the first player's 1 s for some seven turns of its own, plus most of the increment
    assert 0.1 < limits.seconds < 0.5
    unlimited = engine.session._limits(parse_go(words("go infinite")))
    assert unlimited.seconds is None
    assert unlimited.nodes is None


def test_quit_ends_the_session(engine: Lines) -> None:
    engine.send("position startpos moves 0 A11", "go infinite")
    assert engine.session.handle("quit") is False
    assert engine.lines[-1].startswith("bestmove")
