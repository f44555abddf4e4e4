"""Bad input and illegal actions.

Every malformed string raises the matching :class:`~quads.errors.QuadsError`
subclass (all are ``ValueError``) with a message that quotes the input, and
every illegal action raises :class:`IllegalActionError` and leaves the game as
it was.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from helpers import ALL_ACTIONS, replay, snapshot
from quads import (
    Action,
    Claim,
    Declare,
    Decline,
    Game,
    Give,
    IllegalActionError,
    InvalidCellError,
    InvalidPieceError,
    InvalidPositionError,
    InvalidRecordError,
    InvalidRulesError,
    Place,
    Position,
    QuadsError,
    Rules,
    Turn,
    parse_cell,
    parse_piece,
    read_record,
)

ROW_1 = "1. 4 A15 2. B16 C17 3. D1"
SIXTEENTH = (
    "1. C A1B 2. B1F C10 3. D16 A2A 4. B28 C23 5. D29 A34 6. B31 C32 7. D37 A4E 8. B45 "
    "C4D 9. D4"
)
FULL_BOARD_DRAW = (
    "1. 1 A1A 2. B10 C1E 3. D12 A2F 4. B23 C25 5. D2D A38 6. B36 C39 7. D3B A47 8. B4C "
    "C44 9. D4"
)


def test_every_error_is_a_value_error() -> None:
    for error in (InvalidCellError, InvalidPieceError, InvalidRulesError, InvalidPositionError,
                  InvalidRecordError, IllegalActionError):
        assert issubclass(error, QuadsError)
    assert issubclass(QuadsError, ValueError)


# -- malformed strings --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("..../..../.... -", "four rows of four characters"),  # three rows
        ("..../..../..../..../.... -", "four rows of four characters"),  # five rows
        ("...../..../..../.... -", "four rows of four characters"),  # a long row
        (".../..../..../.... -", "four rows of four characters"),  # a short row
        ("................ -", "four rows of four characters"),  # no separators
        ("..x./..../..../.... -", "'x' at C1 is neither '.' nor a hex digit"),
        ("..../..../..../...- -", "'-' at D4 is neither"),
        ("..../..../..../.... G", "the piece in hand must be a hex digit or '-', not 'G'"),
        ("..../..../..../.... 10", "not '10'"),
        ("..../..../..../.... .", "not '.'"),
        ("..../..../..../....", "expected four rows and the piece in hand"),
        ("..../..../..../.... - 7", "expected four rows and the piece in hand"),
        ("", "expected four rows and the piece in hand"),
        ("F..F/..../..../.... -", "piece F appears twice"),
        ("F.../..../..../...f -", "piece F appears twice"),
        ("F.../..../..../.... F", "piece F is in hand and on the board"),
        ("0123/4567/89AB/CDEF 0", "piece 0 is in hand and on the board"),
    ],
)
def test_malformed_position_strings(text: str, why: str) -> None:
    with pytest.raises(InvalidPositionError, match=why) as info:
        Position.from_string(text)
    assert repr(text) in str(info.value)


def test_position_from_something_else_than_a_string() -> None:
    with pytest.raises(InvalidPositionError, match="expected a string"):
        Position.from_string(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("board", "hand"),
    [({0: 1, 1: 1}, None), ({0: 1}, 1), ({16: 1}, None), ({0: 16}, None), ({}, 16), ({-1: 0}, 0)],
)
def test_impossible_positions_from_pieces(board: dict[int, int], hand: int | None) -> None:
    with pytest.raises(InvalidPositionError):
        Position.from_pieces(board, hand)


@pytest.mark.parametrize(
    ("parse", "text", "error"),
    [
        (parse_cell, "E1", InvalidCellError),
        (parse_cell, "A0", InvalidCellError),
        (parse_cell, "", InvalidCellError),
        (parse_piece, "G", InvalidPieceError),
        (parse_piece, "1F", InvalidPieceError),
        (Turn.parse, "A1FF", InvalidCellError),
        (Turn.parse, "Q", InvalidPieceError),
    ],
)
def test_malformed_cells_pieces_and_turns(
    parse: Callable[[str], object], text: str, error: type[QuadsError]
) -> None:
    with pytest.raises(error) as info:
        parse(text)
    assert repr(text) in str(info.value)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("lines:colour", "'colour' is not a preset"),
        ("triangles", "'triangles' is not a preset"),
        ("quads:lines", "'quads' is not a preset"),
        ("lines::auto", "invalid trait list ''"),
        ("lines:color,:auto", "invalid trait list 'color,'"),
        ("lines:,color", "invalid trait list ',color'"),
        ("lines:color,color", "'color' given twice"),
        ("lines:height,top,height", "'height' given twice"),
        ("lines:lines+squares", "shapes given twice"),
        ("lines:color:lines", "shapes given twice"),
        ("auto:declare", "calling given twice"),
        ("color:height", "traits given twice"),
        ("", "empty name"),
        ("   ", "empty name"),
    ],
)
def test_malformed_rule_set_names(text: str, why: str) -> None:
    with pytest.raises(InvalidRulesError, match=why) as info:
        Rules.parse(text)
    assert repr(text) in str(info.value)


def test_rule_set_name_of_the_wrong_type() -> None:
    with pytest.raises(InvalidRulesError):
        Rules.parse(None)  # type: ignore[arg-type]


# -- malformed records --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "quoted", "why"),
    [
        ('[Event "x"\n\n*', '[Event "x"', "line 1: malformed header"),
        ("[Event x]\n\n*", "[Event x]", "malformed header"),
        ('[Event "x"] [Site "y"]\n\n*', '[Event "x"] [Site "y"]', "malformed header"),
        ('[1st "x"]\n\n*', '[1st "x"]', "malformed header"),
        ('[Event "a "b" c"]\n\n*', '[Event "a "b" c"]', "malformed header"),
        ('[Event "a"]\n[Event "b"]\n\n*', "Event", "line 2: header 'Event' given twice"),
        ('[Rules "lines:colour"]\n\n*', "lines:colour", "bad header: invalid rule set"),
        ('[Position "..../..../.... -"]\n\n*', "..../..../.... -", "bad header: invalid position"),
        ("1. 7 Z9", "Z9", "expected a cell and a piece"),
        ("1. 7 A1F3", "A1F3", "expected a cell and a piece"),
        ("1. 7 A1-F", "A1-F", "expected a cell and a piece"),
        ("1. A1F", "A1F", "a piece must be handed over here"),
        ("1. 7 3", "3", "piece 7 must be placed here"),
        ("1. 7 A1C 2. A13", "A13", "cannot place on A1: the cell is taken"),
        ("1. 7 A17", "A17", "cannot give 7: it is not in the supply"),
        ("1. 7 A1 B2C", "A1", "must be followed by the piece handed over"),
        ("2. 7", "2.", "expected the turn number 1."),
        ("1. 7 2. A1C", "2.", "before the first player's turn"),
        ("1. 7 A1C 3. B2D", "3.", "expected the turn number 2."),
        ("1. 7 1-0", "1-0", "the move text says '1-0' but the game's result is '\\*'"),
        ("1. 4 A15 2. B16 C17 3. D1! 0-1", "0-1", "says '0-1' but the game's result is '1-0'"),
        ("1. 7 * A1C", "*", "the result must end the move text"),
        ('[Result "1-0"]\n\n1. 7 *', "1-0", "the Result header says '1-0'"),
        ('[Result "*"]\n\n' + FULL_BOARD_DRAW, "*", "the Result header says '\\*'"),
        ("1. 7 A1!", "A1!", "completes no winning shape"),
        ("1. 7 A1?C", "A1?C", "completes no winning shape"),
        ("1. 7 !", "!", "no missed declaration to claim"),
        (ROW_1 + "! 8", "8", "the game is already over"),
        (ROW_1 + "8", "D18", "the game ends with this placement"),
        ('[Rules "classic"]\n\n' + ROW_1 + "8", "D18", "completes row 1: write D1!"),
        ('[Rules "classic"]\n\n' + ROW_1 + "?8 A3C !", "!", "no missed declaration"),
        ('[Rules "classic"]\n\n' + SIXTEENTH + "?5", "D4?5", "cannot give 5"),
    ],
)
def test_malformed_records(text: str, quoted: str, why: str) -> None:
    with pytest.raises(InvalidRecordError, match=why) as info:
        read_record(text)
    assert repr(quoted) in str(info.value)


# -- illegal actions ----------------------------------------------------------------------------

def check_refused(game: Game, action: Action, why: str) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=why):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("moves", "rules", "action", "why"),
    [
        ("1. 7", "quads", Give(3), "cannot give 3: piece 7 must be placed first"),
        ("", "quads", Place(0), "cannot place on A1: a piece must be handed over first"),
        ("1. 7 A1", "quads", Place(1), "a piece must be handed over first"),
        ("1. 7 A1C", "quads", Place(0), "cannot place on A1: the cell is taken"),
        ("1. 7 A1", "quads", Give(7), "cannot give 7: it is not in the supply"),
        ("1. 7 A1C 2. B2", "quads", Give(0xC), "cannot give C: it is not in the supply"),
        ("", "classic", Declare(), "cannot declare"),
        ("1. 7", "classic", Claim(), "cannot claim"),
        ("1. 7 A1", "classic", Decline(), "cannot decline"),
        ("1. 7 A1", "classic", Declare(), "the last placement completed no winning shape"),
        ("1. 7", "classic", Declare(), "a placement must come first"),
        ("1. 7 A1", "classic", Claim(), "a claim is made before placing"),
        ("1. 7 A1C", "classic", Claim(), "the opponent missed no declaration"),
        (ROW_1, "classic", Claim(), "a claim is made before placing"),
        (ROW_1 + "?8", "classic", Declare(), "cannot declare"),
        (ROW_1 + "?8 B2", "classic", Claim(), "cannot claim"),
        (SIXTEENTH, "classic", Give(0), "not in the supply"),
    ],
)
def test_illegal_actions_are_refused_and_change_nothing(
    moves: str, rules: str, action: Action, why: str
) -> None:
    game = replay(moves, rules)
    check_refused(game, action, why)
    assert action not in game.legal_actions()


@pytest.mark.parametrize(
    ("moves", "rules"),
    [
        (ROW_1 + "!", "quads"),  # a win
        (ROW_1 + "!", "classic"),  # a declaration
        (ROW_1 + "?8 !", "classic"),  # a claim
        (FULL_BOARD_DRAW, "quads"),  # a full board
        (SIXTEENTH + "?", "classic"),  # a sixteenth piece not declared
        (SIXTEENTH + "!", "classic"),  # a sixteenth piece declared
    ],
)
def test_no_action_after_the_game_is_over(moves: str, rules: str) -> None:
    game = replay(moves, rules)
    assert game.is_over()
    for action in ALL_ACTIONS:
        check_refused(game, action, "the game is over")


@pytest.mark.parametrize(
    ("moves", "rules"),
    [("", "quads"), ("1. 7", "quads"), ("1. 7 A1", "quads"), (ROW_1, "classic"),
     (ROW_1 + "?8", "classic"), (SIXTEENTH, "classic")],
)
def test_exactly_the_legal_actions_are_accepted(moves: str, rules: str) -> None:
    game = replay(moves, rules)
    legal = game.legal_actions()
    for action in ALL_ACTIONS:
        if action in legal:
            game.copy().apply(action)
        else:
            with pytest.raises(IllegalActionError):
                game.copy().apply(action)


def test_undo_with_no_history_changes_nothing() -> None:
    game = Game()
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="no action has been played"):
        game.undo()
    assert snapshot(game) == before


def test_redo_with_nothing_undone_changes_nothing() -> None:
    game = replay("1. 7 A1C")
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="nothing has been undone"):
        game.redo()
    assert snapshot(game) == before


def test_play_of_a_turn_whose_second_part_is_illegal_changes_nothing() -> None:
    game = replay("1. 7 A1C")
    b2 = parse_cell("B2")
    for turn, why in [
        (Turn(b2, 7), "cannot give 7"),  # on the board
        (Turn(b2, 0xC), "cannot give C"),  # the piece just placed
        (Turn(0, 3), "the cell is taken"),
        (Turn(None, 3), "piece C must be placed first"),
    ]:
        before = snapshot(game)
        with pytest.raises(IllegalActionError, match=why):
            game.play(turn)
        assert snapshot(game) == before


def test_play_of_a_turn_after_a_missed_chance_to_undo() -> None:
    game = replay("1. 7 A1C")
    game.undo()
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.play(Turn(parse_cell("B2"), 3))
    assert snapshot(game) == before
    assert game.can_redo()


@pytest.mark.parametrize("cell", [16, -1, 99])
def test_cells_off_the_board_are_refused(cell: int) -> None:
    game = replay("1. 7")
    before = snapshot(game)
    with pytest.raises(InvalidCellError, match=str(cell)):
        game.place(cell)
    with pytest.raises(InvalidCellError):
        game.position.place(cell)
    assert snapshot(game) == before


@pytest.mark.parametrize("piece", [16, -1, 99])
def test_pieces_that_do_not_exist_are_refused(piece: int) -> None:
    game = Game()
    before = snapshot(game)
    with pytest.raises(InvalidPieceError, match=str(piece)):
        game.give(piece)
    with pytest.raises(InvalidPieceError):
        game.position.give(piece)
    assert snapshot(game) == before


# ---- what is wrong, for any language ----------------------------------------------------
# Each exception names what is wrong (``reason``) and the values it speaks of
# (``params``), so that a page can word it in its reader's language.

from quads import QUADS  # noqa: E402

REASONS: list[tuple[Callable[[], object], type[QuadsError], str, dict[str, str | int]]] = [
    (lambda: Position.from_string("0123/..../..../.... -").check(QUADS),
     InvalidPositionError, "already_won", {"shape": "row1"}),
    (lambda: Position.from_string("0..0/..../..../.... -"),
     InvalidPositionError, "piece_twice", {"piece": "0"}),
    (lambda: Position.from_string("0.../..../..../.... 0"),
     InvalidPositionError, "hand_on_board", {"piece": "0"}),
    (lambda: Position.from_string("0.x./..../..../.... -"),
     InvalidPositionError, "character", {"char": "x", "cell": "C1"}),
    (lambda: Position.from_string("..../..../.... -"),
     InvalidPositionError, "rows", {"position": "..../..../.... -"}),
    (lambda: Position.from_string("..../..../..../.... Z"),
     InvalidPositionError, "hand", {"hand": "Z"}),
    (lambda: read_record("1. 7 1. A1C *"),
     InvalidRecordError, "turn_number", {"token": "1.", "number": 1}),
    (lambda: read_record("1" * 5000 + ". 7 *"),
     InvalidRecordError, "turn_number", {"token": "1" * 5000 + ".", "number": 1}),
    (lambda: read_record("1. 7 A1C 2. A1D *"),
     InvalidRecordError, "cell_taken", {"token": "A1D", "cell": "A1"}),
    (lambda: read_record("1. 7 A1 2. B1D *"),
     InvalidRecordError, "piece_missing", {"token": "A1"}),
    (lambda: read_record("1. 7 A1C 2. B1D C1E 3. D1 *"),
     InvalidRecordError, "mark_win", {"token": "D1", "cell": "D1"}),
    (lambda: read_record("1. 7 A1C 1-0 2. B1D *"),
     InvalidRecordError, "result_not_last", {"token": "1-0"}),
    (lambda: read_record("1. 7 A1C 1-0"),
     InvalidRecordError, "result_mismatch", {"claimed": "1-0", "actual": "*"}),
    (lambda: read_record('[Termination "abandoned"]\n\n1. 7 A1C 1-0'),
     InvalidRecordError, "termination", {"termination": "abandoned"}),
    (lambda: read_record('[Termination "resignation"]\n\n1. 7 A1C *'),
     InvalidRecordError, "resignation_result", {"result": "*"}),
    (lambda: read_record('[Termination "resignation"]\n\n1. 0 A11 2. B12 C13 3. D1! 1-0'),
     InvalidRecordError, "resigned_after_end", {}),
    (lambda: read_record('[Position "0123/..../..../.... -"]\n\n*'),
     InvalidRecordError, "header_value", {"shape": "row1"}),
    (lambda: parse_cell("E5"), InvalidCellError, "cell", {"cell": "E5"}),
    (lambda: parse_piece("G"), InvalidPieceError, "piece", {"piece": "G"}),
    (lambda: Rules.parse("lines:lines"), InvalidRulesError, "rules", {"rules": "lines:lines"}),
    (lambda: Game().apply(Place(0)), IllegalActionError, "give_first", {"cell": "A1"}),
    (lambda: Game().apply(Declare()), IllegalActionError, "nothing_to_declare", {}),
]


@pytest.mark.parametrize(("fault", "kind", "reason", "params"), REASONS)
def test_each_error_says_what_is_wrong(fault: Callable[[], object], kind: type[QuadsError],
                                       reason: str, params: dict[str, str | int]) -> None:
    with pytest.raises(kind) as caught:
        fault()
    assert (caught.value.reason, caught.value.params) == (reason, params)


def test_an_error_keeps_what_is_wrong_when_pickled() -> None:
    import pickle

    error = InvalidRecordError("token '1.': ...", "turn_number", token="1.", number=1)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.reason, copy.params) == (
        InvalidRecordError, "token '1.': ...", "turn_number", {"token": "1.", "number": 1})
    assert (QuadsError("plain").reason, QuadsError("plain").params) == ("", {})
