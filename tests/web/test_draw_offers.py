"""Draw offers between two people online, and the bound on offers and undo requests:
one waits at a time, three each a game, live on both pages, never from a stranger."""

from __future__ import annotations

from typing import Any

from quads import read_record


def code(answer: dict[str, Any]) -> str:
    error: str = answer["error"]["code"]
    return error


def offer(player: Any, view: dict[str, Any], expect: int = 200) -> dict[str, Any]:
    return player.post(view["id"], "draw", {"revision": view["revision"]}, expect)


def answer(player: Any, view: dict[str, Any], accept: bool,
           expect: int = 200) -> dict[str, Any]:
    body = {"revision": view["revision"], "accept": accept}
    return player.post(view["id"], "draw/answer", body, expect)


def test_a_draw_offered_and_accepted_ends_the_game_drawn(host: Any, guest: Any,
                                                          playing: dict[str, Any]) -> None:
    view = host.play(playing, "7")
    offered = offer(host, view)
    assert (offered["draw_offer"], offered["draws_left"]) == ("first", 2)
    seen = guest.get(view["id"])
    assert (seen["draw_offer"], seen["draws_left"]) == ("first", 3)
    assert code(offer(host, offered, 409)) == "draw_offered"  # one waits at a time
    assert code(answer(host, offered, True, 409)) == "no_draw_offer"  # not one's own
    drawn = answer(guest, seen, True)
    assert drawn["outcome"]["reason"] == "agreement"
    assert drawn["outcome"]["winner"] is None
    assert drawn["draw_offer"] is None
    record = host.client.get(f"/api/games/{view['id']}/record").text
    assert '[Termination "agreement"]' in record
    assert read_record(record).outcome == host.store.load(view["id"]).game.outcome


def test_playing_on_declines_and_offering_back_accepts(host: Any, guest: Any,
                                                       playing: dict[str, Any]) -> None:
    offered = offer(host, playing)
    moved = host.play(offered, "7")  # the offerer moves: the offer stands
    assert moved["draw_offer"] == "first"
    on = guest.play(guest.get(playing["id"]), "A1C")  # the other plays on: it lapses
    assert on["draw_offer"] is None
    again = offer(host, host.get(playing["id"]))
    both = offer(guest, guest.get(playing["id"]))  # an offer back accepts it
    assert both["outcome"]["reason"] == "agreement"
    assert again["draws_left"] == 1


def test_a_side_offers_three_draws_at_most(host: Any, guest: Any,
                                           playing: dict[str, Any]) -> None:
    view = playing
    for left in (2, 1, 0):
        view = offer(host, host.get(view["id"]))
        assert view["draws_left"] == left
        view = answer(guest, guest.get(view["id"]), False)
        assert view["draw_offer"] is None
    refused = offer(host, host.get(view["id"]), 409)
    assert code(refused) == "too_many_draw_offers"
    assert refused["error"]["params"]["most"] == 3
    assert offer(guest, guest.get(view["id"]))["draws_left"] == 2  # the other side's own


def test_a_side_asks_for_three_undos_at_most(host: Any, guest: Any,
                                             playing: dict[str, Any]) -> None:
    view = host.play(playing, "7")
    for left in (2, 1, 0):
        view = host.post(view["id"], "undo", {"revision": host.get(view["id"])["revision"]})
        assert view["undos_left"] == left
        view = guest.answer(guest.get(view["id"]), False)
    refused = host.post(view["id"], "undo", {"revision": host.get(view["id"])["revision"]},
                        409)
    assert code(refused) == "too_many_undo_requests"


def test_only_the_seats_of_an_online_game_offer_draws(host: Any, guest: Any, stranger: Any,
                                                      playing: dict[str, Any]) -> None:
    assert code(offer(stranger, playing, 403)) == "not_your_game"
    assert guest.get(playing["id"])["draw_offer"] is None
    local = host.new(rules="classic")
    assert code(offer(host, local, 409)) == "not_online"
    waiting = host.new(mode="online", rules="classic")
    assert code(offer(host, waiting, 409)) == "waiting_for_opponent"
    stale = offer(host, {**playing, "revision": playing["revision"] + 5}, 409)
    assert code(stale) == "stale"
