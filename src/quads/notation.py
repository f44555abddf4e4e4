"""Move text: one token per turn, with marks for calling a win.

=========  ============================================================
``7``      hand over ``7`` (the first turn of a game)
``A1F``    place on ``A1``, hand over ``F``
``A1!``    place on ``A1`` and win: declared (``declare``) or at once (``auto``)
``A1?F``   place on ``A1`` completing a winning shape, but hand over ``F``
           without declaring: a missed declaration
``D4?``    the sixteenth piece completes a shape and its placer does not
           declare: the game is drawn
``!``      claim the shape the opponent missed, before placing
``A1xF``   place on ``A1``, declare a win with nothing to declare (a false
           call, under forfeited false calls), hand over ``F``
``A1x``    the same false declaration, under losing false calls: the game is lost
``xB2F``   a false claim (before placing, with nothing to claim), then the turn
``x``      the same false claim, under losing false calls: the game is lost
``D4``     the sixteenth piece, no win (a draw); or, as the last token of an
           unfinished game, a placement whose hand-over is still to come
=========  ============================================================

The marks are checked against the game: a token that could be read two ways,
or that says something the board contradicts, is refused.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from quads.cells import cell_name, parse_cell
from quads.errors import IllegalActionError, InvalidRecordError
from quads.game import ENDINGS, Action, Claim, Declare, Decline, GameState, Give, Place, Step
from quads.outcome import Termination
from quads.pieces import parse_piece, piece_name
from quads.rules import Rules

__all__ = ["parse_token", "write_tokens"]

_TOKEN = re.compile(r"(?P<cell>[A-Da-d][1-4])?(?P<mark>[!?xX])?(?P<piece>[0-9A-Fa-f])?")


def write_tokens(states: tuple[GameState, ...], actions: tuple[Action, ...]) -> list[str]:
    """Group a game's actions into tokens.  ``states[i]`` is the state before ``actions[i]``.

    An ending (a resignation, a timeout ...) has no token: a record says it in its
    ``Termination`` header.
    """
    tokens: list[str] = []
    current = ""
    for before, action, after in zip(states, actions, states[1:], strict=False):
        if isinstance(action, ENDINGS):
            continue
        if isinstance(action, Claim) and not before.claimable:
            current = "x"  # a false claim: its turn follows in the same token
            if after.outcome is not None:
                tokens.append(current)
                current = ""
        elif isinstance(action, Claim):
            tokens.append("!")
        elif isinstance(action, Place):
            current += cell_name(action.cell)
            if after.outcome is not None:
                won = after.outcome.termination is Termination.WIN
                tokens.append(current + ("!" if won else ""))
                current = ""
        elif isinstance(action, Declare) and not before.declarable:
            current += "x"  # a false declaration: the hand-over follows, if the game goes on
            if after.outcome is not None:
                tokens.append(current)
                current = ""
        elif isinstance(action, Declare):
            tokens.append(current + "!")
            current = ""
        elif isinstance(action, Decline):
            tokens.append(current + "?")
            current = ""
        else:
            missed = "?" if before.declarable else ""
            tokens.append(current + missed + piece_name(action.piece))
            current = ""
    if current:
        tokens.append(current)
    return tokens


def parse_token(text: str, state: GameState, rules: Rules, *, last: bool) -> list[Action]:
    """Return the actions a token stands for in ``state``.

    ``last`` says whether the token ends the move text: only the last token may
    be a placement whose hand-over is still to come.

    :raises InvalidRecordError: naming the token and why it cannot be played.
    """

    def bad(why: str, reason: str, **params: str | int) -> InvalidRecordError:
        return InvalidRecordError(f"token {text!r}: {why}", reason, token=text, **params)

    if state.step is Step.OVER:
        raise bad("the game is already over", "after_end")
    if text == "!":
        if not state.claimable:
            raise bad("there is no missed declaration to claim", "nothing_to_claim")
        return [Claim()]
    if text[:1] in ("x", "X") and state.step is Step.PLACE:
        return _false_claim(text, state, rules, last, bad)
    match = _TOKEN.fullmatch(text)
    if match is None or not text:
        raise bad("expected a cell and a piece (A1F), a piece alone (7) or a claim (!)",
                  "unreadable")
    cell_text, mark, piece_text = match.group("cell", "mark", "piece")
    piece = parse_piece(piece_text) if piece_text else None
    if cell_text is None:
        if mark:
            raise bad(f"the mark {mark!r} follows a placement", "mark_alone", mark=mark)
        if state.step is not Step.GIVE or piece is None:
            raise _expected(state, bad)
        return [Give(piece)]
    if state.step is not Step.PLACE:
        raise _expected(state, bad)
    cell = parse_cell(cell_text)
    try:
        after = state.apply(Place(cell), rules)
    except IllegalActionError as exc:
        raise bad(str(exc), exc.reason, **exc.params) from None
    actions: list[Action] = [Place(cell)]
    if after.outcome is not None:
        won = after.outcome.termination is Termination.WIN
        if piece is not None:
            raise bad("the game ends with this placement; no piece can follow",
                      "piece_after_end")
        if won and mark != "!":
            raise bad(f"this placement wins; write {cell_text.upper()}!", "mark_win",
                      cell=cell_text.upper())
        if not won and mark:
            raise bad(f"this placement completes no winning shape; drop the {mark!r}",
                      "mark_without_shape", mark=mark)
        return actions
    if mark in ("x", "X"):
        return _false_declaration(after, rules, actions, piece, last, bad, cell_text.upper())
    if after.declarable:
        names = ", ".join(shape.name for shape in after.declarable)
        if mark == "!":
            if piece is not None:
                raise bad("a declaration ends the game; no piece can follow",
                          "piece_after_end")
            return [*actions, Declare()]
        if mark == "?":
            if piece is None:
                if after.position.supply:
                    raise bad("a missed declaration is followed by the piece handed over",
                              "missed_without_piece")
                return [*actions, Decline()]
            return [*actions, Give(piece)]
        if piece is not None:
            raise bad(
                f"this placement completes {names}: write {cell_text.upper()}! to declare "
                f"or {cell_text.upper()}?{piece_name(piece)} for a missed declaration",
                "mark_missing", cell=cell_text.upper(), piece=piece_name(piece),
                shape=after.declarable[0].id
            )
    elif mark:
        raise bad(f"this placement completes no winning shape; drop the {mark!r}",
                  "mark_without_shape", mark=mark)
    elif piece is not None:
        return [*actions, Give(piece)]
    if not last:
        raise bad("a placement must be followed by the piece handed over", "piece_missing")
    return actions


def _false_claim(text: str, state: GameState, rules: Rules, last: bool,
                 bad: Callable[..., InvalidRecordError]) -> list[Action]:
    """The actions of a token that begins with ``x``: a false claim, then the turn."""
    if state.claimable:
        raise bad("this claim wins; write !", "claim_wins")
    try:
        called = state.apply(Claim(), rules)
    except IllegalActionError as exc:
        raise bad(str(exc), exc.reason, **exc.params) from None
    rest = text[1:]
    if called.outcome is not None:
        if rest:
            raise bad("the false call ends the game; nothing can follow", "piece_after_end")
        return [Claim()]
    if not rest:
        if not last:
            raise bad("a false claim is written with the turn that follows it (xA1F)",
                      "false_claim_alone")
        return [Claim()]
    return [Claim(), *parse_token(rest, called, rules, last=last)]


def _false_declaration(after: GameState, rules: Rules, actions: list[Action],
                       piece: int | None, last: bool,
                       bad: Callable[..., InvalidRecordError], cell: str) -> list[Action]:
    """The actions of a placement on ``cell`` marked ``x`` (a false declaration), then
    ``piece``."""
    if after.declarable:
        raise bad(f"this placement completes a winning shape: a declaration wins; "
                  f"write {cell}!", "mark_win", cell=cell)
    try:
        called = after.apply(Declare(), rules)
    except IllegalActionError as exc:
        raise bad(str(exc), exc.reason, **exc.params) from None
    actions = [*actions, Declare()]
    if called.outcome is not None:
        if piece is not None:
            raise bad("the false call ends the game; no piece can follow", "piece_after_end")
        return actions
    if piece is not None:
        return [*actions, Give(piece)]
    if not last:
        raise bad("a placement must be followed by the piece handed over", "piece_missing")
    return actions


def _expected(state: GameState,
              bad: Callable[..., InvalidRecordError]) -> InvalidRecordError:
    if state.step is Step.GIVE:
        return bad("a piece must be handed over here, without a placement", "expected_give")
    hand = state.position.hand
    assert hand is not None
    return bad(f"piece {piece_name(hand)} must be placed here: expected a cell first",
               "expected_place", hand=piece_name(hand))
