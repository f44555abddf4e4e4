"""Players and outcomes."""

from __future__ import annotations

import pytest

from helpers import replay
from quads import Outcome, Player, Termination, Trait
from quads.catalogue import catalogue
from quads.shapes import shape_by_id


def test_players() -> None:
    assert Player.FIRST.other is Player.SECOND
    assert Player.SECOND.other is Player.FIRST
    assert [player.identifier for player in Player] == ["first", "second"]


@pytest.mark.parametrize(
    ("outcome", "result"),
    [
        (Outcome(Termination.WIN, Player.FIRST), "1-0"),
        (Outcome(Termination.DECLARATION, Player.SECOND), "0-1"),
        (Outcome(Termination.CLAIM, Player.FIRST), "1-0"),
        (Outcome(Termination.FULL_BOARD, None), "1/2-1/2"),
        (Outcome(Termination.RESIGNATION, Player.SECOND), "0-1"),
    ],
)
def test_result(outcome: Outcome, result: str) -> None:
    assert outcome.result == result


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("termination", list(Termination))
def test_the_page_words_every_termination(termination: Termination, language: str) -> None:
    # The web page words a game's end by the termination's value (js/game/end-panel.js):
    # "end.full_board" for a draw, "end.VALUE.you" and "end.VALUE.they" for the others.
    words = catalogue(language)
    if termination is Termination.FULL_BOARD:
        assert words["end.full_board"]
    else:
        assert words[f"end.{termination.value}.you"]
        assert words[f"end.{termination.value}.they"]


def test_a_resignation_is_worded_by_who_gave_up() -> None:
    outcome = Outcome(Termination.RESIGNATION, Player.FIRST)
    assert outcome.describe() == "the second player resigned"
    assert outcome.describe("de") == "der zweite Spieler hat aufgegeben"
    assert Outcome(Termination.RESIGNATION, Player.SECOND).describe() == (
        "the first player resigned")


def test_describe_a_win() -> None:
    outcome = Outcome(
        Termination.WIN, Player.SECOND, (shape_by_id("row2"), shape_by_id("colB")),
        ((Trait.HEIGHT, True), (Trait.TOP, False)),
    )
    assert outcome.describe() == "row 2, column B: all tall and solid"
    assert outcome.describe("de") == "Reihe 2, Spalte B: alle groß und massiv"


def test_describe_a_declared_win_in_german() -> None:
    outcome = replay("1. 4 A15 2. B16 A27 3. B2!", "advanced").outcome
    assert outcome is not None
    assert outcome.describe() == "square A1-B2: all short and dark"
    assert outcome.describe("de") == "Quadrat A1-B2: alle klein und dunkel"


def test_describe_a_draw() -> None:
    assert Outcome(Termination.FULL_BOARD, None).describe() == "full board, no winner"
    assert Outcome(Termination.FULL_BOARD, None).describe("de") == "volles Brett, kein Sieger"
