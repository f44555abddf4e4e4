"""One engine session: the options, the game, and the search running beside the input.

:class:`Session` reads the protocol's lines one at a time (:meth:`Session.handle`)
and writes its answers through the ``write`` function it was given.  A ``go``
runs on a thread of its own, so that ``stop``, ``isready`` and ``query`` are
answered while it thinks; every other command waits for the search to end (the
answer is an error line).  A bad line is answered with ``info string error: ...``
and changes nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from quads import __version__
from quads.engine.choice import Limits, Thought, think, warm_up
from quads.engine.protocol import (
    MAX_LINE,
    Go,
    PositionCommand,
    ProtocolError,
    parse_go,
    parse_position,
    parse_setoption,
)
from quads.errors import QuadsError
from quads.game import Claim, Declare, Game, Step
from quads.notation import parse_token
from quads.outcome import Player
from quads.position import EMPTY, Position
from quads.rules import QUADS, Rules
from quads.solver import Progress, StopSignal, Value

__all__ = ["OVERHEAD_MS", "Session"]

OVERHEAD_MS = 15
"""Milliseconds kept back from every time budget for reading, choosing and answering."""
DEFAULT_HASH_MB = 1024
MAX_THREADS = 64
LEVELS = range(1, 6)


class Session:
    """The state of ``quads engine`` between lines."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write_line = write
        self._lock = threading.Lock()
        self.rules: Rules = QUADS
        self.level = 5
        self.hash_mb = DEFAULT_HASH_MB
        self.threads = 1
        self.game = Game(self.rules)
        self.games = 0
        self._search: threading.Thread | None = None
        self._busy = False
        self._warm: set[Rules] = set()
        self._signal = StopSignal()
        self._released = threading.Event()

    # -- output ---------------------------------------------------------------

    def write(self, line: str) -> None:
        """Send one line (whole lines only, from any thread)."""
        with self._lock:
            self._write_line(line)

    def error(self, message: str) -> None:
        """Answer a line that cannot be acted on."""
        self.write(f"info string error: {message}")

    # -- input ----------------------------------------------------------------

    @property
    def searching(self) -> bool:
        """Whether a ``go`` is still thinking (or, for ``go infinite``, waiting for ``stop``)."""
        return self._busy

    def handle(self, line: str) -> bool:
        """Act on one line; ``False`` once the session should end (``quit``)."""
        if len(line) > MAX_LINE:
            self.error(f"line of {len(line)} characters refused (at most {MAX_LINE})")
            return True
        words = line.split()
        if not words:
            return True
        command = words[0]
        try:
            return self._dispatch(command, words)
        except ProtocolError as exc:
            self.error(str(exc))
        except QuadsError as exc:
            self.error(f"{command}: {exc}")
        return True

    def _dispatch(self, command: str, words: list[str]) -> bool:
        if command == "quit":
            self.stop()
            if self._search is not None:
                self._search.join(timeout=5)
            return False
        simple: dict[str, Callable[[list[str]], None]] = {
            "ugi": lambda w: self._hello("ugiok"), "uci": lambda w: self._hello("uciok"),
            "isready": lambda w: self._ready(), "stop": lambda w: self.stop(),
            "query": self._query, "d": lambda w: self._show(),
        }
        if command in simple:
            simple[command](words)
            return True
        busy: dict[str, Callable[[list[str]], None]] = {
            "setoption": self._setoption, "uginewgame": lambda w: self._new_game(),
            "ucinewgame": lambda w: self._new_game(), "position": self._position,
            "go": self._go,
        }
        if command not in busy:
            raise ProtocolError(f"unknown command {command!r}", "unknown_command",
                                command=command[:40])
        if self.searching:
            raise ProtocolError(f"{command}: still searching; send stop first", "busy")
        busy[command](words)
        return True

    def _ready(self) -> None:
        """``readyok`` once the opening book of the rules is read and the kernel set up
        for them (the first ``go`` then loses no time on it); at once while searching."""
        if not self._busy and self.rules not in self._warm:
            warm_up(self.rules)
            self._warm.add(self.rules)
        self.write("readyok")

    def _hello(self, ok: str) -> None:
        self.write(f"id name Quads {__version__}")
        self.write("id author the Quads developers")
        self.write(f"option name Rules type string default {QUADS.name}")
        self.write("option name Level type spin default 5 min 1 max 5")
        self.write(f"option name Hash type spin default {DEFAULT_HASH_MB} min 1 max 4096")
        self.write(f"option name Threads type spin default 1 min 1 max {MAX_THREADS}")
        self.write(ok)

    def _setoption(self, words: list[str]) -> None:
        option = parse_setoption(words)
        name, value = option.name.lower(), option.value
        if name not in ("rules", "level", "hash", "threads"):
            raise ProtocolError(f"setoption: unknown option {option.name!r}", "unknown_option",
                                option=option.name[:40])
        if value is None:
            raise ProtocolError(f"setoption: {option.name} needs a value", "option_value")
        if name == "rules":
            rules = Rules.parse(value)
            self.rules = rules
            self.game = Game(rules)
            return
        limits = {"level": (1, 5), "hash": (1, 4096), "threads": (1, MAX_THREADS)}[name]
        if not value.isdigit() or not limits[0] <= int(value) <= limits[1]:
            raise ProtocolError(f"setoption: {option.name} is a whole number from {limits[0]} "
                                f"to {limits[1]}, not {value!r}", "option_value")
        setattr(self, {"level": "level", "hash": "hash_mb", "threads": "threads"}[name],
                int(value))

    def _new_game(self) -> None:
        self.game = Game(self.rules)
        self.games += 1

    def _position(self, words: list[str]) -> None:
        command = parse_position(words)
        self.game = replay(command, self.rules)  # only once every token played

    def _query(self, words: list[str]) -> None:
        what = words[1] if len(words) == 2 else ""
        outcome = self.game.outcome
        if what == "gameover":
            self.write(f"response {'true' if outcome is not None else 'false'}")
        elif what == "p1turn":
            self.write(f"response {'true' if self.game.to_move is Player.FIRST else 'false'}")
        elif what == "result":
            if outcome is None or outcome.result == "*":
                answer = "none"
            elif outcome.winner is None:
                answer = "draw"
            else:
                answer = "p1win" if outcome.winner is Player.FIRST else "p2win"
            self.write(f"response {answer}")
        else:
            raise ProtocolError("query: expected gameover, p1turn or result", "query")

    def _show(self) -> None:
        self.write(f"info string position {self.game.position.to_string()} rules "
                   f"{self.rules.name} step {self.game.step.name.lower()}")

    # -- searching ------------------------------------------------------------

    def _go(self, words: list[str]) -> None:
        go = parse_go(words)
        if self.game.is_over():
            self.error("go: the game is over")
            self.write("bestmove (none)")
            return
        self._signal = StopSignal()
        self._released = threading.Event()
        if not go.infinite:
            self._released.set()
        game, limits = self.game.copy(), self._limits(go)
        seed = self.games
        self._busy = True
        self._search = threading.Thread(target=self._think, args=(game, limits, seed),
                                        name="quads-engine-search", daemon=True)
        self._search.start()

    def stop(self) -> None:
        """End the running search at once (its ``bestmove`` follows)."""
        self._signal.stop()
        self._released.set()

    def _limits(self, go: Go) -> Limits:
        seconds: float | None = None
        if go.movetime is not None:
            seconds = max(1, go.movetime - OVERHEAD_MS) / 1000
        mover = self.game.to_move
        left = go.p1time if mover is Player.FIRST else go.p2time
        if left is not None and not go.infinite:
            increment = go.p1inc if mover is Player.FIRST else go.p2inc
            turns = max(1, (self.game.position.empty_count + 1) // 2)
            share = min(left / 2, left / turns + increment * 0.8) - OVERHEAD_MS
            budget = max(1.0, share) / 1000
            seconds = budget if seconds is None else min(seconds, budget)
        if go.infinite:
            seconds = None
        return Limits(seconds, None if go.infinite else go.nodes, go.depth, self.threads,
                      self.hash_mb)

    def _think(self, game: Game, limits: Limits, seed: int) -> None:
        started = time.monotonic()

        def report(progress: Progress) -> None:
            millis = max(1, round(progress.seconds * 1000))
            self.write(f"info nodes {progress.nodes} nps {progress.nodes * 1000 // millis} "
                       f"time {millis} string {progress.stage} {progress.done}/{progress.total}")

        try:
            thought = think(game, self.level, limits, self._signal, seed=seed, progress=report)
        except Exception as exc:  # the engine answers whatever happens
            self.error(f"go: {type(exc).__name__}: {exc}")
            self._done("(none)")
            return
        for line in info_lines(thought, game.position.empty_count,
                               time.monotonic() - started):
            self.write(line)
        self._released.wait()
        self._done(thought.token)

    def _done(self, token: str) -> None:
        """Answer ``bestmove``; from then on the session takes new commands."""
        with self._lock:
            self._busy = False
            self._write_line(f"bestmove {token}")


def info_lines(thought: Thought, empties: int, seconds: float) -> list[str]:
    """The ``info`` lines that sum up a search: the figures, with the score as UCI
    writes it (``cp 0`` for a draw, ``mate N`` for a win in N placements, ``mate -N``
    for a loss; none while unknown) and the best line; then, in words, the value, the
    distance and where the answer came from."""
    millis = max(1, round(seconds * 1000))
    parts = ["info", "depth", str(empties)]
    if thought.value is Value.DRAW:
        parts += ["score", "cp", "0"]
    elif thought.value in (Value.WIN, Value.LOSS):
        plies = thought.plies if thought.plies is not None else 0
        parts += ["score", "mate", str(plies if thought.value is Value.WIN else -plies)]
    parts += ["nodes", str(thought.nodes), "nps", str(thought.nodes * 1000 // millis),
              "time", str(millis), "pv", *thought.line]
    words = ["info", "string", "value", thought.value.value]
    if thought.plies is not None:
        words += ["distance", str(thought.plies)]
    words += ["source", thought.source.replace(" ", "-")]
    return [" ".join(parts), " ".join(words)]


def replay(command: PositionCommand, rules: Rules) -> Game:
    """The game that ``position`` describes under ``rules``.

    :raises QuadsError: if the start is malformed or impossible, or a token cannot
        be played (the message names the token).
    """
    start = EMPTY if command.start is None else Position.from_string(command.start)
    game = Game(rules, start)
    for index, token in enumerate(command.moves):
        state = game.state
        if token == "!" and state.step is Step.GIVE and state.declarable:
            game.apply(Declare())  # a declaration after a placement sent alone
            continue
        if token == "!" and state.step is Step.PLACE and state.claimable:
            game.apply(Claim())
            continue
        # a placement may be sent alone as the last token, or before its declaration
        last = index == len(command.moves) - 1 or command.moves[index + 1] == "!"
        for action in parse_token(token, state, rules, last=last):
            game.apply(action)
    return game
