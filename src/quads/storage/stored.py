"""A stored game: the game itself and what the app keeps beside it.

Actions are stored as their text (``give 7``, ``place B2``, ``declare``,
``claim``, ``decline``, ``resign first``, ``timeout second``, ``abandon first``,
``abandon first draw``, ``agree``, ``abort``), which :func:`action_text` writes and
:func:`parse_action` reads back; replaying them from the start position gives
the same game, redo trail included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from quads.cells import parse_cell
from quads.clock import Clock
from quads.errors import QuadsError
from quads.game import (
    Abandon,
    Abort,
    Action,
    Agree,
    Claim,
    Declare,
    Decline,
    Game,
    Give,
    Place,
    Resign,
    Timeout,
)
from quads.outcome import Player
from quads.pieces import parse_piece
from quads.position import Position
from quads.rules import Rules

__all__ = [
    "GameSummary",
    "Mode",
    "SeatRating",
    "Status",
    "StoredGame",
    "action_text",
    "now",
    "parse_action",
    "rebuild_game",
    "redo_trail",
]

Mode = Literal["computer", "local", "online"]
"""``computer``: a person against a computer player; ``local``: two people on one device;
``online``: two people, each on their own device, seated by an invitation."""

Status = Literal["ongoing", "over"]
"""Whether a game goes on or has ended."""


@dataclass(frozen=True)
class SeatRating:
    """A seated account's rating in its game's category, as loaded with the game."""

    rating: float
    deviation: float
    games: int
    hidden: bool
    """Whether the account hides ratings while it plays."""
    before: float | None = None
    """Once a rated game is over: the rating before it (``None`` before the end)."""
    after: float | None = None
    """Once a rated game is over: the rating after it."""


@dataclass
class StoredGame:
    """A game as the store keeps it."""

    id: str
    mode: Mode
    level: int | None
    """The computer player's level (``computer`` mode only)."""
    human: Player | None
    """The side the person plays (``computer`` mode only)."""
    seed: int
    """The seed from which every computer turn of this game derives its own."""
    game: Game
    created: datetime
    updated: datetime
    revision: int = 0
    """How many times the game has been saved; a save must name the revision it read."""
    owner: str | None = None
    """The player who created the game (a player id: the hash of their token).
    ``None`` only for a game stored before games had owners."""
    first_player: str | None = None
    """``online`` only: the player in the first seat, ``None`` while it is free."""
    second_player: str | None = None
    """``online`` only: the player in the second seat, ``None`` while it is free."""
    invite: str | None = None
    """``online`` only: the token that seats a second person, while a seat is free."""
    undo_request: Player | None = None
    """``online`` only: the side asking the other to accept an undo."""
    draw_offer: Player | None = None
    """``online`` only: the side whose offer of a draw waits for the other's answer."""
    draw_offers: tuple[int, int] = (0, 0)
    """``online`` only: how many draws the first and the second side offered."""
    undo_requests: tuple[int, int] = (0, 0)
    """``online`` only: how many undos the first and the second side asked for."""
    rematch: str | None = None
    """The id of the game that "Play again" started after this one."""
    rematch_by: Player | None = None
    """The side that asked for :attr:`rematch` (``None`` if not known: asked before
    Quads kept it)."""
    device: str | None = None
    """The id a device gave this game, when it was played there and uploaded; ``None``
    for a game of the server's own.  The device owns the game until it is over."""
    device_revision: int | None = None
    """The device's revision of the game last stored (uploads only)."""
    clock: Clock | None = None
    """``online`` only: the game's clocks, ``None`` for a game without one."""
    away: tuple[datetime | None, datetime | None] = (None, None)
    """``online`` only: since when the first and the second seat's player has had the
    game open nowhere, as last seen (``None``: open, or never seen leaving).  Written
    by :meth:`~quads.storage.GameStore.mark_away`, never by a save."""
    names: tuple[str | None, str | None] = (None, None)
    """``online`` only: the names of the first and the second seat's player, as loaded
    (``None``: no name chosen or made up yet).  Never written by a save."""
    bots: tuple[bool, bool] = (False, False)
    """``online`` only: whether the first and the second seat's player is a bot, as
    loaded.  Never written by a save."""
    bot_invited: str | None = None
    """``online`` only: the bot (its player id) that the free seat is offered to."""
    bot_declined: bool = False
    """Whether :attr:`bot_invited` declined the offer."""
    invited_bot: tuple[str, str] | None = None
    """The handle and name of :attr:`bot_invited`, as loaded.  Never written by a save."""
    rated: bool = False
    """``online`` only: whether its result changes both players' ratings (both seats
    then hold accounts).  Set when the game is made."""
    category: str | None = None
    """The rating category it counts for (or would), set by the store when the game is
    made (:func:`quads.ratings.category_of`); ``None`` if it cannot be rated."""
    accounts: tuple[str | None, str | None] = (None, None)
    """``online`` only: the account names of the seats' players, as loaded (``None``: a
    player without one).  Never written by a save."""
    ratings: tuple[SeatRating | None, SeatRating | None] = (None, None)
    """``online`` only: each seated account's rating in :attr:`category`, as loaded.
    Never written by a save."""
    stored_seats: tuple[str | None, str | None] | None = field(
        default=None, repr=False, compare=False)
    """The seats' players as last read from or written to the store (``None``: not
    known): their player rows exist, so a save that leaves the seats as they were
    need not make sure of them again."""

    @property
    def resigned(self) -> Player | None:
        """The side that resigned (:meth:`Game.resign`), which ended the game."""
        return self.game.resigned

    @property
    def ply(self) -> int:
        """The number of actions played."""
        return len(self.game.actions)

    def settle_requests(self) -> None:
        """Forget what waited for an answer (an undo request, a draw offer): the game
        is over, or its board changed under it."""
        self.undo_request = None
        self.draw_offer = None

    def is_over(self) -> bool:
        """Whether the game has ended: by the rules or by a resignation."""
        return self.game.is_over()

    @property
    def status(self) -> Status:
        """``over`` once the game has ended, else ``ongoing``."""
        return "over" if self.is_over() else "ongoing"

    def seat(self, side: Player) -> str | None:
        """The player seated on ``side`` of an ``online`` game."""
        return self.first_player if side is Player.FIRST else self.second_player

    def seat_of(self, player: str) -> Player | None:
        """The side ``player`` holds in an ``online`` game, if any."""
        for side in Player:
            if self.seat(side) == player:
                return side
        return None


@dataclass(frozen=True)
class GameSummary:
    """The stored facts of a game that a list of games shows, read without replaying it."""

    id: str
    rules: str
    mode: Mode
    level: int | None
    human: Player | None
    ply: int
    status: Status
    to_move: Player | None
    created: datetime
    updated: datetime
    owner: str | None = None
    first_player: str | None = None
    second_player: str | None = None
    resigned: Player | None = None
    revision: int = 0
    """The game's revision, which a change made from the list (deleting it) sends."""
    device: str | None = None
    """The device's id of a game uploaded from a device (:attr:`StoredGame.device`)."""
    clock: Clock | None = None
    """The game's clocks (:attr:`StoredGame.clock`)."""
    result: str | None = None
    """Once over, its result as a record writes it (``1-0``, ``0-1``, ``1/2-1/2``, ``*``);
    ``None`` while it goes on, and for a game that ended before results were kept."""
    names: tuple[str | None, str | None] = (None, None)
    """The names of the players in its two seats (an online game), if they chose one."""


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def action_text(action: Action) -> str:
    """The stored text of ``action``: ``give 7``, ``place B2``, ``declare`` ..."""
    return str(action)


def parse_action(text: str) -> Action:
    """Read an action written by :func:`action_text`.

    :raises QuadsError: if ``text`` is not such an action.
    """
    word, _, argument = text.partition(" ")
    if word == "give" and argument:
        return Give(parse_piece(argument))
    if word == "place" and argument:
        return Place(parse_cell(argument))
    if word == "resign" and argument in ("first", "second"):
        return Resign(Player[argument.upper()])
    if word == "timeout" and argument in ("first", "second"):
        return Timeout(Player[argument.upper()])
    side, _, draw = argument.partition(" ")
    if word == "abandon" and side in ("first", "second") and draw in ("", "draw"):
        return Abandon(Player[side.upper()], draw=draw == "draw")
    simple: dict[str, Action] = {"declare": Declare(), "claim": Claim(), "decline": Decline(),
                                 "agree": Agree(), "abort": Abort()}
    if word in simple and not argument:
        return simple[word]
    raise QuadsError(f"invalid stored action {text!r}")


def redo_trail(game: Game) -> list[Action]:
    """The actions that redo would play again, next first (read on a copy of ``game``)."""
    other = game.copy()
    trail = []
    while other.can_redo():
        trail.append(other.redo())
    return trail


def rebuild_game(rules: Rules, start: Position, headers: dict[str, str],
                 actions: list[Action], redo: list[Action]) -> Game:
    """Replay ``actions`` from ``start``, then the ``redo`` trail, and undo that trail again.

    The result is the game as it was saved, with the same actions to redo.

    :raises QuadsError: if an action cannot be played.
    """
    game = Game(rules, start, headers)
    for action in [*actions, *redo]:
        game.apply(action)
    for _ in redo:
        game.undo()
    return game
