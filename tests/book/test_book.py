"""Opening books: built the same way every time (locally, after an interruption,
on a Dask cluster), checked against the solver, refused when damaged.

The books here are of a small game (lines and squares, colour alone), so that
a whole book is solved in seconds; the shipped books are checked by sample.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from budget import THOROUGH, examples
from quads import Position, Rules
from quads.book import (
    DEFAULT_MIN_EMPTY,
    Book,
    BookError,
    BookHeader,
    BuildProgress,
    book_for,
    build_book,
    load_book,
    pack_journal,
    positions_to_solve,
    read_book,
    shipped_path,
    verify_book,
    write_book,
)
from quads.book.format import RECORD, Scores, _payload, cut_records, empties_of
from quads.cli.main import main
from quads.rules import CLASSIC, QUADS
from quads.solver import analyse, solve

SMALL = Rules.parse("lines+squares:color")
MIN_EMPTY = 14


@pytest.fixture(scope="module")
def small_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("book") / "small.qbook"
    build_book(SMALL, MIN_EMPTY, path, workers=1)
    return path


def covered_positions(count: int, seed: int = 1) -> list[Position]:
    """Positions of the small game whose turns the book judges: a sample of
    those reached by play from the empty board, with the empty board itself, and
    a sample of those one cell short of ``MIN_EMPTY`` whose player has a piece to
    give and none to place."""
    levels = positions_to_solve(SMALL, MIN_EMPTY)
    nodes = [node for level in levels if level.empty >= MIN_EMPTY
             for node in level.nodes.values()]
    short = [(occupied, cells, None, supply) for level in levels
             if level.empty == MIN_EMPTY - 1
             for occupied, cells, _, supply in level.nodes.values()]
    rng = random.Random(seed)
    chosen = rng.sample(nodes, min(count, len(nodes))) + rng.sample(short, count // 2)
    positions = [Position.from_pieces({}, None)]
    for occupied, cells, hand, _ in chosen:
        board = {c: cells >> (4 * c) & 15 for c in range(16) if occupied >> c & 1}
        positions.append(Position.from_pieces(board, hand))
    return positions


def test_the_book_covers_no_position_further_from_the_empty_board(small_book: Path) -> None:
    book = load_book(small_book, SMALL)
    levels = positions_to_solve(SMALL, MIN_EMPTY)
    occupied, cells, hand, _ = next(iter(levels[-1].nodes.values()))
    board = {c: cells >> (4 * c) & 15 for c in range(16) if occupied >> c & 1}
    short = Position.from_pieces(board, hand)
    assert short.empty_count == MIN_EMPTY - 1
    assert not book.covers(short)  # a piece to place: its turns lead past the book
    assert book.covers(Position.from_pieces(board, None))
    cell = (short.empty_cells & -short.empty_cells).bit_length() - 1
    further = Position.from_pieces({**board, cell: hand}, None)
    assert not book.covers(further)


# ---- building ------------------------------------------------------------------------------


def test_two_builds_give_the_same_bytes(small_book: Path, tmp_path: Path) -> None:
    again = tmp_path / "again.qbook"
    header = build_book(SMALL, MIN_EMPTY, again, workers=2)
    assert again.read_bytes() == small_book.read_bytes()
    assert header == BookHeader("lines+squares:color", MIN_EMPTY, header.positions)
    assert header.positions > 100
    assert not again.with_name("again.qbook.journal").exists()


def test_an_interrupted_build_continues_and_solves_nothing_twice(
        small_book: Path, tmp_path: Path) -> None:
    out = tmp_path / "stopped.qbook"
    seen: list[BuildProgress] = []

    class StopError(Exception):
        pass

    def stop_midway(progress: BuildProgress) -> None:
        seen.append(progress)
        if progress.done >= progress.total // 2:
            raise StopError

    with pytest.raises(StopError):
        build_book(SMALL, MIN_EMPTY, out, workers=1, progress=stop_midway)
    assert not out.exists()
    journal = out.with_name("stopped.qbook.journal")
    solved = len(journal.read_bytes()) // 11
    assert 0 < solved < seen[-1].total
    # a crash may cut the last record short: it is dropped, not misread
    with journal.open("ab") as file:
        file.write(b"\x01\x02\x03")

    resumed: list[BuildProgress] = []
    build_book(SMALL, MIN_EMPTY, out, workers=1, progress=resumed.append)
    assert resumed[0].resumed == solved
    assert resumed[0].done == solved
    steps = [b.done - a.done for a, b in itertools.pairwise(resumed)]
    assert sum(steps) == resumed[0].total - solved  # the rest, once each
    assert out.read_bytes() == small_book.read_bytes()
    assert not journal.exists()


def test_a_packed_build_continues_elsewhere_from_its_partial_book(
        small_book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "carried.qbook"

    class StopError(Exception):
        pass

    def stop_after(share: int) -> Callable[[BuildProgress], None]:
        def stop(progress: BuildProgress) -> None:
            if progress.done >= progress.total * share // 4:
                raise StopError
        return stop

    with pytest.raises(StopError):
        build_book(SMALL, MIN_EMPTY, out, workers=1, progress=stop_after(1))
    journal = out.with_name("carried.qbook.journal")
    first = len(journal.read_bytes()) // 11
    assert main(["book", "build", "--rules", "lines+squares:color", "--min-empty",
                 str(MIN_EMPTY), "--out", str(out), "--pack"]) == 0
    assert f"{out}.partial: {first} positions" in capsys.readouterr().out
    partial = out.with_name("carried.qbook.partial")
    assert not journal.exists()
    assert len(partial.read_bytes()) < first * 11  # smaller than its journal
    # a second sitting: more solved into a new journal, packed with the partial book
    with pytest.raises(StopError):
        build_book(SMALL, MIN_EMPTY, out, workers=1, progress=stop_after(2))
    header = pack_journal(SMALL, MIN_EMPTY, out)
    assert first < header.positions < len(read_book(small_book)[1])
    # a partial book of another game is refused, naming the file, and changes nothing
    with pytest.raises(BookError, match=r"carried\.qbook\.partial"):
        build_book(Rules.parse("lines:color"), MIN_EMPTY, out, workers=1)
    # the last sitting: only the rest is solved, and the book is the same
    resumed: list[BuildProgress] = []
    build_book(SMALL, MIN_EMPTY, out, workers=1, progress=resumed.append)
    assert resumed[0].resumed == header.positions
    assert out.read_bytes() == small_book.read_bytes()
    assert not partial.exists()
    assert not journal.exists()


def test_a_dask_cluster_builds_the_same_book(small_book: Path, tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask.qbook"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        build_book(SMALL, MIN_EMPTY, out, scheduler=cluster.scheduler_address)
    assert out.read_bytes() == small_book.read_bytes()


# ---- answering and checking -------------------------------------------------------------


def test_the_book_answers_as_the_solver_does(small_book: Path) -> None:
    book = load_book(small_book, SMALL)
    for position in covered_positions(12):
        assert book.covers(position)
        searched = analyse(position, SMALL, threads=1)
        known = book.analysis(position, SMALL)
        assert known is not None, position
        assert [(m.turn, m.value, m.plies) for m in known.moves] == [
            (m.turn, m.value, m.plies) for m in searched.moves], position
        solution = book.solution(position, SMALL)
        assert solution is not None
        expected = solve(position, SMALL, threads=1)
        assert (solution.value, solution.plies) == (expected.value, expected.plies)
        best = next(m for m in known.moves if m.turn == solution.best)
        assert (best.value, best.plies) == (known.value, known.plies)


def test_verify_finds_wrong_values_and_down_to_checks_near_the_empty_board_only(
        small_book: Path, tmp_path: Path) -> None:
    # The forged book below is re-solved whole: every position but the two forged is
    # found right (the shipped books' check tries a sample of theirs).
    header, read = read_book(small_book)
    scores = dict(read)
    # Two values made wrong (a draw made a win, or the other way): one near the empty
    # board, one deeper than what ``down_to`` checks (the few positions of 15 empty
    # cells and more, so that the second check re-solves few).
    down_to = MIN_EMPTY + 1
    nears = sorted(key for key in scores if empties_of(key) >= down_to)
    near = nears[len(nears) // 2]
    deep = next(key for key in sorted(scores) if empties_of(key) == MIN_EMPTY - 1)
    for key in (near, deep):
        scores[key] = 0 if scores[key] else 97
    forged = tmp_path / "forged.qbook"
    write_book(forged, header, scores)
    report = verify_book(forged, SMALL, sample=0)  # the whole book re-solved: both found
    assert sorted(wrong[0] for wrong in report.wrong) == sorted((near, deep))
    assert report.checked == len(scores)
    report = verify_book(forged, SMALL, sample=0, down_to=down_to)
    assert [wrong[0] for wrong in report.wrong] == [near]
    assert 0 < report.checked == sum(1 for key in scores if empties_of(key) >= down_to)
    with pytest.raises(ValueError, match="down_to"):
        verify_book(forged, SMALL, down_to=17)


@given(st.dictionaries(st.integers(0, (1 << 80) - 1), st.integers(-128, 127), max_size=40),
       st.lists(st.integers(-5, (1 << 81)), max_size=20))
def test_the_scores_read_by_binary_search_are_the_scores_written(
        scores: dict[int, int], others: list[int]) -> None:
    read = Scores(_payload(scores))
    assert len(read) == len(scores)
    assert list(read) == sorted(scores)
    assert dict(read.items()) == scores
    for key in [*scores, *others]:
        assert read.get(key) == scores.get(key)
        assert (key in read) == (key in scores)
        if key not in scores:
            with pytest.raises(KeyError):
                read[key]


def test_a_book_cut_short_answers_as_the_whole_book_where_it_reaches(small_book: Path) -> None:
    book = load_book(small_book, SMALL)
    assert book.reaching(MIN_EMPTY) is book
    assert book.reaching(3) is book
    cut = book.reaching(MIN_EMPTY + 1)
    kept = {key: score for key, score in book.scores.items() if empties_of(key) >= MIN_EMPTY}
    assert 0 < len(kept) < len(book.scores)
    assert dict(cut.scores.items()) == kept
    assert cut.header == BookHeader(book.header.game, MIN_EMPTY + 1, len(kept))
    from_mapping = Book(book.path, book.header, dict(book.scores.items())).reaching(MIN_EMPTY + 1)
    assert dict(from_mapping.scores.items()) == kept
    covered = 0
    for position in covered_positions(150):
        assert cut.score(position, SMALL) == book.score(position, SMALL)
        assert cut.covers(position) == (position.empty_count > MIN_EMPTY or (
            position.empty_count == MIN_EMPTY and position.hand is None))
        if cut.covers(position):
            covered += 1
            assert cut.analysis(position, SMALL) == book.analysis(position, SMALL)
            assert cut.solution(position, SMALL) == book.solution(position, SMALL)
    assert covered >= 5


def test_records_are_cut_whole_and_in_their_order() -> None:
    scores = {(occupied << 64) | 5: occupied.bit_count() - 8
              for occupied in (0, 1, 0b11, 0xFFFF, 0x0F0F, 0x8001)}
    records = _payload(scores)
    assert Scores(cut_records(records, 14)) == {5: -8, 1 << 64 | 5: -7, 0b11 << 64 | 5: -6,
                                                0x8001 << 64 | 5: -6}
    assert cut_records(records, 0) == records
    assert cut_records(records, 17) == b""
    with pytest.raises(ValueError, match=f"records of {RECORD} bytes"):
        cut_records(records[:-1], 12)


def test_the_empty_cells_of_a_key_are_those_of_its_position(small_book: Path) -> None:
    _, scores = read_book(small_book)
    for level in positions_to_solve(SMALL, MIN_EMPTY):
        for key in itertools.islice(level.nodes, 20):
            assert key in scores
            assert empties_of(key) == level.empty


@pytest.mark.parametrize("damage", ["flipped", "truncated", "header", "not a book"])
def test_a_damaged_book_is_refused_naming_the_file(
        small_book: Path, tmp_path: Path, damage: str) -> None:
    data = bytearray(small_book.read_bytes())
    if damage == "flipped":
        data[-20] ^= 0x40
    elif damage == "truncated":
        data = data[: len(data) - 30]
    elif damage == "header":
        data = data.replace(b'"positions": ', b'"positions": 1')
    else:
        data = bytearray(b"PK\x03\x04 a zip file")
    bad = tmp_path / "bad.qbook"
    bad.write_bytes(bytes(data))
    with pytest.raises(BookError, match=str(bad)):
        load_book(bad, SMALL)


def test_a_book_of_another_game_is_refused(small_book: Path) -> None:
    with pytest.raises(BookError, match="not of lines:color,height,shape,top"):
        load_book(small_book, CLASSIC)
    with pytest.raises(BookError, match="cannot read"):
        load_book(small_book.with_name("missing.qbook"), SMALL)


# ---- the command line ---------------------------------------------------------------------


def test_solve_and_analyse_answer_from_a_book(
        small_book: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    position = covered_positions(1)[1].to_string()
    rules = ["--rules", "lines+squares:color"]
    assert main(["solve", position, *rules, "--book", str(small_book), "--json"]) == 0
    from_book = json.loads(capsys.readouterr().out)
    assert main(["solve", position, *rules, "--no-book", "--json"]) == 0
    searched = json.loads(capsys.readouterr().out)
    assert (from_book["source"], searched["source"]) == ("book", "search")
    assert (from_book["value"], from_book["plies"]) == (searched["value"], searched["plies"])

    assert main(["analyse", position, *rules, "--book", str(small_book), "--json"]) == 0
    moves = json.loads(capsys.readouterr().out)
    assert moves["source"] == "book"
    assert main(["analyse", position, *rules, "--no-book", "--json"]) == 0
    assert moves["moves"] == json.loads(capsys.readouterr().out)["moves"]

    bad = tmp_path / "bad.qbook"
    bad.write_bytes(small_book.read_bytes()[:-10])
    assert main(["solve", position, *rules, "--book", str(bad), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["source"] == "search"
    assert json.loads(out)["value"] == searched["value"]
    assert err.count("\n") == 1
    assert str(bad) in err


def test_book_build_and_verify_commands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.qbook"
    assert main(["book", "build", "--rules", "lines+squares:color", "--min-empty", "15",
                 "--workers", "1", "--out", str(out)]) == 0
    assert f"{out}: " in capsys.readouterr().out
    assert main(["book", "verify", str(out), "--rules", "lines+squares:color", "--sample", "0",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["wrong"] == []
    assert report["checked"] == report["positions"] > 0


# ---- the shipped books -------------------------------------------------------------------


@pytest.mark.parametrize("rules", [QUADS, CLASSIC], ids=["quads", "classic"])
def test_the_shipped_book_is_sound(rules: Rules) -> None:
    """Its positions near the empty board all there and a sample re-solved (the whole
    book is checked when it is built).  In a CI run, down to 13 empty cells and two
    positions (finding the 315,434 of the deepest level takes a minute); under the
    thorough profile, every level and twenty."""
    assert shipped_path(rules).exists()
    down_to = DEFAULT_MIN_EMPTY - 1 if THOROUGH else DEFAULT_MIN_EMPTY
    report = verify_book(shipped_path(rules), rules, sample=examples(2), seed=7,
                         down_to=down_to)
    assert report.wrong == []
    book = book_for(rules)
    assert book is not None
    solution = book.solution(Position.from_pieces({}, None), rules)
    assert solution is not None
    assert solution.value.value == "draw"


def test_the_shipped_books_keep_the_package_small() -> None:
    shipped = sorted(shipped_path(QUADS).parent.glob("*.qbook"))
    assert shipped == sorted({shipped_path(QUADS), shipped_path(CLASSIC)})  # each one read
    assert sum(path.stat().st_size for path in shipped) < 2_000_000


@pytest.mark.parametrize(("args", "option"), [
    (["build", "--min-empty", "0"], "--min-empty"),
    (["build", "--min-empty", "17"], "--min-empty"),
    (["build", "--min-empty", "x"], "--min-empty"),
    (["build", "--workers", "0"], "--workers"),
    (["verify", "--down-to", "17"], "--down-to"),
])
def test_bad_counts_are_refused_naming_the_option(
        args: list[str], option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never.qbook"
    where = ["--out", str(out)] if args[0] == "build" else [str(out)]
    with pytest.raises(SystemExit) as stopped:
        main(["book", *args, "--rules", "lines+squares:color", *where])
    assert stopped.value.code == 2
    assert f"argument {option}: expected" in capsys.readouterr().err
    assert not out.exists()
    assert not out.with_name(out.name + ".journal").exists()
