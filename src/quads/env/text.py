"""The text that the environments render: the command line's board and a few lines."""

from __future__ import annotations

from quads.cli.board import LEGEND, describe, draw_board, piece_list
from quads.game import Claim, Declare, Game, Step

__all__ = ["game_text"]


def game_text(game: Game, names: tuple[str, str] = ("player_0", "player_1")) -> str:
    """The rule set, who acts and how, the board, the piece in hand and the supply.

    ``names`` are what the two players are called (the first hands over first).
    At the end the outcome replaces the line of who acts; a shape that won is
    marked on the board.
    """
    rules = game.rules
    position = game.position
    outcome = game.outcome
    if outcome is not None:
        winner = "draw" if outcome.winner is None else f"{names[outcome.winner]} wins"
        status = f"Over:   {winner} ({outcome.describe()})"
    else:
        to_move = game.to_move
        assert to_move is not None
        doing = "hands over a piece" if game.step is Step.GIVE else "places the piece in hand"
        # Under false calls that cost something, every call that may be made (noticing
        # the win is the player's); under free ones, the calls that win.
        legal = game.legal_actions()
        calls = [call for call, able in (
            ("declare", game.can_declare() if game.rules.free_calls else Declare() in legal),
            ("claim", game.can_claim() if game.rules.free_calls else Claim() in legal)) if able]
        status = f"To act: {names[to_move]} {doing}" + (
            f" (or may {' or '.join(calls)})" if calls else "")
    highlight = 0
    if outcome is not None:
        for shape in outcome.shapes:
            highlight |= shape.cells
    hand = "none" if position.hand is None else describe(position.hand)
    return "\n".join([
        f"Rules:  {rules.name}",
        status,
        draw_board(position, highlight),
        LEGEND,
        f"Hand:   {hand}",
        f"Supply: {piece_list(position.supply)}",
    ])
