"""Analyses remembered by canonical position (:mod:`quads.web.analysis_cache`): a
position asked again, or one symmetric to it, is answered without thinking, and
the answer is the fresh solve's, cell by cell and piece by piece."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from quads.book import analyse_with_book
from quads.cells import cell_name
from quads.errors import InvalidPositionError
from quads.pieces import piece_name
from quads.position import Position
from quads.rules import Rules
from quads.solver.symmetry import board_symmetries, trait_transforms, transform_position
from quads.web.analysis_api import SECONDS
from quads.web.analysis_cache import AnalysisCache
from quads.web.app import create_app
from quads.web.settings import Settings
from quads.web.thinking import Thinking

ENDGAME = "0F8./71.3/.A.2/59.6 C"


def rows(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(m["place"], m["give"], m["value"], m["plies"]) for m in body["moves"]]


def fresh(position: Position, rules: Rules) -> list[tuple[Any, ...]]:
    analysis, _ = analyse_with_book(position, rules, seconds=SECONDS, threads=1)
    assert analysis.complete
    return [(None if m.turn.place is None else cell_name(m.turn.place),
             None if m.turn.give is None else piece_name(m.turn.give), m.value.value, m.plies)
            for m in analysis.moves]


def symmetric(position: Position, rules: Rules, seed: int) -> Position:
    """``position`` carried by a symmetry of ``rules`` other than the identity."""
    pick = random.Random(seed)
    perm = pick.choice(board_symmetries(rules.shape_masks)[1:])
    transform = pick.choice(trait_transforms(rules.traits)[1:])
    return transform_position(position, perm, transform)


def random_position(pick: random.Random, rules: Rules, placed: int, hand: bool) -> Position:
    while True:
        pieces = pick.sample(range(16), 16)
        board = dict(zip(pick.sample(range(16), placed), pieces, strict=False))
        position = Position.from_pieces(board, pieces[placed] if hand else None)
        try:
            position.check(rules)
        except InvalidPositionError:
            continue
        return position


@pytest.fixture
def app_client(tmp_path: Path) -> tuple[TestClient, Thinking]:
    app = create_app(tmp_path / "quads.db", static_dir=None)
    return TestClient(app), app.state.thinking


def study_runs(engine: Thinking) -> int:
    runs: int = engine.stats()["study"]["run"]
    return runs


@pytest.mark.parametrize(("text", "rules"), [
    (ENDGAME, "quads"),                      # searched, a piece in hand
    ("0F8./71.3/.A.2/59.. -", "classic"),    # searched, a piece to hand over
    ("5.../..../..../.... A", "quads"),      # from the book
    ("5.../..../..C./.... -", "classic"),    # from the book, a piece to hand over
])
def test_a_position_and_its_symmetric_ones_are_thought_about_once(
        app_client: tuple[TestClient, Thinking], text: str, rules: str) -> None:
    client, engine = app_client
    game_rules = Rules.parse(rules)
    first = client.get("/api/analysis", params={"position": text, "rules": rules})
    assert first.status_code == 200
    assert study_runs(engine) == 1
    again = client.get("/api/analysis", params={"position": text, "rules": rules})
    assert again.json() == first.json()
    for seed in range(3):
        turned = symmetric(Position.from_string(text), game_rules, seed)
        answer = client.get("/api/analysis",
                            params={"position": turned.to_string(), "rules": rules})
        assert answer.status_code == 200
        body = answer.json()
        assert body["position"] == turned.to_string()
        assert (body["source"], body["value"], body["plies"], body["complete"]) == (
            first.json()["source"], first.json()["value"], first.json()["plies"], True)
        assert rows(body) == fresh(turned, game_rules)
    assert study_runs(engine) == 1
    assert engine.stats()["analyses"]["hits"] == 4


@pytest.mark.parametrize("rules", ["quads", "classic"])
def test_symmetric_answers_match_fresh_solves(rules: str) -> None:
    game_rules = Rules.parse(rules)
    pick = random.Random(19)
    cache = AnalysisCache(64)
    for placed, hand in [(9, True), (10, False), (1, True), (2, False)]:
        position = random_position(pick, game_rules, placed, hand)
        cache.put(*analyse_with_book(position, game_rules, seconds=SECONDS, threads=1))
        for seed in range(2):
            turned = symmetric(position, game_rules, seed + placed)
            known = cache.get(turned, game_rules)
            assert known is not None
            analysis, _ = known
            expected, _ = analyse_with_book(turned, game_rules, seconds=SECONDS, threads=1)
            assert (analysis.value, analysis.plies) == (expected.value, expected.plies)
            assert [(m.turn, m.value, m.plies) for m in analysis.moves] == [
                (m.turn, m.value, m.plies) for m in expected.moves]


def test_the_least_recently_used_analysis_is_forgotten(tmp_path: Path) -> None:
    app = create_app(tmp_path / "quads.db", static_dir=None,
                     settings=Settings(engine_cache=1))
    client, engine = TestClient(app), app.state.thinking
    other = "0F8./71.3/.A.2/5..6 9"
    for position in (ENDGAME, other, other, ENDGAME):
        assert client.get("/api/analysis", params={"position": position}).status_code == 200
    assert study_runs(engine) == 3
    assert engine.stats()["analyses"] == {"entries": 1, "hits": 1, "misses": 3}


def test_a_different_position_with_the_same_pieces_is_not_taken_for_it() -> None:
    rules = Rules.parse("quads")
    cache = AnalysisCache(8)
    position = Position.from_string(ENDGAME)
    cache.put(*analyse_with_book(position, rules, seconds=SECONDS, threads=1))
    moved = Position.from_string("0F8./71.3/.A2./59.6 C")
    assert cache.get(moved, rules) is None
    assert cache.get(position, Rules.parse("classic")) is None


def test_a_finished_game_is_reviewed_once(app_client: tuple[TestClient, Thinking]) -> None:
    client, engine = app_client
    turns = [("give", "0"), ("place", "A1"), ("give", "1"), ("place", "B1"), ("give", "2"),
             ("place", "C1"), ("give", "3"), ("place", "D1")]
    reviews = []
    for _ in range(2):  # two games of the same actions
        game = client.post("/api/games", json={"mode": "local", "rules": "quads"}).json()
        revision = game["revision"]
        for action, what in turns:
            key = "cell" if action == "place" else "piece"
            answer = client.post(f"/api/games/{game['id']}/actions",
                                 json={"revision": revision, "action": action, key: what})
            revision = answer.json()["revision"]
        for _ in range(2):
            answer = client.get(f"/api/games/{game['id']}/review")
            assert answer.status_code == 200
            reviews.append(answer.json())
    assert all(body == reviews[0] for body in reviews)
    assert study_runs(engine) == 1
    assert engine.stats()["reviews"] == {"entries": 1}
