"""Building a book: solve every position it holds, in parallel, resumably.

The positions (:func:`~quads.book.positions.positions_to_solve`) are cut into
batches.  Each batch is solved by one worker with a transposition table of its
own, kept between batches, and its scores are appended to a *journal* next to
the book (``FILE.journal``) as soon as they are known.  A build that is
stopped, for any reason, continues from its journal when it is started again:
nothing is solved twice.  Once every score is known the book is written and
the journal removed.

A build too long for one machine's sitting can be carried to another:
:func:`pack_journal` writes the scores solved so far as a *partial book*
(``FILE.partial``: the book format, checked on reading like any book, with a
header naming the game and ``min_empty``), some fifteen times smaller than the
journal.  A build started where ``FILE.partial`` lies takes its scores as solved.

Workers are local processes by default, or the workers of a Dask distributed
cluster (``scheduler``): the same batches, the same function, the same book.
Every score is exact, so the book's bytes do not depend on who solved what,
or in which order.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quads.book.format import BookError, BookHeader, read_book, write_book
from quads.book.positions import BookNode, game_name, positions_to_solve
from quads.rules import Rules
from quads.solver.kernel import Engine, load_kernel
from quads.solver.search import CANON_MIN, ORDER_MIN, TT_MIN
from quads.solver.symmetry import board_symmetries
from quads.solver.value import WIN

__all__ = ["BuildProgress", "build_book", "pack_journal", "solve_batch"]

BATCH = 16
"""Positions per batch: small enough to lose little to an interruption and to
share out evenly, large enough that a batch's table is reused."""
WORKER_TABLE_MB = 256

JOURNAL_RECORD = 11
"""A journal line: the key (10 bytes) and the score (1 byte), appended in binary."""


@dataclass(frozen=True, slots=True)
class BuildProgress:
    """A report on a running build."""

    done: int
    total: int
    resumed: int
    """Positions found solved (in the journal or the partial book) when the build started."""


# ---- solving (in the workers) ---------------------------------------------------------

_ENGINES: dict[tuple[tuple[int, ...], int], Engine] = {}


def _worker_engine(shapes: tuple[int, ...], traits: int) -> Engine:
    engine = _ENGINES.get((shapes, traits))
    if engine is None:
        entries = (WORKER_TABLE_MB << 20) // 16
        engine = load_kernel().engine(shapes, traits, board_symmetries(shapes), entries,
                                      TT_MIN, CANON_MIN, ORDER_MIN)
        _ENGINES[(shapes, traits)] = engine
    return engine


def exact_score(engine: Engine, node: BookNode) -> int:
    """The exact score of ``node`` for its side to move: first its sign with a
    null window, then, for a win or a loss, the distance."""
    occupied, cells, hand, supply = node
    control = load_kernel().control(0, 0.0)
    score = engine.search(control, occupied, cells, hand, supply, 0, -1, 1)
    assert score is not None  # no budget: the search always finishes
    if score >= 1:
        score = engine.search(control, occupied, cells, hand, supply, 0, 0, WIN)
    elif score <= -1:
        score = engine.search(control, occupied, cells, hand, supply, 0, -WIN, 0)
    assert score is not None
    return score


def solve_batch(shapes: tuple[int, ...], traits: int,
                batch: list[tuple[int, BookNode]]) -> list[tuple[int, int]]:
    """Solve a batch of ``(key, node)``: their ``(key, score)``.  Runs in a
    worker (a process of the pool or of a Dask cluster)."""
    engine = _worker_engine(shapes, traits)
    return [(key, exact_score(engine, node)) for key, node in batch]


# ---- the journal ---------------------------------------------------------------------------


def _journal_path(out: Path) -> Path:
    return out.with_name(out.name + ".journal")


def _partial_path(out: Path) -> Path:
    return out.with_name(out.name + ".partial")


def _read_partial(out: Path, header: BookHeader) -> dict[int, int]:
    """The scores of ``out``'s partial book, if there is one, for the book ``header``.

    :raises BookError: if it is damaged or of another game or depth.
    """
    path = _partial_path(out)
    if not path.exists():
        return {}
    found, scores = read_book(path)
    if (found.game, found.min_empty) != (header.game, header.min_empty):
        raise BookError(f"{path}: a partial book of {found.game} with min_empty "
                        f"{found.min_empty}, not of {header.game} with {header.min_empty}")
    return {key: scores[key] for key in scores}


def pack_journal(rules: Rules, min_empty: int, out: Path) -> BookHeader:
    """Write the scores solved so far by the build of ``out`` (its partial book and its
    journal) to its partial book ``FILE.partial``, then remove the journal; the header
    of the partial book, which counts them.  No build of ``out`` may be running.

    :raises BookError: if the partial book already there is damaged or of another game.
    """
    wanted = BookHeader(game_name(rules), min_empty, 0)
    scores = _read_partial(out, wanted)
    journal = _journal_path(out)
    scores.update(read_journal(journal))
    header = BookHeader(wanted.game, min_empty, len(scores))
    write_book(_partial_path(out), header, scores)  # atomic: the old one or the new one
    journal.unlink(missing_ok=True)
    return header


def read_journal(path: Path) -> dict[int, int]:
    """The scores in a journal; a last record cut short by a crash is dropped."""
    if not path.exists():
        return {}
    data = path.read_bytes()
    whole = len(data) - len(data) % JOURNAL_RECORD
    scores = {}
    for offset in range(0, whole, JOURNAL_RECORD):
        key = int.from_bytes(data[offset:offset + 10], "big")
        scores[key] = int.from_bytes(data[offset + 10:offset + 11], "big", signed=True)
    if whole != len(data):
        with path.open("r+b") as journal:
            journal.truncate(whole)
    return scores


def _append(path: Path, results: Iterable[tuple[int, int]]) -> None:
    with path.open("ab") as journal:
        journal.write(b"".join(key.to_bytes(10, "big") + score.to_bytes(1, "big", signed=True)
                               for key, score in results))
        journal.flush()
        os.fsync(journal.fileno())


# ---- running the batches ----------------------------------------------------------------------

Submit = Callable[[list[tuple[int, BookNode]]], Any]


def _local(rules: Rules, workers: int,
           batches: list[list[tuple[int, BookNode]]]) -> Iterator[list[tuple[int, int]]]:
    if workers == 1:
        for batch in batches:
            yield solve_batch(rules.shape_masks, rules.traits, batch)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending = deque(batches)
        running: set[Future[list[tuple[int, int]]]] = set()
        try:
            while pending or running:
                while pending and len(running) < 2 * workers:
                    running.add(pool.submit(solve_batch, rules.shape_masks, rules.traits,
                                            pending.popleft()))
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()
        finally:
            for future in running:
                future.cancel()


def _dask(rules: Rules, scheduler: str,
          batches: list[list[tuple[int, BookNode]]]) -> Iterator[list[tuple[int, int]]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BookError("building on a Dask cluster needs the dask extra: "
                        "pip install 'quads[dask]'") from None
    with Client(scheduler) as client:  # type: ignore[no-untyped-call]
        futures = [client.submit(solve_batch, rules.shape_masks, rules.traits, batch,
                                 pure=False) for batch in batches]
        try:
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                yield future.result()
        finally:
            client.cancel(futures)


def build_book(rules: Rules, min_empty: int, out: Path, *, workers: int | None = None,
               scheduler: str | None = None,
               progress: Callable[[BuildProgress], None] | None = None) -> BookHeader:
    """Solve every position of the book of ``rules`` with ``min_empty`` and write it
    to ``out``, continuing from ``out``'s journal and partial book (:func:`pack_journal`)
    if an earlier build left them.

    ``workers``: local processes (default: one per core); ``scheduler``: the
    address of a Dask distributed scheduler to hand the batches to instead.

    :raises BookError: if the Dask extra is missing for ``scheduler``, or if the partial
        book is damaged or of another game.
    :raises ValueError: if ``min_empty`` is not between 1 and 16.
    """
    levels = positions_to_solve(rules, min_empty)
    wanted: dict[int, BookNode] = {}
    for level in levels:
        wanted.update(level.nodes)
    journal = _journal_path(out)
    known = _read_partial(out, BookHeader(game_name(rules), min_empty, 0))
    known.update(read_journal(journal))
    scores = {key: score for key, score in known.items() if key in wanted}
    resumed = len(scores)
    todo = [(key, wanted[key]) for key in sorted(wanted) if key not in scores]
    # The deepest positions first: they are the quickest, and fill the tables
    # that the positions nearer the empty board then use.
    todo.sort(key=lambda item: -bin(item[1][0]).count("1"))
    batches = [todo[start:start + BATCH] for start in range(0, len(todo), BATCH)]
    if progress:
        progress(BuildProgress(len(scores), len(wanted), resumed))
    if scheduler is not None:
        results = _dask(rules, scheduler, batches)
    else:
        results = _local(rules, workers or os.cpu_count() or 1, batches)
    for solved in results:
        _append(journal, solved)
        scores.update(solved)
        if progress:
            progress(BuildProgress(len(scores), len(wanted), resumed))
    header = BookHeader(game_name(rules), min_empty, len(scores))
    write_book(out, header, scores)
    journal.unlink(missing_ok=True)
    _partial_path(out).unlink(missing_ok=True)
    return header
