"""A game as the API shows it: its view, its summary in a list, its invitation, a
hint."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from quads.game import Step
from quads.outcome import Termination
from quads.site.games.seats import Side
from quads.storage import Mode
from quads.web.schemas.new_games import ClockSpec, TraitName

__all__ = [
    "BotInvitationRequest",
    "BotInvitationView",
    "ClockView",
    "Connected",
    "GameList",
    "GameSummaryView",
    "GameView",
    "HintShape",
    "HintValue",
    "HintView",
    "InviteView",
    "LastTurn",
    "Names",
    "OutcomeView",
    "RatingView",
    "SeatRatings",
    "SeatState",
    "Seats",
    "TraitValue",
]



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


class EventRef(BaseModel):
    """The tournament that paired a game: its id and its name (a scheduled arena's is
    its slot, such as `hourly-quads`; empty when its maker gave none)."""

    id: str
    name: str


class Names(BaseModel):
    """The names of the seats' players, as others see them (null: none yet)."""

    first: str | None
    second: str | None
    first_bot: bool = Field(default=False, description="The first seat's player is a bot")
    second_bot: bool = Field(default=False, description="The second seat's player is a bot")
    first_account: bool = Field(default=False, description="The first seat's player has an "
                                                           "account: its name is its profile's "
                                                           "(`GET /api/players/{name}`)")
    second_account: bool = Field(default=False,
                                 description="The second seat's player has an account")


class RatingView(BaseModel):
    """A seated account's rating in the game's category."""

    rating: int
    provisional: bool = Field(description="Few games yet (a high deviation): shown with a `?`")
    before: int | None = Field(default=None,
                               description="A rated game over: the rating before it")
    change: int | None = Field(default=None,
                               description="A rated game over: what it changed (after - before)")


class SeatRatings(BaseModel):
    """The seats' ratings in the game's category (null: a player without an account)."""

    first: RatingView | None
    second: RatingView | None


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
    false_calls: Literal["free-calls", "forfeit-calls", "losing-calls"] = Field(
        description="`declare` calling: what a call with nothing to call costs: refused "
                    "(`free-calls`), the caller's next chance to call (`forfeit-calls`), or "
                    "the game (`losing-calls`)")
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
    safe: list[str] = Field(description=(
        "The pieces safe to hand over; empty in an online game whose players did not "
        "agree to that help (`safe_help`)"))
    safe_help: bool = Field(default=True, description=(
        "Whether the safe pieces are shown in this game: always off line; online only "
        "if both players agreed when it was made"))
    to_move: Side | None
    step: Step
    computer_to_move: bool
    calls_forfeited: bool = Field(
        description="`forfeit-calls`: the caller made a false call and may not call at "
                    "this moment")
    can_decline: bool
    declare_offered: bool = Field(
        description="`declare` calling: the caller stands right after their own placement, "
                    "where \"Quarto!\" may be called (true whether or not it would win: "
                    "no view says that before the call)")
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
    draw_offer: Side | None = Field(
        default=None, description="`online`: the side whose draw offer waits for the "
                                  "other's answer (it lapses when the other plays on)")
    draws_left: int | None = Field(
        default=None, description="`online`, seated caller: the draws they may still "
                                  "offer in this game")
    undos_left: int | None = Field(
        default=None, description="`online`, seated caller: the undos they may still ask "
                                  "for in this game")
    resigned: Side | None = Field(description="The side that resigned")
    rematch: str | None = Field(description="The id of the game \"Play again\" started")
    rematch_by: Side | None = Field(
        default=None,
        description="`online`: the seat that pressed \"Play again\" (null if not known)")
    names: Names | None = Field(default=None, description="`online`: the seats' players' "
                                                          "names")
    rated: bool = Field(default=False, description="`online`: whether the result changes "
                                                   "both players' ratings")
    category: str | None = Field(
        default=None, description="`online`: the rating category it counts for, or would "
                                  "(`quads-blitz` ...); null for a game that cannot be rated")
    ratings: SeatRatings | None = Field(
        default=None, description="`online` with a category: the seated accounts' ratings "
                                  "in it, and once a rated game is over what it changed; "
                                  "null while a seated caller who hides ratings plays")
    tournament: EventRef | None = Field(
        default=None, description="`online`: the tournament that paired it, if one did")
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
    ending: Literal["1-0", "0-1", "1/2-1/2", "*"] | None = Field(
        default=None, description="Once over, its result as its record writes it (`*`: "
                                  "aborted); null while it goes on")
    result: Literal["win", "draw", "loss"] | None = Field(
        default=None, description="Once over, the result from the caller's side (`you`); "
                                  "null without a side, while it goes on, or aborted")
    opponent_name: str | None = Field(
        default=None, description="`online`: the name of the other seat's player, null "
                                  "while the seat is free or the player chose no name")


class InviteView(BaseModel):
    """An online game as its invitation shows it, before joining."""

    game: str = Field(description="The game's id")
    rules: str
    calling: Literal["auto", "declare"]
    seat: Side | None = Field(description="The free seat that joining takes; null when full")
    joined: bool = Field(description="The caller holds a seat in this game already")
    host: str | None = Field(default=None, description=(
        "The name that the player who invites goes by (the seated player; null if none)"))
    clock: ClockSpec | None = Field(default=None, description="The game's time control")
    rated: bool = Field(default=False, description="Whether the result changes ratings")
    safe_help: bool = Field(default=False, description=(
        "Whether both players may show the safe pieces (agreed by joining)"))


class GameList(BaseModel):
    """A page of the caller's games, most recently played first."""

    games: list[GameSummaryView]
    next: str | None = Field(
        description="The cursor of the next page (`?cursor=`), null on the last page")
