"""The live socket of a game (``/api/games/{id}/live``) from the outside: the first
view, the views after every change and every presence change, ``gone``, ping and
sync, and the sockets it refuses.

Every player is a browser of its own on one app, served by one event loop; the
messages are read with a time limit, so that a view that never comes fails the
test instead of hanging it."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack, closing
from typing import Any

import anyio
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession
    from starlette.websockets import WebSocketDisconnect

from quads.game import Give
from quads.storage import GameStore, StoredGame
from quads.web import live as live_module
from quads.web import views
from quads.web.live_hub import LiveHub

Socket = WebSocketTestSession

SECONDS = 5.0
"""How long a test waits for a message that must come."""


def receive(socket: Socket, seconds: float = SECONDS) -> dict[str, Any]:
    """The next message of ``socket``; fails after ``seconds`` without one.

    :raises WebSocketDisconnect: if the server closed the socket.
    """

    async def next_message() -> Any:
        with anyio.fail_after(seconds):
            # The session's own receive() has no time limit: read its stream directly.
            return await socket._send_rx.receive()

    try:
        message = socket.portal.call(next_message)
    except TimeoutError:
        pytest.fail(f"no message from the live socket within {seconds} s")
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason", ""))
    data: dict[str, Any] = json.loads(message["text"])
    return data


def view_of(socket: Socket) -> dict[str, Any]:
    """The next message, which must be a view."""
    message = receive(socket)
    assert message["type"] == "view", message
    view: dict[str, Any] = message["view"]
    return view


def view_until(socket: Socket, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Read views until one satisfies ``done`` (each within the time limit)."""
    while True:
        view = view_of(socket)
        if done(view):
            return view


def quiet(socket: Socket) -> None:
    """Check that the socket has nothing else to say: a ping is answered next."""
    socket.send_json({"type": "ping"})
    assert receive(socket) == {"type": "pong"}


def live(player: Any, game_id: str, **kwargs: Any) -> AbstractContextManager[Socket]:
    socket: AbstractContextManager[Socket] = player.client.websocket_connect(
        f"/api/games/{game_id}/live", **kwargs)
    return socket


def refusal(player: Any, game_id: str, **kwargs: Any) -> int:
    """The close code of a socket the server refuses."""
    with pytest.raises(WebSocketDisconnect) as closed, live(player, game_id, **kwargs) as s:
        receive(s)
    return closed.value.code


def personal(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what depends on who has the game open."""
    return {k: v for k, v in view.items() if k not in ("connected", "opponent_connected")}


# ---- views --------------------------------------------------------------------------------


def test_the_first_view(host: Any) -> None:
    view = host.play(host.new(mode="local", rules="classic"), "7", "A1")
    with live(host, view["id"]) as socket:
        assert receive(socket) == {"type": "view", "view": view}
        quiet(socket)


def test_the_first_view_of_an_online_game(host: Any, guest: Any,
                                          playing: dict[str, Any]) -> None:
    with live(host, playing["id"]) as socket:
        first = view_of(socket)
    assert personal(first) == personal(host.get(playing["id"]))
    assert first["connected"] == {"first": True, "second": False}
    assert first["opponent_connected"] is False


def test_the_view_pushed_by_a_join_names_the_new_seat(host: Any, guest: Any) -> None:
    guest._check(guest.client.put("/api/players/me", json={"name": "Grace H."}), 200)
    view = host.new(mode="online", rules="classic")
    with live(host, view["id"]) as socket:
        assert view_of(socket)["names"]["second"] is None
        joined = guest.join(view)
        pushed = view_until(socket, lambda v: v["revision"] >= joined["revision"])
    assert joined["names"]["second"] == "Grace H."
    assert pushed["names"]["second"] == "Grace H."


def test_a_move_of_the_other_player_arrives(host: Any, guest: Any,
                                            playing: dict[str, Any]) -> None:
    # Each socket's first view is read before the next socket connects: a presence
    # change during that first round would be part of the first view already.
    with live(host, playing["id"]) as mine:
        view_of(mine)
        with live(guest, playing["id"]) as theirs:
            assert view_of(theirs)["opponent_connected"] is True
            assert view_of(mine)["opponent_connected"] is True  # the guest came
            played = host.act(playing, "give", piece="7")
            pushed = view_of(theirs)
            assert pushed["revision"] == playing["revision"] + 1
            assert pushed == guest.get(playing["id"])
            assert (pushed["can_act"], pushed["you"], pushed["hand"]) == (True, "second", "7")
            # The mover's own socket gets the change too, as the mover sees it.
            own = view_of(mine)
            assert own == host.get(playing["id"])
            assert personal(own) == personal(played)
            answered = guest.act(pushed, "place", cell="B2")
            assert view_of(mine)["revision"] == answered["revision"] == pushed["revision"] + 1
            assert view_of(theirs)["revision"] == answered["revision"]
            quiet(mine)
            quiet(theirs)


def test_every_change_is_pushed(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    with live(guest, playing["id"]) as socket:
        view_of(socket)
        view = host.play(playing, "7")
        assert view_of(socket)["moves"] == ["7"]
        asked = host.undo(view)
        assert view_of(socket)["undo_request"] == "first"
        refused = guest.answer(asked, False)
        assert view_of(socket)["revision"] == refused["revision"]
        resigned = guest.resign(refused)
        pushed = view_of(socket)
        assert (pushed["resigned"], pushed["outcome"]) == ("second", resigned["outcome"])
        following = host.rematch(resigned)
        pushed = view_of(socket)
        assert pushed["rematch"] == following["id"]
        assert pushed["revision"] == resigned["revision"] + 1
        quiet(socket)


# ---- presence -----------------------------------------------------------------------------


def test_presence_of_the_opponent(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    with live(host, playing["id"]) as mine:
        first = view_of(mine)
        assert (first["opponent_connected"], first["connected"]) == (
            False, {"first": True, "second": False})
        with live(guest, playing["id"]) as theirs:
            came = view_of(mine)
            assert came["revision"] == first["revision"]
            assert (came["opponent_connected"], came["connected"]) == (
                True, {"first": True, "second": True})
            theirs_first = view_of(theirs)
            assert theirs_first["opponent_connected"] is True
            assert host.get(playing["id"])["opponent_connected"] is True
            quiet(mine)
        left = view_of(mine)
        assert left["revision"] == first["revision"]
        assert (left["opponent_connected"], left["connected"]) == (
            False, {"first": True, "second": False})
        assert host.get(playing["id"])["opponent_connected"] is False
        quiet(mine)
    assert host.get(playing["id"])["connected"] == {"first": False, "second": False}


def test_two_sockets_of_one_player(host: Any, guest: Any, playing: dict[str, Any]) -> None:
    with live(guest, playing["id"]) as one:
        view_of(one)
        with live(guest, playing["id"]) as two:
            view_of(two)
            quiet(one)  # the same player again: nobody new is connected
            view = host.act(playing, "give", piece="7")
            assert view_of(one) == view_of(two)
            with live(host, playing["id"]) as mine:
                view_of(mine)
                assert view_of(one)["opponent_connected"] is True
                assert view_of(two)["opponent_connected"] is True
            assert view_of(one)["opponent_connected"] is False
            assert view_of(two)["opponent_connected"] is False
        # One of the two closed: the guest is still there.
        quiet(one)
        assert host.get(view["id"])["opponent_connected"] is True


def test_a_spectator_watches_live(host: Any, guest: Any, stranger: Any,
                                  playing: dict[str, Any]) -> None:
    with live(stranger, playing["id"]) as socket:
        first = view_of(socket)
        assert (first["spectator"], first["you"], first["can_act"]) == (True, None, False)
        assert first["opponent_connected"] is None
        host.act(playing, "give", piece="7")
        pushed = view_of(socket)
        assert (pushed["moves"], pushed["spectator"]) == (["7"], True)
        with live(host, playing["id"]) as mine:
            view_of(mine)
            assert view_of(socket)["connected"] == {"first": True, "second": False}
    # A socket without any cookie watches too.
    with closing(TestClient(host.client.app)) as anonymous:
        anonymous.portal = host.client.portal
        with anonymous.websocket_connect(f"/api/games/{playing['id']}/live") as socket:
            assert view_of(socket)["spectator"] is True


# ---- refused sockets ----------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["computer", "local"])
def test_the_socket_of_anothers_game_is_closed(host: Any, stranger: Any, mode: str) -> None:
    settings = {"level": 1, "human": "first"} if mode == "computer" else {}
    view = host.new(mode=mode, **settings)
    stranger.token()  # a known player, just not the owner
    assert refusal(stranger, view["id"]) == 4403
    assert refusal(stranger, "no-such-game") == 4404
    assert refusal(host, "no-such-game") == 4404


@pytest.mark.parametrize("headers", [
    {"origin": "http://evil.example"}, {"origin": "https://testserver.evil.example"},
    {"origin": "http://testserver:8080"}, {"origin": "null"}, {"origin": ""},
    {"origin": "https://testserver"},  # a page over https, a server over plain http
    {"origin": "http://testserver:443"}, {"origin": "ftp://testserver"},
    {"origin": "http://evil.example", "x-forwarded-host": "evil.example"},
    {"origin": "https://quads.example", "x-forwarded-host": "quads.example"},
])
def test_a_foreign_origin_is_closed(host: Any, headers: dict[str, str]) -> None:
    view = host.new(mode="local")
    assert refusal(host, view["id"], headers=headers) == 4403
    online = host.new(mode="online")
    assert refusal(host, online["id"], headers=headers) == 4403


@pytest.mark.parametrize("headers", [
    {"origin": "http://testserver"},
    {"origin": "http://TestServer:80"},
    {},
])
def test_the_own_origin_is_accepted(host: Any, headers: dict[str, str]) -> None:
    view = host.new(mode="local")
    with live(host, view["id"], headers=headers) as socket:
        assert view_of(socket) == view


# ---- what the client may send ---------------------------------------------------------------


def test_ping_and_sync(host: Any) -> None:
    view = host.play(host.new(mode="local"), "7")
    with live(host, view["id"]) as socket:
        assert view_of(socket) == view
        socket.send_json({"type": "ping"})
        assert receive(socket) == {"type": "pong"}
        socket.send_json({"type": "sync"})
        assert receive(socket) == {"type": "view", "view": view}
        # Anything else is ignored; the socket stays open.
        socket.send_text("not json")
        socket.send_json(["ping"])
        socket.send_json({"type": "shout"})
        quiet(socket)
        played = host.act(view, "place", cell="A1")
        assert view_of(socket) == played
        socket.send_json({"type": "sync"})
        assert view_of(socket) == played


def test_a_deleted_game_is_gone(host: Any, stranger: Any) -> None:
    view = host.play(host.new(mode="local"), "7")
    online = host.new(mode="online")
    with ExitStack() as stack:
        socket = stack.enter_context(live(host, view["id"]))
        view_of(socket)
        mine = stack.enter_context(live(host, online["id"]))
        view_of(mine)
        stranger.token()  # a known player, but one who holds no seat
        theirs = stack.enter_context(live(stranger, online["id"]))
        view_of(theirs)
        quiet(mine)  # the stranger came: presence is the seat holders' only
        host.delete(view["id"])
        assert receive(socket) == {"type": "gone"}
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(socket)
        assert closed.value.code == 1000
        quiet(mine)  # another game's socket hears nothing
        host.delete(online["id"])
        for each in (theirs, mine):
            while (message := receive(each))["type"] == "view":
                pass  # a presence change on the way
            assert message == {"type": "gone"}
    assert refusal(host, view["id"]) == 4404


# ---- races ----------------------------------------------------------------------------------


def _give(store: GameStore, game_id: str, piece: int) -> StoredGame:
    """Hand over ``piece`` in the stored game, as a request of the other player does."""
    changed = store.load(game_id)
    changed.game.apply(Give(piece))
    store.save(changed)
    return changed


@pytest.fixture
def hub(client: TestClient) -> LiveHub:
    hub: LiveHub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def test_a_change_while_a_socket_connects_is_not_lost(
        host: Any, guest: Any, playing: dict[str, Any], hub: LiveHub,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The host moves just as the guest's socket has read the game, before the hub knows
    that socket: the guest must still get the move."""
    real = live_module.load_visible
    raced: list[StoredGame] = []
    guest_id = guest.id()

    def load_then_move(store: GameStore, game_id: str, player: str | None) -> StoredGame:
        stored = real(store, game_id, player)
        if player == guest_id and not raced:
            raced.append(_give(store, game_id, 7))
            hub.publish(game_id, raced[0])
        return stored

    with live(host, playing["id"]) as mine:
        view_of(mine)
        monkeypatch.setattr(live_module, "load_visible", load_then_move)
        with live(guest, playing["id"]) as theirs:
            assert raced
            seen = view_until(theirs, lambda view: view["revision"] >= raced[0].revision)
            assert seen["moves"] == ["7"]
            assert seen["can_act"] is True


def test_a_change_while_a_view_is_sent_is_not_lost(
        host: Any, guest: Any, playing: dict[str, Any], hub: LiveHub,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A second change published while the socket is busy sending the first one must be
    sent as well."""
    real = views.game_view
    raced: list[StoredGame] = []
    guest_id = guest.id()

    def view_then_move(stored: StoredGame, viewer: str | None = None,
                       connected: frozenset[str] = frozenset(), *more: Any,
                       **named: Any) -> Any:
        if stored.ply == 1 and viewer == guest_id and not raced:
            # Another action is saved and published meanwhile.
            changed = host.store.load(stored.id)
            changed.game.apply(next(a for a in changed.game.legal_actions()))
            host.store.save(changed)
            raced.append(changed)
            hub.publish(stored.id, changed)
        return real(stored, viewer, connected, *more, **named)

    monkeypatch.setattr(views, "game_view", view_then_move)
    with live(guest, playing["id"]) as theirs:
        view_of(theirs)
        host.act(playing, "give", piece="7")
        seen = view_until(theirs, lambda view: view["ply"] == 2)
        assert raced
        assert seen["revision"] == raced[0].revision
