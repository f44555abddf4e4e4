"""Write the cases that prove the page's rules equal to the Python library's.

Run ``python tests/js/make_rules_cases.py`` (``.ci/run`` does, before
``node --test tests/js/``); it writes ``tests/js/cases/rules-*.json``, which
``tests/js/rules.test.mjs`` checks the ES modules of
``src/quads/web/static/js/rules/`` against.  Everything is seeded, so the same
library writes the same cases.  Importing this module writes nothing.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "cases"
TESTS = HERE.parent

sys.path[:0] = [str(TESTS), str(TESTS.parent / "src")]
from helpers import CALL_RULE_SETS  # noqa: E402
from helpers import RULE_SETS as TEST_RULE_SETS  # noqa: E402

RULE_SETS = (
    *TEST_RULE_SETS,
    *CALL_RULE_SETS,
    "advanced:forfeit-calls",
    "lines:color,height:declare",
    "lines+squares:top:auto",
    "lines:height,color,shape:declare",
    "lines+squares:color:declare",
)
"""The rule sets of the library's own tests (tests/helpers.py) and five more: the
rule sets the cases run under."""

POSITIONS_PER_RULE_SET = 400
GAMES_PER_RULE_SET = 120
RECORD_MUTATIONS = 2500
HEX = "0123456789ABCDEF"


def error(exc: Any) -> dict[str, Any]:
    """The Python error as a case expects it: its class, and what the server's API sends
    of it (quads/web/errors.py): the code, the message, the reason and the params
    (strings and integers)."""
    from quads.web.errors import library_code

    return {"class": type(exc).__name__, "code": library_code(exc), "message": str(exc),
            "reason": exc.reason, "params": dict(exc.params)}


def attempt(call: Callable[[], Any]) -> dict[str, Any]:
    """``{"value": call()}``, or ``{"error": ...}`` when the library refuses."""
    from quads.errors import QuadsError

    try:
        return {"value": call()}
    except QuadsError as exc:
        return {"error": error(exc)}


def outcome_case(outcome: Any) -> dict[str, Any] | None:
    if outcome is None:
        return None
    return {
        "termination": outcome.termination.value,
        "winner": None if outcome.winner is None else outcome.winner.identifier,
        "shapes": [shape.id for shape in outcome.shapes],
        "traits": [[trait.identifier, value] for trait, value in outcome.traits],
        "result": outcome.result,
    }


def rules_cases(rng: random.Random) -> list[dict[str, Any]]:
    """Rule-set names, good and bad, and what ``Rules.parse`` makes of them."""
    from quads.rules import Rules

    texts = [
        *RULE_SETS, "QUADS", " Classic ", "advanced\t", "", "   ", "lines", "lines+squares",
        "auto", "declare", "color", "height,color", "lines:color", "declare:lines:top",
        "lines:lines", "auto:declare", "color:top", "color,color", "color,,top", ",color",
        "colour", "lines:", ":lines", "lines::auto", "squares", "lines+squares:height, top",
        "lines : shape : auto", "LINES:SHAPE:DECLARE", "lines:height,color,shape,top:auto",
        "\u017fhape", "lines:he\u0131ght", "lines:\x1ccolor", "\ufefflines", "\x85classic\x85",
        "it's", 'say "x"', "lines:top:auto:x", "quads:classic", "lines+squares:color:auto",
        "lines\u00a0:color", "top\u3000", "lines:color\x00", "\uff2c\uff29\uff2e\uff25\uff33",
        "lines:😀", 3, None, "classic:losing-calls", "losing-calls:classic",
        "classic:forfeit-calls:losing-calls", "quads:losing-calls", "losing-calls",
        "declare:free-calls", "advanced:free-calls", "lines:auto:forfeit-calls",
        "classic:classic:losing-calls", "Classic : Losing-Calls", "lines:top:declare:losing-calls",
        "free-calls", "losing-call",
    ]
    words = ["lines", "lines+squares", "auto", "declare", "height", "color", "shape", "top",
             "colour", "quads", "", " ", "x", "classic", "free-calls", "forfeit-calls",
             "losing-calls"]
    for _ in range(400):
        parts = [",".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
                 for _ in range(rng.randint(1, 4))]
        text = ":".join(parts)
        if rng.random() < 0.3:
            text = text.upper() if rng.random() < 0.5 else f" {text}\t"
        texts.append(text)
    cases = []
    for text in dict.fromkeys(texts):
        cases.append({"text": text, **attempt(lambda text=text: Rules.parse(text).name)})
    return cases


def trait_cases() -> list[dict[str, Any]]:
    """Trait names, good and bad, as ``Trait.parse`` reads them."""
    from quads.pieces import Trait

    texts = ["height", "color", "shape", "top", " COLOR ", "Top\t", "colour", "", " ",
             "heights", "\u017fhape", "he\u0131ght", "\x1ccolor", "top\u3000", "it's", "😀"]
    return [{"text": t, **attempt(lambda t=t: Trait.parse(t).identifier)} for t in texts]


def mask_cases() -> list[dict[str, Any]]:
    """Rule sets made from their parts, with good and bad trait masks."""
    from quads.rules import Calling, Rules, ShapeSet

    cases = []
    for traits in (0, 1, 8, 15, 16, -3, 1.5, "3", True, None):
        for shapes, calling in (("lines", "auto"), ("lines+squares", "declare")):
            cases.append({"shapes": shapes, "traits": traits, "calling": calling, **attempt(
                lambda s=shapes, t=traits, c=calling: Rules(ShapeSet(s), t, Calling(c)).name)})
    return cases


def small_cases(rng: random.Random) -> dict[str, list[dict[str, Any]]]:
    """Cells, pieces, turns and stored actions read from text; cells and pieces named by
    number; turns made of their parts."""
    from quads.cells import cell_name, make_cell, parse_cell
    from quads.pieces import parse_piece, piece_name
    from quads.storage.stored import parse_action
    from quads.turn import Turn

    alphabet = "ABCDEabcde012345789FfG!?. \t-xß😀\x1c"
    cell_texts = ["A1", "d4", "B3", "E1", "A0", "A5", "", "A", "A11", " A1", "a1 ", "1A", None, 5]
    piece_texts = [*HEX, *HEX.lower(), "", "G", "10", " ", "-", "😀", "٣"]
    turn_texts = ["7", "A1F", "a1f", "D4", " B2c ", "", "A1F0", "E1F", "A1G", "Z", "!",
                  "A1!", "ff", "123", "ß12", "😀1", "a😀"]
    for _ in range(300):
        turn_texts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))))
        cell_texts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3))))
    return {
        "cells": [{"text": t, **attempt(lambda t=t: parse_cell(t))}
                  for t in dict.fromkeys(cell_texts)],
        "pieces": [{"text": t, **attempt(lambda t=t: parse_piece(t))}
                   for t in dict.fromkeys(piece_texts)],
        "turns": [{"text": t, **attempt(lambda t=t: Turn.parse(t).text)}
                  for t in dict.fromkeys(turn_texts)],
        "coordinates": [{"column": c, "row": r, **attempt(lambda c=c, r=r: make_cell(c, r))}
                        for c in (-1, 0, 3, 4) for r in (-1, 0, 3, 4)],
        "numbers": [{"number": n, "cell": attempt(lambda n=n: cell_name(n)),
                     "piece": attempt(lambda n=n: piece_name(n))}
                    for n in (-1, 0, 9, 15, 16, 100, 2.5, True, None, "3")],
        "turn_parts": [{"place": c, "give": g, **attempt(lambda c=c, g=g: Turn(c, g).text)}
                       for c in (None, 0, 15, 16, -1) for g in (None, 0, 15, 16)],
        "actions": [{"text": t, **attempt(lambda t=t: str(parse_action(t)))}
                    for t in ACTION_TEXTS],
    }


ACTION_TEXTS = (
    "give 7", "give f", "give", "give ", "give 7 x", "give G", "give 10", "place A1", "place d4",
    "place", "place E5", "place A1 x", "place 7", "resign first", "resign second",
    "resign third", "resign", "resign first x", "declare", "claim", "decline", "declare x",
    "claim ", "", " ", "pass", "Give 7", "give  7", "undo", "timeout first", "timeout second",
    "timeout third", "timeout", "abandon first", "abandon second draw", "abandon first drawn",
    "abandon first draw x", "abandon", "abort", "abort now", "agree", "agree now",
)
"""Actions as a game's stored data (and the page's device games) write them, and spoilt."""


def random_position_text(rng: random.Random) -> str:
    """A random board, written as a position string (now and then in lower case)."""
    count = rng.choice([0, 1, 2, 3, 4, 6, 8, 10, 12, 13, 14, 15, 15, 16])
    pieces = rng.sample(range(16), count)
    cells = rng.sample(range(16), count)
    board = ["."] * 16
    for cell, piece in zip(cells, pieces, strict=True):
        board[cell] = HEX[piece]
    rest = [p for p in range(16) if p not in pieces]
    hand = "-" if not rest or rng.random() < 0.3 else HEX[rng.choice(rest)]
    rows = "/".join("".join(board[r * 4:r * 4 + 4]) for r in range(4))
    text = f"{rows} {hand}"
    if rng.random() < 0.2:
        text = text.lower()
    return text


def mutate(text: str, rng: random.Random, alphabet: str) -> str:
    """``text`` with a character replaced, dropped or added."""
    chars = list(text)
    where = rng.randrange(len(chars) + 1)
    kind = rng.random()
    if kind < 0.4 and where < len(chars):
        chars[where] = rng.choice(alphabet)
    elif kind < 0.7 and where < len(chars):
        del chars[where]
    else:
        chars.insert(where, rng.choice(alphabet))
    return "".join(chars)


def position_cases(rng: random.Random) -> list[dict[str, Any]]:
    """Random positions under every rule set: parsing, checks, wins, safe pieces, turns."""
    from quads.position import Position
    from quads.rules import Rules
    from quads.turn import Turn

    cases: list[dict[str, Any]] = []
    bad = ["", "-", "..../..../..../....", "..../..../..../.... - x", "..../..../...../.... -",
           "..../..../..../... -", "..../..../..../.... G", "..../..../..../.... 10",
           "FF../..../..../.... -", "F.../..../..../.... F", "0123/4567/89AB/CDEF -",
           "0123/4567/89AB/CDEF 0", "0123/4567/89AB/CDE. F", "..../..g./..../.... -",
           "..../..../..../....\x1c-", "..../..../..../....\ufeff-", "\x85..../..../..../.... 7",
           "..../..😀./..../.... -", "..../..../..../.... 😀", "..'./..../..../.... -",
           "..../..../..../....  \t 7 ", "F..0/..A./..../.3.. 7", "f..0/..a./..../.3.. 7",
           None, 5]
    texts = list(bad)
    for _ in range(300):
        texts.append(mutate(random_position_text(rng), rng, "0123456789ABCDEFabcdefg.-/ \t😀"))
    for text in texts:
        cases.append({"text": text, "rules": "quads", **attempt(
            lambda text=text: Position.from_string(text).to_string())})
    for name in RULE_SETS:
        rules = Rules.parse(name)
        for _ in range(POSITIONS_PER_RULE_SET):
            text = random_position_text(rng)
            case: dict[str, Any] = {"text": text, "rules": name}
            parsed = attempt(lambda text=text: Position.from_string(text))
            if "error" in parsed:
                cases.append({**case, **parsed})
                continue
            position = parsed["value"]
            case["value"] = position.to_string()
            check = attempt(lambda position=position, rules=rules: position.check(rules))
            case["check"] = check.get("error")
            case["supply"] = position.supply
            case["winning"] = [shape.id for shape in position.winning_shapes(rules)]
            case["danger"] = position.danger(rules)
            case["safe"] = position.safe_pieces(rules)
            if position.hand is not None:
                case["winning_cells"] = position.winning_cells(position.hand, rules)
            case["turns"] = " ".join(turn.text for turn in position.legal_turns(rules))
            cell = rng.randrange(16)
            piece = rng.randrange(16)
            for turn in (Turn(cell, piece), Turn(None, piece), Turn(cell, None)):
                case.setdefault("play", []).append({"turn": turn.text, **attempt(
                    lambda turn=turn, position=position: position.play(turn).to_string())})
            cases.append(case)
    return cases


def board_cases() -> list[dict[str, Any]]:
    """Positions built from cells and pieces (``Position.from_pieces``), good and bad."""
    from quads.position import Position

    boards: list[tuple[list[list[Any]], Any]] = [
        ([], None), ([[0, 15]], 3), ([[0, 15], [5, 15]], None), ([[0, 3]], 3), ([[16, 1]], None),
        ([[-1, 1]], None), ([[2, 16]], None), ([[2, -1]], 0), ([[2, 1]], 16), ([[2, 1]], -1),
        ([[2, 1], [3, 2]], 2), ([[2, 1.5]], None), ([[2, 1]], 2.5), ([[2, "1"]], None),
        ([[c, 15 - c] for c in range(16)], None), ([[c, c] for c in range(15)], 15),
    ]
    return [{"board": board, "hand": hand, **attempt(
        lambda b=board, h=hand: Position.from_pieces(dict(b), h).to_string())}
        for board, hand in boards]


def write_cases() -> list[dict[str, Any]]:
    """Records written with good and bad header keys."""
    from quads.game import Game
    from quads.record import write_record

    keys = ["Event", "Zeta_2", "1x", "", "a b", "Ev-ent", "_x", "Zoë", "x\n"]
    return [{"headers": {key: "v"}, **attempt(
        lambda key=key: write_record(Game(headers={key: "v"})))} for key in keys]


def state_case(state: Any, rules: Any) -> dict[str, Any]:
    """What a game state holds, as the node check compares it, with its safe pieces."""
    return {
        "position": state.position.to_string(),
        "to_move": state.to_move.identifier,
        "step": state.step.value,
        "declarable": [shape.id for shape in state.declarable],
        "claimable": [shape.id for shape in state.claimable],
        "outcome": outcome_case(state.outcome),
        "legal": [str(action) for action in state.legal_actions(rules)],
        "moment": state.moment,
        "forfeit": None if state.forfeit is None else [state.forfeit.player.identifier,
                                                       state.forfeit.until.value],
        "safe": state.position.safe_pieces(rules),
    }


def all_actions() -> list[Any]:
    from quads.game import Claim, Declare, Decline, Give, Place

    return [*(Give(p) for p in range(16)), *(Place(c) for c in range(16)), Declare(), Claim(),
            Decline()]


def choose(rng: random.Random, legal: list[Any], eager: float) -> Any:
    """A random legal action; declarations and claims taken with probability ``eager``."""
    from quads.game import Claim, Declare

    calls = [a for a in legal if isinstance(a, Declare | Claim)]
    if calls and rng.random() < eager:
        return calls[0]
    return rng.choice(legal)


def random_token(rng: random.Random, state: Any, rules: Any) -> str:
    """A token to read in ``state``: mostly a cell (often one where the piece in hand
    wins), a mark and a piece, now and then something else."""
    from quads.cells import CELL_NAMES

    if rng.random() < 0.1:
        return rng.choice(["!", "", "?", "!?", "Z", "A1F0", "!7", "E1", "a", "1.", "*", "A1!!",
                           "x", "X", "xx", "x!", "A1xx", "x7", "xA1!", "!x"])
    position = state.position
    cell = ""
    if rng.random() < 0.85:
        pool = list(range(16))
        if position.hand is not None:
            winning = position.winning_cells(position.hand, rules)
            wins = [c for c in pool if winning >> c & 1]
            empty = [c for c in pool if not position.occupied >> c & 1]
            if wins and rng.random() < 0.5:
                pool = wins
            elif empty and rng.random() < 0.7:
                pool = empty
        cell = CELL_NAMES[rng.choice(pool)]
        cell = cell.lower() if rng.random() < 0.1 else cell
    mark = rng.choice(["", "", "!", "?", "x"])
    piece = rng.choice(["", "", *HEX])
    prefix = "x" if rng.random() < 0.1 else ""
    return prefix + cell + mark + piece


def random_turn(rng: random.Random) -> Any:
    """A whole turn: a placement and a hand-over, or either alone."""
    from quads.turn import Turn

    place = rng.choice([None, *range(16), *range(16)])
    give = rng.choice([*range(16)] if place is None else [None, *range(16)])
    return Turn(place, give)


def after(game: Any, change: Callable[[Any], None]) -> list[str]:
    """The position and the result of a copy of ``game`` after ``change``."""
    copy = game.copy()
    change(copy)
    return [copy.position.to_string(), "*" if copy.outcome is None else copy.outcome.result]


HEADER_VALUES = ["Club night", 'say "hi"', "back\\slash", "two\nlines", "Zoë", "tab\there",
                 "a\x85b", "", "[x]", "😀"]


def game_cases(rng: random.Random) -> list[dict[str, Any]]:
    """Random games under every rule set, each state's facts, refusals and the record;
    tokens read and whole turns played now and then, and actions after the end."""
    from quads.game import Abandon, Abort, Agree, Game, Resign, Timeout
    from quads.notation import parse_token
    from quads.outcome import Player
    from quads.position import EMPTY, Position
    from quads.record import read_record, write_record
    from quads.rules import Rules

    actions_all = all_actions()
    side = random.Random(22)  # the tokens, turns and actions after the end: the games stay
    cases = []
    for name in RULE_SETS:
        rules = Rules.parse(name)
        for number in range(GAMES_PER_RULE_SET):
            start = EMPTY
            if number % 4 == 3:
                for _ in range(20):
                    candidate = Position.from_string(random_position_text(rng))
                    if "error" not in attempt(lambda c=candidate, r=rules: c.check(r)):
                        start = candidate
                        break
            headers = {}
            if number % 3 == 0:
                headers = {rng.choice(["Event", "Site", "First", "Second", "Mode", "Level",
                                       "Zeta", "Round"]): rng.choice(HEADER_VALUES)
                           for _ in range(rng.randint(1, 4))}
            game = Game(rules, start, headers)
            eager = rng.choice([0.0, 0.3, 0.9])
            stop = rng.random() < 0.15  # now and then an unfinished game
            illegal = []
            tokens = []
            turns = []
            while not game.is_over():
                state = game.state
                index = len(game.actions)
                if side.random() < 0.3:
                    token, last = random_token(side, state, rules), side.random() < 0.5
                    tokens.append({"index": index, "token": token, "last": last, **attempt(
                        lambda t=token, s=state, r=rules, last=last: [
                            str(a) for a in parse_token(t, s, r, last=last)])})
                if side.random() < 0.2:
                    turn = random_turn(side)
                    turns.append({"index": index, "turn": turn.text, **attempt(
                        lambda t=turn, g=game: after(g, lambda copy: copy.play(t)))})
                legal = game.legal_actions()
                wrong = [a for a in actions_all if a not in legal]
                if wrong:
                    action = rng.choice(wrong)
                    refusal = attempt(lambda a=action, s=game.state, r=rules: s.apply(a, r))
                    illegal.append({"index": len(game.actions), "action": str(action), **refusal})
                game.apply(choose(rng, legal, eager))
                if stop and rng.random() < 0.1:
                    break
            if not game.is_over() and side.random() < 0.5:
                # An ending: its record says so in a header.
                loser = side.choice(list(Player))
                to_move = game.to_move  # an abandonment drawn is the side to move's
                assert to_move is not None
                game.apply(side.choice([Resign(loser), Timeout(loser), Abandon(loser),
                                        Abandon(to_move, draw=True), Agree(), Abort()]))
            ended = []
            for action in (Resign(side.choice(list(Player))), side.choice(actions_all)):
                ended.append({"action": str(action), **attempt(
                    lambda a=action, g=game: after(g, lambda copy: copy.apply(a)))})
            record = write_record(game)
            assert write_record(read_record(record)) == record
            cases.append({
                "rules": name,
                "start": start.to_string(),
                "headers": headers,
                "actions": [str(a) for a in game.actions],
                "states": [state_case(s, rules) for s in game.states],
                "illegal": [i for i in illegal if "error" in i],
                "tokens": tokens,
                "turns": turns,
                "ended": ended,
                "record": record,
            })
    return cases


def history_cases(rng: random.Random) -> list[dict[str, Any]]:
    """Random mixes of actions, undo and redo, and the game after each."""
    from quads.errors import QuadsError
    from quads.game import Game
    from quads.rules import Rules

    cases = []
    for number in range(200):
        name = RULE_SETS[number % len(RULE_SETS)]
        game = Game(Rules.parse(name))
        ops = []
        for _ in range(60):
            roll = rng.random()
            if roll < 0.2:
                op = "undo"
            elif roll < 0.35:
                op = "redo"
            elif game.is_over():
                op = "undo"
            else:
                op = str(choose(rng, game.legal_actions(), 0.3))
            try:
                if op == "undo":
                    game.undo()
                elif op == "redo":
                    game.redo()
                else:
                    game.apply(next(a for a in game.legal_actions() if str(a) == op))
                result: dict[str, Any] = {}
            except QuadsError as exc:
                result = {"error": error(exc)}
            ops.append({"op": op, **result, "position": game.position.to_string(),
                        "actions": len(game.actions), "can_undo": game.can_undo(),
                        "can_redo": game.can_redo(),
                        "to_move": None if game.to_move is None else game.to_move.identifier})
        cases.append({"rules": name, "ops": ops})
    return cases


def record_cases(rng: random.Random, games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records spoilt in small ways, and what the reader makes of them."""
    from quads.record import read_record, write_record

    cases = []
    fixed = [
        "", "\n\n", "[Rules \"nonsense\"]\n\n*", "[Position \"xx\"]\n\n*",
        "[Rules \"quads\"]\n[Rules \"quads\"]\n\n*", "[Rules quads]\n\n*", "[1x \"y\"]\n\n*",
        "1. 7 A1F *", "2. 7 *", "1. 7 1. A1F *", "1. 7 A1F 1-0 *", "7 A1F B1", "7 A1F B1 C1E",
        "1. 7 A1F 2. ! *", "1. ! *", "? *", "1. 7 7 *", "1. A1 *", "1. 7 A1F B1? *",
        "1. 7 A1F 2. B1!3 *", "[Result \"1-0\"]\n\n1. 7 *", "\u0661. 7 A1F *", "01. 7 A1F *",
        "[Position \"F38./D2../0.4./B6A. C\"]\n[Rules \"classic\"]\n\n1. D1?5 ! 0-1",
        "[Position \"FED./..../..../.... C\"]\n\n1. D1! 1-0",
        "[Position \"FEDC/..../..../.... -\"]\n\n*",
        "\ufeff[Event \"x\"]\n\n*", "[Event \"x\"]\x85\x851. 7 *", "[Event\x1c\"x\"]\n\n*",
        "[Event \"a\\\"b\\\\c\"]\n\n*", "[Event \"a\"b\"]\n\n*",
        # resignations: the Termination header and the result it needs
        "[Termination \"resignation\"]\n[Result \"1-0\"]\n\n1. 7 A1F 1-0",
        "[Termination \"resignation\"]\n\n1. 7 A1F 0-1",
        "[Termination \"resignation\"]\n\n1. 7 A1F *",
        "[Termination \"resignation\"]\n\n1. 7 A1F",
        "[Termination \"resignation\"]\n[Result \"\"]\n\n1. 7",
        "[Termination \"resignation\"]\n\n1-0",
        "[Termination \"time\"]\n\n*", "[Termination \"\"]\n\n1. 7 *",
        # the other endings
        "[Termination \"time\"]\n\n1. 7 A1F 0-1", "[Termination \"time\"]\n\n1. 7 1/2-1/2",
        "[Termination \"abandonment\"]\n\n1. 7 A1F 1/2-1/2",
        "[Termination \"abandonment\"]\n[Result \"1-0\"]\n\n1. 7 1-0",
        "[Termination \"aborted\"]\n\n1. 7 *", "[Termination \"aborted\"]\n\n1. 7 1-0",
        "[Termination \"aborted\"]\n\n*", "[Termination \"Time\"]\n\n1. 7 0-1",
        "[Rules \"classic\"]\n\n1. 7 A1? *",
        "[Termination \"first player resigned\"]\n\n1. 7 *",
        "[Termination \"second player resigned\"]\n[Result \"1-0\"]\n\n1. 7 1-0",
        "[Termination \"first player resigned\"]\n\n1. 7 1-0",
        "[Termination \"resignation\"]\n\n1. 0 A11 2. B12 C13 3. D1! 1-0",
        "[Termination \"resignation\"]\n[Result \"1-0\"]\n\n1. 7 A1F 0-1",
        # a draw agreed
        "[Termination \"agreement\"]\n\n1. 7 A1F 1/2-1/2",
        "[Termination \"agreement\"]\n\n1. 7 A1F 1-0",
        "[Termination \"agreement\"]\n\n1. 7 A1F *",
        # false calls
        "[Rules \"classic:forfeit-calls\"]\n\n1. 4 A15 2. B16 C1x7 3. D1?8 A2 *",
        "[Rules \"classic:forfeit-calls\"]\n\n1. 4 A15 2. B16 C17 3. xD1?8 ! 0-1",
        "[Rules \"classic:forfeit-calls\"]\n\n1. 4 A15 2. B16 C17 3. x D1?8 *",
        "[Rules \"classic:forfeit-calls\"]\n\n1. 4 A15 2. B16 C17 3. x",
        "[Rules \"classic:losing-calls\"]\n\n1. 4 A15 2. B16 C1x 0-1",
        "[Rules \"classic:losing-calls\"]\n\n1. 4 A15 2. B16 x 1-0",
        "[Rules \"classic:losing-calls\"]\n\n1. 4 A15 2. B16 xC17 *",
        "[Rules \"classic\"]\n\n1. 4 A15 2. B16 C1x7 *",
        "[Rules \"classic:forfeit-calls\"]\n\n1. 4 A15 2. B16 C17 3. D1x8 *",
        "[Rules \"classic:forfeit-calls\"]\n\n1. 4 A15 2. B16 C17 3. D1?8 xA2 *",
        "[Rules \"classic:losing-calls\"]\n\n1. 4 A15 2. B16 C1x7 *",
        "[Rules \"quads\"]\n\n1. 4 A1x5 *",
    ]
    for text in fixed:
        cases.append({"text": text, **attempt(lambda text=text: write_record(read_record(text)))})
    tokens_alphabet = ["!", "?", *HEX, "A1", "B2", "C3", "D4", "A1F", "1.", "2.", "*", "1-0",
                       "0-1", "1/2-1/2", "x", "A1x", "xB2", "xC3F", "D4x7"]
    for _ in range(RECORD_MUTATIONS):
        base = rng.choice(games)["record"]
        head, _, body = base.partition("\n\n")
        words = body.split()
        kind = rng.random()
        if kind < 0.75 and words:
            where = rng.randrange(len(words))
            move = rng.random()
            if move < 0.5:
                words[where] = rng.choice(tokens_alphabet)
            elif move < 0.75:
                del words[where]
            else:
                words.insert(where, rng.choice(tokens_alphabet))
        elif kind < 0.9:
            head = mutate(head, rng, '[]" \\ABCxyz\n')
        else:
            words = [w.lower() if rng.random() < 0.5 else w for w in words]
        text = head + "\n\n" + " ".join(words) + "\n"
        cases.append({"text": text, **attempt(lambda text=text: write_record(read_record(text)))})
    return cases


RULES_MODULES = ("cells", "pieces", "rules", "turn", "position", "game", "notation", "record")
"""The library's modules that the page's rules copy (src/quads/web/static/js/rules/)."""


def library_reasons() -> list[str]:
    """Every reason with which the rules modules of the library refuse, read from their
    source: the second argument of each error they make (``Error(message, reason, ...)``
    and notation's ``bad(why, reason, ...)``)."""
    import ast

    import quads

    folder = Path(quads.__file__).resolve().parent
    found = set()
    for name in RULES_MODULES:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and len(node.args) >= 2):
                continue
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(
                node.func, "attr", "")
            reason = node.args[1]
            if (called.endswith("Error") or called == "bad") and isinstance(
                    reason, ast.Constant) and isinstance(reason.value, str):
                found.add(reason.value)
    return sorted(found)


def perft_cases() -> list[dict[str, Any]]:
    """The perft counts pinned in tests/test_perft.py, and the safe-piece counts there."""
    import test_perft
    from helpers import replay

    cases: list[dict[str, Any]] = []
    for position, by_rules in test_perft.PERFT.items():
        for name, counts in by_rules.items():
            cases.append({"position": position, "rules": name, "counts": list(counts)})
    for name in TEST_RULE_SETS:
        cases.append({"position": "..../..../..../.... -", "rules": name,
                      "counts": list(test_perft.EMPTY_BOARD_PERFT[:2])})
    cases.append({"position": "..../..../..../.... -", "rules": "classic",
                  "counts": list(test_perft.EMPTY_BOARD_PERFT)})
    for name in ("classic", "advanced", "lines+squares:height,top:declare"):
        game = replay("1. 4 A15 2. B16 C17 3. D1?8", name)
        cases.append({"record": "1. 4 A15 2. B16 C17 3. D1?8", "rules": name,
                      "counts": [test_perft.perft(game.state, game.rules, 1)]})
    safe = [{"position": position, "rules": name, "count": counts[index]}
            for position, counts in test_perft.SAFE.items()
            for index, name in enumerate(TEST_RULE_SETS)]
    return [{"perft": cases, "safe": safe}]


def main() -> None:
    """Write every case file."""
    OUT.mkdir(exist_ok=True)
    rng = random.Random(21)
    games = game_cases(rng)
    files = {
        "rules-parse.json": {"reasons": library_reasons(), "rules": rules_cases(rng),
                             "masks": mask_cases(),
                             "traits": trait_cases(), **small_cases(rng)},
        "rules-positions.json": {"positions": position_cases(rng), "boards": board_cases()},
        "rules-games.json": {"games": games, "histories": history_cases(rng)},
        "rules-records.json": {"records": record_cases(rng, games), "writes": write_cases()},
        "rules-perft.json": perft_cases()[0],
    }
    for name, content in files.items():
        (OUT / name).write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    counts = {name: {key: len(value) for key, value in content.items()}
              for name, content in files.items()}
    print(f"wrote {OUT}: {json.dumps(counts)}")


if __name__ == "__main__":
    main()
