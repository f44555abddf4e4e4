"""The daily puzzle routes: the puzzle, checking turns against the solution,
results in a real SQLite file, the streak, and refused dates."""

from __future__ import annotations

import datetime
import sqlite3
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.puzzles import puzzle_for
from quads.solver import Value, analyse
from quads.storage import GameStore, PuzzleResult
from quads.web.app import create_app
from quads.web.middleware.identity import player_id

TODAY = datetime.date(2025, 3, 9)
"""The server's date in these tests: a Sunday."""
TUESDAY = datetime.date(2025, 3, 4)
"""A win in 2: the player's turn, the reply, the winning placement."""

ERROR_FIELDS = {"code", "message", "reason", "params"}
"""The fields a refusal may carry."""


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, static_dir=None, today=lambda: TODAY)) as test_client:
        yield test_client


def answer(response: Any, expect: int) -> Any:
    assert response.status_code == expect, response.text
    data = response.json()
    if expect >= 400:
        assert set(data) == {"error"}
        # reason and params only where the refusal says more than its code
        assert {"code", "message"} <= set(data["error"]) <= ERROR_FIELDS
    return data


def check(client: TestClient, date: datetime.date | str, turn: str, played: list[str],
          expect: int = 200) -> Any:
    body = {"played": played, "turn": turn}
    return answer(client.post(f"/api/puzzles/{date}/check", json=body), expect)


def post_result(client: TestClient, date: datetime.date | str, expect: int = 201,
                **fields: Any) -> Any:
    body = {"tries": 1, "seconds": 30, "solved": True, **fields}
    return answer(client.post(f"/api/puzzles/{date}/result", json=body), expect)


def solve(client: TestClient, date: datetime.date) -> None:
    """Play the puzzle of ``date`` to its goal through the check route, as the page does."""
    puzzle = puzzle_for(date)
    played: list[str] = []
    for index in range(0, puzzle.plies, 2):
        verdict = check(client, date, puzzle.solution[index].text, played)
        assert verdict["accepted"]
        played = verdict["played"]
    assert verdict["solved"]


def player_of(client: TestClient) -> str:
    """The caller's player id: the hash of the token in its cookie."""
    if "quads_player" not in client.cookies:
        assert client.post("/api/players").status_code == 204
    return player_id(client.cookies["quads_player"])


def rows(db_path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT player, date, tries, seconds, solved FROM puzzle_results "
                          "ORDER BY rowid").fetchall()


def test_the_days_puzzle_is_served_without_its_solution(client: TestClient) -> None:
    puzzle = puzzle_for(TODAY)
    view = answer(client.get("/api/puzzles/today"), 200)
    assert view == answer(client.get(f"/api/puzzles/{TODAY}"), 200)
    summary = puzzle.summary()
    assert {key: view[key] for key in summary} == summary
    assert view["today"] is True
    assert view["goal"]["moves"] == puzzle.moves
    assert view["hand"] == puzzle.position.to_string()[-1]
    assert len(view["board"]) == 16
    assert len(view["supply"]) + sum(map(bool, view["board"])) + 1 == 16
    assert "solution" not in view
    older = answer(client.get(f"/api/puzzles/{TUESDAY}"), 200)
    assert older["today"] is False
    assert older["weekday"] == "Tuesday"


def test_the_solution_is_accepted_step_by_step(client: TestClient) -> None:
    puzzle = puzzle_for(TUESDAY)
    tokens = [turn.text for turn in puzzle.solution]
    played: list[str] = []
    for index in range(0, puzzle.plies, 2):
        turn = tokens[index]
        if puzzle.solution[index].give is not None:
            # The placement alone is not judged: the page is asked for the hand-over.
            first = check(client, TUESDAY, turn[:2], played)
            assert first["needs_give"]
            assert not first["accepted"]
            assert first["board"]["ABCD".index(turn[0]) + 4 * (int(turn[1]) - 1)]
            assert first["hand"] is None
        verdict = check(client, TUESDAY, turn, played)
        assert verdict["accepted"]
        assert not verdict["needs_give"]
        if index == puzzle.plies - 1:
            assert verdict["solved"]
            assert verdict["reply"] is None
            assert verdict["winner"] == "player"
            assert len(verdict["cells"]) >= 4
        else:
            assert not verdict["solved"]
            assert verdict["reply"] == tokens[index + 1]
            assert verdict["played"] == tokens[:index + 2]
            assert verdict["moves_left"] == (puzzle.plies - index - 1) // 2
            assert verdict["hand"] == tokens[index + 1][-1]
            played = verdict["played"]


def test_a_wrong_turn_is_refused_with_the_reply(client: TestClient) -> None:
    puzzle = puzzle_for(TUESDAY)
    moves = analyse(puzzle.position, puzzle.rules, threads=1).moves
    wrong = next(move for move in moves if move.value is not Value.WIN)
    verdict = check(client, TUESDAY, wrong.turn.text, [])
    assert not verdict["accepted"]
    assert not verdict["solved"]
    assert verdict["reply"] is not None
    assert verdict["played"] == [wrong.turn.text, verdict["reply"]]
    assert verdict["value"] in ("win", "draw", "loss")
    if verdict["value"] == "win" and verdict["hand"] is None:
        assert verdict["winner"] == "opponent"


def test_illegal_and_unreadable_turns(client: TestClient, db_path: Path) -> None:
    puzzle = puzzle_for(TUESDAY)
    taken = next(iter(puzzle.position.board))
    cell = "ABCD"[taken % 4] + str(taken // 4 + 1)
    assert check(client, TUESDAY, cell + "0", [], 422)["error"]["code"] == "illegal_action"
    # Tokens that are no turn at all do not fit the schema.
    assert check(client, TUESDAY, "Z9", [], 400)["error"]["code"] == "bad_request"
    assert check(client, TUESDAY, "A1X", [], 400)["error"]["code"] == "bad_request"
    assert check(client, TUESDAY, "A1", ["Q"], 400)["error"]["code"] == "bad_request"
    odd = check(client, TUESDAY, puzzle.solution[1].text, [puzzle.solution[0].text], 422)
    assert "defender" in odd["error"]["message"]
    bad = answer(client.post(f"/api/puzzles/{TUESDAY}/check", json={"played": []}), 400)
    assert bad["error"]["code"] == "bad_request"
    assert rows(db_path) == []


def test_results_are_stored_in_the_database(client: TestClient, db_path: Path) -> None:
    player = player_of(client)
    post_result(client, TUESDAY, tries=1, seconds=40, solved=False)
    solve(client, TUESDAY)
    changed = post_result(client, TUESDAY, tries=2, seconds=75, solved=True)
    assert rows(db_path) == [(player, "2025-03-04", 1, 40, 0), (player, "2025-03-04", 2, 75, 1)]
    stored = GameStore(db_path).results(player)
    assert [(r.date, r.tries, r.solved) for r in stored] == [(TUESDAY, 1, False),
                                                             (TUESDAY, 2, True)]
    assert changed["solved"] == 1
    assert changed["streak"] == 0
    assert changed["day"] == {"date": "2025-03-04", "solved": True, "tries": 2, "seconds": 75,
                              "attempts": 2}
    assert changed["result"]["tries"] == 2
    history = answer(client.get("/api/puzzles/history"), 200)
    day = next(d for d in history["days"] if d["date"] == TUESDAY.isoformat())
    assert day == changed["day"]
    assert len(history["days"]) == 30
    assert history["days"][0]["date"] == TODAY.isoformat()
    # Another player (another browser, without this one's cookie) sees none of it.
    client.cookies.clear()
    other = answer(client.get("/api/puzzles/history"), 200)
    assert other["results"] == []
    assert other["solved"] == 0


def test_the_streak_counts_consecutive_solved_dates(client: TestClient) -> None:
    day = datetime.timedelta(days=1)
    for back in (4, 3, 2, 1, 0):
        solve(client, TODAY - back * day)
    post_result(client, TODAY - 4 * day)
    post_result(client, TODAY - 3 * day, solved=False)
    for back in (2, 1):
        post_result(client, TODAY - back * day)
    history = answer(client.get("/api/puzzles/history"), 200)
    assert history["streak"] == 2  # up to yesterday: today is not over yet
    history = post_result(client, TODAY, tries=3)
    assert history["streak"] == 3
    history = post_result(client, TODAY - 3 * day, tries=2)
    assert history["streak"] == 5
    assert history["solved"] == 5
    assert history["result"]["date"] == (TODAY - 3 * day).isoformat()
    short = answer(client.get("/api/puzzles/history?days=3"), 200)
    assert [d["solved"] for d in short["days"]] == [True, True, True]


def test_a_solve_the_server_did_not_check_is_refused(client: TestClient,
                                                     db_path: Path) -> None:
    refused = post_result(client, TUESDAY, 409)
    assert refused["error"]["code"] == "not_solved"
    assert rows(db_path) == []
    assert answer(client.get("/api/puzzles/history"), 200)["solved"] == 0
    # A solve checked for another player does not count for this one.
    with TestClient(client.app) as other:
        solve(other, TUESDAY)
        assert post_result(other, TUESDAY)["solved"] == 1
    assert post_result(client, TUESDAY, 409)["error"]["code"] == "not_solved"
    # A failed attempt is always taken: it can only cost the player.
    assert post_result(client, TUESDAY, solved=False)["solved"] == 0


@pytest.mark.parametrize(("date", "status"), [
    ("2025-02-30", 422),  # written as a date, but there is no such day
    ("2025-3-4", 400), ("yesterday", 400), ("20250304", 400), ("2025-03-04x", 400),
])
def test_malformed_dates_are_refused(client: TestClient, db_path: Path, date: str,
                                     status: int) -> None:
    for response in (client.get(f"/api/puzzles/{date}"),
                     client.post(f"/api/puzzles/{date}/check", json={"turn": "A1"}),
                     client.post(f"/api/puzzles/{date}/result",
                                 json={"tries": 1, "seconds": 3, "solved": True})):
        assert answer(response, status)["error"]["code"] == "invalid_date"
    assert rows(db_path) == []


def test_future_dates_are_refused(client: TestClient, db_path: Path) -> None:
    tomorrow = TODAY + datetime.timedelta(days=1)
    assert answer(client.get(f"/api/puzzles/{tomorrow}"), 404)["error"]["code"] == "not_found"
    check(client, tomorrow, "A1", [], 404)
    post_result(client, tomorrow, 404)
    assert rows(db_path) == []


@pytest.mark.parametrize("fields", [{"tries": 0}, {"seconds": -1}, {"solved": "yes"},
                                    {"tries": 1.5}])
def test_bad_results_are_refused(client: TestClient, db_path: Path,
                                 fields: dict[str, Any]) -> None:
    assert post_result(client, TUESDAY, 400, **fields)["error"]["code"] == "bad_request"
    assert rows(db_path) == []


def test_the_history_is_the_callers_alone(client: TestClient) -> None:
    solve(client, TUESDAY)
    post_result(client, TUESDAY)
    # A player id in the query changes nothing: the cookie says who is asking.
    mine = answer(client.get("/api/puzzles/history?player=someone-else"), 200)
    assert mine["solved"] == 1
    forged = answer(client.get("/api/puzzles/history",
                               headers={"Cookie": "quads_player=forged-token"}), 401)
    assert forged["error"]["code"] == "unknown_player"
    client.cookies.clear()
    assert answer(client.get("/api/puzzles/history"), 200)["solved"] == 0


def test_results_of_an_old_page_id_are_taken_over_once(client: TestClient,
                                                        db_path: Path) -> None:
    store = GameStore(db_path)
    old = "page-made-id-12345"
    day = datetime.timedelta(days=1)
    for back in (1, 2):
        store.add_result(PuzzleResult(player=old, date=TODAY - back * day, tries=1,
                                      seconds=20, solved=True,
                                      recorded=datetime.datetime.now(datetime.UTC)))
    assert answer(client.get("/api/puzzles/history"), 200)["streak"] == 0
    history = answer(client.post("/api/puzzles/adopt", json={"player": old}), 200)
    assert (history["streak"], history["solved"]) == (2, 2)
    # The old id is spent: another browser that knows it takes nothing.
    with TestClient(client.app) as other:
        taken = answer(other.post("/api/puzzles/adopt", json={"player": old}), 200)
        assert taken["solved"] == 0
        # Nor can anyone take a server player's results by its id (a hash).
        mine = player_of(client)
        assert answer(other.post("/api/puzzles/adopt", json={"player": mine}), 200)[
            "solved"] == 0
    assert answer(client.get("/api/puzzles/history"), 200)["solved"] == 2
    # Solves taken over count as the server's: the results may be posted again.
    assert post_result(client, TODAY - day)["solved"] == 2


def test_a_result_reads_only_what_it_answers(client: TestClient, db_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A result answers the streak, the dates solved and its date's entry, from queries of
    their own: never the player's whole history, which grows with every attempt."""
    player = player_of(client)
    store = GameStore(db_path)
    day = datetime.timedelta(days=1)

    def attempt(back: int, solved: bool) -> None:
        store.add_result(PuzzleResult(player=player, date=TODAY - back * day, tries=1,
                                      seconds=5, solved=solved,
                                      recorded=datetime.datetime.now(datetime.UTC)))

    for back in range(300):  # failures everywhere, solves with a gap after 130 days
        attempt(back, False)
        if back <= 130 or 140 <= back < 200:
            attempt(back, True)
            attempt(back, True)
    history = answer(client.get("/api/puzzles/history?days=1"), 200)

    def whole_history(*args: Any) -> None:
        raise AssertionError("a result read the player's whole history")

    app_store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    monkeypatch.setattr(app_store, "results", whole_history)
    changed = post_result(client, TODAY, solved=False)
    assert (changed["streak"], changed["solved"]) == (history["streak"], history["solved"])
    assert (changed["streak"], changed["solved"]) == (131, 191)
    assert changed["day"] == {**history["days"][0], "attempts": 4}
    assert changed["day"]["solved"] is True


def test_a_result_answers_only_what_it_changed(client: TestClient, db_path: Path) -> None:
    player = player_of(client)
    store = GameStore(db_path)
    day = datetime.timedelta(days=1)
    for attempt in range(2000):
        store.add_result(PuzzleResult(player=player, date=TODAY - (attempt % 400) * day,
                                      tries=1, seconds=5, solved=False,
                                      recorded=datetime.datetime.now(datetime.UTC)))
    response = client.post(f"/api/puzzles/{TODAY}/result",
                           json={"tries": 2, "seconds": 9, "solved": False})
    assert response.status_code == 201
    changed = response.json()
    assert set(changed) == {"today", "streak", "solved", "day", "result"}
    assert changed["day"] == {"date": TODAY.isoformat(), "solved": False, "tries": None,
                              "seconds": None, "attempts": 6}
    assert len(response.content) < 400
    # The history lists the newest 1000 attempts at most.
    history = answer(client.get("/api/puzzles/history?days=3"), 200)
    assert len(history["results"]) == 1000
    assert history["results"][0]["date"] == TODAY.isoformat()
    assert history["results"][-1]["date"] == (TODAY - 199 * day).isoformat()


def test_the_coming_puzzles_are_served_for_play_without_a_network(client: TestClient) -> None:
    # The first answer starts their generation in the background; the answers that
    # follow fill up, in date order, until every date to 14 days ahead is there.
    first = answer(client.get("/api/puzzles/ahead"), 200)
    assert first["today"] == TODAY.isoformat()
    for _ in range(300):
        ahead = answer(client.get("/api/puzzles/ahead"), 200)
        if ahead["complete"]:
            break
        assert [p["date"] for p in ahead["puzzles"]] == sorted(p["date"] for p in ahead["puzzles"])
        time.sleep(0.2)
    assert ahead["complete"]
    dates = [TODAY + datetime.timedelta(days=days) for days in range(15)]
    assert [p["date"] for p in ahead["puzzles"]] == [d.isoformat() for d in dates]
    # Each is the puzzle of its date, as the date's own address serves it once it is today.
    assert ahead["puzzles"][0] == answer(client.get("/api/puzzles/today"), 200)
    generated = client.app.state.puzzles  # type: ignore[attr-defined]
    for view, date in zip(ahead["puzzles"], dates, strict=True):
        puzzle = generated.known(date)
        assert puzzle is not None
        assert puzzle.date == date
        assert view["position"] == puzzle.position.to_string()
        assert view["goal"]["plies"] == puzzle.plies
        assert view["today"] is (date == TODAY)
    # No solution is ever sent.
    assert not any("solution" in view for view in ahead["puzzles"])
