"""Solving and analysing positions: the stages of a solve over the root groups.

A solve runs in stages, each an alpha-beta search over the root groups whose
searches the kernel does (on worker threads, so that the compiled kernel can
use several cores and the caller can get progress reports; a small solve on
one thread with no reports asked runs them on the calling thread):

1. ``value``: win, draw or loss, with the narrowest window (-1, 1);
2. ``distance``: for a win, the fastest one; for a loss, the longest;
3. ``draws`` and ``refine``: for a draw, which turns draw, and among them the
   one that leaves the opponent the fewest non-losing replies.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Sequence, Sized
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from quads.position import Position
from quads.rules import Rules
from quads.solver.kernel import Control, Kernel, load_kernel
from quads.solver.result import Analysis, MoveValue, Progress, Solution
from quads.solver.root import INFINITY, Group, Node, root_groups
from quads.solver.stop import StopSignal
from quads.solver.symmetry import board_symmetries
from quads.solver.value import WIN, Value, value_of
from quads.turn import Turn

__all__ = [
    "REFINE_MAX_EMPTIES", "THREADS_MIN_EMPTIES", "ProgressCallback", "analyse",
    "default_table_mb", "solve",
]

ProgressCallback = Callable[[Progress], None]
_Result = TypeVar("_Result", Solution, Analysis)

TT_MIN = 7
"""The kernel probes its table at nodes with at least this many empty cells."""
CANON_MIN = 10
"""... and keys them by the full canonical form from this many."""
ORDER_MIN = 7
"""... and orders moves by the opponent's choices from this many."""
THREADS_MIN_EMPTIES = 12
"""Positions with fewer empty cells are searched by one thread, whatever was asked: their
whole search takes a few milliseconds to a fifth of a second, which a second thread's
start and hand-offs lengthen as often as they shorten it (a Quads position of 10 empty
cells and 386 nodes took 2.35 ms on two threads against 2.07 on one; one of 11 and 2,699
nodes, 4 to 6 ms against 4).  With no progress reports asked they also run on the calling
thread (see :class:`_Inline`)."""
REPORT_EVERY = 0.5
"""Seconds between progress reports."""
PURE_TABLE_ENTRIES = 1 << 20
"""The pure-Python kernel's default table is no larger than this (it is a Python list)."""
TABLE_MB_PER_SECOND = 8
"""A timed search's default table holds this many MiB a second of budget and thread at
most: a thread searches 5 to 15 million nodes a second, and at 3 s a table of 16 MiB
proves as many turns as one of 1 GiB, or more."""
TABLE_MB_MIN = 2
"""... and never fewer than this."""
ENTRY_BYTES = 16
"""The size of one table entry."""
REFINE_MAX_EMPTIES = 10
"""By default, drawing turns are compared (fewest non-losing replies) only up to this many
empty cells: beyond, the comparison costs far more than the value itself."""


def default_table_mb(empties: int, *, seconds: float | None = None, nodes: int | None = None,
                     threads: int = 1) -> float:
    """The table size used when none is given: small for small solves, 1 GiB at most,
    and no larger than the budget can fill.

    A table much larger than the search needs costs time and gains nothing: its
    memory is touched for the first time during the search, which on one
    virtual machine measured about 3 s a GiB in 2 MiB pages.  So a search
    limited to ``seconds`` gets at most :data:`TABLE_MB_PER_SECOND` a second and
    thread, and one limited to ``nodes`` at most an entry a node;
    :data:`TABLE_MB_MIN` at least.
    """
    size: float = 2 if empties <= 13 else {14: 16, 15: 256}.get(empties, 1024)
    if seconds is not None:
        size = min(size, seconds * max(1, threads) * TABLE_MB_PER_SECOND)
    if nodes is not None:
        size = min(size, nodes * ENTRY_BYTES / (1 << 20))
    return max(TABLE_MB_MIN, size)


def _entries(table_mb: float) -> int:
    """The number of table entries (16 bytes each, a power of two) that fit in ``table_mb``."""
    entries = 4
    while entries * 2 * ENTRY_BYTES <= table_mb * (1 << 20):
        entries *= 2
    return entries


class _Inline(Executor):
    """Runs each search when it is submitted, on the calling thread.

    For the small solves: handing each of their 20 to 60 group searches to a worker
    thread and back cost as much again as the searches themselves (a Quads position
    of 8 empty cells, analysed then solved: 2.8 ms with a worker thread, 1.2 ms
    without).  They take a fraction of a second at most, so the calling thread
    stays free for an interrupt soon enough without a worker.
    """

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the caller, as a worker's would be
            future.set_exception(exc)
        return future


@dataclass(frozen=True, slots=True)
class _Task:
    group: Group
    alpha: int
    beta: int
    control: Control
    threads: int = 1
    """Threads searching the group together (the compiled kernel's shared search)."""


class _Search:
    """The state of one solve or analysis: kernel, budget, thread pool, progress."""

    def __init__(
        self, position: Position, rules: Rules, nodes: int | None, seconds: float | None,
        table_mb: float | None, progress: ProgressCallback | None, threads: int | None,
        pure: bool | None, refine: bool | None = None, distance: bool = True,
        stop: StopSignal | None = None,
    ) -> None:
        position.check(rules)
        if nodes is not None and nodes < 1:
            raise ValueError(f"invalid node budget {nodes!r}: expected a positive number")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"invalid time budget {seconds!r}: expected a positive number")
        if table_mb is not None and not table_mb > 0:
            raise ValueError(f"invalid table size {table_mb!r}: expected a positive number")
        self.position = position
        self.rules = rules
        self.kernel: Kernel = load_kernel(pure)
        if threads is None:
            threads = min(2, os.cpu_count() or 1) if self.kernel.compiled else 1
        self.threads = max(1, threads if self.kernel.compiled else 1)
        if position.empty_count < THREADS_MIN_EMPTIES:
            self.threads = 1  # starting threads would cost more than the whole search
        mb = table_mb if table_mb is not None else default_table_mb(
            position.empty_count, seconds=seconds, nodes=nodes, threads=self.threads)
        entries = _entries(mb)
        if table_mb is None and not self.kernel.compiled:
            entries = min(entries, PURE_TABLE_ENTRIES)
        self.engine = self.kernel.engine(
            rules.shape_masks, rules.traits, board_symmetries(rules.shape_masks), entries,
            TT_MIN, CANON_MIN, ORDER_MIN,
        )
        self.control = self.kernel.control(nodes or 0, seconds or 0.0)
        self.signal = stop
        self.report = progress
        self.refine = position.empty_count <= REFINE_MAX_EMPTIES if refine is None else refine
        self.distance = distance
        self.start = time.monotonic()
        self.last_report = self.start
        self.groups = root_groups(position, rules, self.engine)

    # -- plumbing ------------------------------------------------------------

    def run(self, stage: Callable[[_Search], _Result]) -> _Result:
        """Run ``stage`` (:meth:`solve` or :meth:`analyse`), ended early by the stop signal."""
        if self.signal is None:
            return stage(self)
        self.signal.attach(self.control)
        try:
            return stage(self)
        finally:
            self.signal.detach(self.control)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self.start

    def _progress(self, stage: str, done: int, total: int, force: bool = False) -> None:
        if self.report is None:
            return
        now = time.monotonic()
        if force or now - self.last_report >= REPORT_EVERY:
            self.last_report = now
            self.report(Progress(stage, done, total, self.control.nodes, now - self.start))

    def _run(self, task: _Task) -> int | None:
        """Search one group within the task's window; its fail-soft score, or ``None``."""
        group = task.group
        node = group.node
        assert node is not None
        score = self.engine.search(
            task.control, node.occupied, node.cells, node.hand, node.supply, node.ply,
            -task.beta, -task.alpha, task.threads,
        )
        return None if score is None else -score

    @contextmanager
    def _pool(self) -> Iterator[Executor]:
        pool: Executor
        if self.report is None and self.position.empty_count < THREADS_MIN_EMPTIES:
            pool = _Inline()  # (one thread: fewer empty cells never get more)
        else:
            pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="quads-solver")
        try:
            yield pool
        except BaseException:
            self.control.stop()
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def _share(self, todo: Sized, running: Sized) -> int:
        """Threads for the next of independent searches: all of them for one left alone."""
        return self.threads if not todo and not running else 1

    def _known(self, group: Group, alpha: int, beta: int) -> int | None:
        """The group's score relative to the window when its bounds already tell it."""
        if group.exact is not None:
            return group.exact
        if group.upper <= alpha:
            return group.upper
        if group.lower >= beta:
            return group.lower
        return None

    # -- searches over groups ------------------------------------------------

    def alpha_beta(
        self, groups: Sequence[Group], alpha: int, beta: int, stage: str
    ) -> tuple[int, Group | None] | None:
        """The best score over ``groups`` within ``(alpha, beta)`` (fail-soft), and its group.

        The first group is searched alone by every thread together, the rest by
        the worker threads, one each, with the window as it stands when its
        search starts (a group left alone gets every thread again).  ``None`` if
        the budget ran out.
        """
        best, best_group = -INFINITY, None
        total = len(groups)
        done = 0
        pending = list(enumerate(groups))
        running: dict[Future[int | None], tuple[int, _Task]] = {}

        def accept(index: int, group: Group, score: int) -> None:
            nonlocal best, best_group, alpha
            better = score > best
            if score == best and best_group is not None and group.exact is not None:
                better = index < groups.index(best_group)
            if better:
                best, best_group = score, group
            alpha = max(alpha, score)

        with self._pool() as pool:
            while pending or running:
                limit = 1 if done == 0 else self.threads
                while pending and len(running) < limit and alpha < beta:
                    index, group = pending.pop(0)
                    score = self._known(group, alpha, beta)
                    if score is not None or group.node is None:
                        done += 1
                        accept(index, group, group.lower if score is None else score)
                        continue
                    threads = self.threads if done == 0 else self._share(pending, running)
                    task = _Task(group, alpha, beta, self.kernel.control(parent=self.control),
                                 threads)
                    running[pool.submit(self._run, task)] = (index, task)
                if alpha >= beta:
                    pending.clear()
                    for _, task in running.values():
                        task.control.stop()
                if not running:
                    continue
                finished, _ = wait(running, timeout=REPORT_EVERY, return_when=FIRST_COMPLETED)
                for future in finished:
                    index, task = running.pop(future)
                    score = future.result()
                    if score is None:
                        if self.control.stopped:
                            for _, other in running.values():
                                other.control.stop()
                            wait(running)
                            return None
                        continue  # stopped because a sibling cut off
                    task.group.learn(score, task.alpha, task.beta)
                    done += 1
                    accept(index, task.group, score)
                self._progress(stage, done, total)
        self._progress(stage, done, total, force=True)
        return best, best_group

    def exact_scores(self, groups: Sequence[Group], stage: str) -> bool:
        """Make every group's score exact (sign first, then distance); ``False`` on budget."""
        total = len(groups)
        done = sum(1 for g in groups if g.exact is not None)
        todo = [g for g in groups if g.exact is None]
        running: dict[Future[int | None], _Task] = {}

        def window(group: Group) -> tuple[int, int]:
            if group.lower >= 1:
                return 0, WIN
            if group.upper <= -1:
                return -WIN, 0
            return -1, 1

        with self._pool() as pool:
            while todo or running:
                while todo and len(running) < self.threads:
                    group = todo.pop(0)
                    alpha, beta = window(group)
                    task = _Task(group, alpha, beta, self.control, self._share(todo, running))
                    running[pool.submit(self._run, task)] = task
                finished, _ = wait(running, timeout=REPORT_EVERY, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = running.pop(future)
                    score = future.result()
                    if score is None:
                        wait(running)
                        return False
                    task.group.learn(score, task.alpha, task.beta)
                    if task.group.exact is None:
                        todo.insert(0, task.group)
                    else:
                        done += 1
                self._progress(stage, done, total)
        self._progress(stage, done, total, force=True)
        return True

    # -- solve ---------------------------------------------------------------

    def solve(self) -> Solution:
        groups = self.groups
        if not groups:  # the board is full: the game is over, drawn
            return self._solution(Value.DRAW, None, None, complete=True)
        found = self.alpha_beta(groups, -1, 1, "value")
        if found is None:
            return self._solution(Value.UNKNOWN, None, None, complete=False)
        score, group = found
        assert group is not None
        if (score >= 1 or score <= -1) and not self.distance:
            return self._solution(Value.WIN if score >= 1 else Value.LOSS, None, group.turns[0],
                                  complete=True)
        if score >= 1 or score <= -1:
            return self._distance(groups, group, win=score >= 1)
        return self._draw(groups, group)

    def _distance(self, groups: list[Group], first: Group, *, win: bool) -> Solution:
        value = Value.WIN if win else Value.LOSS
        candidates = [first] + [g for g in groups if g is not first and (g.upper >= 1 or not win)]
        window = (0, WIN) if win else (-WIN, 0)
        found = self.alpha_beta(candidates, *window, "distance")
        if found is None:
            return self._solution(value, None, first.turns[0], complete=False)
        score, group = found
        assert group is not None
        return self._solution(value, value_of(score)[1], group.turns[0], complete=True)

    def _draw(self, groups: list[Group], first: Group) -> Solution:
        if not self.refine:
            return self._solution(Value.DRAW, None, first.turns[0], complete=True)
        open_groups = [g for g in groups if g.upper >= 0 and g.lower < 0 and g is not first]
        for group in open_groups:
            group.upper = min(group.upper, 0)  # nothing beats the draw found
        if not self._signs(open_groups):
            return self._solution(Value.DRAW, None, first.turns[0], complete=False)
        drawing = [g for g in groups if g.lower >= 0]
        if len(drawing) == 1:
            return self._solution(Value.DRAW, None, first.turns[0], complete=True)
        best, complete = self._refine(drawing)
        return self._solution(Value.DRAW, None, best.turns[0], complete=complete)

    def _signs(self, groups: list[Group]) -> bool:
        """Decide draw or loss for groups known not to win; ``False`` on budget."""
        total = len(groups)
        running: dict[Future[int | None], _Task] = {}
        todo = list(groups)
        done = 0
        with self._pool() as pool:
            while todo or running:
                while todo and len(running) < self.threads:
                    group = todo.pop(0)
                    task = _Task(group, -1, 0, self.control, self._share(todo, running))
                    running[pool.submit(self._run, task)] = task
                finished, _ = wait(running, timeout=REPORT_EVERY, return_when=FIRST_COMPLETED)
                for future in finished:
                    task = running.pop(future)
                    score = future.result()
                    if score is None:
                        wait(running)
                        return False
                    task.group.learn(score, -1, 0)
                    done += 1
                self._progress("draws", done, total)
        return True

    def _refine(self, drawing: list[Group]) -> tuple[Group, bool]:
        """Among drawing groups, the one leaving the fewest non-losing replies (first on ties).

        Returns the group and whether the comparison finished within the budget.
        """
        best, best_count = drawing[0], INFINITY
        for done, group in enumerate(drawing):
            count = self._non_losing_replies(group, best_count)
            if count is None:
                return best, False
            if count < best_count:
                best, best_count = group, count
            self._progress("refine", done + 1, len(drawing))
        return best, True

    def _non_losing_replies(self, group: Group, enough: int) -> int | None:
        """How many of the opponent's replies after ``group`` do not lose (counting stops at
        ``enough``); ``None`` if the budget ran out."""
        node = group.node
        assert node is not None
        reply_root = _position_of(node)
        replies = root_groups(reply_root, self.rules, self.engine)
        count = 0
        # A reply loses for the opponent when its score (for them) is negative.
        replies.sort(key=lambda g: (g.node is None and g.lower < 0, g.order))
        for reply in replies:
            if reply.node is not None and reply.exact is None:
                control = self.control
                score = self.engine.search(
                    control, reply.node.occupied, reply.node.cells, reply.node.hand,
                    reply.node.supply, reply.node.ply, 0, 1,
                )
                if score is None:
                    return None
                reply.learn(-score, -1, 0)
            if reply.upper >= 0:
                count += len(reply.turns)
                if count >= enough:
                    return count
        return count

    def _solution(
        self, value: Value, plies: int | None, best: Turn | None, *, complete: bool
    ) -> Solution:
        return Solution(
            self.position, self.rules, value, plies, best, self.control.nodes, self.seconds,
            complete,
        )

    # -- analyse -------------------------------------------------------------

    def analyse(self) -> Analysis:
        groups = self.groups
        complete = self.exact_scores(groups, "turns")
        moves: list[tuple[int, tuple[int, int], MoveValue]] = []
        index = 0
        for group in groups:
            score = group.exact
            for turn in group.turns:
                if score is None:
                    move = MoveValue(turn, Value.UNKNOWN, None)
                    rank = -2 * INFINITY
                else:
                    value, plies = value_of(score)
                    move = MoveValue(turn, value, plies)
                    rank = score
                moves.append((-rank, _turn_order(turn), move))
                index += 1
        moves.sort(key=lambda item: (item[0], item[1]))
        ordered = tuple(move for _, _, move in moves)
        if not ordered:
            value, plies = Value.DRAW, None
        elif not complete:
            value, plies = Value.UNKNOWN, None
        else:
            value, plies = ordered[0].value, ordered[0].plies
        return Analysis(
            self.position, self.rules, value, plies, ordered, self.control.nodes, self.seconds
        )


def _turn_order(turn: Turn) -> tuple[int, int]:
    return (-1 if turn.place is None else turn.place, -1 if turn.give is None else turn.give)


def _position_of(node: Node) -> Position:
    board = {c: node.cells >> (4 * c) & 15 for c in range(16) if node.occupied >> c & 1}
    return Position.from_pieces(board, node.hand)


def solve(
    position: Position,
    rules: Rules,
    *,
    nodes: int | None = None,
    seconds: float | None = None,
    table_mb: float | None = None,
    progress: ProgressCallback | None = None,
    threads: int | None = None,
    pure: bool | None = None,
    refine: bool | None = None,
    distance: bool = True,
    stop: StopSignal | None = None,
) -> Solution:
    """Solve ``position`` under ``rules``: its value for the side to move and a best turn.

    ``nodes`` and ``seconds`` limit the search; when either runs out before
    the value is known the solution's value is :attr:`Value.UNKNOWN` (and
    ``complete`` is ``False``).  ``table_mb`` sets the size of the
    transposition table (by default it grows with the number of empty cells,
    up to 1 GiB, and with the budget: see :func:`default_table_mb`).
    ``progress`` is called from the calling thread about twice a second during
    long solves.  ``threads`` sets the number of search threads
    (by default both cores of a two-core machine for large solves; one for
    positions with fewer than :data:`THREADS_MIN_EMPTIES` empty cells).  They
    search the root's turns side by side, and one turn's position all together:
    over the shared table, each thread proves one side of "win, draw or loss?"
    and puts off the turns another thread is searching.  Values and distances
    are the same as one thread's, but with several threads the best turn may be
    another of equal value.  ``pure=True`` forces the pure-Python kernel (see
    :mod:`quads.solver.kernel`).

    Among drawing turns the best is the one that leaves the opponent the
    fewest non-losing replies.  Comparing them means solving every reply, which
    can cost far more than the value, so by default it is done only for
    positions with at most :data:`REFINE_MAX_EMPTIES` empty cells; beyond that
    the first drawing turn in search order is returned.  ``refine=True`` or
    ``False`` decides explicitly.

    ``distance=False`` stops once the value is known: a win or a loss then
    comes without its distance (``plies`` is ``None``) and with the first turn
    found to reach it, which is much cheaper when only the value matters.

    ``stop`` (a :class:`~quads.solver.stop.StopSignal`) ends the search from
    another thread at once, as when its time runs out.

    :raises InvalidPositionError: if the position is impossible under ``rules``.
    :raises ValueError: if a budget or the table size is not positive.
    :raises RuntimeError: if ``pure=False`` and the compiled kernel is missing.
    """
    return _Search(
        position, rules, nodes, seconds, table_mb, progress, threads, pure, refine, distance,
        stop,
    ).run(_Search.solve)


def analyse(
    position: Position,
    rules: Rules,
    *,
    nodes: int | None = None,
    seconds: float | None = None,
    table_mb: float | None = None,
    progress: ProgressCallback | None = None,
    threads: int | None = None,
    pure: bool | None = None,
    stop: StopSignal | None = None,
) -> Analysis:
    """The value of ``position`` and of every legal turn, best first (see :func:`solve`).

    Each turn's value is from the point of view of the player making it; turns
    left unknown when the budget runs out come last with :attr:`Value.UNKNOWN`,
    and the position's value is then unknown too.  ``stop`` ends it early (see
    :func:`solve`).

    :raises InvalidPositionError: if the position is impossible under ``rules``.
    :raises ValueError: if a budget or the table size is not positive.
    :raises RuntimeError: if ``pure=False`` and the compiled kernel is missing.
    """
    return _Search(
        position, rules, nodes, seconds, table_mb, progress, threads, pure, stop=stop
    ).run(_Search.analyse)
