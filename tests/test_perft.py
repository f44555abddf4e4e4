"""Move counts pinned per rule set, in the spirit of chess perft.

``perft(n)`` is the number of sequences of ``n`` record tokens (one token per
turn, or ``!`` for a claim) from a position; a token that ends the game
counts only at the last ply.  Every pinned number is checked twice: against
the library (grouping a game's actions into tokens) and against the plain
counter of ``naive.py``, which knows nothing of :mod:`quads`.  At depth 1 it
is checked a third time by offering every possible token text to the
notation reader.
"""

from __future__ import annotations

import pytest

import naive
from helpers import RULE_SETS, replay
from quads import (
    CLASSIC,
    EMPTY,
    Claim,
    Game,
    GameState,
    Give,
    IllegalActionError,
    InvalidRecordError,
    Position,
    Rules,
)
from quads.cells import CELL_NAMES
from quads.notation import parse_token

PERFT: dict[str, dict[str, tuple[int, ...]]] = {
    # Mid-game, ten pieces down: squares, declarations and claims all change the counts.
    "F38./D2../0.4./B6A. C": {
        "quads": (22, 292, 2160),
        "classic": (31, 645, 8056),
        "advanced": (32, 661, 8386),
        "lines:color:auto": (30, 600, 7200),
        "lines+squares:height,top:declare": (32, 638, 7826),
        "lines:shape": (30, 522, 5104),
    },
    # The same board, but the side to move must hand over first.
    "F38./D2../0.4./B6A. -": {
        "quads": (6, 136, 1843),
        "classic": (6, 188, 3865),
        "advanced": (6, 191, 3958),
        "lines:color:auto": (6, 180, 3600),
        "lines+squares:height,top:declare": (6, 187, 3828),
        "lines:shape": (6, 164, 2840),
    },
    ".0../5C../6BD./48.1 E": {
        "quads": (27, 536, 7046),
        "classic": (43, 1306, 26474),
        "advanced": (45, 1350, 27534),
        "lines:color:auto": (37, 1016, 18740),
        "lines+squares:height,top:declare": (44, 1329, 27059),
        "lines:shape": (42, 1212, 23100),
    },
    # The end game, to the sixteenth piece: declines and full boards are counted too.
    "A418/.E../0B.F/D792 C": {
        "quads": (6, 13, 16, 4),
        "classic": (14, 86, 210, 258),
        "advanced": (15, 96, 254, 318),
        "lines:color:auto": (12, 72, 144, 132),
        "lines+squares:height,top:declare": (15, 93, 220, 252),
        "lines:shape": (12, 64, 112, 80),
    },
}

EMPTY_BOARD_PERFT = (16, 16 * 16 * 15, 16 * 16 * 15 * 15 * 14)
"""No shape can be completed in the first three tokens, so every rule set agrees."""

SAFE: dict[str, tuple[int, ...]] = {
    # Safe pieces per rule set, in the order of ``RULE_SETS``.
    "..../..../..../.... -": (16, 16, 16, 16, 16, 16),
    "FE7./..../..../.... -": (4, 4, 4, 8, 13, 8),
    "..8C/..../..B./67D. -": (2, 4, 2, 6, 3, 10),
    "4.../28../.3CE/.... -": (2, 3, 2, 10, 7, 5),
    "F38./D2../0.4./B6A. -": (0, 1, 0, 6, 1, 4),
    "A418/.E../0B.F/D792 -": (0, 1, 0, 4, 0, 2),
    "A418/.E../0B.F/D792 C": (0, 1, 0, 3, 0, 1),
}

CASES = [(position, rules) for position, counts in PERFT.items() for rules in counts]


def perft(state: GameState, rules: Rules, depth: int) -> int:
    """Count token sequences with the library, grouping each turn's actions into a token."""
    if depth == 0:
        return 1
    leaf = depth == 1
    total = 0
    for action in state.legal_actions():
        if isinstance(action, Claim):
            total += leaf
            continue
        after = state.apply(action, rules)
        if isinstance(action, Give):  # a hand-over with no placement before it
            total += perft(after, rules, depth - 1)
        elif after.outcome is not None:  # a placement that ends the game
            total += leaf
        else:  # the placer declares, declines or hands over: that ends the token
            for second in after.legal_actions():
                if isinstance(second, Give) and not leaf:
                    total += perft(after.apply(second, rules), rules, depth - 1)
                else:
                    total += leaf
    return total


def candidate_tokens() -> list[str]:
    pieces = "0123456789ABCDEF"
    return ["!", *pieces] + [
        cell + mark + piece for cell in CELL_NAMES for mark in ("", "!", "?")
        for piece in ["", *pieces]
    ]


def readable_tokens(state: GameState, rules: Rules) -> int:
    """How many token texts the record reader accepts and can play here, mid-record."""
    readings = set()
    for token in candidate_tokens():
        try:
            actions = parse_token(token, state, rules, last=False)
            after = state
            for action in actions:
                after = after.apply(action, rules)
        except (InvalidRecordError, IllegalActionError):
            continue
        readings.add(tuple(actions))
    return len(readings)


def test_the_cases_differ_between_rule_sets() -> None:
    assert tuple(PERFT["F38./D2../0.4./B6A. C"]) == RULE_SETS
    for counts in PERFT.values():
        assert len(set(counts.values())) == len(RULE_SETS)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_perft_from_the_empty_board(rules: str) -> None:
    parsed = Rules.parse(rules)
    state = Game(parsed).state
    board, hand = naive.parse(EMPTY.to_string())
    for depth, pinned in ((1, EMPTY_BOARD_PERFT[0]), (2, EMPTY_BOARD_PERFT[1])):
        assert perft(state, parsed, depth) == pinned
        assert naive.count(board, hand, depth, naive.VARIANTS[rules]) == pinned


def test_perft_three_from_the_empty_board() -> None:
    # The same for every rule set (no shape can be completed yet), so counted once.
    assert perft(Game(CLASSIC).state, CLASSIC, 3) == EMPTY_BOARD_PERFT[2]
    board, hand = naive.parse(EMPTY.to_string())
    assert naive.count(board, hand, 3, naive.VARIANTS["classic"]) == EMPTY_BOARD_PERFT[2]


@pytest.mark.parametrize(("position", "rules"), CASES)
def test_perft_by_the_library(position: str, rules: str) -> None:
    game = Game(Rules.parse(rules), Position.from_string(position))
    pinned = PERFT[position][rules]
    assert tuple(perft(game.state, game.rules, d) for d in range(1, len(pinned) + 1)) == pinned


@pytest.mark.parametrize(("position", "rules"), CASES)
def test_perft_by_the_naive_counter(position: str, rules: str) -> None:
    board, hand = naive.parse(position)
    pinned = PERFT[position][rules]
    variant = naive.VARIANTS[rules]
    assert tuple(naive.count(board, hand, d, variant) for d in range(1, len(pinned) + 1)) == pinned


@pytest.mark.parametrize(("position", "rules"), CASES)
def test_perft_one_by_the_record_reader(position: str, rules: str) -> None:
    game = Game(Rules.parse(rules), Position.from_string(position))
    assert readable_tokens(game.state, game.rules) == PERFT[position][rules][0]


@pytest.mark.parametrize("rules", ["classic", "advanced", "lines+squares:height,top:declare"])
def test_perft_one_with_a_claim_pending(rules: str) -> None:
    # D1 completes row 1 (4 5 6 7) and is missed; the receiver may claim, or place 8 on
    # one of twelve cells (completing nothing) and hand over one of eleven pieces.
    game = replay("1. 4 A15 2. B16 C17 3. D1?8", rules)
    assert game.can_claim()
    assert perft(game.state, game.rules, 1) == 1 + 12 * 11
    assert readable_tokens(game.state, game.rules) == 1 + 12 * 11
    board, hand = naive.parse(game.position.to_string())
    assert naive.count(board, hand, 1, naive.VARIANTS[rules], claim=True) == 1 + 12 * 11


@pytest.mark.parametrize("position", SAFE)
@pytest.mark.parametrize("rules", RULE_SETS)
def test_number_of_safe_pieces(position: str, rules: str) -> None:
    expected = SAFE[position][RULE_SETS.index(rules)]
    safe = Position.from_string(position).safe_pieces(Rules.parse(rules))
    assert safe.bit_count() == expected
    board, hand = naive.parse(position)
    assert naive.safe_count(board, hand, naive.VARIANTS[rules]) == expected
