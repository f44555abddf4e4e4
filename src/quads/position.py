"""An immutable position: the board, and the piece the side to move must place.

The board is five 16-bit masks: the occupied cells, and for each trait bit
the cells whose piece has that bit set.  A position knows nothing of the rule
set; every question whose answer depends on it takes a :class:`~quads.rules.Rules`.

Its text form (RULES.md, "Position string") is ``ROW1/ROW2/ROW3/ROW4 HAND``,
e.g. ``F..0/..A./..../.3.. 7``; ``HAND`` is ``-`` when the side to move must
first hand over a piece.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from quads.bits import iter_bits
from quads.cells import Cell, cell_name
from quads.errors import IllegalActionError, InvalidPositionError
from quads.pieces import ALL_PIECES, Piece, piece_name
from quads.rules import Rules
from quads.shapes import Shape
from quads.turn import Turn

__all__ = ["EMPTY", "Position", "WinCondition", "pieces_with"]

_HEX = "0123456789ABCDEF"


def _pieces_with(bit: int, value: int) -> int:
    return sum(1 << p for p in range(16) if (p >> bit) & 1 == value)


_PIECES_WITH: tuple[tuple[int, int], ...] = tuple(
    (_pieces_with(bit, 0), _pieces_with(bit, 1)) for bit in range(4)
)


def pieces_with(bit: int, value: bool) -> int:
    """Return the set of pieces whose trait ``bit`` equals ``value``, as a mask."""
    return _PIECES_WITH[bit][int(value)]


class WinCondition(Protocol):
    """What decides a win: the shapes that count and the counted traits.

    :class:`~quads.rules.Rules` is one; a computer player that overlooks some
    shapes or traits uses a narrower one of its own.
    """

    @property
    def shape_masks(self) -> Sequence[int]:
        """The cell masks of the shapes that can win."""
        ...

    @property
    def traits(self) -> int:
        """The counted traits, as a mask of trait bits."""
        ...


@dataclass(frozen=True, slots=True)
class Position:
    """A position as the side to move sees it.

    Build one with :meth:`from_string`, :meth:`from_pieces` or :data:`EMPTY`,
    and derive new ones with :meth:`place`, :meth:`give` and :meth:`play`.
    """

    occupied: int
    """The occupied cells, as a mask."""
    bits: tuple[int, int, int, int]
    """``bits[b]``: the cells whose piece has trait bit ``b`` set."""
    hand: Piece | None
    """The piece the side to move must place, or ``None`` when it must hand over first."""

    # -- construction -------------------------------------------------------

    @classmethod
    def from_pieces(cls, board: dict[Cell, Piece], hand: Piece | None = None) -> Position:
        """Build a position from a mapping of cells to pieces.

        :raises InvalidPositionError: if a piece appears twice (on the board or in hand),
            or a piece or cell is out of range.
        """
        occupied = 0
        bits = [0, 0, 0, 0]
        used = 0
        for cell, piece in board.items():
            if not (isinstance(cell, int) and 0 <= cell < 16 and isinstance(piece, int)
                    and 0 <= piece < 16):
                raise InvalidPositionError(f"invalid cell or piece {(cell, piece)!r}",
                                           "out_of_range")
            if used >> piece & 1:
                raise InvalidPositionError(f"piece {_HEX[piece]} appears twice", "piece_twice",
                                           piece=_HEX[piece])
            used |= 1 << piece
            occupied |= 1 << cell
            for b in range(4):
                if piece >> b & 1:
                    bits[b] |= 1 << cell
        if hand is not None:
            if not (isinstance(hand, int) and 0 <= hand < 16):
                raise InvalidPositionError(f"invalid piece in hand {hand!r}", "out_of_range")
            if used >> hand & 1:
                raise InvalidPositionError(f"piece {_HEX[hand]} is in hand and on the board",
                                           "hand_on_board", piece=_HEX[hand])
        return cls(occupied, (bits[0], bits[1], bits[2], bits[3]), hand)

    @classmethod
    def from_string(cls, text: str) -> Position:
        """Read a position string such as ``F..0/..A./..../.3.. 7``.

        :raises InvalidPositionError: if the string is malformed or a piece appears twice.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(f"invalid position {text!r}: expected a string", "malformed")
        parts = text.split()
        if len(parts) != 2:
            raise InvalidPositionError(
                f"invalid position {text!r}: expected four rows and the piece in hand, "
                "e.g. '..../..../..../.... -'", "malformed", position=text
            )
        rows_text, hand_text = parts
        rows = rows_text.split("/")
        if len(rows) != 4 or any(len(row) != 4 for row in rows):
            raise InvalidPositionError(
                f"invalid position {text!r}: the board must be four rows of four characters "
                "separated by '/'", "rows", position=text
            )
        board: dict[Cell, Piece] = {}
        for r, row in enumerate(rows):
            for c, char in enumerate(row):
                if char == ".":
                    continue
                if char not in "0123456789abcdefABCDEF":
                    raise InvalidPositionError(
                        f"invalid position {text!r}: {char!r} at {cell_name(r * 4 + c)} is neither "
                        "'.' nor a hex digit", "character", char=char, cell=cell_name(r * 4 + c)
                    )
                board[r * 4 + c] = int(char, 16)
        if hand_text == "-":
            hand = None
        elif len(hand_text) == 1 and hand_text in "0123456789abcdefABCDEF":
            hand = int(hand_text, 16)
        else:
            raise InvalidPositionError(
                f"invalid position {text!r}: the piece in hand must be a hex digit or '-', "
                f"not {hand_text!r}", "hand", hand=hand_text
            )
        try:
            position = cls.from_pieces(board, hand)
        except InvalidPositionError as exc:
            raise InvalidPositionError(f"invalid position {text!r}: {exc}", exc.reason,
                                       **exc.params) from None
        if position.occupied == 0xFFFF and hand is not None:
            raise InvalidPositionError(f"invalid position {text!r}: the board is full",
                                       "board_full")
        return position

    # -- reading ------------------------------------------------------------

    def piece_at(self, cell: Cell) -> Piece | None:
        """Return the piece on ``cell``, or ``None`` if it is empty."""
        if not self.occupied >> cell & 1:
            return None
        b0, b1, b2, b3 = self.bits
        return (b0 >> cell & 1) | (b1 >> cell & 1) << 1 | (b2 >> cell & 1) << 2 | (
            b3 >> cell & 1
        ) << 3

    @property
    def board(self) -> dict[Cell, Piece]:
        """The pieces on the board, by cell."""
        return {cell: piece for cell in iter_bits(self.occupied)
                if (piece := self.piece_at(cell)) is not None}

    @property
    def on_board(self) -> int:
        """The set of pieces on the board, as a mask."""
        used = 0
        for cell in iter_bits(self.occupied):
            used |= 1 << (self.piece_at(cell) or 0)
        return used

    @property
    def supply(self) -> int:
        """The pieces on neither the board nor in hand, as a mask."""
        taken = self.on_board
        if self.hand is not None:
            taken |= 1 << self.hand
        return ALL_PIECES & ~taken

    @property
    def empty_cells(self) -> int:
        """The empty cells, as a mask."""
        return 0xFFFF & ~self.occupied

    @property
    def empty_count(self) -> int:
        """The number of empty cells."""
        return 16 - self.occupied.bit_count()

    def to_string(self) -> str:
        """Return the position string, e.g. ``F..0/..A./..../.3.. 7``."""
        rows = []
        for r in range(4):
            row = ""
            for c in range(4):
                piece = self.piece_at(r * 4 + c)
                row += "." if piece is None else _HEX[piece]
            rows.append(row)
        hand = "-" if self.hand is None else _HEX[self.hand]
        return "/".join(rows) + " " + hand

    def __str__(self) -> str:
        return self.to_string()

    # -- shapes and wins ----------------------------------------------------

    def _shares(self, mask: int, traits: int) -> bool:
        """Whether the (full) cells of ``mask`` share a value of a counted trait."""
        for b in range(4):
            if traits >> b & 1:
                ones = self.bits[b] & mask
                if ones == 0 or ones == mask:
                    return True
        return False

    def shared_values(self, shape: Shape, rules: Rules) -> tuple[tuple[int, bool], ...]:
        """The counted ``(trait bit, value)`` pairs shared by every piece on ``shape``."""
        mask = shape.cells
        shared = []
        for b in (3, 2, 1, 0):
            if rules.traits >> b & 1 and self.occupied & mask == mask:
                ones = self.bits[b] & mask
                if ones == mask:
                    shared.append((b, True))
                elif ones == 0:
                    shared.append((b, False))
        return tuple(shared)

    def winning_shapes(self, rules: Rules) -> tuple[Shape, ...]:
        """The full shapes on the board whose four pieces share a counted trait."""
        occ = self.occupied
        return tuple(
            shape for shape in rules.winning_shapes
            if occ & shape.cells == shape.cells and self._shares(shape.cells, rules.traits)
        )

    def winning_shapes_through(self, cell: Cell, rules: Rules) -> tuple[Shape, ...]:
        """The winning shapes on the board that contain ``cell``."""
        return tuple(s for s in self.winning_shapes(rules) if s.cells >> cell & 1)

    def winning_cells(self, piece: Piece, rules: WinCondition) -> int:
        """The empty cells where ``piece`` would complete a winning shape, as a mask."""
        occ = self.occupied
        cells = 0
        for mask in rules.shape_masks:
            missing = mask & ~occ
            if missing and missing & (missing - 1) == 0:
                for b in range(4):
                    if rules.traits >> b & 1:
                        ones = self.bits[b] & mask
                        if (ones == 0 and not piece >> b & 1) or (
                            ones == mask & occ and piece >> b & 1
                        ):
                            cells |= missing
                            break
        return cells

    def wins_anywhere(self, piece: Piece, rules: WinCondition) -> bool:
        """Whether ``piece`` would complete a winning shape on some empty cell."""
        return bool(self.danger(rules) >> piece & 1)

    def danger(self, rules: WinCondition) -> int:
        """The pieces (on the board or not) that would complete a winning shape somewhere."""
        occ = self.occupied
        danger = 0
        for mask in rules.shape_masks:
            missing = mask & ~occ
            if missing and missing & (missing - 1) == 0:
                present = mask & occ
                for b in range(4):
                    if rules.traits >> b & 1:
                        ones = self.bits[b] & mask
                        if ones == 0:
                            danger |= _PIECES_WITH[b][0]
                        elif ones == present:
                            danger |= _PIECES_WITH[b][1]
        return danger

    def safe_pieces(self, rules: WinCondition) -> int:
        """The supply pieces that cannot complete a winning shape on any empty cell."""
        return self.supply & ~self.danger(rules)

    # -- moving -------------------------------------------------------------

    def place(self, cell: Cell) -> Position:
        """Return the position after placing the piece in hand on ``cell``.

        The side to move stays the same: it must now hand over a piece.

        :raises InvalidCellError: if ``cell`` is not 0-15.
        :raises IllegalActionError: if there is no piece in hand or the cell is taken.
        """
        cell_name(cell)  # validates
        if self.hand is None:
            raise IllegalActionError(
                f"cannot place on {cell_name(cell)} in {self.to_string()!r}: no piece in hand",
                "give_first", cell=cell_name(cell)
            )
        if self.occupied >> cell & 1:
            raise IllegalActionError(
                f"cannot place on {cell_name(cell)} in {self.to_string()!r}: the cell is taken",
                "cell_taken", cell=cell_name(cell)
            )
        bit = 1 << cell
        hand = self.hand
        b0, b1, b2, b3 = self.bits
        return Position(
            self.occupied | bit,
            (
                b0 | (bit if hand & 1 else 0),
                b1 | (bit if hand & 2 else 0),
                b2 | (bit if hand & 4 else 0),
                b3 | (bit if hand & 8 else 0),
            ),
            None,
        )

    def give(self, piece: Piece) -> Position:
        """Return the position after handing over ``piece``, seen by the opponent.

        :raises InvalidPieceError: if ``piece`` is not 0-15.
        :raises IllegalActionError: if a piece must be placed first, or ``piece`` is
            not in the supply.
        """
        piece_name(piece)  # validates
        if self.hand is not None:
            raise IllegalActionError(
                f"cannot hand over {piece_name(piece)} in {self.to_string()!r}: "
                f"piece {piece_name(self.hand)} must be placed first",
                "place_first", piece=piece_name(piece), hand=piece_name(self.hand)
            )
        if not self.supply >> piece & 1:
            raise IllegalActionError(
                f"cannot hand over {piece_name(piece)} in {self.to_string()!r}: "
                "it is not in the supply", "not_in_supply", piece=piece_name(piece)
            )
        return Position(self.occupied, self.bits, piece)

    def play(self, turn: Turn) -> Position:
        """Return the position after ``turn`` (a placement, a hand-over, or both).

        :raises IllegalActionError: if the turn is not legal here.
        """
        position = self
        if turn.place is not None:
            position = position.place(turn.place)
        elif self.hand is not None:
            raise IllegalActionError(
                f"turn {turn.text!r} in {self.to_string()!r}: piece "
                f"{piece_name(self.hand)} must be placed first", "place_first",
                hand=piece_name(self.hand), turn=turn.text
            )
        if turn.give is not None:
            position = position.give(turn.give)
        return position

    def legal_placements(self) -> Iterator[Cell]:
        """The cells where the piece in hand may go (none when nothing is in hand)."""
        if self.hand is None:
            return iter(())
        return iter_bits(self.empty_cells)

    def legal_handovers(self) -> Iterator[Piece]:
        """The pieces that may be handed over (none while a piece must be placed)."""
        if self.hand is not None:
            return iter(())
        return iter_bits(self.supply)

    def legal_turns(self, rules: Rules) -> Iterator[Turn]:
        """Every legal whole turn, as a perfect player sees it.

        A placement that completes a winning shape ends the game (it is
        declared at once in ``declare`` rules), so it comes without a
        hand-over; so does a placement that leaves nothing to hand over.
        On the empty board's ``-`` position the turns are hand-overs only.
        """
        if self.hand is None:
            for piece in iter_bits(self.supply):
                yield Turn(None, piece)
            return
        winning = self.winning_cells(self.hand, rules)
        supply = self.supply
        for cell in iter_bits(self.empty_cells):
            if winning >> cell & 1 or not supply:
                yield Turn(cell, None)
            else:
                for piece in iter_bits(supply):
                    yield Turn(cell, piece)

    # -- validity -----------------------------------------------------------

    def check(self, rules: Rules) -> None:
        """Check that this position can arise in a game under ``rules``.

        Under ``auto`` calling no winning shape may be on the board (the game
        would have ended).  Under ``declare`` such shapes are dead and allowed.

        :raises InvalidPositionError: if the position is impossible under ``rules``.
        """
        if not rules.declare:
            shapes = self.winning_shapes(rules)
            if shapes:
                raise InvalidPositionError(
                    f"impossible position {self.to_string()!r} under {rules.name!r}: "
                    f"{shapes[0].name} is already won", "already_won", shape=shapes[0].id
                )


EMPTY = Position(0, (0, 0, 0, 0), None)
"""The empty board at the start of a game: the first player must hand over a piece."""
