"""Game records: header fields and move text, read and written exactly.

The format is described in ``docs/record-format.md``.  In short::

    [Event "Club night"]
    [Date "2026.11.30"]
    [First "Ada"]
    [Second "Ben"]
    [Rules "classic"]
    [Result "0-1"]

    1. 7 A1C 2. B2?3 ! 0-1

A game that ended by a resignation has the winner's result and the header
``[Termination "resignation"]``; the player who resigned is the one who lost.
Likewise ``time`` (lost on time), ``abandonment`` (left the game: a win, or a
draw), ``agreement`` (a draw agreed, ``1/2-1/2``) and ``aborted`` (no result,
``*``).  A game played with a clock keeps it in the headers ``TimeControl`` and
``Clocks`` (:func:`quads.clock.clock_headers`).

:func:`read_record` gives a :class:`~quads.game.Game`; :func:`write_record`
writes one.  ``write_record(read_record(text)) == text`` for a record as this
module writes it, and reading checks every token against the rules.
"""

from __future__ import annotations

import re

from quads.errors import IllegalActionError, InvalidPositionError, InvalidRecordError, QuadsError
from quads.game import Abandon, Abort, Agree, Game, Resign, Timeout
from quads.notation import parse_token, write_tokens
from quads.outcome import Player, Termination
from quads.position import EMPTY, Position
from quads.rules import QUADS, Rules

__all__ = ["RESIGNATION", "RESULTS", "read_record", "write_record"]

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
"""Result tokens: first player won, second player won, draw, unfinished."""

RESIGNATION = "resignation"
"""The ``Termination`` header of a game that ended by a resignation."""

_ENDINGS = {Termination.RESIGNATION, Termination.TIME, Termination.ABANDONMENT,
            Termination.AGREEMENT, Termination.ABORTED}
"""The terminations that a record's ``Termination`` header says (the others its moves)."""

_ORDER = ("Event", "Site", "Date", "Round", "First", "Second", "Rules", "Position", "Result",
          "Termination")
_LEGACY_RESIGNATION = {f"{player.identifier} player resigned": player for player in Player}
"""``Termination`` values of records written before resignation was part of the rules,
with the result ``*``: the side that resigned."""
_HEADER = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]')
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(\d+)\.")
_WIDTH = 79


def _result(game: Game) -> str:
    outcome = game.outcome
    return "*" if outcome is None else outcome.result


def write_record(game: Game) -> str:
    """Return the record of ``game``: its headers, then its move text.

    ``Rules`` and ``Result`` are always written from the game itself, and
    ``Termination`` (``resignation``, ``time``, ``abandonment``, ``aborted``) when,
    and only when, the game ended so;
    ``Position`` only when the game did not start on the empty board.
    Line breaks inside a header value are written as spaces.

    :raises InvalidRecordError: if a header key is not letters, digits and ``_``.
    """
    headers = dict(game.headers)
    headers["Rules"] = game.rules.name
    headers["Result"] = _result(game)
    headers.pop("Termination", None)
    if game.outcome is not None and game.outcome.termination in _ENDINGS:
        headers["Termination"] = game.outcome.termination.value
    if game.start != EMPTY:
        headers["Position"] = game.start.to_string()
    else:
        headers.pop("Position", None)
    ordered = [k for k in _ORDER if k in headers] + [k for k in headers if k not in _ORDER]
    lines = []
    for key in ordered:
        if not _KEY.fullmatch(key):
            raise InvalidRecordError(f"invalid header key {key!r}: letters, digits and _ only",
                                     "header_key", key=key)
        # A record keeps one header a line: line breaks in a value become spaces.
        value = " ".join(headers[key].splitlines())
        value = value.replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{key} "{value}"]')
    words: list[str] = []
    for index, token in enumerate(write_tokens(game.states, game.actions)):
        if index % 2 == 0:
            words.append(f"{index // 2 + 1}.")
        words.append(token)
    words.append(_result(game))
    text_lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > _WIDTH:
            text_lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    text_lines.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(text_lines) + "\n"


def read_record(text: str) -> Game:
    """Read a record and replay it.

    A ``Termination`` of ``resignation`` ends the replayed game with the
    resignation of the player the result says lost; ``time`` and ``abandonment``
    likewise (an abandonment drawn is the side to move's), ``aborted`` with ``*``.
    Records written before resignations were part of the rules (``[Termination "first player
    resigned"]`` with the result ``*``) are read as resigned games too.

    :raises InvalidRecordError: if a header is malformed, a token cannot be
        played (the message names the token and why), the result written
        disagrees with the game, or a resignation is not possible where it stands.
    """
    headers: dict[str, str] = {}
    lines = text.splitlines()
    body_start = len(lines)
    for number, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("["):
            body_start = number
            break
        match = _HEADER.fullmatch(stripped)
        if match is None:
            raise InvalidRecordError(f"line {number + 1}: malformed header {stripped!r}",
                                     "header", line=number + 1)
        key, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
        if key in headers:
            raise InvalidRecordError(f"line {number + 1}: header {key!r} given twice",
                                     "header_twice", line=number + 1, key=key)
        headers[key] = value
    try:
        rules = Rules.parse(headers.pop("Rules")) if "Rules" in headers else QUADS
        start = Position.from_string(headers.pop("Position")) if "Position" in headers else EMPTY
        game = Game(rules, start)
    except QuadsError as exc:
        raise InvalidRecordError(f"bad header: {exc}", "header_value", **exc.params) from None
    written_result = headers.pop("Result", None)
    termination = headers.pop("Termination", None)
    game.headers = headers

    words = " ".join(lines[body_start:]).split()
    result: str | None = None
    moves: list[str] = []
    for index, word in enumerate(words):
        if word in RESULTS:
            if index != len(words) - 1:
                raise InvalidRecordError(f"token {word!r}: the result must end the move text",
                                         "result_not_last", token=word)
            result = word
            continue
        turn_number = _NUMBER.fullmatch(word)
        if turn_number:
            expected = len(moves) // 2 + 1
            digits = turn_number.group(1).lstrip("0")  # int() refuses over 4,300 digits
            if len(moves) % 2 or len(digits) > 4 or int(digits or "0") != expected:
                raise InvalidRecordError(
                    f"token {word!r}: expected the turn number {expected}. before "
                    "the first player's turn", "turn_number", token=word, number=expected
                )
            continue
        moves.append(word)
    for index, token in enumerate(moves):
        try:
            actions = parse_token(token, game.state, rules, last=index == len(moves) - 1)
            for action in actions:
                game.apply(action)
        except (InvalidPositionError, IllegalActionError) as exc:
            raise InvalidRecordError(f"token {token!r}: {exc}", exc.reason or "unreadable",
                                     **{**exc.params, "token": token}) from None
        except InvalidRecordError:
            raise
        except QuadsError as exc:
            raise InvalidRecordError(f"token {token!r}: {exc}", "unreadable",
                                     token=token) from None
    legacy = termination in _LEGACY_RESIGNATION
    if termination is not None:
        _resign(game, termination, result or written_result)
    actual = _result(game)
    for claimed, where in ((result, "move text"), (written_result, "Result header")):
        if claimed is not None and claimed != actual and not (legacy and claimed == "*"):
            raise InvalidRecordError(
                f"the {where} says {claimed!r} but the game's result is {actual!r}",
                "result_mismatch", claimed=claimed, actual=actual
            )
    return game


def _resign(game: Game, termination: str, result: str | None) -> None:
    """End the replayed ``game`` by the ending that ``termination`` and ``result`` say."""
    names = sorted(t.value for t in _ENDINGS)
    kind = next((t for t in _ENDINGS if t.value == termination), None)
    if termination in _LEGACY_RESIGNATION:
        kind = Termination.RESIGNATION
    elif kind is None:
        raise InvalidRecordError(
            f"header Termination {termination!r}: expected one of {', '.join(names)}, "
            "or no Termination", "termination", termination=termination)
    if game.is_over():
        raise InvalidRecordError(
            f"header Termination says {termination!r}, but the game ended by the rules",
            "resigned_after_end")
    if kind is Termination.ABORTED:
        game.apply(Abort())
        return
    if kind is Termination.AGREEMENT:
        if result != "1/2-1/2":
            raise InvalidRecordError(
                f"a game drawn by agreement needs the result 1/2-1/2, not {result or 'none'}",
                "agreement_result", result=result or "")
        game.apply(Agree())
        return
    if termination in _LEGACY_RESIGNATION:
        loser = _LEGACY_RESIGNATION[termination]
    elif result in ("1-0", "0-1"):
        loser = Player.SECOND if result == "1-0" else Player.FIRST
    elif kind is Termination.ABANDONMENT and result == "1/2-1/2" and game.to_move is not None:
        game.apply(Abandon(game.to_move, draw=True))
        return
    else:
        raise InvalidRecordError(
            f"a game ended by {termination!r} needs the result 1-0 or 0-1, "
            f"not {result or 'none'}", "resignation_result", result=result or "")
    if kind is Termination.TIME:
        game.apply(Timeout(loser))
    elif kind is Termination.ABANDONMENT:
        game.apply(Abandon(loser))
    else:
        game.apply(Resign(loser))


def player_name(game: Game, player: Player) -> str:
    """The name of ``player`` from the headers, or ``first``/``second``."""
    key = "First" if player is Player.FIRST else "Second"
    return game.headers.get(key, player.identifier)
