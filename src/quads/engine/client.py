"""Another program that speaks the engine protocol, as a Quads player.

:class:`EngineProcess` starts the program and talks to it line by line, never
waiting longer than it was told; :class:`EnginePlayer` makes it a
:class:`~quads.players.base.ComputerPlayer` for matches: each turn it sends the
game so far (``position ... moves ...``) and a ``go`` with the clocks, reads the
``bestmove`` and checks it against the rules.  An engine that answers with an
illegal or unreadable turn, or not at all, raises :class:`EngineError` (the match
adjudicates it as a loss).
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time

from quads.engine.protocol import PositionCommand
from quads.engine.session import replay
from quads.errors import QuadsError
from quads.game import Action, Game
from quads.notation import write_tokens
from quads.players.base import Clocks, ComputerPlayer, PlayerError
from quads.position import EMPTY
from quads.rules import Rules
from quads.turn import Turn

__all__ = ["EngineError", "EnginePlayer", "EngineProcess"]

START_SECONDS = 10.0
"""How long a program has to start and answer ``ugi`` and ``isready``."""
GRACE_SECONDS = 1.0
"""How long past its time an engine's answer is still awaited (pipes, scheduling)."""


class EngineError(PlayerError):
    """The engine broke the protocol: it crashed, said nothing in time, or played
    an illegal turn.  ``reason`` is ``engine_exited``, ``engine_timeout`` or
    ``engine_illegal``."""


class EngineProcess:
    """A running engine program, read on a thread of its own."""

    def __init__(self, command: str, *, start_seconds: float = START_SECONDS) -> None:
        self.command = command
        args = shlex.split(command)
        if not args:
            raise EngineError("an engine needs a command to run", "engine_command")
        try:
            self.process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as exc:
            raise EngineError(f"cannot start engine {command!r}: {exc}", "engine_exited",
                              command=command) from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.ended = False
        """Whether the program's output has ended (it exited or closed it)."""
        threading.Thread(target=self._read, name="quads-engine-reader", daemon=True).start()
        self.name = command
        self.send("ugi")
        for line in self.read_until(lambda line: line == "ugiok", start_seconds):
            if line.startswith("id name "):
                self.name = line[len("id name "):]
        self.ready(start_seconds)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.ended = True
        self.lines.put(None)

    def send(self, line: str) -> None:
        """Send one line (an engine that has gone raises :class:`EngineError`)."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f"engine {self.name!r} has exited", "engine_exited") from None

    def read_until(self, done: object, seconds: float) -> list[str]:
        """The lines read until ``done(line)`` is true (that line last), within ``seconds``.

        :raises EngineError: if the engine exits or the time runs out first.
        """
        assert callable(done)
        deadline = time.monotonic() + seconds
        seen: list[str] = []
        while True:
            left = deadline - time.monotonic()
            try:
                line = self.lines.get(timeout=max(0.0, left))
            except queue.Empty:
                raise EngineError(f"engine {self.name!r} said nothing in {seconds:.3g} s",
                                  "engine_timeout") from None
            if line is None:
                self.lines.put(None)
                raise EngineError(f"engine {self.name!r} has exited", "engine_exited")
            seen.append(line)
            if done(line):
                return seen

    def ready(self, seconds: float = START_SECONDS) -> None:
        """``isready``, and wait for ``readyok``."""
        self.send("isready")
        self.read_until(lambda line: line == "readyok", seconds)

    def cpu_seconds(self) -> float | None:
        """The engine's CPU time so far (user and system), where the system says it."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def close(self) -> None:
        """``quit``, then end the program if it lingers."""
        if self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


class EnginePlayer(ComputerPlayer):
    """An engine program as a player: one process for all its games.

    ``movetime`` (milliseconds) is what each turn may take when the game has no
    clock.  :attr:`cpu_seconds` and :attr:`wall_seconds` add up what it used.
    """

    level = 0
    name = "engine"

    def __init__(self, command: str, *, movetime: int = 1000,
                 options: dict[str, str] | None = None) -> None:
        super().__init__(0)
        self.command = command
        self.movetime = movetime
        self.options = dict(options or {})
        self.process: EngineProcess | None = None
        self.rules: Rules | None = None
        self.cpu_seconds = 0.0
        self.last_cpu: float | None = None

    @property
    def engine_name(self) -> str:
        """The name the engine gave in ``id name`` (its command before it started)."""
        return self.process.name if self.process is not None else self.command

    def choose_turn(self, position: object, rules: Rules) -> Turn:
        raise NotImplementedError("an engine plays whole games: use actions(game)")

    def _engine(self, rules: Rules) -> EngineProcess:
        if self.process is None or self.process.ended or self.process.process.poll() is not None:
            if self.process is not None:
                self.process.close()
            self.process = EngineProcess(self.command)
            self.rules = None
        if self.rules != rules:
            self.process.send(f"setoption name Rules value {rules.name}")
            for name, value in self.options.items():
                self.process.send(f"setoption name {name} value {value}")
            self.rules = rules
        return self.process

    def start(self, rules: Rules) -> None:
        """Start the program now, so that a wrong command fails before any game.

        :raises EngineError: if it does not start or answer the handshake.
        """
        self._engine(rules)

    def new_game(self, rules: Rules) -> None:
        """``uginewgame`` before a game."""
        engine = self._engine(rules)
        engine.send("uginewgame")
        engine.ready()

    def actions(self, game: Game) -> list[Action]:
        """The engine's turn in ``game`` with :attr:`movetime` to think."""
        return self.timed_actions(game, None)

    def timed_actions(self, game: Game, clocks: Clocks | None) -> list[Action]:
        """Ask the engine for its turn in ``game``; the actions it stands for.

        :raises EngineError: if the engine exits, does not answer within its time
            (its clock, or :attr:`movetime`) plus :data:`GRACE_SECONDS`, or answers
            with a turn that cannot be played.
        """
        engine = self._engine(game.rules)
        tokens = write_tokens(tuple(game.states), tuple(game.actions))
        start = "startpos" if game.start == EMPTY else game.start.to_string()
        engine.send(f"position {start}" + (f" moves {' '.join(tokens)}" if tokens else ""))
        if clocks is None:
            engine.send(f"go movetime {self.movetime}")
            allowed = self.movetime / 1000
        else:
            engine.send(f"go p1time {clocks.p1time} p2time {clocks.p2time} "
                        f"p1inc {clocks.p1inc} p2inc {clocks.p2inc}")
            assert game.to_move is not None
            allowed = clocks.left(game.to_move) / 1000
        before = engine.cpu_seconds()
        try:
            lines = engine.read_until(lambda line: line.startswith("bestmove"),
                                      allowed + GRACE_SECONDS)
        finally:
            after = engine.cpu_seconds()
            if before is not None and after is not None:
                self.cpu_seconds += after - before
        token = lines[-1].split()[1] if len(lines[-1].split()) > 1 else ""
        return self._actions_of(game, tokens, token)

    def _actions_of(self, game: Game, tokens: list[str], token: str) -> list[Action]:
        """The actions ``token`` stands for after ``tokens``, the game so far."""
        try:
            played = replay(PositionCommand(game.start.to_string(), (*tokens, token)),
                            game.rules)
        except QuadsError as exc:
            raise EngineError(f"engine {self.engine_name!r} played {token!r}: {exc}",
                              "engine_illegal", token=token[:20]) from None
        actions = list(played.actions[len(game.actions):])
        if not actions or (played.to_move is game.to_move and not played.is_over()):
            raise EngineError(f"engine {self.engine_name!r} played {token!r}, which is not "
                              "a whole turn", "engine_illegal", token=token[:20])
        return actions

    def close(self) -> None:
        """End the engine program."""
        if self.process is not None:
            self.process.close()
            self.process = None
