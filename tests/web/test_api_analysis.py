"""``GET /api/analysis``: the value of every turn of any position, from the book
near the empty board and from the solver elsewhere; bad input refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from quads import QUADS, Position
from quads.book import book_for
from quads.cells import cell_name
from quads.pieces import piece_name
from quads.solver import analyse


def get(client: TestClient, position: str, rules: str = "quads") -> tuple[int, dict]:
    answer = client.get("/api/analysis", params={"position": position, "rules": rules})
    return answer.status_code, answer.json()


def test_an_endgame_is_solved_and_matches_the_library(client: TestClient) -> None:
    position = "0F8./71.3/.A.2/59.6 C"
    status, body = get(client, position)
    assert status == 200
    expected = analyse(Position.from_string(position), QUADS)
    assert body["source"] == "search"
    assert body["complete"] is True
    assert (body["value"], body["plies"]) == (expected.value.value, expected.plies)
    assert [(m["place"], m["give"], m["value"], m["plies"]) for m in body["moves"]] == [
        (None if m.turn.place is None else cell_name(m.turn.place),
         None if m.turn.give is None else piece_name(m.turn.give), m.value.value, m.plies)
        for m in expected.moves]


def test_the_first_turn_comes_from_the_book(client: TestClient) -> None:
    assert book_for(QUADS) is not None
    status, body = get(client, "..../..../..../.... -")
    assert status == 200
    assert (body["source"], body["complete"], body["value"]) == ("book", True, "draw")
    assert len(body["moves"]) == 16  # hand over any of the sixteen pieces
    assert {m["value"] for m in body["moves"]} == {"draw"}


def test_bad_input_is_refused_with_its_reason(client: TestClient) -> None:
    status, body = get(client, "0F8./71.3/.A.2 C")
    assert status == 400
    assert body["error"]["code"] == "invalid_position"
    status, body = get(client, "..../..../..../.... -", rules="hexagons")
    assert (status, body["error"]["code"]) == (400, "invalid_rules")
    answer = client.get("/api/analysis")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_request"
