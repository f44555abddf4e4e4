"""A game between two people as the site keeps it, on a real store with no web
server: joining, acting in turn, undo requests, resignation, deleting, and when a
game left by the player to move may be claimed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tests.site.site_helpers import Limits, Told

from quads.cells import parse_cell
from quads.clock import Correspondence, RealTime, TimeControl
from quads.game import Give, Place
from quads.outcome import Player, Termination
from quads.pieces import parse_piece
from quads.site.errors import SiteError
from quads.site.games import clocks
from quads.site.games.service import Games
from quads.storage import GameStore, StoredGame
from quads.storage.stored import now

HOST, GUEST, STRANGER = "h" * 64, "g" * 64, "s" * 64


def _code(call: object) -> str:
    assert callable(call)
    with pytest.raises(SiteError) as refused:
        call()
    return refused.value.code


def _seated(store: GameStore, told: Told, clock: TimeControl | None = None) -> tuple[Games,
                                                                                   StoredGame]:
    games = Games(store, told, Limits())
    stored = games.new("quads", "online", HOST, host="first", clock=clock)
    assert stored.invite is not None
    return games, games.join(stored.id, GUEST, stored.invite)


def test_the_seats_decide_who_acts_and_each_change_is_told(store: GameStore,
                                                           told: Told) -> None:
    games, stored = _seated(store, told)
    assert (stored.first_player, stored.second_player) == (HOST, GUEST)
    give = Give(parse_piece("0"))
    assert _code(lambda: games.act(stored.id, STRANGER, give, stored.revision)) == "not_your_game"
    assert _code(lambda: games.act(stored.id, GUEST, give, stored.revision)) == "not_your_turn"
    assert _code(lambda: games.act(stored.id, HOST, give, stored.revision + 1)) == "stale"
    played = games.act(stored.id, HOST, give, stored.revision)
    assert told.games[-1] == (stored.id, played.revision, False)
    placed = games.act(stored.id, GUEST, Place(parse_cell("A1")), played.revision)
    asked = games.undo(stored.id, GUEST, placed.revision)
    assert asked.undo_request is Player.SECOND
    assert _code(lambda: games.undo(stored.id, GUEST, asked.revision)) == "undo_requested"
    answered = games.answer_undo(stored.id, HOST, asked.revision, accept=True)
    assert answered.ply == played.ply
    assert _code(lambda: games.delete(stored.id, HOST, answered.revision)) == "in_play"
    resigned = games.resign(stored.id, GUEST, answered.revision)
    outcome = resigned.game.outcome
    assert outcome is not None
    assert outcome.winner is Player.FIRST


def test_joining_needs_the_invitation_and_a_free_seat(store: GameStore, told: Told) -> None:
    games = Games(store, told, Limits())
    stored = games.new("quads", "online", HOST)
    assert stored.invite is not None
    assert _code(lambda: games.join(stored.id, GUEST, "wrong" + stored.invite)) == "bad_invite"
    games.join(stored.id, GUEST, stored.invite)
    assert games.join(stored.id, GUEST, stored.invite).second_player == GUEST  # twice: same
    assert _code(lambda: games.join(stored.id, STRANGER, stored.invite or "")) in (
        "bad_invite", "seat_taken")


def _give(games: Games, stored: StoredGame) -> StoredGame:
    return games.act(stored.id, HOST, Give(parse_piece("0")), stored.revision)


def test_a_game_left_by_the_player_to_move_is_claimed_after_the_limit(store: GameStore,
                                                                      told: Told) -> None:
    games, stored = _seated(store, told)
    stored = _give(games, stored)  # the guest is to move
    claim = lambda: games.claim_abandoned(stored.id, HOST, stored.revision, draw=False)  # noqa: E731
    assert _code(lambda: games.claim_abandoned(stored.id, GUEST, stored.revision,
                                               draw=False)) == "not_abandoned"  # own turn
    told.here[stored.id] = frozenset({GUEST})
    assert _code(claim) == "not_abandoned"  # the guest has it open
    told.here.clear()
    store.mark_away(stored.id, GUEST, True, now() - timedelta(seconds=10))
    with pytest.raises(SiteError) as early:
        claim()
    assert early.value.code == "not_abandoned"
    assert 280 <= int(early.value.params["retry_after"]) <= 290  # 300 s untimed, 10 gone
    store.mark_away(stored.id, GUEST, False)
    store.mark_away(stored.id, GUEST, True, now() - timedelta(seconds=301))
    won = claim()
    outcome = won.game.outcome
    assert outcome is not None
    assert outcome.winner is Player.FIRST


def test_no_claim_in_a_first_turn_s_grace_nor_in_a_correspondence_game(
        store: GameStore, told: Told) -> None:
    games, stored = _seated(store, told, RealTime(300, 5))
    assert stored.clock is not None  # both seats taken: it runs, the host in grace
    assert _code(lambda: games.claim_abandoned(stored.id, GUEST, stored.revision,
                                               draw=True)) == "not_abandoned"  # grace
    games, stored = _seated(store, told, Correspondence(3))
    stored = _give(games, stored)
    store.mark_away(stored.id, GUEST, True, now() - timedelta(days=2))
    assert _code(lambda: games.claim_abandoned(stored.id, HOST, stored.revision,
                                               draw=False)) == "no_abandonment"


@pytest.mark.parametrize(("control", "limit"), [
    (RealTime(60, 0), 30),     # a minute's game: the least wait
    (RealTime(180, 2), 30),    # 3+2: a tenth of 196 s is under the least
    (RealTime(600, 5), 64),    # 10+5: a tenth of 640 s
    (RealTime(3600, 30), 300),  # 60+30: a tenth of 3,840 s, held to the untimed wait
])
def test_the_wait_before_a_claim_scales_with_the_time_control(
        store: GameStore, told: Told, control: RealTime, limit: int) -> None:
    limits = Limits(abandon_realtime=30.0, abandon_share=0.1, abandon_untimed=300.0)
    games = Games(store, told, limits)
    stored = games.new("quads", "online", HOST, host="first", clock=control)
    assert stored.invite is not None
    stored = _give(games, games.join(stored.id, GUEST, stored.invite))
    assert clocks.abandon_limit(stored, limits) == limit

    def turn(player: str, cell: str, piece: str) -> StoredGame:
        placed = games.act(stored.id, player, Place(parse_cell(cell)), stored.revision)
        return games.act(stored.id, player, Give(parse_piece(piece)), placed.revision)

    stored = turn(GUEST, "A1", "1")
    stored = turn(HOST, "B1", "2")  # the guest's first turn (and its grace) is over
    # Away a little less than the limit: refused, with what is left.
    store.mark_away(stored.id, GUEST, True, now() - timedelta(seconds=limit - 5))
    with pytest.raises(SiteError) as early:
        games.claim_abandoned(stored.id, HOST, stored.revision, draw=False)
    assert early.value.code == "not_abandoned"
    assert 1 <= int(early.value.params["retry_after"]) <= 6
    # Back in time: the game carries on, and a later absence counts from its start.
    store.mark_away(stored.id, GUEST, False)
    stored = turn(GUEST, "C1", "3")
    stored = turn(HOST, "D2", "4")
    store.mark_away(stored.id, GUEST, True, now() - timedelta(seconds=limit + 1))
    claimed = games.claim_abandoned(stored.id, HOST, stored.revision, draw=False)
    outcome = claimed.game.outcome
    assert outcome is not None
    assert (outcome.winner, outcome.termination) == (Player.FIRST, Termination.ABANDONMENT)
