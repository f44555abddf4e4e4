"""Hints: the safe pieces, a suggested turn, its value and a reason in words."""

from __future__ import annotations

import pytest

from quads import IllegalActionError, read_record
from quads.bits import iter_bits
from quads.players.hints import hint
from quads.solver import Value, solve


def test_a_declaration_is_the_first_advice() -> None:
    game = read_record('[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1 *\n')
    advice = hint(game)
    assert advice.action == "declare"
    assert advice.reason() == "Call Quarto! now: you completed row 1 (all dark)."
    assert advice.reason("de") == "Jetzt „Quarto!“ rufen: Du hast Reihe 1 (alle dunkel) vollendet."


def test_a_claim_is_advised_after_a_missed_declaration() -> None:
    game = read_record('[Rules "classic"]\n\n1. 7 A1C 2. B1D C1E 3. D1?3 *\n')
    advice = hint(game)
    assert advice.action == "claim"
    assert "did not call it" in advice.reason()


def test_a_win_on_the_board_is_pointed_out() -> None:
    game = read_record("1. 7 A1C 2. B1D C1E *")
    advice = hint(game)
    assert str(advice.turn) == "D1"
    assert advice.value is Value.WIN
    assert advice.plies == 1
    assert advice.reason() == "Place it on D1: that completes row 1 (all dark)."


def test_the_only_safe_piece_is_explained_by_the_threat() -> None:
    game = read_record("1. 8 C17 2. A45 C44 3. D4B A19 4. B4E A2D 5. B11 *")
    advice = hint(game, seconds=5)
    assert advice.turn is not None
    assert advice.turn.place is not None
    after = game.position.place(advice.turn.place)
    assert advice.safe == after.safe_pieces(game.rules)
    assert advice.safe.bit_count() == 1
    assert advice.turn.give is not None
    assert advice.safe == 1 << advice.turn.give
    assert advice.reason() == "Every other piece lets your opponent complete column A."
    assert advice.reason("de") == "Mit jeder anderen Figur kann dein Gegenüber Spalte A vollenden."


def test_the_suggested_turn_keeps_the_solved_value() -> None:
    game = read_record("1. 0 A11 2. B12 C14 3. D28 A3F *")
    advice = hint(game, seconds=5)
    solution = solve(game.position, game.rules)
    assert advice.value is solution.value
    assert advice.turn is not None
    assert advice.turn.give is not None
    assert advice.safe >> advice.turn.give & 1
    assert all(advice.safe >> p & 1 for p in iter_bits(advice.safe))


def test_too_early_to_solve_counts_the_pieces_that_may_be_handed_over() -> None:
    # One piece down under rules with no opening book: solving takes seconds, some
    # seventy times the time given (a table warmed by earlier searches cannot close it).
    game = read_record('[Rules "lines:color,height,shape"]\n\n1. 0 A11 *\n')
    advice = hint(game, seconds=0.05)
    assert advice.reason_key == "hint.squeeze"
    total = 14  # 0 is down and 1 is in hand: fourteen are left to hand over
    assert advice.reason_params["total"] == total
    assert advice.reason_params["safe"] == advice.safe.bit_count() <= total
    assert f"of the {total} pieces you may hand over" in advice.reason()
    assert f"der {total} Figuren, die du weitergeben darfst" in advice.reason("de")


def test_no_hint_after_the_end() -> None:
    game = read_record("1. 7 A1C 2. B1D C1E 3. D1! 1-0")
    with pytest.raises(IllegalActionError):
        hint(game)
