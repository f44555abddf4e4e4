"""Players from the outside: the cookie that makes a browser a player, the bearer
token of a bot, games that belong to their creator, the list of one's own games,
and who may delete what."""

from __future__ import annotations

import base64
import hashlib
import sqlite3
import warnings
from collections.abc import Iterator
from contextlib import closing
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from quads.web.middleware.identity import COOKIE

# A classic game of two people in which the first player completes row 1 with D1.
WON = ("7", "A1C", "B1D", "C1E", "D1")


def set_cookie(response: Any) -> SimpleCookie:
    """The cookies that an answer sets."""
    jar: SimpleCookie = SimpleCookie()
    for header in response.headers.get_list("set-cookie"):
        jar.load(header)
    return jar


def browser(client: TestClient, **cookies: str) -> TestClient:
    """A fresh client on the app of ``client`` with only ``cookies``."""
    other = TestClient(client.app, cookies=cookies)
    other.portal = client.portal
    return other


@pytest.fixture
def fresh(client: TestClient) -> Iterator[TestClient]:
    """A browser that has not been to the server yet."""
    with closing(browser(client)) as other:
        yield other


def socket_refusal(client: TestClient, path: str, **kwargs: Any) -> int:
    """The close code of a live socket that the server refuses (before or right after
    the handshake)."""
    with pytest.raises(WebSocketDisconnect) as closed:  # noqa: SIM117
        with client.websocket_connect(path, **kwargs) as socket:
            socket.receive_json()
    return closed.value.code


def tables(db_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the database file."""
    with closing(sqlite3.connect(db_path)) as db:
        names = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {name: db.execute(f"SELECT * FROM {name}").fetchall() for name in names}


# ---- the cookie -------------------------------------------------------------------------


def test_the_first_action_sets_the_cookie(fresh: TestClient) -> None:
    assert not set_cookie(fresh.get("/docs"))  # not under /api/
    answer = fresh.post("/api/games", json={"mode": "local"})
    assert answer.status_code == 201
    cookies = set_cookie(answer)
    assert set(cookies) == {COOKIE}
    morsel = cookies[COOKIE]
    header = answer.headers["set-cookie"]
    assert "HttpOnly" in header
    assert morsel["httponly"] is True
    assert morsel["samesite"] == "Lax"
    assert morsel["path"] == "/"
    assert not morsel["secure"]  # plain http here: a Secure cookie would never come back
    assert int(morsel["max-age"]) >= 30 * 86_400
    token = morsel.value
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    assert len(raw) * 8 >= 128
    assert len(raw) * 8 == 256
    # Known from now on: no second cookie.
    again = fresh.get("/api/games")
    assert not set_cookie(again)
    assert [game["id"] for game in again.json()["games"]] == []  # nobody acted in it yet
    assert fresh.get(f"/api/games/{answer.json()['id']}").status_code == 200
    assert fresh.cookies[COOKIE] == token


@pytest.mark.parametrize("path", [
    "/api/games", "/api/games?status=over", "/api/games/no-such-game",
    "/api/games/AAAAAAAAAAAAAAAAAAAAAA", "/api/puzzles/history", "/api/messages/en",
    "/api/invites/no-such-invite", "/api/no-such-route",
])
def test_reads_make_no_player(fresh: TestClient, db_path: Path, path: str) -> None:
    answer = fresh.get(path)
    assert answer.status_code in (200, 404), answer.text
    assert not set_cookie(answer)
    if path == "/api/games":
        assert answer.json() == {"games": [], "next": None}
    if path == "/api/puzzles/history":
        assert answer.json()["results"] == []
    assert tables(db_path)["players"] == []


@pytest.mark.parametrize(("path", "body", "status"), [
    ("/api/games", {"mode": "local"}, 201),
    ("/api/games/import", {"record": "[Rules \"classic\"]\n\n7 A1C *", "mode": "local"}, 201),
    ("/api/puzzles/2025-03-04/result", {"tries": 1, "seconds": 5, "solved": False}, 201),
    ("/api/puzzles/2025-03-04/check", {"played": [], "turn": "A1"}, None),
    ("/api/puzzles/adopt", {"player": "0123456789abcdef0123456789abcdef"}, 200),
    ("/api/players", None, 204),
])
def test_acting_makes_a_player(fresh: TestClient, db_path: Path, path: str, body: Any,
                               status: int | None) -> None:
    answer = fresh.post(path, json=body)
    if status is not None:
        assert answer.status_code == status, answer.text
    assert COOKIE in set_cookie(answer)
    assert [row[0] for row in tables(db_path)["players"]] == [
        hashlib.sha256(set_cookie(answer)[COOKIE].value.encode()).hexdigest()]


def test_every_newcomer_is_another_player(client: TestClient) -> None:
    tokens = set()
    for _ in range(5):
        with closing(browser(client)) as other:
            tokens.add(set_cookie(other.post("/api/players"))[COOKIE].value)
    assert len(tokens) == 5


def test_only_the_hash_of_the_token_is_stored(host: Any, guest: Any, db_path: Path) -> None:
    view = host.play(host.new(rules="classic"), "7", "A1C")
    online = host.new(mode="online", rules="classic")
    guest.join(online)
    host.act(guest.get(online["id"]), "give", piece="3")
    guest.client.post("/api/puzzles/2025-03-04/result",
                      json={"tries": 1, "seconds": 5, "solved": False})
    assert host.get(view["id"])["ply"] == 3
    tokens = [host.token(), guest.token()]
    hashes = [hashlib.sha256(token.encode()).hexdigest() for token in tokens]
    assert len(set(tokens)) == 2
    rows = tables(db_path)
    assert sorted(row[0] for row in rows["players"]) == sorted(hashes)
    everything = repr(rows)
    for token, hashed in zip(tokens, hashes, strict=True):
        assert token not in everything
        assert hashed in everything
    # Nor anywhere in the files themselves (the write-ahead log included).
    for path in db_path.parent.iterdir():
        if path.name.startswith(db_path.name):
            content = path.read_bytes()
            for token in tokens:
                assert token.encode() not in content, path.name


# ---- other cookies of the same host ---------------------------------------------------

NEIGHBOURS = ['prefs={"a":1}', "x=a b", "x=a\\b", 'x="unterminated', "x=\"a;b\"", "=empty-name",
              "flag", "x=a,b"]
"""Cookies that other applications on the same host may set, which a strict parser
refuses (JSON, spaces, backslashes, an open quote, no name, no value, a comma)."""


@pytest.mark.parametrize("neighbour", NEIGHBOURS)
@pytest.mark.parametrize("before", [True, False], ids=["before", "after"])
def test_other_cookies_keep_the_players_games(host: Any, fresh: TestClient, db_path: Path,
                                              neighbour: str, before: bool) -> None:
    view = host.play(host.new(rules="classic"), "7")
    players = tables(db_path)["players"]
    mine = f"{COOKIE}={host.token()}"
    header = {"Cookie": f"{neighbour}; {mine}" if before else f"{mine}; {neighbour}"}
    answer = fresh.get(f"/api/games/{view['id']}", headers=header)
    assert answer.status_code == 200, answer.text
    assert answer.json() == view
    assert not set_cookie(answer)
    listed = fresh.get("/api/games", headers=header)
    assert [game["id"] for game in listed.json()["games"]] == [view["id"]]
    played = fresh.post(f"/api/games/{view['id']}/actions", headers=header,
                        json={"revision": view["revision"], "action": "place", "cell": "A1"})
    assert played.status_code == 200, played.text
    assert not set_cookie(played)
    made = fresh.post("/api/games", headers=header, json={"mode": "local"})
    assert made.status_code == 201
    assert not set_cookie(made)
    assert host.get(made.json()["id"]) == made.json()
    assert tables(db_path)["players"] == players


@pytest.mark.parametrize("cookie", ["forged-token", "", '"quoted"', "a b"])
def test_an_unknown_cookie_is_never_replaced(host: Any, fresh: TestClient, db_path: Path,
                                             cookie: str) -> None:
    """The server forgot this browser (a reset database, a damaged cookie): every route
    that looks at the caller says so, and none writes a new cookie over it."""
    view = host.new(mode="online", rules="classic")
    before = tables(db_path)
    header = {"Cookie": f"theme=dark; {COOKIE}={cookie}"}
    for method, path, body in [
        ("GET", "/api/games", None), ("GET", f"/api/games/{view['id']}", None),
        ("POST", "/api/games", {"mode": "local"}),
        ("POST", f"/api/games/{view['id']}/join", {"invite": view["invite"].rsplit("/")[-1]}),
        ("GET", "/api/puzzles/history", None),
        ("POST", "/api/puzzles/2025-03-04/result", {"tries": 1, "seconds": 5, "solved": False}),
    ]:
        answer = fresh.request(method, path, json=body, headers=header)
        assert answer.status_code == 401, (path, answer.text)
        assert answer.json()["error"]["code"] == "unknown_player"
        assert "POST /api/players" in answer.json()["error"]["message"]
        assert not set_cookie(answer)
    assert tables(db_path) == before
    # What needs nobody still answers: the catalogue (for the page to say so), a puzzle.
    for path in ("/api/messages/de", "/api/puzzles/2025-03-04"):
        answer = fresh.get(path, headers=header)
        assert answer.status_code == 200, answer.text
        assert not set_cookie(answer)
    # Asked on purpose, the server makes a new player and replaces the cookie.
    new = fresh.post("/api/players", headers=header)
    assert new.status_code == 204
    assert new.content == b""
    token = set_cookie(new)[COOKIE].value
    assert token != cookie
    again = {"Cookie": f"theme=dark; {COOKIE}={token}"}
    assert fresh.get("/api/games", headers=again).json() == {"games": [], "next": None}
    assert len(tables(db_path)["players"]) == len(before["players"]) + 1


def test_a_known_player_asking_for_a_new_one_gets_it(host: Any) -> None:
    view = host.new(mode="local")
    old = host.token()
    answer = host.client.post("/api/players")
    assert answer.status_code == 204
    assert host.token() != old
    assert host.get(view["id"], expect=403)["error"]["code"] == "private_game"


# ---- the bearer token -------------------------------------------------------------------


def test_a_bearer_token_works_like_the_cookie(host: Any, fresh: TestClient) -> None:
    view = host.play(host.new(rules="classic"), "7")
    bearer = {"Authorization": f"Bearer {host.token()}"}
    answer = fresh.get(f"/api/games/{view['id']}", headers=bearer)
    assert answer.status_code == 200, answer.text
    assert answer.json() == view
    assert not set_cookie(answer)
    assert COOKIE not in fresh.cookies
    listed = fresh.get("/api/games", headers=bearer).json()["games"]
    assert [game["id"] for game in listed] == [view["id"]]
    played = fresh.post(f"/api/games/{view['id']}/actions", headers=bearer,
                        json={"revision": view["revision"], "action": "place", "cell": "A1"})
    assert played.status_code == 200, played.text
    assert host.get(view["id"]) == played.json()
    # A game the bot starts is the cookie's player's too.
    made = fresh.post("/api/games", headers={"authorization": f"bearer {host.token()}"},
                      json={"mode": "local"})
    assert made.status_code == 201
    assert host.get(made.json()["id"]) == made.json()


def test_a_bearer_token_on_the_live_socket(host: Any, fresh: TestClient) -> None:
    view = host.new(mode="computer", level=1, human="first")
    bearer = {"Authorization": f"Bearer {host.token()}"}
    with fresh.websocket_connect(f"/api/games/{view['id']}/live", headers=bearer) as socket:
        message = socket.receive_json()
    assert message == {"type": "view", "view": view}


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/api/games", None),
    ("POST", "/api/games", {"mode": "local"}),
    ("GET", "/api/games/{id}", None),
    ("POST", "/api/games/{id}/actions", {"revision": 0, "action": "give", "piece": "7"}),
    ("DELETE", "/api/games/{id}", None),
    ("GET", "/api/puzzles/history", None),
])
def test_an_unknown_bearer_token_is_refused(host: Any, fresh: TestClient, db_path: Path,
                                            method: str, path: str, body: Any) -> None:
    view = host.new(mode="local")
    before = tables(db_path)
    for token in ("made-up-token", host.id(), host.token() + "x"):
        answer = fresh.request(method, path.format(id=view["id"]), json=body,
                               headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 401, answer.text
        assert answer.json()["error"]["code"] == "unknown_player"
        assert not set_cookie(answer)
    assert tables(db_path) == before


def test_an_unknown_bearer_token_gets_no_socket(host: Any, fresh: TestClient) -> None:
    view = host.new(mode="local")
    code = socket_refusal(fresh, f"/api/games/{view['id']}/live",
                          headers={"Authorization": "Bearer made-up"})
    assert code == 4403  # followed as nobody: another's game, private


# ---- computer and local games belong to their creator -------------------------------------

ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "", None),
    ("POST", "/actions", {"action": "place", "cell": "A1"}),
    ("POST", "/computer", {}),
    ("POST", "/undo", {}),
    ("POST", "/undo/answer", {"accept": True}),
    ("POST", "/redo", {}),
    ("GET", "/hint", None),
    ("GET", "/record", None),
    ("POST", "/resign", {}),
    ("POST", "/rematch", None),
    ("POST", "/join", {"invite": "anything"}),
    ("GET", "/invite.svg", None),
    ("DELETE", "?revision=0", None),
]


@pytest.fixture(params=["computer", "local", "local-over"])
def owned(request: pytest.FixtureRequest, host: Any) -> dict[str, Any]:
    """A game of the host's with a few actions, the redo trail not empty; or one that is
    over (for the rematch)."""
    if request.param == "computer":
        view = host.new(mode="computer", level=1, human="first", rules="classic")
        view = host.undo(host.computer(host.act(view, "give", piece="7")))
    elif request.param == "local":
        view = host.undo(host.play(host.new(rules="classic"), "7", "A1C", "B1"))
    else:
        view = host.act(host.play(host.new(rules="classic"), *WON), "declare")
    assert view["revision"] > 0
    return dict(view)


def unknown_callers(client: TestClient, host: Any) -> Iterator[tuple[str, TestClient]]:
    """Browsers whose cookie this server never issued: a forged one, the host's id (the
    hash) as a cookie, an empty one."""
    yield "forged", browser(client, **{COOKIE: "forged-token"})
    yield "hash", browser(client, **{COOKIE: host.id()})
    yield "empty", browser(client, **{COOKIE: ""})


def wrong_callers(client: TestClient, host: Any) -> Iterator[tuple[str, TestClient]]:
    """Known browsers that are not the host, or none: no cookie at all, another
    player's own cookie."""
    yield "none", browser(client)
    other = browser(client)
    other.post("/api/players")
    yield "other", other


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
def test_another_player_sees_none_of_ones_games(client: TestClient, host: Any, method: str,
                                                path: str, body: Any,
                                                owned: dict[str, Any]) -> None:
    game_id = owned["id"]
    before = host.row(game_id)
    if body is not None and path not in ("/join",):
        body = {"revision": owned["revision"], **body}
    missing = client.request(method, f"/api/games/no-such-game{path}", json=body)
    assert missing.status_code == 404
    for name, other in unknown_callers(client, host):
        with closing(other):
            answer = other.request(method, f"/api/games/{game_id}{path}", json=body)
            assert answer.status_code == 401, (name, answer.text)
            assert answer.json()["error"]["code"] == "unknown_player"
            assert not set_cookie(answer)
    for name, other in wrong_callers(client, host):
        with closing(other):
            # The link says the game is private (not that it is gone), and nothing more.
            answer = other.request(method, f"/api/games/{game_id}{path}", json=body)
            assert answer.status_code == 403, (name, answer.text)
            assert answer.json()["error"]["code"] == "private_game"
            assert set(answer.json()["error"]) == {"code", "message"}
            assert not set_cookie(answer) or (name == "none" and path == "/join")
            assert other.get("/api/games").json() == {"games": [], "next": None}
    assert host.row(game_id) == before
    assert host.get(game_id) == owned


def test_another_player_gets_no_live_socket(client: TestClient, host: Any,
                                            owned: dict[str, Any]) -> None:
    for name, other in [*unknown_callers(client, host), *wrong_callers(client, host)]:
        with closing(other):
            assert socket_refusal(other, f"/api/games/{owned['id']}/live") == 4403, name
    with host.client.websocket_connect(f"/api/games/{owned['id']}/live") as socket:
        assert socket.receive_json() == {"type": "view", "view": owned}


# ---- the list of one's own games ------------------------------------------------------------


def test_the_list_holds_the_callers_played_games_newest_first(host: Any, guest: Any,
                                                              stranger: Any) -> None:
    unplayed = host.new(mode="local")
    local = host.play(host.new(rules="classic"), "7")
    computer = host.act(host.new(mode="computer", level=1, human="first"), "give", piece="5")
    # An online game waiting for the friend is listed for its host at once.
    waiting = host.new(mode="online", rules="classic")
    theirs = guest.play(guest.new(mode="local"), "3")
    assert [g["id"] for g in host.games()] == [waiting["id"], computer["id"], local["id"]]
    assert (host.games()[0]["you"], host.games()[0]["opponent"]) == ("first", "free")
    assert [g["id"] for g in guest.games()] == [theirs["id"]]
    assert stranger.games() == []
    # Playing in an older game brings it to the top.
    local = host.act(local, "place", cell="C3")
    assert [g["id"] for g in host.games()] == [local["id"], waiting["id"], computer["id"]]
    # An online game is listed for both seats once the guest has joined, not for watchers.
    guest.join(waiting)
    host_line, *_ = host.games()
    guest_line, *_ = guest.games()
    assert host_line["id"] == guest_line["id"] == waiting["id"]
    assert (host_line["you"], host_line["opponent"]) == ("first", "person")
    assert (guest_line["you"], guest_line["opponent"]) == ("second", "person")
    assert stranger.get(waiting["id"])["spectator"] is True
    assert stranger.games() == []
    lines = {g["id"]: g for g in host.games()}
    assert unplayed["id"] not in lines
    assert (lines[local["id"]]["you"], lines[local["id"]]["opponent"]) == (None, None)
    assert (lines[computer["id"]]["you"], lines[computer["id"]]["opponent"]) == ("first",
                                                                                 "computer")
    assert [g["id"] for g in host.games(status="over")] == []
    assert {g["id"] for g in host.games(status="ongoing")} == set(lines)


def test_a_resigned_game_is_listed_as_over(host: Any) -> None:
    view = host.resign(host.play(host.new(rules="classic"), "7"))
    assert view["outcome"]["reason"] == "resignation"
    line, = host.games()
    assert line["status"] == "over"
    assert host.games(status="ongoing") == []
    assert [g["id"] for g in host.games(status="over")] == [view["id"]]


def test_a_finished_line_says_how_it_ended_and_against_whom(host: Any, guest: Any) -> None:
    host._check(host.client.put("/api/players/me", json={"name": "Ada"}), 200)
    guest._check(guest.client.put("/api/players/me", json={"name": "Bea"}), 200)
    online = host.new(mode="online", rules="classic")
    guest.join(online)
    lines = {line["id"]: line for line in host.games()}
    assert (lines[online["id"]]["opponent_name"], lines[online["id"]]["result"],
            lines[online["id"]]["ending"]) == ("Bea", None, None)
    host.resign(host.get(online["id"]))
    local = host.act(host.play(host.new(rules="classic"), *WON), "declare")
    computer = host.resign(host.act(host.new(mode="computer", level=1, human="first"),
                                    "give", piece="5"))
    mine = {line["id"]: line for line in host.games(status="over")}
    theirs = {line["id"]: line for line in guest.games(status="over")}
    assert (mine[online["id"]]["result"], mine[online["id"]]["ending"],
            mine[online["id"]]["opponent_name"]) == ("loss", "0-1", "Bea")
    assert (theirs[online["id"]]["result"], theirs[online["id"]]["opponent_name"]) == (
        "win", "Ada")
    # Two people on one device: the record's result, and no side to read it from.
    assert (mine[local["id"]]["result"], mine[local["id"]]["ending"],
            mine[local["id"]]["opponent_name"]) == (None, "1-0", None)
    assert (mine[computer["id"]]["result"], mine[computer["id"]]["ending"]) == ("loss", "0-1")


# ---- deleting -------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["local", "computer"])
def test_one_deletes_ones_own_unfinished_game(host: Any, mode: str) -> None:
    settings = {"level": 1, "human": "first"} if mode == "computer" else {}
    view = host.act(host.new(mode=mode, **settings), "give", piece="7")
    unplayed = host.new(mode=mode, **settings)
    assert host.delete(view["id"]) is None
    assert host.delete(unplayed["id"]) is None
    assert host.row(view["id"]) is None
    assert host.get(view["id"], 404)["error"]["code"] == "not_found"
    assert host.games() == []
    assert host.delete(view["id"], 404)["error"]["code"] == "not_found"


@pytest.mark.parametrize("mode", ["local", "computer"])
def test_a_stale_tab_deletes_nothing(host: Any, db_path: Path, mode: str) -> None:
    """A tab that last saw the game at an older revision may not delete it."""
    settings = {"level": 1, "human": "first"} if mode == "computer" else {}
    seen = host.new(mode=mode, rules="classic", **settings)
    played = host.play(seen, "7")
    before = tables(db_path)
    refused = host.delete(seen["id"], 409, revision=seen["revision"])
    assert refused["error"]["code"] == "stale"
    assert host.delete(seen["id"], 409, revision=played["revision"] + 1)["error"]["code"] \
        == "stale"
    assert tables(db_path) == before
    listed = {game["id"]: game for game in host.games()}
    assert listed[seen["id"]]["revision"] == played["revision"]
    assert host.delete(seen["id"], revision=listed[seen["id"]]["revision"]) is None
    host.get(seen["id"], expect=404)


@pytest.mark.parametrize("query", ["", "?revision=", "?revision=-1", "?revision=x"])
def test_a_delete_without_a_revision_is_refused(host: Any, db_path: Path, query: str) -> None:
    view = host.new(mode="local")
    before = tables(db_path)
    answer = host.client.delete(f"/api/games/{view['id']}{query}")
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == "bad_request"
    assert tables(db_path) == before


def test_a_stranger_cannot_delete(host: Any, stranger: Any) -> None:
    view = host.play(host.new(mode="local"), "7")
    before = host.row(view["id"])
    assert stranger.delete(view["id"], 403)["error"]["code"] == "private_game"
    assert host.row(view["id"]) == before


@pytest.mark.parametrize("how", ["declared", "resigned"])
def test_a_finished_game_is_kept(host: Any, how: str) -> None:
    view = host.play(host.new(rules="classic"), *WON)
    view = host.act(view, "declare") if how == "declared" else host.resign(view)
    before = host.row(view["id"])
    assert host.delete(view["id"], 409)["error"]["code"] == "game_over"
    assert host.row(view["id"]) == before


def test_deleting_online_games(host: Any, guest: Any, stranger: Any) -> None:
    waiting = host.new(mode="online")
    before = host.row(waiting["id"])
    assert guest.delete(waiting["id"], 403)["error"]["code"] == "not_your_game"
    assert host.row(waiting["id"]) == before
    assert host.delete(waiting["id"]) is None
    assert host.row(waiting["id"]) is None
    assert guest.get(waiting["id"], 404)["error"]["code"] == "not_found"

    playing = host.new(mode="online", host="second")
    guest.join(playing)
    playing = guest.act(host.get(playing["id"]), "give", piece="7")
    before = host.row(playing["id"])
    assert host.delete(playing["id"], 409)["error"]["code"] == "in_play"
    for other in (guest, stranger):
        assert other.delete(playing["id"], 403)["error"]["code"] == "not_your_game"
    assert host.row(playing["id"]) == before
    # Joined but nobody played yet: in play all the same.
    joined = host.new(mode="online")
    guest.join(joined)
    assert host.delete(joined["id"], 409)["error"]["code"] == "in_play"
