"""``GET /api/games/{id}/review``: a finished game's turns judged; refused before the end
and to strangers of an online game."""

from __future__ import annotations

from fastapi.testclient import TestClient

from quads import read_record
from quads.cells import cell_name
from quads.pieces import piece_name
from quads.review import review


def test_a_finished_game_is_reviewed_as_the_library_reviews_it(client: TestClient) -> None:
    # Two people on one device: the second completes row 1 of short pieces.
    game = client.post("/api/games", json={"mode": "local", "rules": "quads"}).json()
    revision = game["revision"]
    turns = [("give", "0"), ("place", "A1"), ("give", "1"), ("place", "B1"), ("give", "2"),
             ("place", "C1"), ("give", "3")]
    for action, what in turns:
        key = "cell" if action == "place" else "piece"
        answer = client.post(f"/api/games/{game['id']}/actions",
                             json={"revision": revision, "action": action, key: what})
        revision = answer.json()["revision"]
    answer = client.get(f"/api/games/{game['id']}/review")
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "not_over"

    client.post(f"/api/games/{game['id']}/actions",
                json={"revision": revision, "action": "place", "cell": "D1"})
    answer = client.get(f"/api/games/{game['id']}/review")
    status, body = answer.status_code, answer.json()
    assert status == 200
    record = read_record('[Rules "quads"]\n\n1. 0 A11 2. B12 C13 3. D1! 1-0\n')
    expected = review(record)
    assert [(t["player"], t["turn"]["place"], t["turn"]["give"], t["before"], t["after"],
             t["threw_away"]) for t in body["turns"]] == [
        (e.player.name.lower(), None if e.turn.place is None else cell_name(e.turn.place),
         None if e.turn.give is None else piece_name(e.turn.give),
         e.before.value, e.after.value, e.threw_away) for e in expected]
    # handing over piece 3 with three short pieces in row 1 threw the game away
    assert body["turns"][-2]["threw_away"] in {"win", "draw"}
    assert body["turns"][-1]["after"] == "win"
