"""Hints for people: which pieces are safe, and a suggested turn with a reason.

>>> from quads import read_record
>>> game = read_record('[Rules "classic"]\\n\\n1. 7 A1C 2. B1D C1E 3. D1?3 *\\n')
>>> hint(game).reason()
'Claim the win: your opponent completed row 1 (all dark) and did not call it.'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from quads.bits import iter_bits
from quads.book import book_for
from quads.catalogue import Language, message
from quads.cells import cell_name
from quads.errors import IllegalActionError
from quads.game import Game, Step
from quads.pieces import Trait, trait_word
from quads.players.club import rank_turns, replies_with_a_safe_piece
from quads.position import Position
from quads.rules import Rules
from quads.shapes import Shape, shape_by_id
from quads.solver import Value, solve
from quads.turn import Turn

__all__ = ["Hint", "hint"]


@dataclass(frozen=True)
class Hint:
    """Advice for the player to move."""

    safe: int
    """The pieces that are safe to hand over: now at a hand-over step, or after the
    suggested placement."""
    turn: Turn | None
    """The suggested turn; ``None`` when the advice is to declare or to claim."""
    action: Literal["declare", "claim"] | None
    """``declare`` or ``claim`` when that is the advice, else ``None``."""
    value: Value
    """The solved value of the suggestion for the player (``UNKNOWN`` early in the game)."""
    plies: int | None
    """Placements to the end for a won or lost value."""
    reason_key: str
    """The catalogue key of the reason."""
    reason_params: dict[str, str | int] = field(default_factory=dict)
    shapes: tuple[Shape, ...] = ()
    """The shapes the reason speaks of (declared, claimed or completed)."""
    board: Position | None = None
    """The board those shapes are on."""
    rules: Rules | None = None

    def reason(self, language: Language = "en") -> str:
        """The reason in words, one line, in English or German."""
        params: dict[str, object] = dict(self.reason_params)
        if self.shapes and self.board is not None and self.rules is not None:
            params["shapes"] = _shapes_text(self.shapes, self.board, self.rules, language)
        if "shape" in params:
            params["shape"] = shape_by_id(str(params["shape"])).describe(language)
        return message(language, self.reason_key, **params)


def _shapes_text(shapes: tuple[Shape, ...], position: Position, rules: Rules,
                 language: Language) -> str:
    parts = []
    for shape in shapes:
        words = " ".join(trait_word(Trait(b), v, language)
                         for b, v in position.shared_values(shape, rules))
        parts.append(f"{shape.describe(language)} ({message(language, 'hint.all', traits=words)})")
    return ", ".join(parts)


def hint(game: Game, seconds: float = 1.0) -> Hint:
    """Advice for the player to move in ``game``, thinking for at most about ``seconds``
    (near the empty board the rule set's opening book answers, when one is shipped).

    :raises IllegalActionError: if the game is over.
    """
    state, rules = game.state, game.rules
    position = state.position
    if state.step is Step.OVER:
        raise IllegalActionError("no hint: the game is over", "game_over")
    if state.step is Step.GIVE and state.declarable:
        return Hint(0, None, "declare", Value.WIN, 0, "hint.declare",
                    shapes=state.declarable, board=position, rules=rules)
    if state.step is Step.PLACE and state.claimable:
        return Hint(0, None, "claim", Value.WIN, 0, "hint.claim",
                    shapes=state.claimable, board=position, rules=rules)

    book = book_for(rules)
    known = book.solution(position, rules) if book is not None and book.covers(position) else None
    solution = known or solve(position, rules, seconds=seconds, threads=1)
    value: Value
    if solution.value is not Value.UNKNOWN and solution.best is not None:
        turn, value, plies = solution.best, solution.value, solution.plies
    else:
        turn, value, plies = rank_turns(position, rules)[0][1], Value.UNKNOWN, None
    after = position if turn.place is None else position.place(turn.place)
    safe = after.safe_pieces(rules)

    if turn.place is not None and turn.give is None and after.winning_shapes_through(
            turn.place, rules):
        shapes = after.winning_shapes_through(turn.place, rules)
        return Hint(safe, turn, None, Value.WIN, 1, "hint.win_now",
                    {"cell": cell_name(turn.place)}, shapes, after, rules)
    if value is Value.WIN:
        return Hint(safe, turn, None, value, plies, "hint.forced_win", {"plies": plies or 0})
    if value is Value.LOSS:
        return Hint(safe, turn, None, value, plies, "hint.losing", {"plies": plies or 0})
    supply = after.supply
    if safe.bit_count() == 1 and supply.bit_count() > 1:
        return Hint(safe, turn, None, value, plies, "hint.only_safe",
                    {"shape": _common_threat(after, supply & ~safe, rules).id})
    replies = 0 if turn.give is None else replies_with_a_safe_piece(after, turn.give, rules)
    key = "hint.draw" if value is Value.DRAW else "hint.squeeze"
    return Hint(safe, turn, None, value, plies, key,
                {"replies": replies, "safe": safe.bit_count(), "total": supply.bit_count()})


def _common_threat(position: Position, dangerous: int, rules: Rules) -> Shape:
    """The shape that the ``dangerous`` pieces would complete most often."""
    threats: Counter[Shape] = Counter()
    for piece in iter_bits(dangerous):
        received = position.give(piece)
        for cell in iter_bits(received.winning_cells(piece, rules)):
            threats.update(received.place(cell).winning_shapes_through(cell, rules))
    return threats.most_common(1)[0][0]
