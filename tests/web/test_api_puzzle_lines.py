"""Puzzles solved without the server: a result may carry the line played, which the
server replays against the date's puzzle.  The date counts as solved only when the
player's turns force the win within the goal; a forged line is ``409 not_solved``, an
illegal one ``422``, and either stores nothing.  An attempt sent again under its id is
stored once."""

from __future__ import annotations

import datetime
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.cells import cell_name
from quads.puzzles import Puzzle, check_turn, line_solves, position_after, puzzle_for
from quads.solver import Value, analyse
from quads.storage import GameStore
from quads.turn import Turn
from quads.web.app import create_app
from web.test_api_puzzles import TODAY, TUESDAY, answer, player_of, rows

DAY = datetime.timedelta(days=1)


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, static_dir=None, today=lambda: TODAY)) as test_client:
        yield test_client


def post(client: TestClient, date: datetime.date, expect: int, **fields: Any) -> Any:
    body = {"tries": 1, "seconds": 30, "solved": True, **fields}
    return answer(client.post(f"/api/puzzles/{date}/result", json=body), expect)


def solution(puzzle: Puzzle) -> list[str]:
    return [turn.text for turn in puzzle.solution]


def lucky_line(puzzle: Puzzle) -> list[str]:
    """A legal line that ends with the player's win but whose first turn lets the
    defender escape: the defender's reply is a blunder the player then punishes."""
    rules = puzzle.rules
    for move in analyse(puzzle.position, rules, threads=1).moves:
        if move.value is Value.WIN or move.turn.give is None:
            continue
        after = puzzle.position.play(move.turn)
        assert after.hand is not None
        winning_now = after.winning_cells(after.hand, rules)
        for reply in after.legal_turns(rules):
            if reply.place is None or reply.give is None or winning_now >> reply.place & 1:
                continue
            mine = after.play(reply)
            assert mine.hand is not None
            cells = mine.winning_cells(mine.hand, rules)
            if cells:
                win = Turn(next(c for c in range(16) if cells >> c & 1), None)
                return [move.turn.text, reply.text, win.text]
    raise AssertionError("no lucky line in this puzzle")


def quiet_turn(puzzle: Puzzle, played: list[str]) -> str:
    """A legal turn after ``played`` that does not win."""
    position = position_after(puzzle, [Turn.parse(token) for token in played])
    assert position.hand is not None
    winning = position.winning_cells(position.hand, puzzle.rules)
    return next(turn.text for turn in position.legal_turns(puzzle.rules)
                if turn.place is not None and turn.give is not None
                and not winning >> turn.place & 1)


def test_a_line_that_solves_counts_without_a_check(client: TestClient,
                                                   db_path: Path) -> None:
    puzzle = puzzle_for(TUESDAY)
    line = solution(puzzle)
    assert line_solves(puzzle, puzzle.solution)
    changed = post(client, TUESDAY, 201, tries=2, seconds=75, line=line)
    assert changed["solved"] == 1
    assert changed["day"] == {"date": "2025-03-04", "solved": True, "tries": 2, "seconds": 75,
                              "attempts": 1}
    player = player_of(client)
    assert GameStore(db_path).has_solve(player, TUESDAY)
    assert rows(db_path) == [(player, "2025-03-04", 2, 75, 1)]
    # Counted now, a result without a line is taken for that date too.
    assert post(client, TUESDAY, 201, tries=3)["solved"] == 1


def test_the_streak_counts_days_solved_offline(client: TestClient) -> None:
    for back in (2, 1, 0):
        date = TODAY - back * DAY
        post(client, date, 201, line=solution(puzzle_for(date)))
    history = answer(client.get("/api/puzzles/history"), 200)
    assert (history["streak"], history["solved"]) == (3, 3)


def test_a_forged_line_is_refused_and_stores_nothing(client: TestClient,
                                                     db_path: Path) -> None:
    puzzle = puzzle_for(TUESDAY)
    line = lucky_line(puzzle)
    # Each turn is legal, and the last one wins: only the first gave the win away.
    assert not check_turn(puzzle, Turn.parse(line[0])).accepted
    refused = post(client, TUESDAY, 409, line=line)
    assert refused["error"]["code"] == "not_solved"
    good = solution(puzzle)
    for forged in (good[:1], good[:2], [], [*good[:2], quiet_turn(puzzle, good[:2])]):
        assert post(client, TUESDAY, 409, line=forged)["error"]["code"] == "not_solved", forged
    assert rows(db_path) == []
    history = answer(client.get("/api/puzzles/history"), 200)
    assert history["solved"] == 0


def test_an_illegal_line_is_refused_and_stores_nothing(client: TestClient,
                                                       db_path: Path) -> None:
    puzzle = puzzle_for(TUESDAY)
    good = solution(puzzle)
    taken = cell_name(next(iter(puzzle.position.board)))
    first_place = good[0][:2]
    illegal = [good[0], first_place + good[1][2:], good[2]]  # the reply on a taken cell
    assert post(client, TUESDAY, 422, line=illegal)["error"]["code"] == "illegal_action"
    assert post(client, TUESDAY, 422, line=[taken + "0"])["error"]["code"] == "illegal_action"
    # A turn after the win, and a turn that hands nothing over while the game goes on.
    after_end = post(client, TUESDAY, 422, line=[*good, "A1"])["error"]
    assert after_end["code"] == "illegal_action"
    assert post(client, TUESDAY, 422, line=[good[0][:2], *good[1:]])["error"]["reason"] == (
        "piece_missing")
    assert post(client, TUESDAY, 400, line=["Z9"])["error"]["code"] == "bad_request"
    assert post(client, TUESDAY, 400, line=["A1F"] * 17)["error"]["code"] == "bad_request"
    assert rows(db_path) == []


def test_a_failed_attempt_with_its_line_is_taken_as_failed(client: TestClient,
                                                           db_path: Path) -> None:
    puzzle = puzzle_for(TUESDAY)
    answered = post(client, TUESDAY, 201, solved=False, line=lucky_line(puzzle))
    assert answered["solved"] == 0
    assert [row[4] for row in rows(db_path)] == [0]


def test_an_attempt_sent_again_is_stored_once(client: TestClient, db_path: Path) -> None:
    attempt = str(uuid.uuid4())
    line = solution(puzzle_for(TUESDAY))
    first = post(client, TUESDAY, 201, line=line, attempt=attempt)
    again = post(client, TUESDAY, 201, line=line, attempt=attempt)
    assert again == first
    assert len(rows(db_path)) == 1
    failed = str(uuid.uuid4())
    post(client, TUESDAY - DAY, 201, solved=False, attempt=failed)
    post(client, TUESDAY - DAY, 201, solved=False, attempt=failed)
    assert len(rows(db_path)) == 2
    assert post(client, TUESDAY, 400, attempt="not-a-uuid")["error"]["code"] == "bad_request"
