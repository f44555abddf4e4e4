"""A bot's token replaced and revoked, through a real server: by the bot with its
token, by its owner with the owner's key; the old token is refused at once, a stolen
token cannot keep the bot from its owner, strangers and other sites change nothing,
and the changes have their rates."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from bot_helpers import bot, ended, hosted, person
from e2e.quads_server import Server, free_port
from quads.web.live_hub import CLOSE_TOKEN_CHANGED
from quads.web.middleware.identity import COOKIE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("keys")
    running = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                     settings="bot_heartbeat = 0.5\n")
    running.start()
    yield running
    running.kill()


def as_bearer(url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {token}"})


def me(client: httpx.Client) -> httpx.Response:
    return client.get("/api/players/me")


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code


def test_the_upgrade_gives_an_owners_key_apart_from_the_token(server: Server) -> None:
    _, made = bot(server.url)
    assert len(made["owner_key"]) == 43
    assert made["owner_key"] != made["token"]
    refused(me(as_bearer(server.url, made["owner_key"])), 401, "unknown_player")


def test_a_bot_replaces_its_token_and_the_old_one_is_refused_at_once(server: Server) -> None:
    client, made = bot(server.url)
    before = me(client).json()
    answer = client.post("/api/bot/token")
    assert answer.status_code == 200, answer.text
    token = answer.json()["token"]
    assert token != made["token"]
    refused(me(client), 401, "unknown_player")
    with httpx.Client(base_url=server.url, timeout=30,
                      cookies={COOKIE: made["token"]}) as cookie:  # nor as a cookie
        refused(me(cookie), 401, "unknown_player")
    fresh = as_bearer(server.url, token)
    assert me(fresh).json() == before  # the same bot, the same name
    again = fresh.post("/api/bot/token")
    assert again.status_code == 200
    refused(me(fresh), 401, "unknown_player")
    assert me(as_bearer(server.url, again.json()["token"])).json() == before


def test_a_browser_that_is_a_bot_gets_the_new_cookie(server: Server) -> None:
    browser = person(server.url)
    old = browser.cookies[COOKIE]
    handle = browser.post("/api/bot/upgrade").json()["bot"]
    answer = browser.post("/api/bot/token")
    assert answer.status_code == 200, answer.text
    assert browser.cookies[COOKIE] == answer.json()["token"] != old
    assert me(browser).json()["bot"] == handle
    refused(me(as_bearer(server.url, old)), 401, "unknown_player")


def test_a_bot_revokes_its_token_and_its_owner_gives_it_a_new_one(server: Server) -> None:
    client, made = bot(server.url)
    assert client.delete("/api/bot/token").status_code == 204
    refused(me(client), 401, "unknown_player")
    owner = httpx.Client(base_url=server.url, timeout=30)
    answer = owner.post(f"/api/bots/{made['bot']}/token",
                        json={"owner_key": made["owner_key"]})
    assert answer.status_code == 200, answer.text
    assert me(as_bearer(server.url, answer.json()["token"])).json()["bot"] == made["bot"]
    assert owner.post(f"/api/bots/{made['bot']}/revoke",
                      json={"owner_key": made["owner_key"]}).status_code == 204
    refused(me(as_bearer(server.url, answer.json()["token"])), 401, "unknown_player")


def test_a_stolen_token_cannot_keep_the_bot_from_its_owner(server: Server) -> None:
    owner, made = bot(server.url)
    thief = as_bearer(server.url, made["token"])
    taken = thief.post("/api/bot/token")  # the thief makes the token its own
    assert taken.status_code == 200
    thief = as_bearer(server.url, taken.json()["token"])
    refused(me(owner), 401, "unknown_player")
    # The thief can neither use nor guess the owner's key.
    guessed = thief.post(f"/api/bots/{made['bot']}/token", json={"owner_key": "A" * 43})
    refused(guessed, 403, "bad_owner_key")
    assert thief.delete("/api/bot/token").status_code == 204  # and revokes it, even
    # The owner, whose request still carries the dead token, takes the bot back.
    back = owner.post(f"/api/bots/{made['bot']}/token", json={"owner_key": made["owner_key"]})
    assert back.status_code == 200, back.text
    refused(me(thief), 401, "unknown_player")
    assert me(as_bearer(server.url, back.json()["token"])).json()["bot"] == made["bot"]


def test_a_stranger_changes_no_other_bots_token(server: Server) -> None:
    _, victim = bot(server.url)
    _, other = bot(server.url)
    stranger = person(server.url)
    path = f"/api/bots/{victim['bot']}"
    for key in (other["owner_key"], victim["token"], "x" * 43):
        refused(stranger.post(f"{path}/token", json={"owner_key": key}), 403, "bad_owner_key")
        refused(stranger.post(f"{path}/revoke", json={"owner_key": key}), 403, "bad_owner_key")
    refused(stranger.post("/api/bots/bot-nobody/token", json={"owner_key": "x" * 43}),
            404, "not_found")
    assert stranger.post(f"{path}/token", json={"owner_key": "short"}).status_code == 400
    assert stranger.post(f"{path}/token", json={}).status_code == 400
    refused(stranger.post("/api/bot/token"), 403, "not_a_bot")  # a person has none
    refused(stranger.delete("/api/bot/token"), 403, "not_a_bot")
    nobody = httpx.Client(base_url=server.url, timeout=30)
    refused(nobody.post("/api/bot/token"), 403, "not_a_bot")
    refused(as_bearer(server.url, "y" * 43).post("/api/bot/token"), 401, "unknown_player")
    assert me(as_bearer(server.url, victim["token"])).json()["bot"] == victim["bot"]


def test_other_sites_change_no_token(server: Server) -> None:
    browser = person(server.url)
    browser.post("/api/bot/upgrade")
    token = browser.cookies[COOKIE]
    _, made = bot(server.url)
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
        refused(browser.post("/api/bot/token", headers=headers), 403, "cross_site")
        refused(browser.delete("/api/bot/token", headers=headers), 403, "cross_site")
        for what in ("token", "revoke"):
            answer = browser.post(f"/api/bots/{made['bot']}/{what}", headers=headers,
                                  json={"owner_key": made["owner_key"]})
            refused(answer, 403, "cross_site")
    assert browser.cookies[COOKIE] == token
    assert me(browser).status_code == 200
    assert me(as_bearer(server.url, made["token"])).status_code == 200


def test_a_bots_open_stream_ends_when_its_token_changes(server: Server) -> None:
    client, made = bot(server.url)
    with client.stream("GET", "/api/bot/stream") as stream:
        assert stream.status_code == 200
        lines = stream.iter_lines()
        assert next(lines) == ""
        owner = httpx.Client(base_url=server.url, timeout=30)
        assert owner.post(f"/api/bots/{made['bot']}/revoke",
                          json={"owner_key": made["owner_key"]}).status_code == 204
        assert not any(ended(lines, 5.0))  # the server ends it, with nothing to say


@pytest.mark.parametrize("how", ["replaced", "revoked"])
def test_a_live_socket_opened_with_the_old_token_is_closed(server: Server, how: str) -> None:
    """What the old token opened does not go on acting: the game's live socket closes
    (4401) once the token is replaced by the bot or revoked by its owner."""
    client, made = bot(server.url)
    game = hosted(client)
    address = server.url.replace("http://", "ws://") + f"/api/games/{game['id']}/live"
    with connect(address, additional_headers={"Authorization": f"Bearer {made['token']}"},
                 open_timeout=10) as socket:
        assert json.loads(socket.recv(timeout=10))["type"] == "view"
        if how == "replaced":
            assert client.post("/api/bot/token").status_code == 200
        else:
            owner = httpx.Client(base_url=server.url, timeout=30)
            assert owner.post(f"/api/bots/{made['bot']}/revoke",
                              json={"owner_key": made["owner_key"]}).status_code == 204
        code = close_code(socket)
    assert code == CLOSE_TOKEN_CHANGED


def close_code(socket: ClientConnection) -> int | None:
    """Read ``socket`` until the server closes it: the code it gave."""
    try:
        while True:
            socket.recv(timeout=10)
    except ConnectionClosed as closed:
        return None if closed.rcvd is None else closed.rcvd.code


def test_changes_of_a_token_have_their_rates(tmp_path: Path) -> None:
    own = Server(tmp_path / "games.sqlite3", free_port(), tmp_path / "server.log")
    # Its own settings file, instead of the test servers' lifted rates.
    own.config.write_text('rate_keys = "2/hour"\nrate_keys_per_address = "4/hour"\n')
    own.start()
    try:
        client, made = bot(own.url)
        for _ in range(2):
            answer = client.post("/api/bot/token")
            assert answer.status_code == 200
            client.headers["Authorization"] = f"Bearer {answer.json()['token']}"
        over: Any = client.post("/api/bot/token")
        refused(over, 429, "rate_limited")
        assert int(over.headers["Retry-After"]) > 0
        # The bot's own count used up, its owner still changes the token, within the
        # address's count.
        owner = httpx.Client(base_url=own.url, timeout=30)
        path = f"/api/bots/{made['bot']}/token"
        assert owner.post(path, json={"owner_key": made["owner_key"]}).status_code == 200
        refused(owner.post(path, json={"owner_key": "z" * 43}), 403, "bad_owner_key")
        refused(owner.post(path, json={"owner_key": made["owner_key"]}), 429, "rate_limited")
    finally:
        own.kill()
