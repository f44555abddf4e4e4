"""``GET /api/explorer``: what people played from a position, counted as games end, up
to symmetry (a mirrored position answers the same counts in its own frame), filtered
by kind of game; bad input refused, and a flood of asks met by the rate."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from quads import Game, Rules
from quads.outcome import Player
from quads.review import game_turns
from quads.storage import GameStore, StoredGame
from quads.storage.stored import now
from quads.turn import Turn

QUADS = Rules.parse("quads")


def _ended(store: GameStore, game_id: str, turns: list[str], seed: int, **fields: Any) -> Game:
    """A game of ``turns`` then random turns to its end, ended by a save."""
    game = Game(QUADS)
    for text in turns:
        game.play(Turn.parse(text))
    chooser = random.Random(seed)
    while not game.is_over():
        game.play(chooser.choice(list(game.position.legal_turns(QUADS))))
    begun = Game(QUADS)
    for action in game.actions[:-1]:
        begun.apply(action)
    moment = now()
    stored = StoredGame(id=game_id, game=begun, seed=1, created=moment, updated=moment,
                        **{"level": None, "human": None, **fields})
    store.create(stored)
    stored.game.apply(game.actions[-1])
    store.save(stored)
    return game


def get(client: TestClient, **params: Any) -> tuple[int, dict[str, Any]]:
    answer = client.get("/api/explorer", params={"rules": "quads", **params})
    return answer.status_code, answer.json()


def test_the_turns_people_played_and_how_it_went(client: TestClient) -> None:
    store: GameStore = client.app.state.store  # type: ignore[attr-defined]
    # Three games that hand over 0 first, then place it at A1 or at D4 with 5 handed
    # over (the same turn up to symmetry: a corner), or at B2.
    a = _ended(store, "a", ["0", "A15"], 1, mode="computer", level=2, human=Player.FIRST)
    _ended(store, "b", ["0", "D45"], 2, mode="online")
    _ended(store, "c", ["0", "B25"], 3, mode="computer", level=4, human=Player.SECOND)
    status, body = get(client, position="..../..../..../.... -")
    assert status == 200
    assert body["games"] == 3
    # every hand-over of the empty board is the same turn up to symmetry
    assert [(t["turn"], len(t["same"]), t["games"]) for t in body["turns"]] == [("0", 15, 3)]
    assert sum(t["first"] + t["second"] + t["draws"] for t in body["turns"]) == 3

    after = Game(QUADS)
    after.play(Turn.parse("0"))
    status, body = get(client, position=after.position.to_string())
    assert body["games"] == 3
    corner = next(t for t in body["turns"] if t["games"] == 2)
    assert {"A15", "D45"} <= {corner["turn"], *corner["same"]}  # a corner, and piece 5
    assert [t["games"] for t in body["turns"]] == [2, 1]

    # After 0 at A1 (game a) or at D4 (game b, the board turned half a turn): one
    # position up to symmetry, asked in either frame, with the turns in that frame.
    corner_a, corner_d = Game(QUADS), Game(QUADS)
    for turn in ("0", "A15"):
        corner_a.play(Turn.parse(turn))
    for turn in ("0", "D45"):
        corner_d.play(Turn.parse(turn))
    status, seen_a = get(client, position=corner_a.position.to_string())
    status, seen_d = get(client, position=corner_d.position.to_string())
    assert seen_a["games"] == seen_d["games"] == 2
    assert sorted((t["games"], t["first"], t["second"], t["draws"]) for t in seen_a["turns"]) \
        == sorted((t["games"], t["first"], t["second"], t["draws"]) for t in seen_d["turns"])
    third = game_turns(a)[2][3].text  # game a's third turn, in its own frame
    assert any(third in [t["turn"], *t["same"]] for t in seen_a["turns"])

    status, people = get(client, position=after.position.to_string(), source="people")
    assert [t["games"] for t in people["turns"]] == [1]
    status, levels = get(client, position=after.position.to_string(),
                         source=["level-2", "level-4"])
    assert [t["games"] for t in levels["turns"]] == [1, 1]
    status, rated = get(client, position=after.position.to_string(), rated="true")
    assert (rated["games"], rated["turns"]) == (0, [])
    status, banded = get(client, position=after.position.to_string(), min_band=1400)
    assert banded["games"] == 0  # a band means rated games: none here
    status, other = get(client, position="..../..../..../.... -", rules="classic")
    assert (status, other["games"]) == (200, 0)


def test_bad_input_is_refused_with_its_reason(client: TestClient) -> None:
    status, body = get(client, position="0F8./71.3/.A.2 C")
    assert (status, body["error"]["code"]) == (400, "invalid_position")
    status, body = get(client, position="..../..../..../.... -", rules="hexagons")
    assert (status, body["error"]["code"]) == (400, "invalid_rules")
    status, body = get(client, position="..../..../..../.... -", source="robots")
    assert status == 400
    status, body = get(client, position="..../..../..../.... -", min_band=1450)
    assert status == 400
    # a piece on the board and in hand at once: impossible
    status, body = get(client, position="0.../..../..../.... 0")
    assert status in (400, 422)


@pytest.mark.settings(rate_explorer_per_address="3/minute")
def test_a_flood_of_asks_meets_the_rate(client: TestClient) -> None:
    codes = [get(client, position="..../..../..../.... -")[0] for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]
