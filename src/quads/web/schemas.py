"""The JSON bodies of the API as pydantic models, so that ``/openapi.json`` shows them.

Request models check everything a schema can say (:mod:`quads.web.fields`): a
body that does not fit is refused with ``400`` before any route runs.  What
only the rules of the game can judge (an impossible record, an illegal move)
is left to the library, whose refusals carry their own codes.
"""

from __future__ import annotations

from datetime import date as date_type
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from quads.game import Step
from quads.outcome import Termination
from quads.site.games.seats import Side
from quads.storage import Mode
from quads.web.fields import (
    INVITE_PATTERN,
    MAX_REVISION,
    UUID_PATTERN,
    ActionText,
    Cell,
    Level,
    Piece,
    Revision,
    RulesName,
    TimeText,
    TurnText,
    json_choice,
    json_int,
)

__all__ = [
    "MAX_ACTIONS",
    "PLAYER_PATTERN",
    "AbandonClaim",
    "ActMessage",
    "ActedMessage",
    "ActionRequest",
    "AdoptRequest",
    "BotInvitationRequest",
    "BotInvitationView",
    "CheckRequest",
    "ClaimAction",
    "ClientMessage",
    "ClockSpec",
    "ClockView",
    "ComputerGame",
    "Connected",
    "CorrespondenceClock",
    "DeclareAction",
    "DeclineAction",
    "DeviceComputer",
    "DeviceLocal",
    "DeviceUpload",
    "ErrorDetail",
    "ErrorView",
    "GameList",
    "GameSummaryView",
    "GameView",
    "GiveAction",
    "GoneMessage",
    "HintValue",
    "HintView",
    "ImportAsRecorded",
    "ImportComputer",
    "ImportGame",
    "ImportLocal",
    "ImportOnline",
    "InviteView",
    "JoinRequest",
    "LastTurn",
    "LocalGame",
    "Names",
    "NewGame",
    "OnlineGame",
    "OutcomeView",
    "PingMessage",
    "PlaceAction",
    "PongMessage",
    "PuzzleDay",
    "PuzzleGoal",
    "PuzzleHistory",
    "PuzzleResultView",
    "PuzzleView",
    "PuzzlesAhead",
    "RealTimeClock",
    "RefusedMessage",
    "ResultRequest",
    "RevisionRequest",
    "SeatState",
    "Seats",
    "ServerMessage",
    "Side",
    "SyncMessage",
    "TraitName",
    "TraitValue",
    "UndoAnswer",
    "VerdictView",
    "ViewMessage",
]


TraitName = Literal["height", "color", "shape", "top"]


class LocalGame(BaseModel):
    """Two people on one device."""

    mode: Literal["local"]
    rules: RulesName = "quads"


class ComputerGame(BaseModel):
    """A person against the computer."""

    mode: Literal["computer"]
    rules: RulesName = "quads"
    level: Level
    human: Side = Field(description="The side the person plays")


DAYS = (1, 2, 3, 7)
"""The days a correspondence move may have."""


class RealTimeClock(BaseModel):
    """A real-time clock: ``initial`` seconds for the game, ``increment`` more after
    each turn."""

    model_config = ConfigDict(extra="forbid")

    initial: json_int(5, 10_800, "Seconds for the whole game, 5 at least")  # type: ignore[valid-type]
    increment: json_int(0, 180, "Seconds added after each turn")  # type: ignore[valid-type]


class CorrespondenceClock(BaseModel):
    """A correspondence clock: ``days`` for each move."""

    model_config = ConfigDict(extra="forbid")

    days: json_choice(DAYS, "Days for each move")  # type: ignore[valid-type]


ClockSpec = RealTimeClock | CorrespondenceClock
"""A time control: ``{"initial": SECONDS, "increment": SECONDS}`` or ``{"days": N}``."""


class OnlineGame(BaseModel):
    """Two people on two devices: the creator takes a seat and invites the other."""

    mode: Literal["online"]
    rules: RulesName = "quads"
    host: Side | None = Field(
        default=None,
        description="The seat of the creator (`first` hands over first); `first` when left out")
    clock: ClockSpec | None = Field(
        default=None, description="The time control; none for a game without a clock. The "
                                  "clock starts once the second player joins")


NewGame = Annotated[LocalGame | ComputerGame | OnlineGame, Field(discriminator="mode")]
"""A new game from the empty board: who plays (``mode``) decides the other fields."""

RECORD_MAX = 60_000
"""The longest record a request may carry, in characters (the body limit is 64 KiB)."""

Record = Annotated[str, Field(min_length=1, max_length=RECORD_MAX,
                              description="A game record, see `docs/record-format.md`")]


class ImportAsRecorded(BaseModel):
    """Who plays as the record's ``Mode``, ``Level`` and ``Human`` headers say (the record
    download writes them); a record without them opens as a ``local`` game."""

    record: Record
    mode: None = Field(default=None, description="Left out: as the record's headers say")


class ImportLocal(BaseModel):
    """The record's game, on one device."""

    record: Record
    mode: Literal["local"]


class ImportComputer(BaseModel):
    """The record's game, against the computer."""

    record: Record
    mode: Literal["computer"]
    level: Level
    human: Side = Field(description="The side the person plays")


class ImportOnline(BaseModel):
    """The record's game, online: the importer takes the first seat and invites the other."""

    record: Record
    mode: Literal["online"]


def _import_tag(body: Any) -> str:
    mode = body.get("mode") if isinstance(body, dict) else getattr(body, "mode", None)
    return "recorded" if mode is None else str(mode)


ImportGame = Annotated[
    Annotated[ImportAsRecorded, Tag("recorded")] | Annotated[ImportLocal, Tag("local")]
    | Annotated[ImportComputer, Tag("computer")] | Annotated[ImportOnline, Tag("online")],
    Discriminator(_import_tag),
]
"""A game replayed from a record, to go on playing; who plays as ``mode`` says, or as
the record's headers say when ``mode`` is left out."""


MAX_ACTIONS = 33
"""The most actions a game holds: 16 hand-overs, 16 placements and the declaration,
decline or resignation that ends it."""


class _DeviceGame(BaseModel):
    """What every upload of a game played on a device carries."""

    rules: RulesName
    actions: list[ActionText] = Field(
        max_length=MAX_ACTIONS,
        description="The actions played, from the empty board, in order (a resignation "
                    "last, if any)")
    redo: list[ActionText] = Field(
        default_factory=list, max_length=MAX_ACTIONS,
        description="The actions undone that redo would play again, the next one first")
    created: TimeText = Field(
        description="When the game was started on the device (ISO 8601 with its offset); "
                    "a time after the server's now counts as now")
    device_revision: json_int(  # type: ignore[valid-type]
        0, MAX_REVISION,
        "The game's revision on the device, which moves on with every change there: an "
        "upload not newer than the one stored changes nothing")


class DeviceLocal(_DeviceGame):
    """A game of two people on the device."""

    mode: Literal["local"]


class DeviceComputer(_DeviceGame):
    """A game against the computer on the device."""

    mode: Literal["computer"]
    level: Level
    human: Side = Field(description="The side the person plays")


DeviceUpload = Annotated[DeviceLocal | DeviceComputer, Field(discriminator="mode")]
"""A game played on a device, as the device has it now: who plays (``mode``) decides the
other fields."""


class RevisionRequest(BaseModel):
    """The revision of the game the client has seen (``GameView.revision``)."""

    revision: Revision


class PlaceAction(RevisionRequest):
    """Place the piece in hand on ``cell``."""

    action: Literal["place"]
    cell: Cell


class GiveAction(RevisionRequest):
    """Hand ``piece`` over to the opponent."""

    action: Literal["give"]
    piece: Piece


class DeclareAction(RevisionRequest):
    """Declare ("Quarto!") the winning shape one's own placement just completed."""

    action: Literal["declare"]


class ClaimAction(RevisionRequest):
    """Claim, before placing, a winning shape the opponent did not declare."""

    action: Literal["claim"]


class DeclineAction(RevisionRequest):
    """End the game without declaring after the sixteenth piece (a draw)."""

    action: Literal["decline"]


ActionRequest = Annotated[
    PlaceAction | GiveAction | DeclareAction | ClaimAction | DeclineAction,
    Field(discriminator="action"),
]
"""One action of a person: ``cell`` comes with ``place``, ``piece`` with ``give``."""


class AbandonClaim(RevisionRequest):
    """Claim a game the opponent left during their turn: the win, or a draw."""

    draw: bool = Field(default=False, description="Take a draw instead of the win")


class UndoAnswer(RevisionRequest):
    """The other player's answer to an undo request in an online game."""

    accept: bool = Field(strict=True)


class JoinRequest(BaseModel):
    """The invitation token of an online game (the last part of its `/join/TOKEN` path)."""

    invite: str = Field(pattern=INVITE_PATTERN)


class TraitValue(BaseModel):
    """A counted trait value that the pieces of a winning shape share."""

    trait: TraitName
    value: bool


class OutcomeView(BaseModel):
    """How the game ended."""

    winner: Side | None
    reason: Termination
    shapes: list[str] = Field(description="Shape identifiers: `row1`, `colA`, `diagA1`, `sqB2`")
    cells: list[str]
    traits: list[TraitValue]


class LastTurn(BaseModel):
    """The last turn played, as far as it has gone."""

    player: Side
    place: str | None
    piece: str | None = Field(description="The piece placed")
    give: str | None
    declared: bool
    missed: bool
    claimed: bool


SeatState = Literal["you", "opponent", "free", "computer"]
"""Who holds a seat, seen from the caller: the caller, the other person, nobody yet, or
the computer."""


class Seats(BaseModel):
    """Each side's seat, seen from the caller."""

    first: SeatState
    second: SeatState


class Names(BaseModel):
    """The names of the seats' players, as others see them (null: none yet)."""

    first: str | None
    second: str | None
    first_bot: bool = Field(default=False, description="The first seat's player is a bot")
    second_bot: bool = Field(default=False, description="The second seat's player is a bot")


class BotInvitationView(BaseModel):
    """The free seat of an online game offered to a bot, as its seated players see it."""

    bot: str = Field(description="The bot's handle")
    name: str = Field(description="The bot's name")
    declined: bool = Field(description="The bot declined: the seat is free for anyone else")


class BotInvitationRequest(BaseModel):
    """Offer the free seat of an online game to a bot."""

    bot: str = Field(description="The bot's handle (GET /api/bots)",
                     pattern=r"^bot-[A-Za-z0-9_-]{1,32}$")


class Connected(BaseModel):
    """Whether each seat's player has the game open (a live connection) now."""

    first: bool
    second: bool


class ClockView(BaseModel):
    """A game's clocks as of the view (the server's clock is the truth)."""

    control: ClockSpec
    first_ms: int = Field(description="Milliseconds the first side has left, as of `as_of`")
    second_ms: int = Field(description="Milliseconds the second side has left, as of `as_of`")
    running: Side | None = Field(description="Whose time runs; null once the game is over")
    grace: bool = Field(description="The running side plays its first turn: its time does "
                                    "not run, and missing `deadline` aborts the game")
    deadline: datetime | None = Field(
        description="When the running side runs out of time (or of grace); a correspondence "
                    "move's deadline")
    as_of: datetime = Field(description="The server's time of these figures")


class GameView(BaseModel):
    """Everything the page shows of a game, as the caller sees it."""

    id: str
    rules: str
    calling: Literal["auto", "declare"] = Field(
        description="`declare`: wins must be called (Quarto!) and missed ones may be claimed")
    mode: Mode
    level: int | None
    human: Side | None
    ply: int
    revision: int = Field(description="Changes with every saved change, undo included; "
                                      "changing requests must send it back")
    position: str
    board: list[str | None] = Field(description="The cells A1 .. D4: a hex digit or null")
    hand: str | None
    supply: list[str]
    safe: list[str]
    to_move: Side | None
    step: Step
    computer_to_move: bool
    can_declare: bool
    can_claim: bool
    can_decline: bool
    declare_offered: bool = Field(
        description="`declare` calling: the caller stands right after their own placement, "
                    "where \"Quarto!\" may be called (true whether or not it would win)")
    claim_offered: bool = Field(
        description="`declare` calling: the caller stands before placing the piece handed "
                    "over after the opponent's placement, where a claim may be made (true "
                    "whether or not it would win)")
    can_undo: bool
    can_redo: bool
    moves: list[str]
    last: LastTurn | None
    outcome: OutcomeView | None
    seats: Seats = Field(description="Who holds each seat, as the caller sees it")
    you: Side | None = Field(
        description="The caller's seat in an `online` game, the person's side in a `computer` "
                    "game; null in a `local` game and for a spectator")
    spectator: bool = Field(description="The caller holds no seat and only watches")
    opponent_connected: bool | None = Field(
        description="`online`, seated caller: whether the other player has the game open now")
    connected: Connected | None = Field(
        description="`online`: which seats have the game open now")
    can_act: bool = Field(description="The caller may play an action now")
    can_resign: bool
    invite: str | None = Field(
        description="`online`, seated caller, while a seat is free: the path `/join/TOKEN` "
                    "that seats the other person")
    undo_request: Side | None = Field(
        description="`online`: the side that asked to undo, until the other answers")
    resigned: Side | None = Field(description="The side that resigned")
    rematch: str | None = Field(description="The id of the game \"Play again\" started")
    rematch_by: Side | None = Field(
        default=None,
        description="`online`: the seat that pressed \"Play again\" (null if not known)")
    names: Names | None = Field(default=None, description="`online`: the seats' players' "
                                                          "names")
    bot_invitation: BotInvitationView | None = Field(
        default=None, description="`online`, seated caller: the bot the free seat is offered "
                                  "to (POST /api/games/{id}/invite-bot)")
    clock: ClockView | None = Field(default=None, description="`online`: the game's clocks; "
                                                              "null for a game without one")
    abandon_after: int | None = Field(
        default=None,
        description="`online`, seated caller: seconds the opponent must have had the game "
                    "open nowhere during their turn before the caller may claim the game "
                    "(`POST /api/games/{id}/abandoned`); null where no claim can be made")
    device: str | None = Field(
        description="The id the device gave a game played there and uploaded "
                    "(`PUT /api/games/device/{device_id}`); null for other games. While "
                    "such a game goes on, the device plays it: the other changing requests "
                    "are refused with `409 on_device`")


HintValue = Literal["win", "draw", "loss", "unknown"]


class HintShape(BaseModel):
    """A shape a hint speaks of, and what its pieces share."""

    shape: str = Field(description="Its id: `row1`, `colA`, `diagA1`, `sqB2`")
    traits: list[TraitValue]


class HintView(BaseModel):
    """Advice for the person to move."""

    action: Literal["declare", "claim"] | None = Field(
        description="Call Quarto! or claim now, rather than play a turn")
    place: str | None = Field(description="The suggested cell, when a piece must be placed")
    give: str | None = Field(description="The suggested piece to hand over")
    value: HintValue = Field(
        description="The solved value of the suggestion for the person; `unknown` early on")
    plies: int | None = Field(description="Placements to the end for a win or a loss")
    safe: list[str] = Field(description="The pieces safe to hand over (after the placement)")
    reason: str = Field(description="Why, in one line, in the language asked for")
    reason_key: str = Field(
        description="The catalogue key of `reason` (`/api/messages/{lang}`), to word it "
                    "in any language: `hint.declare`, `hint.win_now`, `hint.squeeze` ...")
    reason_params: dict[str, str | int] = Field(
        description="The values `reason_key` speaks of: `cell`, `plies`, `replies`, `safe`, "
                    "`total`, `shape` (a shape id); `{shapes}` is worded from `shapes`")
    shapes: list[HintShape] = Field(
        description="The shapes the reason speaks of (declared, claimed or completed), each "
                    "with the traits its pieces share: `{shapes}` of `reason_key`")


class GameSummaryView(BaseModel):
    """A line of the list of games."""

    id: str
    rules: str
    mode: Mode
    level: int | None
    human: Side | None
    ply: int
    status: Literal["ongoing", "over"]
    to_move: Side | None
    created: datetime
    updated: datetime
    you: Side | None = Field(description="The caller's side (`online` and `computer`)")
    opponent: Literal["computer", "person", "free"] | None = Field(
        description="Who plays the other side; null in a `local` game")
    revision: int = Field(description="The game's revision, which deleting it from the "
                                      "list sends")
    device: str | None = Field(
        description="The id the device gave a game played there and uploaded; null for "
                    "other games")
    clock: ClockSpec | None = Field(default=None, description="The game's time control")
    deadline: datetime | None = Field(
        default=None, description="While it goes on with a clock: when the side to move runs "
                                  "out of time (a correspondence move's deadline)")


class InviteView(BaseModel):
    """An online game as its invitation shows it, before joining."""

    game: str = Field(description="The game's id")
    rules: str
    calling: Literal["auto", "declare"]
    seat: Side | None = Field(description="The free seat that joining takes; null when full")
    joined: bool = Field(description="The caller holds a seat in this game already")


class GameList(BaseModel):
    """A page of the caller's games, most recently played first."""

    games: list[GameSummaryView]
    next: str | None = Field(
        description="The cursor of the next page (`?cursor=`), null on the last page")


class ErrorDetail(BaseModel):
    """What was refused and why."""

    code: str = Field(description="What kind of refusal (the table of docs/web-api.md)")
    message: str = Field(description="The refusal in English, for developers; a page "
                                     "words it from `code`, `reason` and `params`")
    reason: str | None = Field(
        default=None,
        description="What exactly is wrong, where the refusal says more than its code: "
                    "a short name that stays the same in every language (e.g. "
                    "`already_won`, `turn_number`, `cell_taken`); left out otherwise")
    params: dict[str, str | int] | None = Field(
        default=None,
        description="The values the refusal speaks of, by name: cells and pieces by "
                    "name (`B2`, `F`), shapes by id (`row1`), tokens as written, numbers; "
                    "left out when there are none")


class ErrorView(BaseModel):
    """Every refusal."""

    error: ErrorDetail


# ---- the daily puzzle ---------------------------------------------------------

PLAYER_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"
"""An anonymous player id: 8 to 64 letters, digits, ``-`` or ``_``."""

SolverValue = Literal["win", "draw", "loss", "unknown"]


class PuzzleGoal(BaseModel):
    """What the player must do: win, within ``moves`` placements of their own."""

    result: Literal["win"]
    plies: int = Field(description="Placements of both sides, the winning one included")
    moves: int = Field(description="The player's own placements: the `N` of `win in N`")


class PuzzleView(BaseModel):
    """A day's puzzle as the player starts it, without its solution."""

    date: date_type
    today: bool = Field(description="Whether this is the server's puzzle of the day")
    rules: str
    calling: Literal["auto", "declare"] = Field(
        description="The rule set's calling; in a puzzle the winning placement wins at once")
    position: str
    goal: PuzzleGoal
    weekday: str = Field(description="The weekday in English, e.g. `Thursday`")
    difficulty: int = Field(description="1 on Monday up to 7 on Sunday")
    board: list[str | None] = Field(description="The cells A1 .. D4: a hex digit or null")
    hand: str = Field(description="The piece the player must place")
    supply: list[str]


class PuzzlesAhead(BaseModel):
    """The puzzles of today and the coming days, to play them without a network."""

    today: date_type = Field(description="The server's date of today")
    complete: bool = Field(
        description="Whether every date from today to 14 days ahead is in `puzzles`; while "
                    "not, the rest is being generated: ask again a little later")
    puzzles: list[PuzzleView] = Field(description="The puzzles generated already, by date")


class CheckRequest(BaseModel):
    """The player's next turn after the line played so far."""

    played: list[TurnText] = Field(
        default_factory=list, max_length=16,
        description="The turns since the puzzle position: the player's accepted turns and "
                    "the replies, alternating, as record tokens (`A1F`)")
    turn: TurnText = Field(description="The player's turn: `A1F`, or `A1` for a placement alone")


class VerdictView(BaseModel):
    """What the player's turn does, and the position to show after it."""

    needs_give: bool = Field(
        description="The turn was a placement alone that neither wins nor fills the board: "
                    "send it again with a piece to hand over; nothing was judged")
    accepted: bool = Field(description="The turn keeps a forced win within the goal")
    solved: bool = Field(description="The turn wins: the puzzle is solved")
    turn: str
    reply: str | None = Field(
        description="The opponent's answer: the longest resistance after an accepted turn, "
                    "its best turn after a refused one; null when solved or over")
    played: list[str] = Field(
        description="The line as shown: `played`, the turn and the reply; after an accepted "
                    "turn, what the next check sends as `played`")
    value: SolverValue = Field(
        description="The value after the turn for the opponent: `loss` when accepted; "
                    "after a refused turn `win` (the opponent now wins), `draw`, or `loss` "
                    "(the win is still there, but not within the goal)")
    moves_left: int = Field(description="The player's own placements left within the goal")
    position: str = Field(description="The position after the turn and the reply")
    board: list[str | None]
    hand: str | None
    supply: list[str]
    winner: Literal["player", "opponent"] | None = Field(
        description="Who completed a winning shape in the position shown, if anyone")
    cells: list[str] = Field(description="The cells of the winning shapes")


class AdoptRequest(BaseModel):
    """The puzzle-player id a page made up itself, before the server knew its players."""

    player: str = Field(pattern=PLAYER_PATTERN, description="The page's old player id")


class ResultRequest(BaseModel):
    """One attempt at a puzzle, solved or failed."""

    tries: json_int(1, 10_000, "Tries at this puzzle so far, this one included")  # type: ignore[valid-type]
    seconds: json_int(0, 366 * 86_400, "Seconds since the puzzle was opened")  # type: ignore[valid-type]
    solved: bool = Field(strict=True)
    line: list[TurnText] | None = Field(
        default=None, max_length=16,
        description="With `solved: true`: the line played, the player's turns and the "
                    "opponent's replies alternating, as record tokens (`A1F`), ending with "
                    "the winning turn. The server replays it: the player's turns must force "
                    "the win within the goal (the replies need only be legal)")
    attempt: str | None = Field(
        default=None, pattern=UUID_PATTERN,
        description="An id the client gives this attempt (a UUID in lower case): sent "
                    "again, the attempt is stored once")


class PuzzleResultView(BaseModel):
    """One stored attempt."""

    date: date_type
    tries: int
    seconds: int
    solved: bool
    recorded: datetime


class PuzzleDay(BaseModel):
    """A date of the archive and how the player did on it."""

    date: date_type
    solved: bool
    tries: int | None = Field(description="The tries of the first solve, if solved")
    seconds: int | None = Field(description="The time of the first solve, if solved")
    attempts: int = Field(description="Results stored for this date, solved or not")


class PuzzleHistory(BaseModel):
    """The caller's puzzle results, streak and the archive of recent dates."""

    today: date_type
    streak: int = Field(description="Consecutive dates solved up to today or yesterday")
    solved: int = Field(description="Dates solved in all")
    days: list[PuzzleDay] = Field(description="The archive: today first, then each day back")
    results: list[PuzzleResultView] = Field(
        description="The attempts, newest date first: the 1000 newest at most")


class PuzzleResultAnswer(BaseModel):
    """What one stored attempt changed: its date's entry of the archive, the streak and
    the count of dates solved (the rest of the history stays as it was)."""

    today: date_type
    streak: int = Field(description="Consecutive dates solved up to today or yesterday")
    solved: int = Field(description="Dates solved in all")
    day: PuzzleDay = Field(description="The attempt's date, as the archive shows it now")
    result: PuzzleResultView = Field(description="The attempt just stored")


class TurnValueView(BaseModel):
    """One legal turn and its value for the player making it."""

    place: str | None = Field(description="The cell the piece in hand goes to, if any")
    give: str | None = Field(description="The piece handed over, if any")
    value: HintValue = Field(description="`unknown` when the time ran out before it was known")
    plies: int | None = Field(description="Placements to the end for a win or a loss")


class AnalysisView(BaseModel):
    """Every legal turn of a position with its value, best first."""

    position: str = Field(description="The position, as read")
    rules: str = Field(description="The rule set's name")
    value: HintValue = Field(description="The position's value for the side to move")
    plies: int | None = Field(description="Placements to the end for a win or a loss")
    source: Literal["book", "search"] = Field(
        description="`book`: read from the opening book; `search`: solved now, within a "
                    "few seconds")
    complete: bool = Field(description="Whether every turn's value is known")
    moves: list[TurnValueView]


class TurnRef(BaseModel):
    """A turn: a placement, a hand-over, or both."""

    place: str | None
    give: str | None


class TurnReviewView(BaseModel):
    """One turn of a finished game, judged."""

    ply: int = Field(description="The index of the turn's first action in the game")
    position: str = Field(description="The position before the turn")
    player: Side
    turn: TurnRef
    before: HintValue = Field(description="The position's value for the player, before")
    before_plies: int | None
    after: HintValue = Field(description="The value of the turn played, for the player")
    after_plies: int | None
    best: TurnRef | None = Field(description="A best turn")
    threw_away: Literal["win", "draw"] | None = Field(
        description="`win` or `draw` when the turn left a worse value than the position had")


class ReviewView(BaseModel):
    """Every turn of a finished game with its value before and after."""

    turns: list[TurnReviewView]


# ---- live updates (the WebSocket /api/games/{game_id}/live) -------------------------


class ViewMessage(BaseModel):
    """The game as it stands, as the socket's caller sees it: sent on connecting, after
    every saved change, and when a player connects or leaves."""

    type: Literal["view"]
    view: GameView


class GoneMessage(BaseModel):
    """The game was deleted; the server closes the socket."""

    type: Literal["gone"]


class PongMessage(BaseModel):
    """The answer to a ``ping``."""

    type: Literal["pong"]


class PingMessage(BaseModel):
    """Ask for a ``pong`` (to keep a connection alive, or to test it)."""

    type: Literal["ping"]


class SyncMessage(BaseModel):
    """Ask for the view again."""

    type: Literal["sync"]


MessageId = Annotated[int, Field(strict=True, ge=0, le=2**31 - 1, description=(
    "The client's number for an ``act`` message, repeated in its answer"))]


class ActMessage(BaseModel):
    """Play one action, as ``POST /api/games/{id}/actions`` does: answered by
    ``acted`` or ``refused`` with the same ``id``."""

    type: Literal["act"]
    id: MessageId
    action: ActionRequest


class ActedMessage(BaseModel):
    """The action of the ``act`` message ``id`` was saved as ``revision``; ``view`` is
    the game as it stands after it (that revision or a newer one), as the socket's
    caller sees it: the answer ``POST /api/games/{id}/actions`` would have given."""

    type: Literal["acted"]
    id: MessageId
    revision: Revision
    view: GameView


class RefusedMessage(BaseModel):
    """The action of the ``act`` message ``id`` was refused, with the status and
    ``error`` an HTTP request would have been answered; nothing changed.  ``id`` is
    left out for a message too malformed to tell its number."""

    type: Literal["refused"]
    id: MessageId | None = None
    status: int
    error: ErrorDetail


ServerMessage = Annotated[
    ViewMessage | GoneMessage | PongMessage | ActedMessage | RefusedMessage,
    Field(discriminator="type")]
"""A message the server sends on a live socket."""

ClientMessage = Annotated[PingMessage | SyncMessage | ActMessage, Field(discriminator="type")]
"""A message a client may send on a live socket (anything else is ignored)."""
