"""What each changing request does to a game, before the store saves it.

These functions check whose turn it is and whether the game goes on, then
call the library; the rules themselves are the library's alone.  Each one
either changes the game completely or, raising, not at all.
"""

from __future__ import annotations

import secrets
from datetime import UTC

from quads.clock import TimeControl, clock_headers
from quads.errors import InvalidRecordError
from quads.game import Action, Agree, Game
from quads.outcome import Player
from quads.players import LEVELS, make_player
from quads.players.hints import Hint, hint
from quads.record import read_record
from quads.rules import Rules
from quads.site.errors import SiteError
from quads.site.games import history
from quads.site.games.calls import shown_game
from quads.site.games.seats import Side, side_name
from quads.storage import Mode, StoredGame
from quads.storage.stored import now

__all__ = [
    "advice",
    "answer_undo",
    "apply_action",
    "check_revision",
    "computer_actions",
    "imported_game",
    "join",
    "new_game",
    "opponent_headers",
    "person",
    "redo",
    "rematch",
    "request_undo",
    "require_computer_turn",
    "require_hints",
    "resign",
    "turn_seed",
    "undo",
]


def _player(side: Side | None) -> Player | None:
    return None if side is None else Player[side.upper()]


def _stored(game: Game, mode: Mode, level: int | None, human: Side | None,
            owner: str | None, host: Side | None = None) -> StoredGame:
    created = now()
    computer = mode == "computer"
    stored = StoredGame(
        id=secrets.token_urlsafe(16),
        mode=mode,
        level=level if computer else None,
        human=_player(human) if computer else None,
        seed=secrets.randbits(32),
        game=game,
        created=created,
        updated=created,
        owner=owner,
    )
    if mode == "online":
        if (_player(host) or Player.FIRST) is Player.FIRST:
            stored.first_player = owner
        else:
            stored.second_player = owner
        stored.invite = secrets.token_urlsafe(16)
    return stored


HELP_HEADER = "Help"
"""The record's header of the help both players of an online game agreed to:
``safe-pieces`` (each may show the pieces safe to hand over); absent, none."""
SAFE_PIECES = "safe-pieces"


def safe_help(stored: StoredGame) -> bool:
    """Whether the pieces safe to hand over may be shown in ``stored``: always in a game
    against the computer or on one device; between two people online only if both
    agreed when it was made (its creator chose it, its guest joined it so), so that
    the help is the same for both."""
    return stored.mode != "online" or stored.game.headers.get(HELP_HEADER) == SAFE_PIECES


def _dated(rules: Rules, clock: TimeControl | None = None) -> Game:
    headers = {"Date": now().astimezone(UTC).strftime("%Y.%m.%d")}
    if clock is not None:
        headers["TimeControl"] = str(clock)
    return Game(rules, headers=headers)


def new_game(rules: str, mode: Mode, level: int | None, human: Side | None,
             owner: str | None = None, host: Side | None = None,
             clock: TimeControl | None = None) -> StoredGame:
    """A new game of ``owner`` on the empty board, dated today.  ``level`` and
    ``human`` count in ``computer`` mode only, ``host`` (the owner's seat) and
    ``clock`` (its ``TimeControl`` header) in ``online`` mode only.

    :raises InvalidRulesError: if ``rules`` cannot be read.
    """
    return _stored(_dated(Rules.parse(rules), clock if mode == "online" else None), mode,
                   level, human, owner, host)


def imported_game(record: str, mode: Mode | None, level: int | None, human: Side | None,
                  owner: str | None = None, host: Side | None = None) -> StoredGame:
    """A game of ``owner`` replayed from ``record``, with the record's headers.  With
    ``mode`` ``None``, who plays is read from the record's ``Mode``, ``Level`` and
    ``Human`` headers (:func:`opponent_headers`); without them it is a ``local`` game.

    :raises InvalidRecordError: if the record cannot be read or replayed, or its
        headers name no valid opponent.
    """
    game = read_record(record)
    for header in ("TimeControl", "Clocks"):  # a clock is started by the server only
        game.headers.pop(header, None)
    if mode is None:
        mode, level, human = _recorded_opponent(game.headers)
    return _stored(game, mode, level, human, owner, host)


def recorded(stored: StoredGame) -> Game:
    """``stored`` as its record is written (its download, an export of one's games):
    with who played it (:func:`opponent_headers`) and its clocks, and for an online
    game its players' names as others see them (``First``, ``Second``), whether it is
    rated (``Rated``: ``yes`` or ``no``) and the category of a rated one
    (``Category``).  In an online game, while a claim is pending, the record stops
    before the last hand-over (:func:`quads.site.games.calls.shown_game`)."""
    game = (shown_game(stored.game) if stored.mode == "online" else stored.game).copy()
    game.headers.update(opponent_headers(stored))
    if stored.clock is not None:
        game.headers.update(clock_headers(stored.clock))
    if stored.mode == "online":
        for side, key in ((Player.FIRST, "First"), (Player.SECOND, "Second")):
            name = stored.names[side]
            if name is not None:
                game.headers[key] = name
        game.headers["Rated"] = "yes" if stored.rated else "no"
        if stored.rated and stored.category is not None:
            game.headers["Category"] = stored.category
    return game


def opponent_headers(stored: StoredGame) -> dict[str, str]:
    """The record headers that say who played ``stored``: ``Mode``, and for a game
    against the computer its ``Level`` and the person's side (``Human``)."""
    headers: dict[str, str] = {"Mode": stored.mode}
    if stored.mode == "computer" and stored.level is not None and stored.human is not None:
        headers["Level"] = str(stored.level)
        headers["Human"] = side_name(stored.human) or "first"
    return headers


def _recorded_opponent(headers: dict[str, str]) -> tuple[Mode, int | None, Side | None]:
    mode = headers.get("Mode", "local")
    if mode in ("local", "online"):
        return ("local" if mode == "local" else "online"), None, None
    if mode != "computer":
        raise InvalidRecordError(
            f"header Mode {mode!r}: expected computer, local or online", "header_mode",
            mode=mode)
    level_text, human = headers.get("Level", ""), headers.get("Human", "")
    if not level_text.isdigit() or int(level_text) not in LEVELS:
        levels = ", ".join(map(str, sorted(LEVELS)))
        raise InvalidRecordError(f"header Level {level_text!r}: expected one of {levels}",
                                 "header_level", level=level_text)
    if human not in ("first", "second"):
        raise InvalidRecordError(f"header Human {human!r}: expected first or second",
                                 "header_human", human=human)
    return "computer", int(level_text), "first" if human == "first" else "second"


def rematch(stored: StoredGame) -> StoredGame:
    """The next game after ``stored``: the same rules, mode and level, and the sides
    swapped, so that the other player hands over first.

    :raises SiteError: ``not_over`` while ``stored`` goes on.
    """
    if not stored.is_over():
        raise SiteError("not_over", "the game goes on: finish or resign it first")
    human = None if stored.human is None else stored.human.other
    clock = stored.clock.control if stored.clock is not None else None
    following = _stored(_dated(stored.game.rules, clock), stored.mode, stored.level,
                        side_name(human), stored.owner)
    if HELP_HEADER in stored.game.headers:  # the help agreed goes on
        following.game.headers[HELP_HEADER] = stored.game.headers[HELP_HEADER]
    if stored.mode == "online":
        following.first_player = stored.second_player
        following.second_player = stored.first_player
        following.rated = stored.rated
        if following.first_player is not None and following.second_player is not None:
            # Else (an imported game nobody joined) it stays open.  The rematch of an
            # invitation's game keeps a token nobody has: it stays off the list of
            # games to watch, as the game before was.
            following.invite = None if stored.invite is None else secrets.token_urlsafe(16)
    return following


def join(stored: StoredGame, player: str, invite: str) -> bool:
    """Seat ``player`` in the free seat of an online game; ``False`` if they hold a
    seat already (joining twice changes nothing).

    :raises SiteError: ``bad_invite`` for a wrong token (or a game that is not
        online), ``seat_taken`` when both seats are taken by others.
    """
    if stored.mode != "online" or stored.invite is None:
        raise SiteError("bad_invite", "this game takes no invitation")
    if stored.seat_of(player) is not None:
        return False
    if not secrets.compare_digest(invite.encode(), stored.invite.encode()):
        raise SiteError("bad_invite", "this invitation is not valid for this game")
    if stored.first_player is None:
        stored.first_player = player
    elif stored.second_player is None:
        stored.second_player = player
    else:
        raise SiteError("seat_taken", "both seats of this game are taken")
    return True


DRAW_OFFERS = 3
"""Draws each side may offer in one online game: room for a change of heart, none
for pestering."""
UNDO_REQUESTS = 3
"""Undos each side may ask for in one online game."""


def resign(stored: StoredGame, side: Player) -> None:
    """``side`` gives up: the other side wins (:meth:`Game.resign`).

    :raises SiteError: ``game_over``.
    """
    if stored.is_over():
        raise SiteError.game_over()
    stored.game.resign(side)
    stored.settle_requests()


def _both_seated(stored: StoredGame) -> None:
    if stored.first_player is None or stored.second_player is None:
        raise SiteError("waiting_for_opponent",
                       "nobody has joined yet: there is nobody to ask")


def _count(counts: tuple[int, int], side: Player) -> tuple[int, int]:
    """``counts`` with one more for ``side``."""
    first, second = counts
    return (first + 1, second) if side is Player.FIRST else (first, second + 1)


def offer_draw(stored: StoredGame, side: Player) -> None:
    """``side`` offers the other player of an online game a draw, which stands until
    they answer it or play on; an offer made while the other's waits accepts theirs.

    :raises SiteError: ``waiting_for_opponent`` while a seat is free, ``game_over``,
        ``draw_offered`` while the offer of ``side`` waits for its answer,
        ``too_many_draw_offers`` past :data:`DRAW_OFFERS` in the game.
    """
    _both_seated(stored)
    if stored.is_over():
        raise SiteError.game_over()
    if stored.draw_offer is side.other:
        answer_draw(stored, side, accept=True)
        return
    if stored.draw_offer is side:
        raise SiteError("draw_offered", "your draw offer waits for its answer")
    made = stored.draw_offers[side.value]
    if made >= DRAW_OFFERS:
        raise SiteError("too_many_draw_offers", f"you offered a draw {made} times in this "
                        f"game already, the most there may be", "", most=DRAW_OFFERS)
    stored.draw_offer = side
    stored.draw_offers = _count(stored.draw_offers, side)


def answer_draw(stored: StoredGame, side: Player, accept: bool) -> None:
    """``side`` accepts (the game is drawn) or declines the other player's offer.

    :raises SiteError: ``no_draw_offer`` when the other player offered none.
    """
    offer = stored.draw_offer
    if offer is None or offer is side or stored.is_over():
        raise SiteError("no_draw_offer", "your opponent has not offered a draw")
    stored.draw_offer = None
    if accept:
        stored.game.apply(Agree())
        stored.settle_requests()


def request_undo(stored: StoredGame, side: Player) -> None:
    """``side`` asks the other player of an online game to accept an undo.

    :raises SiteError: ``waiting_for_opponent`` while a seat is free (nobody to
        ask), ``nothing_to_undo``, ``undo_requested`` while a request waits for
        its answer.
    """
    _both_seated(stored)
    if stored.is_over() or not history.can_undo(stored.game, side):
        raise SiteError("nothing_to_undo", "there is nothing of yours to undo")
    if stored.undo_request is not None:
        raise SiteError("undo_requested", "an undo request is waiting for its answer")
    made = stored.undo_requests[side.value]
    if made >= UNDO_REQUESTS:
        raise SiteError("too_many_undo_requests", f"you asked for an undo {made} times in "
                        "this game already, the most there may be", "", most=UNDO_REQUESTS)
    stored.undo_request = side
    stored.undo_requests = _count(stored.undo_requests, side)


def answer_undo(stored: StoredGame, side: Player, accept: bool) -> None:
    """``side`` accepts (the requester's last turn is taken back) or refuses the other
    player's undo request.

    :raises SiteError: ``no_undo_request`` when the other player asked for none.
    """
    requester = stored.undo_request
    if requester is None or requester is side:
        raise SiteError("no_undo_request", "your opponent has not asked to undo")
    stored.undo_request = None
    if accept and history.can_undo(stored.game, requester):
        history.undo(stored.game, requester)
        stored.draw_offer = None  # offered on a board that is no more


def person(stored: StoredGame) -> Player | None:
    """The person's side against the computer; ``None`` between two people."""
    return stored.human if stored.mode == "computer" else None


def check_revision(stored: StoredGame, revision: int) -> None:
    """Refuse a request made from a view of another revision (``stale``)."""
    if revision != stored.revision:
        raise SiteError.stale(revision, stored.revision)


def apply_action(stored: StoredGame, action: Action) -> None:
    """Play a person's ``action``.

    :raises SiteError: ``game_over``, or ``not_your_turn`` on the computer's turn.
    :raises IllegalActionError: if the rules forbid it now.
    """
    game = stored.game
    if stored.is_over():
        raise SiteError.game_over()
    side = person(stored)
    if side is not None and game.to_move is not side:
        raise SiteError.not_your_turn("it is the computer's turn: ask it to play")
    mover = game.to_move
    game.apply(action)
    stored.undo_request = None
    if stored.draw_offer is not mover or game.is_over():
        stored.draw_offer = None  # playing on declines the other's offer


def turn_seed(seed: int, ply: int) -> int:
    """The seed of the computer's turn at ``ply`` in a game of ``seed``.

    Derived from both, so the same game replays the same computer turns.
    """
    return seed * 64 + ply


def require_computer_turn(stored: StoredGame) -> int:
    """Check that the computer is to move now; return its level.

    :raises SiteError: ``game_over``, or ``not_your_turn`` when no computer is to move.
    """
    if stored.is_over():
        raise SiteError.game_over()
    side = person(stored)
    if side is None or stored.level is None:
        raise SiteError.not_your_turn("there is no computer player in a game between two people")
    if stored.game.to_move is side:
        raise SiteError.not_your_turn("it is the person's turn, not the computer's")
    return stored.level


def computer_actions(stored: StoredGame) -> list[Action]:
    """Choose the computer's whole turn (slow at high levels: call it off the event loop).

    :raises SiteError: ``game_over``, or ``not_your_turn`` when no computer is to move.
    """
    level = require_computer_turn(stored)
    player = make_player(level, seed=turn_seed(stored.seed, stored.ply))
    return player.actions(stored.game.copy())


def require_hints(stored: StoredGame) -> None:
    """Refuse hints in an online game: the engine would help one side without the
    other knowing.  A game on one device (against the computer, or two people
    taking turns) may ask for them.

    :raises SiteError: ``hint_online``.
    """
    if stored.mode == "online":
        raise SiteError("hint_online",
                       "no hints in an online game: the engine would help one side")


HINT_SECONDS = 1.0
"""How long a hint may think."""


def advice(stored: StoredGame) -> Hint:
    """A hint for the person to move (slow: call it off the event loop).

    :raises SiteError: ``hint_online`` in an online game, ``game_over``, or
        ``not_your_turn`` while the computer is to move.
    """
    game = stored.game
    require_hints(stored)
    if stored.is_over():
        raise SiteError.game_over()
    side = person(stored)
    if side is not None and game.to_move is not side:
        raise SiteError.not_your_turn("it is the computer's turn: no hint for it")
    return hint(game.copy(), seconds=HINT_SECONDS)


def undo(stored: StoredGame) -> None:
    """Take back a turn, or back to the person's last turn (see :mod:`quads.site.games.history`).

    :raises SiteError: ``nothing_to_undo``.
    """
    side = person(stored)
    if stored.resigned is not None or not history.can_undo(stored.game, side):
        raise SiteError("nothing_to_undo", "there is nothing to undo")
    history.undo(stored.game, side)


def redo(stored: StoredGame) -> None:
    """Play again what :func:`undo` took back.

    :raises SiteError: ``nothing_to_redo``.
    """
    side = person(stored)
    if (stored.mode == "online" or stored.resigned is not None
            or not history.can_redo(stored.game, side)):
        raise SiteError("nothing_to_redo", "there is nothing to redo")
    history.redo(stored.game, side)
