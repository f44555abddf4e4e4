"""Game records, read and written (``docs/record-format.md``)."""

from __future__ import annotations

import pytest

from helpers import replay
from quads import (
    CLASSIC,
    EMPTY,
    QUADS,
    Game,
    InvalidRecordError,
    Player,
    Position,
    Termination,
    read_record,
    write_record,
)
from quads.record import RESULTS, player_name

CLUB_NIGHT = """\
[Event "Club night"]
[Date "2026.11.30"]
[First "Ada"]
[Second "Ben"]
[Rules "classic"]
[Result "0-1"]

1. 4 A15 2. B16 C17 3. D1?8 ! 0-1
"""

FULL_BOARD = """\
[Rules "quads"]
[Result "1/2-1/2"]

1. 1 A1A 2. B10 C1E 3. D12 A2F 4. B23 C25 5. D2D A38 6. B36 C39 7. D3B A47 8.
B4C C44 9. D4 1/2-1/2
"""

FROM_A_POSITION = """\
[Rules "lines+squares:height,top:declare"]
[Position "F..0/..A./..../.3.. 7"]
[Result "*"]

1. B2C D2 *
"""

RECORDS = [
    CLUB_NIGHT,
    FULL_BOARD,
    FROM_A_POSITION,
    '[Rules "quads"]\n[Result "*"]\n\n*\n',
    '[Rules "quads"]\n[Result "1-0"]\n\n1. 4 A15 2. B16 C17 3. D1! 1-0\n',
    '[Rules "advanced"]\n[Result "*"]\n\n1. 4 A15 2. B16 C17 3. D1 *\n',
    '[Rules "lines:shape,top:auto"]\n[Result "*"]\n\n1. 4 A15 2. B16 C17 3. D18 *\n',
]


@pytest.mark.parametrize("text", RECORDS)
def test_a_written_record_reads_back_and_writes_the_same(text: str) -> None:
    game = read_record(text)
    assert write_record(game) == text
    again = read_record(write_record(game))
    assert again.actions == game.actions
    assert again.states == game.states


def test_read_record() -> None:
    game = read_record(CLUB_NIGHT)
    assert game.rules == CLASSIC
    assert game.start == EMPTY
    assert game.headers == {
        "Event": "Club night", "Date": "2026.11.30", "First": "Ada", "Second": "Ben",
    }
    assert game.outcome is not None
    assert game.outcome.termination is Termination.CLAIM
    assert game.outcome.winner is Player.SECOND
    assert player_name(game, Player.SECOND) == "Ben"


def test_player_names_default_to_first_and_second() -> None:
    game = Game()
    assert player_name(game, Player.FIRST) == "first"
    assert player_name(game, Player.SECOND) == "second"


def test_read_record_from_a_start_position() -> None:
    game = read_record(FROM_A_POSITION)
    assert game.start == Position.from_string("F..0/..A./..../.3.. 7")
    assert game.rules.name == "lines+squares:height,top:declare"
    assert game.states[0].to_move is Player.FIRST
    assert game.position.to_string() == "F..0/.7AC/..../.3.. -"
    assert game.to_move is Player.SECOND  # who still has to hand over


def test_write_record_of_a_new_game() -> None:
    assert write_record(Game()) == '[Rules "quads"]\n[Result "*"]\n\n*\n'


def test_headers_are_written_in_the_usual_order_then_as_given() -> None:
    game = replay("1. 7")
    game.headers.update({"Zeta": "z", "Second": "Ben", "Alpha": "a", "Event": "E"})
    assert write_record(game).splitlines()[:7] == [
        '[Event "E"]', '[Second "Ben"]', '[Rules "quads"]', '[Result "*"]',
        '[Zeta "z"]', '[Alpha "a"]', "",
    ]


def test_rules_result_and_position_headers_come_from_the_game() -> None:
    game = replay("1. 7")
    game.headers.update({"Rules": "classic", "Result": "1-0", "Position": "..../..../..../.... 3"})
    text = write_record(game)
    assert '[Rules "quads"]' in text
    assert '[Result "*"]' in text
    assert "Position" not in text


def test_quotes_and_backslashes_in_header_values_round_trip() -> None:
    game = Game()
    game.headers["Event"] = 'The "big" one \\ final'
    text = write_record(game)
    assert '[Event "The \\"big\\" one \\\\ final"]' in text
    assert read_record(text).headers["Event"] == 'The "big" one \\ final'


def test_missing_headers_default_to_quads_from_the_empty_board() -> None:
    game = read_record("1. 7 A1C *")
    assert game.rules == QUADS
    assert game.start == EMPTY
    assert game.headers == {}
    assert len(game.actions) == 3


def test_empty_record_is_a_new_game() -> None:
    game = read_record("")
    assert game.actions == ()
    assert game.rules == QUADS


def test_turn_numbers_and_the_result_are_optional() -> None:
    game = read_record('[Rules "classic"]\n\n4 A15 B16 C17 D1?8 !\n')
    assert game.outcome is not None
    assert game.outcome.result == "0-1"
    assert write_record(game).endswith("1. 4 A15 2. B16 C17 3. D1?8 ! 0-1\n")


def test_tokens_are_read_in_either_case_and_written_upper_case() -> None:
    game = read_record("1. a a1b\n")
    assert write_record(game).endswith("1. A A1B *\n")


def test_move_text_may_span_lines_and_spaces() -> None:
    game = read_record('[Rules "classic"]\n\n1. 4\n  A15   2. B16\n\nC17 3. D1?8\n! 0-1\n')
    assert write_record(game) == write_record(read_record(CLUB_NIGHT)).replace(
        '[Event "Club night"]\n[Date "2026.11.30"]\n[First "Ada"]\n[Second "Ben"]\n', ""
    )


def test_long_move_text_is_wrapped_before_80_characters() -> None:
    text = write_record(read_record(FULL_BOARD))
    assert all(len(line) < 80 for line in text.splitlines())
    assert text == FULL_BOARD


def test_results() -> None:
    assert RESULTS == ("1-0", "0-1", "1/2-1/2", "*")
    assert read_record(CLUB_NIGHT).outcome is not None
    first_wins = replay("1. 4 A15 2. B16 C17 3. D1! 1-0")
    assert write_record(first_wins).endswith("3. D1! 1-0\n")


def test_a_record_with_a_start_position_writes_it() -> None:
    game = Game(CLASSIC, Position.from_string("4567/..../..../.... 8"))
    text = write_record(game)
    assert '[Position "4567/..../..../.... 8"]' in text
    assert read_record(text).start == game.start


def test_a_record_refuses_a_start_position_impossible_under_its_rules() -> None:
    with pytest.raises(InvalidRecordError, match="row 1 is already won"):
        read_record('[Rules "quads"]\n[Position "4567/..../..../.... 8"]\n\n*\n')


def test_line_breaks_in_a_header_value_are_written_as_spaces() -> None:
    game = Game()
    game.headers["Event"] = 'Club\nnight "B"'
    text = write_record(game)
    assert '[Event "Club night \\"B\\""]' in text.splitlines()
    assert read_record(text).headers["Event"] == 'Club night "B"'


def test_a_header_key_that_cannot_be_read_back_is_refused() -> None:
    game = Game()
    game.headers["Bad key"] = "x"
    with pytest.raises(InvalidRecordError, match="'Bad key'"):
        write_record(game)
