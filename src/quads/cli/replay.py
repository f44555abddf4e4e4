"""``quads replay``: replay a game record turn by turn."""

from __future__ import annotations

import argparse
import json
import sys

from quads.cells import cell_name
from quads.cli.board import LEGEND, draw_board, piece_list
from quads.game import (
    Abandon,
    Abort,
    Action,
    Claim,
    Declare,
    Game,
    GameState,
    Give,
    Place,
    Resign,
    Timeout,
)
from quads.notation import write_tokens
from quads.outcome import Player
from quads.pieces import piece_name
from quads.record import read_record

__all__ = ["game_summary", "register"]


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``replay`` command."""
    parser = commands.add_parser(
        "replay", help="replay a game record turn by turn",
        description="Replay a game record (a file, or - for standard input), checking every "
                    "turn against the rules, and show the final state.",
    )
    parser.add_argument("record", metavar="RECORD_FILE_OR_-", help="record file, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.set_defaults(run=run)


def game_summary(game: Game) -> dict[str, object]:
    """The final state of ``game`` as the JSON object of ``replay --json``."""
    outcome = game.outcome
    status = "ongoing" if outcome is None else "drawn" if outcome.winner is None else "won"
    return {
        "position": game.position.to_string(),
        "rules": game.rules.name,
        "status": status,
        "winner": None if outcome is None or outcome.winner is None
        else outcome.winner.identifier,
        "reason": None if outcome is None else outcome.termination.value,
        "shapes": [] if outcome is None else [shape.id for shape in outcome.shapes],
        "to_move": None if game.to_move is None else game.to_move.identifier,
        "step": game.step.value,
        "can_declare": game.can_declare(),
        "can_claim": game.can_claim(),
    }


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _phrase(state: GameState, action: Action) -> str:
    if isinstance(action, Give):
        missed = " without declaring (missed)" if state.declarable else ""
        return f"hands over {piece_name(action.piece)}{missed}"
    if isinstance(action, Place):
        assert state.position.hand is not None
        return f"places {piece_name(state.position.hand)} on {cell_name(action.cell)}"
    if isinstance(action, Declare):
        return "declares Quarto!"
    if isinstance(action, Claim):
        return "claims the missed shape"
    if isinstance(action, Resign):
        return "resigns"
    if isinstance(action, Timeout):
        return "runs out of time"
    if isinstance(action, Abandon):
        return "left the game" + (" (drawn)" if action.draw else "")
    if isinstance(action, Abort):
        return "the game is aborted"
    return "does not declare"


def _turns(game: Game) -> list[tuple[Player, list[str]]]:
    """The game's actions grouped into turns: who acted, and what they did."""
    turns: list[tuple[Player, list[str]]] = []
    for state, action in zip(game.states, game.actions, strict=False):
        player = (action.player if isinstance(action, (Resign, Timeout, Abandon))
                  else state.to_move)
        if not turns or turns[-1][0] is not player:
            turns.append((player, []))
        turns[-1][1].append(_phrase(state, action))
    return turns


def run(args: argparse.Namespace) -> int:
    """Run ``quads replay``."""
    try:
        text = _read(args.record)
    except OSError as exc:
        print(f"quads: error: cannot read {args.record!r}: {exc.strerror}", file=sys.stderr)
        return 2
    game = read_record(text)
    if args.json:
        print(json.dumps(game_summary(game)))
        return 0
    names = {p: game.headers.get(p.name.title(), p.identifier) for p in Player}
    print(f"Rules: {game.rules.name}")
    tokens = write_tokens(game.states, game.actions)
    for number, (player, phrases) in enumerate(_turns(game), 1):
        token = tokens[number - 1]
        print(f"{number:3}. {names[player]:<10} {token:<5} {', '.join(phrases)}")
    print()
    outcome = game.outcome
    won_cells = sum(shape.cells for shape in outcome.shapes) if outcome else 0
    print(draw_board(game.position, won_cells))
    print(LEGEND)
    if outcome is None:
        who = names[game.state.to_move]
        supply = piece_list(game.position.supply)
        print(f"Game goes on: {who} to {game.step.value}; supply {supply}")
        if game.can_declare():
            print(f"{who} may declare now.")
        if game.can_claim():
            print(f"{who} may claim the missed shape now.")
    elif outcome.winner is None:
        print(f"Draw: {outcome.describe()}.")
    else:
        print(f"{names[outcome.winner]} wins by {outcome.termination.value}: {outcome.describe()}.")
    return 0
