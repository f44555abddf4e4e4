"""OpenSpiel's ``quarto`` game, worked out again in plain Python from its C++ source.

The game (``open_spiel/games/quarto/quarto.cc``, proposed to OpenSpiel in its pull
request 1557 and not in a release yet) has 16 action numbers whose meaning depends
on the phase: in the select phase the number is the piece handed over and the
turn passes; in the place phase it is the cell (``row * 4 + column``) where the
selected piece goes, and the same player then selects.  A placement after which
a row, a column or a long diagonal holds four pieces with a common bit (set or
clear) in their 4-bit codes wins for the placer; the sixteenth placement without
one ends in a draw.  Returns are +1 and -1, or 0 each.

This model has the methods of a ``pyspiel.State`` that the correspondence test
calls, so the test runs against it always and against ``pyspiel`` when an
installed OpenSpiel has the game.
"""

from __future__ import annotations

LINES = (
    *[tuple(row * 4 + col for col in range(4)) for row in range(4)],
    *[tuple(row * 4 + col for row in range(4)) for col in range(4)],
    (0, 5, 10, 15),
    (3, 6, 9, 12),
)


class QuartoModel:
    """A game of OpenSpiel's quarto from its first selection."""

    def __init__(self) -> None:
        self.board: list[int | None] = [None] * 16
        self.used = 0
        self.selected: int | None = None
        self.player = 0
        self.winner: int | None = None
        self.over = False

    def current_player(self) -> int:
        """The player to act (-4, OpenSpiel's terminal player id, once the game is over)."""
        return -4 if self.over else self.player

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.over

    def legal_actions(self) -> list[int]:
        """The unused pieces when selecting, the empty cells when placing, in order."""
        if self.over:
            return []
        if self.selected is None:
            return [piece for piece in range(16) if not self.used >> piece & 1]
        return [cell for cell in range(16) if self.board[cell] is None]

    def apply_action(self, action: int) -> None:
        """Select piece ``action``, or place the selected piece on cell ``action``."""
        assert action in self.legal_actions()
        if self.selected is None:
            self.selected = action
            self.used |= 1 << action
            self.player = 1 - self.player
            return
        self.board[action] = self.selected
        self.selected = None
        if any(self._common_bit(line) for line in LINES):
            self.winner = self.player
            self.over = True
        elif all(piece is not None for piece in self.board):
            self.over = True

    def returns(self) -> list[float]:
        """+1 to the winner and -1 to the loser, or 0 each."""
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def _common_bit(self, line: tuple[int, ...]) -> bool:
        pieces = [self.board[cell] for cell in line]
        if any(piece is None for piece in pieces):
            return False
        ones = zeros = 0xF
        for piece in pieces:
            assert piece is not None
            ones &= piece
            zeros &= ~piece
        return bool(ones or zeros)
