"""The JSON views of games, built from the library's own answers."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any, Literal, cast

from quads.bits import iter_bits
from quads.catalogue import Language
from quads.cells import cell_name
from quads.game import ENDINGS, Claim, Declare, Decline, Game, Give, Place, Step
from quads.notation import write_tokens
from quads.outcome import Outcome, Player
from quads.pieces import Trait, piece_name
from quads.players.hints import Hint
from quads.ratings import PROVISIONAL
from quads.review import TurnReview
from quads.site.games import clocks, history, play, seats
from quads.site.games.calls import claim_pending
from quads.site.games.play import DRAW_OFFERS, UNDO_REQUESTS
from quads.storage import GameSummary, StoredGame
from quads.storage.profiles import side_result
from quads.storage.stored import SeatRating, now
from quads.turn import Turn
from quads.web.clock_views import clock_view, spec_of
from quads.web.schemas.analysis import ReviewView, TurnRef, TurnReviewView
from quads.web.schemas.game_views import (
    BotInvitationView,
    Connected,
    EventRef,
    GameSummaryView,
    GameView,
    HintShape,
    HintView,
    LastTurn,
    Names,
    OutcomeView,
    RatingView,
    SeatRatings,
    Seats,
    SeatState,
    TraitValue,
)
from quads.web.schemas.new_games import TraitName
from quads.web.settings import Settings

__all__ = [
    "game_view",
    "hint_view",
    "invite_path",
    "last_turn",
    "outcome_view",
    "review_view",
    "shared_fields",
    "summary_view",
]


def _pieces(mask: int) -> list[str]:
    return [piece_name(piece) for piece in iter_bits(mask)]


def last_turn(game: Game) -> LastTurn | None:
    """The last run of actions by one player, or ``None`` before the first action.

    An ending (a resignation, a timeout ...), which is no move on the board, is passed over.
    """
    end = len(game.actions)
    if end and isinstance(game.actions[-1], ENDINGS):
        end -= 1
    if not end:
        return None
    player = game.states[end - 1].to_move
    start = end
    while start > 0 and game.states[start - 1].to_move is player:
        start -= 1
    last = LastTurn(player="first" if player is Player.FIRST else "second", place=None,
                    piece=None, give=None, declared=False, missed=False, claimed=False)
    for before, action in zip(game.states[start:end], game.actions[start:end], strict=False):
        if isinstance(action, Place):
            last.place = cell_name(action.cell)
            hand = before.position.hand
            last.piece = None if hand is None else piece_name(hand)
        elif isinstance(action, Give):
            last.give = piece_name(action.piece)
            # While the receiver may still claim, nobody is told whether they could.
            last.missed = bool(before.declarable) and not claim_pending(game)
        elif isinstance(action, Declare):
            last.declared = True
        elif isinstance(action, Decline):
            last.missed = True
        elif isinstance(action, Claim):
            last.claimed = True
    return last


def moves_shown(game: Game) -> list[str]:
    """The game's tokens as the view shows them: the last one without its mark of a
    missed declaration (``A1?F`` as ``A1F``) while a claim is pending."""
    tokens = write_tokens(game.states, game.actions)
    if tokens and claim_pending(game):
        tokens[-1] = tokens[-1].replace("?", "")
    return tokens


def outcome_view(outcome: Outcome) -> OutcomeView:
    """The end of a game: winner, reason, winning shapes, their cells and shared traits."""
    cells = 0
    for shape in outcome.shapes:
        cells |= shape.cells
    return OutcomeView(
        winner=seats.side_name(outcome.winner),
        reason=outcome.termination,
        shapes=[shape.id for shape in outcome.shapes],
        cells=[cell_name(cell) for cell in iter_bits(cells)],
        traits=[TraitValue(trait=cast(TraitName, trait.identifier), value=value)
                for trait, value in outcome.traits],
    )


def _seat(stored: StoredGame, side: Player, viewer: str | None) -> SeatState:
    if stored.mode == "computer":
        return "you" if side is stored.human else "computer"
    if stored.mode == "local":
        return "you"
    holder = stored.seat(side)
    if holder is None:
        return "free"
    return "you" if holder == viewer else "opponent"


def _undo_allowed(stored: StoredGame, viewer: str | None) -> bool:
    game = stored.game
    if stored.mode != "online":
        return history.can_undo(game, seats.viewer_side(stored, viewer)) and (
            stored.resigned is None)
    side = seats.viewer_side(stored, viewer)
    return (side is not None and not stored.is_over() and stored.undo_request is None
            and clocks.time_control(stored) is None
            and stored.first_player is not None and stored.second_player is not None
            and history.can_undo(game, side))


def invite_path(stored: StoredGame, viewer: str | None) -> str | None:
    """The path ``/join/TOKEN`` that seats the other person: for a seated player of an
    online game while a seat is free, else ``None``."""
    if (stored.mode != "online" or stored.invite is None
            or None not in (stored.first_player, stored.second_player)
            or seats.viewer_side(stored, viewer) is None):
        return None
    return f"/join/{stored.invite}"


def shared_fields(stored: StoredGame) -> dict[str, Any]:
    """The fields of :func:`game_view` that every viewer of ``stored`` sees alike (the
    board, the moves, the outcome ...): built once, they serve every viewer of the
    same revision."""
    game = stored.game
    position = game.position
    rules = game.rules
    person = stored.human if stored.mode == "computer" else None
    hand = position.hand
    over = stored.is_over()
    helped = play.safe_help(stored)
    return {
        "id": stored.id,
        "rules": rules.name,
        "calling": rules.calling.value,
        "false_calls": rules.false_calls.value,
        "mode": stored.mode,
        "level": stored.level,
        "human": seats.side_name(stored.human),
        "ply": stored.ply,
        "revision": stored.revision,
        "position": position.to_string(),
        "board": [None if (piece := position.piece_at(cell)) is None else piece_name(piece)
                  for cell in range(16)],
        "hand": None if hand is None else piece_name(hand),
        "supply": _pieces(position.supply),
        "safe": _pieces(position.safe_pieces(rules)) if helped else [],
        "safe_help": helped,
        "to_move": seats.side_name(game.to_move),
        "step": game.step,
        "computer_to_move": (person is not None and not over
                             and game.to_move not in (None, person)),
        "can_redo": (stored.mode != "online" and stored.resigned is None
                     and history.can_redo(game, person)),
        "moves": moves_shown(game),
        "last": last_turn(game),
        "outcome": None if game.outcome is None else outcome_view(game.outcome),
        "undo_request": seats.side_name(stored.undo_request),
        "draw_offer": seats.side_name(stored.draw_offer),
        "resigned": seats.side_name(stored.resigned),
        "rematch": stored.rematch,
        "rematch_by": seats.side_name(stored.rematch_by),
        "device": stored.device,
        "names": Names(first=stored.names[0], second=stored.names[1],
                       first_bot=stored.bots[0], second_bot=stored.bots[1],
                       first_account=stored.accounts[0] is not None,
                       second_account=stored.accounts[1] is not None)
        if stored.mode == "online" else None,
        "rated": stored.rated,
        "tournament": _event(stored),
        "category": stored.category,
        "ratings": (SeatRatings(first=_rating(stored.ratings[0]),
                                second=_rating(stored.ratings[1]))
                    if stored.category is not None and stored.mode == "online" else None),
    }


def _event(stored: StoredGame) -> EventRef | None:
    """The tournament that paired ``stored`` (an online game's ``Tournament`` record
    header, :func:`quads.site.tournaments.service.event_headers`)."""
    headers = stored.game.headers
    if stored.mode != "online" or "Tournament" not in headers:
        return None
    return EventRef(id=headers["Tournament"], name=headers.get("Event", ""))


def _rating(seat: SeatRating | None) -> RatingView | None:
    """A seat's rating as the view shows it."""
    if seat is None:
        return None
    before = None if seat.before is None else round(seat.before)
    change = (None if seat.before is None or seat.after is None
              else round(seat.after) - round(seat.before))
    return RatingView(rating=round(seat.rating), provisional=seat.deviation >= PROVISIONAL,
                      before=before, change=change)


def _hides_ratings(stored: StoredGame, you: Player | None) -> bool:
    """Whether the seated caller hides ratings while this game goes on."""
    if you is None or stored.is_over():
        return False
    seat = stored.ratings[you.value]
    return seat is not None and seat.hidden


def game_view(stored: StoredGame, viewer: str | None = None,
              connected: frozenset[str] = frozenset(), settings: Settings | None = None,
              at: datetime | None = None, shared: dict[str, Any] | None = None) -> GameView:
    """Everything the page shows of ``stored`` to the player ``viewer``, with the
    players who have it open now (``connected``), its clocks as of ``at`` (default:
    now) and the limits of ``settings``; ``shared``: :func:`shared_fields` of
    ``stored``, if at hand."""
    game = stored.game
    online = stored.mode == "online"
    you = seats.viewer_side(stored, viewer)
    acting = seats.acting_side(stored, viewer)
    spectator = online and you is None
    free = online and (stored.first_player is None or stored.second_player is None)
    live = None
    opponent_connected = None
    if online:
        live = Connected(first=stored.first_player in connected,
                         second=stored.second_player in connected)
        if you is not None:
            opponent_connected = stored.seat(you.other) in connected
    over = stored.is_over()
    fields = shared_fields(stored) if shared is None else shared
    if _hides_ratings(stored, you):
        fields = {**fields, "ratings": None}
    return GameView(
        **fields,
        calls_forfeited=acting is not None and game.state.silenced,
        declare_offered=acting is not None and game.is_declare_moment(),
        claim_offered=acting is not None and game.is_claim_moment(),
        can_decline=(acting is not None and game.step is Step.GIVE
                     and Decline() in game.legal_actions()),
        can_undo=_undo_allowed(stored, viewer),
        seats=Seats(first=_seat(stored, Player.FIRST, viewer),
                    second=_seat(stored, Player.SECOND, viewer)),
        you=seats.side_name(you),
        spectator=spectator,
        opponent_connected=opponent_connected,
        connected=live,
        can_act=acting is not None,
        can_resign=not over and not spectator and not (online and free),
        invite=invite_path(stored, viewer),
        bot_invitation=(BotInvitationView(bot=stored.invited_bot[0], name=stored.invited_bot[1],
                                          declined=stored.bot_declined)
                        if online and you is not None and stored.invited_bot is not None
                        and None in (stored.first_player, stored.second_player) else None),
        clock=clock_view(stored, now() if at is None else at),
        abandon_after=_abandon_after(stored, you, settings),
        draws_left=(None if not online or you is None
                    else DRAW_OFFERS - stored.draw_offers[you.value]),
        undos_left=(None if not online or you is None
                    else UNDO_REQUESTS - stored.undo_requests[you.value]),
    )


def _abandon_after(stored: StoredGame, you: Player | None,
                   settings: Settings | None) -> int | None:
    if you is None or stored.is_over():
        return None
    limit = clocks.abandon_limit(stored, settings if settings is not None else Settings())
    return None if limit is None else math.ceil(limit)


def summary_view(summary: GameSummary, viewer: str | None = None) -> GameSummaryView:
    """A line of ``viewer``'s list of games."""
    you: Player | None = summary.human if summary.mode == "computer" else None
    opponent: Literal["computer", "person", "free"] | None = None
    if summary.mode == "computer":
        opponent = "computer"
    elif summary.mode == "online":
        you = (Player.FIRST if summary.first_player == viewer
               else Player.SECOND if summary.second_player == viewer else None)
        other = None if you is None else (
            summary.second_player if you is Player.FIRST else summary.first_player)
        opponent = "free" if other is None else "person"
    named = (None if summary.mode != "online" or you is None
             else summary.names[1 if you is Player.FIRST else 0])
    return GameSummaryView(
        id=summary.id,
        rules=summary.rules,
        mode=summary.mode,
        level=summary.level,
        human=seats.side_name(summary.human),
        ply=summary.ply,
        status=summary.status,
        to_move=seats.side_name(summary.to_move),
        created=summary.created,
        updated=summary.updated,
        you=seats.side_name(you),
        opponent=opponent,
        revision=summary.revision,
        device=summary.device,
        clock=None if summary.clock is None else spec_of(summary.clock.control),
        deadline=(None if summary.clock is None or summary.status == "over"
                  else summary.clock.deadline()),
        ending=cast(Any, summary.result) if summary.status == "over" else None,
        result=None if you is None else side_result(summary.result, you),
        opponent_name=named,
    )


def hint_view(advice: Hint, language: Language) -> HintView:
    """A hint, its reason in ``language``."""
    turn = advice.turn
    return HintView(
        action=advice.action,
        place=None if turn is None or turn.place is None else cell_name(turn.place),
        give=None if turn is None or turn.give is None else piece_name(turn.give),
        value=advice.value.value,
        plies=advice.plies,
        safe=_pieces(advice.safe),
        reason=advice.reason(language),
        reason_key=advice.reason_key,
        reason_params=dict(advice.reason_params),
        shapes=[HintShape(shape=shape.id, traits=[
                    TraitValue(trait=cast(TraitName, Trait(bit).identifier), value=value)
                    for bit, value in advice.board.shared_values(shape, advice.rules)])
                for shape in advice.shapes]
        if advice.board is not None and advice.rules is not None else [],
    )


def _turn_ref(turn: Turn | None) -> TurnRef | None:
    if turn is None:
        return None
    return TurnRef(place=None if turn.place is None else cell_name(turn.place),
                   give=None if turn.give is None else piece_name(turn.give))


def review_view(turns: list[TurnReview]) -> ReviewView:
    """A finished game's review."""
    return ReviewView(turns=[
        TurnReviewView(
            ply=entry.ply, position=entry.position.to_string(),
            player="first" if entry.player is Player.FIRST else "second",
            turn=_turn_ref(entry.turn),  # type: ignore[arg-type]
            before=entry.before.value, before_plies=entry.before_plies,
            after=entry.after.value, after_plies=entry.after_plies,
            best=_turn_ref(entry.best), threw_away=entry.threw_away)
        for entry in turns])
