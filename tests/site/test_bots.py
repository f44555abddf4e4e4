"""Bots as the site keeps them, with no web server: what a bot's stream tells look
after look, and the free seat of a game offered to a bot, on a real store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from tests.site.site_helpers import Limits, Told

from quads.site.bots.events import BotEvents, Finished, Invited, Started
from quads.site.bots.service import Bots
from quads.site.bots.tokens import BotTokens
from quads.site.errors import SiteError
from quads.site.games.service import Games
from quads.site.lobby.service import Lobby
from quads.storage import GameStore, GameSummary
from quads.storage.bot_keys import BotKeys
from quads.storage.bots import Bots as BotStore
from quads.storage.bots import Invitation
from quads.storage.lobby import Lobby as Seeks

BOT, HOST, OTHER = "b" * 64, "h" * 64, "o" * 64
OPENED = datetime(2026, 12, 6, 12, tzinfo=UTC)


def _summary(game_id: str, *, over: bool = False, minutes: int = 1,
             seated: bool = True) -> GameSummary:
    moment = OPENED + timedelta(minutes=minutes)
    return GameSummary(game_id, "quads", "online", None, None, 3, "over" if over else "ongoing",
                       None, moment, moment, HOST, HOST, BOT if seated else None)


def test_a_stream_tells_each_offer_start_and_end_once() -> None:
    told = BotEvents(BOT, OPENED)
    offer = Invitation("g1", "quads", None, "second", "Host")
    assert told.look([], [], [offer]) == [Invited(offer)]
    assert told.look([], [], [offer]) == []  # told once
    waiting, playing = _summary("g1", seated=False), _summary("g2")
    assert told.look([waiting, playing], [], []) == [Started(playing, "second")]
    assert told.look([waiting, playing], [], []) == []
    ended = _summary("g2", over=True)
    assert told.look([waiting], [ended], []) == [Finished("g2")]
    assert told.look([waiting], [ended], []) == []  # its end is not told again
    quick = _summary("g3", over=True, minutes=2)  # begun and ended between two looks
    assert told.look([], [quick, ended], []) == [Started(quick, "second"), Finished("g3")]
    old = _summary("g4", over=True, minutes=-5)  # ended before the stream opened
    assert told.look([], [old], []) == []


def test_a_missed_look_tells_nothing_and_offers_again_afterwards() -> None:
    told = BotEvents(BOT, OPENED)
    offer = Invitation("g1", "quads", "180+2", "first", None)
    playing = _summary("g2")
    assert told.look([playing], [], [offer]) == [Invited(offer), Started(playing, "second")]
    assert told.missed() == []
    assert told.look([playing], [], [offer]) == [Invited(offer)]


def _code(call: object) -> str:
    assert callable(call)
    with pytest.raises(SiteError) as refused:
        call()
    return refused.value.code


def test_a_seat_offered_to_a_bot_is_taken_or_declined(store: GameStore, told: Told) -> None:
    limits = Limits()
    bots = Bots(BotStore(store), told, limits, Lobby(Seeks(store), told, limits))
    games = Games(store, told, limits)
    handle, _ = bots.upgrade(BOT, "k" * 64)
    assert _code(lambda: bots.upgrade(BOT, "k" * 64)) == "already_bot"
    game = games.new("quads", "online", HOST)
    assert _code(lambda: bots.offer(game.id, OTHER, handle)) == "not_your_game"
    assert _code(lambda: bots.offer(game.id, HOST, "nobody")) == "no_such_bot"
    assert _code(lambda: bots.accept(game.id, BOT)) == "not_found"  # nothing offered yet
    offered = bots.offer(game.id, HOST, handle)
    assert offered.bot_invited == BOT
    assert told.games[-1][0] == game.id
    bots.decline(game.id, BOT)
    assert _code(lambda: bots.accept(game.id, BOT)) == "not_found"  # declined
    bots.offer(game.id, HOST, handle)
    seated = bots.accept(game.id, BOT)
    assert (seated.first_player, seated.second_player) == (HOST, BOT)
    assert _code(lambda: bots.offer(game.id, HOST, handle)) == "seat_taken"


def test_a_token_is_replaced_by_its_bot_or_by_its_owner_only(store: GameStore) -> None:
    changed: list[str] = []
    tokens = BotTokens(BotKeys(store), changed.append)
    store.add_player(OTHER)
    assert _code(lambda: tokens.replace(OTHER, "t" * 64)) == "not_a_bot"
    assert _code(lambda: tokens.replace(None, "t" * 64)) == "not_a_bot"
    handle = BotStore(store).upgrade(BOT, "k" * 64)
    tokens.replace(BOT, "t" * 64)
    assert _code(lambda: tokens.replace_as_owner(handle, "x" * 64, "u" * 64)) == "bad_owner_key"
    assert _code(lambda: tokens.replace_as_owner("bot-nobody", "k" * 64, "u" * 64)) == "not_found"
    tokens.replace_as_owner(handle, "k" * 64, "u" * 64)
    assert changed == [BOT, BOT]  # each change told, none of the refused ones
