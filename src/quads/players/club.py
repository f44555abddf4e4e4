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

__all__ = ["Club", "replies_with_a_safe_piece"]


def replies_with_a_safe_piece(position: Position, piece: Piece, rules: Rules) -> int:
    """How many placements of ``piece`` (handed over in ``position``) leave the
    receiver a safe piece to hand back; the fewer, the tighter the squeeze.

    ``position`` is the one before the hand-over (its hand is empty).
    """
    received = position.give(piece)
    if not received.supply:
        return 16  # the last piece: nothing to squeeze
    return sum(
        1 for cell in iter_bits(received.empty_cells)
        if received.place(cell).safe_pieces(rules)
    )


class Club(ComputerPlayer):
    """Level 3: avoids running out of safe pieces and sets squeezes for the opponent."""

    level = 3
    name = "club"

    def choose_turn(self, position: Position, rules: Rules) -> Turn:
        """The turn with the tightest squeeze among those that keep a safe piece."""
        if position.hand is None:
            return Turn(None, self._best_give(position, rules))
        wins = position.winning_cells(position.hand, rules)
        if wins:
            return Turn(self.random.choice(list(iter_bits(wins))), None)
        best: list[Turn] = []
        best_score = 1 << 30
        for cell in iter_bits(position.empty_cells):
            after = position.place(cell)
            if not after.supply:
                return Turn(cell, None)
            safe = after.safe_pieces(rules)
            for piece in iter_bits(safe or after.supply):
                # Handing over a winner is the worst there is: score it past any squeeze.
                score = (replies_with_a_safe_piece(after, piece, rules) if safe else 1 << 20)
                if score < best_score:
                    best, best_score = [Turn(cell, piece)], score
                elif score == best_score:
                    best.append(Turn(cell, piece))
        return self.random.choice(best)

    def _best_give(self, position: Position, rules: Rules) -> Piece:
        safe = position.safe_pieces(rules) or position.supply
        scores = {p: replies_with_a_safe_piece(position, p, rules) for p in iter_bits(safe)}
        low = min(scores.values())
        return self.random.choice([p for p, s in scores.items() if s == low])
