"""Level 3, the club player: looks one turn further than the casual player.

It never makes a placement that leaves it without a safe piece to hand over
when another placement would not, and among its safe turns it picks the one
that squeezes the opponent most: the fewest replies that still leave the
opponent a safe piece of their own.
"""

from __future__ import annotations

from quads.bits import iter_bits
from quads.pieces import Piece
from quads.players.base import ComputerPlayer
from quads.position import Position
from quads.rules import Rules
from quads.turn import Turn

__all__ = ["Club", "rank_turns", "replies_with_a_safe_piece"]


def replies_with_a_safe_piece(position: Position, piece: Piece, rules: Rules) -> int:
    """How many placements of ``piece`` (handed over in ``position``) leave the
    receiver a safe piece to hand back; the fewer, the tighter the squeeze.

    ``position`` is the one before the hand-over (its hand is empty).
    """
    received = position.give(piece)
    supply = received.supply
    if not supply:
        return 16  # the last piece: nothing to squeeze
    occupied = received.occupied
    if all((mask & occupied).bit_count() < 2 for mask in rules.shape_masks):
        # no shape can hold three pieces after one placement: every piece stays safe
        return received.empty_count
    # Wherever the piece goes, the same pieces are left to hand back: only which of
    # them are safe depends on the cell.
    return sum(
        1 for cell in iter_bits(received.empty_cells)
        if supply & ~received.place(cell).danger(rules)
    )


class Club(ComputerPlayer):
    """Level 3: avoids running out of safe pieces and sets squeezes for the opponent."""

    level = 3
    name = "club"

    def choose_turn(self, position: Position, rules: Rules) -> Turn:
        """The turn with the tightest squeeze among those that keep a safe piece."""
        ranked = rank_turns(position, rules)
        best = [turn for score, turn in ranked if score == ranked[0][0]]
        return self.random.choice(best)


def rank_turns(position: Position, rules: Rules) -> list[tuple[int, Turn]]:
    """Every turn of ``position`` with its squeeze score, best (lowest) first.

    A winning placement scores -1; a turn that hands over a winner when a safe
    piece exists is not listed; a turn forced to hand over a winner scores past
    any squeeze.  The order among equal scores is the natural one.
    """
    if position.hand is None:
        safe = position.safe_pieces(rules)
        gives = [
            (replies_with_a_safe_piece(position, piece, rules) if safe else 1 << 20,
             Turn(None, piece))
            for piece in iter_bits(safe or position.supply)
        ]
        gives.sort(key=lambda scored: scored[0])
        return gives
    wins = position.winning_cells(position.hand, rules)
    if wins:
        return [(-1, Turn(cell, None)) for cell in iter_bits(wins)]
    ranked: list[tuple[int, Turn]] = []
    for cell in iter_bits(position.empty_cells):
        after = position.place(cell)
        if not after.supply:
            ranked.append((0, Turn(cell, None)))
            continue
        safe = after.safe_pieces(rules)
        for piece in iter_bits(safe or after.supply):
            score = replies_with_a_safe_piece(after, piece, rules) if safe else 1 << 20
            ranked.append((score, Turn(cell, piece)))
    ranked.sort(key=lambda scored: scored[0])
    return ranked
