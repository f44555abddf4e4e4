"""The daily puzzle's requests and answers."""

from __future__ import annotations

from datetime import date as date_type
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from quads.web.fields import (
    UUID_PATTERN,
    TurnText,
    json_int,
)

__all__ = [
    "PLAYER_PATTERN",
    "AdoptRequest",
    "CheckRequest",
    "PuzzleDay",
    "PuzzleGoal",
    "PuzzleHistory",
    "PuzzleResultAnswer",
    "PuzzleResultView",
    "PuzzleView",
    "PuzzlesAhead",
    "ResultRequest",
    "SolverValue",
    "VerdictView",
]


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
