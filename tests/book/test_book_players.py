"""Level 5 and hints near the empty board, where the shipped opening book judges
every turn: level 5 never gives a value away, and a hint is exact from the first
turn."""

from __future__ import annotations

import random

from quads import CLASSIC, QUADS, Game, Position, Rules
from quads.book import book_for
from quads.players import Perfect, make_player
from quads.players.club import rank_turns
from quads.players.hints import hint
from quads.solver import Value, solve


def covered_positions(count: int) -> list[Position]:
    """Positions of Quads reached by random play, with 14 to 16 empty cells."""
    chance = random.Random(5)
    positions = [Position.from_string("..../..../..../.... -")]
    while len(positions) < count:
        position = Position.from_string("..../..../..../.... -")
        for _ in range(chance.randrange(1, 4)):
            turns = list(position.legal_turns(QUADS))
            position = position.play(chance.choice(turns))
        positions.append(position)
    return positions


def test_level_5_never_leaves_the_books_best_value() -> None:
    book = book_for(QUADS)
    assert book is not None
    player = make_player(5, seed=3)
    for position in covered_positions(12):
        analysis = book.analysis(position, QUADS)
        assert analysis is not None
        turn = player.choose_turn(position, QUADS)
        chosen = next(m for m in analysis.moves if m.turn == turn)
        assert (chosen.value, chosen.plies) == (analysis.value, analysis.plies), position


def test_a_hint_is_exact_from_the_first_turn() -> None:
    game = Game(QUADS)
    advice = hint(game, seconds=0.01)  # no time to search: the book answers
    assert advice.value is Value.DRAW
    assert advice.reason_key != "hint.squeeze"
    game.play(advice.turn)  # type: ignore[arg-type]
    advice = hint(game, seconds=0.01)
    assert advice.value is Value.DRAW


def test_one_cell_past_the_book_level_5_keeps_the_books_draw() -> None:
    """With 13 empty cells the book holds the position's value but not its turns':
    level 5 confirms a squeeze with the solver instead of solving the position."""
    book = book_for(QUADS)
    assert book is not None
    chance = random.Random(8)
    player = make_player(5, seed=4)
    checked = 0
    while checked < 4:
        position = Position.from_string("..../..../..../.... -")
        while position.empty_count > 13 or position.hand is None:
            position = position.play(chance.choice(list(position.legal_turns(QUADS))))
        if book.score(position, QUADS) != 0:
            continue
        turn = player.choose_turn(position, QUADS)
        reply = solve(position.play(turn), QUADS)
        assert reply.value is not Value.WIN, (position, turn)
        checked += 1


def test_the_trap_tries_looser_turns_while_none_is_confirmed() -> None:
    # A drawn position whose six tightest squeezes all lose.
    position = Position.from_string("7.../0.../1.../.... E")
    player = make_player(5, seed=0)
    tightest = [turn for _, turn in rank_turns(position, QUADS)[:6]]
    assert all(solve(position.play(t), QUADS).value is Value.WIN for t in tightest)
    assert player._trap(position, QUADS, 10_000_000)[0] is None
    turn, _, _ = player._trap(position, QUADS, 1, reserve=8_000_000)
    assert turn is not None
    assert turn not in tightest
    assert solve(position.play(turn), QUADS).value is Value.DRAW


def test_in_classic_level_5_plays_from_the_book_down_to_12_empty_cells() -> None:
    book = book_for(CLASSIC)
    assert book is not None
    assert book.header.min_empty == 12
    chance = random.Random(13)
    player = make_player(5, seed=6)
    for _ in range(6):
        position = Position.from_string("..../..../..../.... -")
        while position.empty_count > 12 or position.hand is None:
            position = position.play(chance.choice(list(position.legal_turns(CLASSIC))))
        analysis = book.analysis(position, CLASSIC)
        assert analysis is not None
        turn = player.choose_turn(position, CLASSIC)
        chosen = next(m for m in analysis.moves if m.turn == turn)
        assert (chosen.value, chosen.plies) == (analysis.value, analysis.plies), position


def test_level_5_plays_a_game_from_the_book_it_is_given() -> None:
    shipped = book_for(CLASSIC)
    assert shipped is not None
    shorter = shipped.reaching(13)
    player = Perfect(3, book=shorter)
    assert player.book_for(CLASSIC) is shorter
    declaring = Rules.parse("lines:color,height,shape,top:declare")
    assert player.book_for(declaring) is shorter  # calling a win changes no value
    assert player.book_for(QUADS) is book_for(QUADS)  # another game: its own book
    assert Perfect(3).book_for(CLASSIC) is shipped
    # with 12 empty cells the shorter book judges no turn: the player searches, exactly
    chance = random.Random(2)
    position = Position.from_string("..../..../..../.... -")
    while position.empty_count > 12 or position.hand is None:
        position = position.play(chance.choice(list(position.legal_turns(CLASSIC))))
    assert shipped.covers(position)
    assert not shorter.covers(position)
    turn = player.choose_turn(position, CLASSIC)
    analysis = shipped.analysis(position, CLASSIC)
    assert analysis is not None
    chosen = next(m for m in analysis.moves if m.turn == turn)
    assert (chosen.value, chosen.plies) == (analysis.value, analysis.plies), position
