"""Accounts through a real server, as their users meet them: a player makes an account
and keeps everything; a second device signs in and sees the same games; sessions
end at once; strangers, other sites and guessers change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot_helpers import hosted, newcomer, person, serving
from e2e.quads_server import Server, free_port
from quads.web.app import create_app
from quads.web.middleware.identity import COOKIE
from quads.web.settings import Settings
from quads.web.signing import DEVICE_COOKIE

GOOD = "a quiet heron by the lake"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("accounts")
    running = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                     settings='account_failures = "5/hour"\n')
    running.start()
    yield running
    running.kill()


_names = iter(range(10_000))


def fresh_name() -> str:
    return f"player-{next(_names)}"


def refused(answer: httpx.Response, status: int, code: str, reason: str = "") -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    error: dict[str, Any] = answer.json()["error"]
    assert error["code"] == code
    if reason:
        assert error["reason"] == reason
    return error


def signed_up(url: str, name: str) -> httpx.Client:
    client = person(url)
    made = client.post("/api/account", json={"name": name, "password": GOOD})
    assert made.status_code == 201, made.text
    return client


def my_games(client: httpx.Client) -> set[str]:
    answer = client.get("/api/games")
    assert answer.status_code == 200, answer.text
    return {game["id"] for game in answer.json()["games"]}


def test_an_account_keeps_what_the_player_had(server: Server) -> None:
    client = person(server.url)
    game = hosted(client)["id"]
    first_token = client.cookies[COOKIE]
    name = fresh_name()
    made = client.post("/api/account", json={"name": name, "password": GOOD})
    assert made.status_code == 201, made.text
    codes = made.json()["recovery_codes"]
    assert len(codes) == 10
    assert len(set(codes)) == 10
    assert client.cookies[COOKIE] != first_token  # a session now, not the first token
    assert client.cookies[DEVICE_COOKIE]
    assert game in my_games(client)
    account = client.get("/api/account").json()
    assert account["name"] == name
    assert account["password"] is True
    assert account["recovery_codes_left"] == 10
    assert client.get("/api/players/me").json()["name"] == name
    refused(client.put("/api/players/me", json={"name": "Someone Else"}), 409, "account_named")
    assert client.get("/api/players/me").json()["name"] == name
    old = newcomer(server.url)
    old.cookies.set(COOKIE, first_token)
    refused(old.get("/api/games"), 401, "unknown_player")


def test_a_second_device_signs_in_to_the_same_games(server: Server) -> None:
    name = fresh_name()
    home = signed_up(server.url, name)
    at_home = hosted(home)["id"]
    phone = person(server.url)
    on_phone = hosted(phone)["id"]  # played before signing in: merged, never lost
    answer = phone.post("/api/session", json={"name": name.upper(), "password": GOOD})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"name": name, "merged": True, "recovery_codes": None}
    assert my_games(phone) == my_games(home) == {at_home, on_phone}
    sessions = phone.get("/api/account/sessions").json()["sessions"]
    assert len(sessions) == 2
    assert [s["current"] for s in sessions].count(True) == 1


def test_a_wrong_name_and_a_wrong_password_are_answered_alike(server: Server) -> None:
    name = fresh_name()
    signed_up(server.url, name)
    guesser = newcomer(server.url)
    wrong_name = refused(guesser.post("/api/session", json={"name": "nobody-here",
                                                             "password": GOOD}),
                         401, "bad_credentials")
    wrong_password = refused(guesser.post("/api/session", json={
        "name": name, "password": "not the password at all"}), 401, "bad_credentials")
    assert wrong_name == wrong_password


def test_a_session_ended_is_refused_at_once(server: Server) -> None:
    name = fresh_name()
    home = signed_up(server.url, name)
    phone = newcomer(server.url)
    assert phone.post("/api/session", json={"name": name, "password": GOOD}).status_code == 200
    assert phone.get("/api/account").status_code == 200
    other = next(s for s in home.get("/api/account/sessions").json()["sessions"]
                 if not s["current"])
    assert home.delete(f"/api/account/sessions/{other['id']}").status_code == 204
    refused(phone.get("/api/account"), 401, "unknown_player")
    # Signing in again is never refused for the dead cookie.
    assert phone.post("/api/session", json={"name": name, "password": GOOD}).status_code == 200
    assert home.delete("/api/account/sessions").status_code == 204  # all others
    refused(phone.get("/api/account"), 401, "unknown_player")
    assert home.get("/api/account").status_code == 200


def test_signing_out_makes_a_newcomer_and_the_token_dies(server: Server) -> None:
    client = signed_up(server.url, fresh_name())
    session = client.cookies[COOKIE]
    out = client.delete("/api/session")
    assert out.status_code == 204
    assert COOKIE not in client.cookies
    assert client.cookies[DEVICE_COOKIE]  # still trusted by the account
    again = newcomer(server.url)
    again.cookies.set(COOKIE, session)
    refused(again.get("/api/account"), 401, "unknown_player")


def test_signing_out_an_anonymous_player_keeps_it(server: Server) -> None:
    client = person(server.url)
    game = hosted(client)["id"]
    assert client.delete("/api/session").status_code == 204
    assert game in my_games(client)


@pytest.mark.parametrize(("body", "status", "code", "reason"), [
    ({"name": "ab", "password": GOOD}, 422, "invalid_name", "length"),
    ({"name": "with space", "password": GOOD}, 422, "invalid_name", "characters"),
    ({"name": "Admin", "password": GOOD}, 422, "invalid_name", "reserved"),
    ({"name": "short-pw", "password": "tooshort"}, 422, "weak_password", "too_short"),
    ({"name": "common-pw", "password": "password1234"}, 422, "weak_password", "common"),
    ({"name": "no-way-in"}, 422, "no_credential", ""),
])
def test_refused_accounts_change_nothing(server: Server, body: dict[str, str], status: int,
                                         code: str, reason: str) -> None:
    client = person(server.url)
    token = client.cookies[COOKIE]
    refused(client.post("/api/account", json=body), status, code, reason)
    assert client.cookies[COOKIE] == token
    refused(client.get("/api/account"), 401, "not_signed_in")


def test_names_are_unique_in_any_case(server: Server) -> None:
    name = fresh_name()
    signed_up(server.url, name)
    refused(person(server.url).post("/api/account", json={"name": name.upper(),
                                                          "password": GOOD}),
            409, "name_taken")


def test_strangers_and_other_sites_change_nothing(server: Server) -> None:
    owner = signed_up(server.url, fresh_name())
    session = owner.get("/api/account/sessions").json()["sessions"][0]["id"]
    stranger = signed_up(server.url, fresh_name())
    refused(stranger.delete(f"/api/account/sessions/{session}"), 404, "not_found")
    assert owner.get("/api/account").status_code == 200
    refused(person(server.url).get("/api/account"), 401, "not_signed_in")
    forged = owner.delete("/api/account/sessions", headers={"Origin": "https://evil.example"})
    assert forged.status_code == 403
    cross = newcomer(server.url).post("/api/session", json={"name": "x", "password": GOOD},
                                      headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403


def test_a_link_code_lets_one_device_in(server: Server) -> None:
    name = fresh_name()
    home = signed_up(server.url, name)
    made = home.post("/api/account/link")
    assert made.status_code == 200, made.text
    link = made.json()
    assert link["url"].endswith(f"/#/link/{link['code']}")
    assert link["qr"].startswith("<svg")
    phone = newcomer(server.url)
    answer = phone.post("/api/session/link", json={"code": link["code"].lower()})
    assert answer.status_code == 200, answer.text
    assert phone.get("/api/account").json()["name"] == name
    refused(newcomer(server.url).post("/api/session/link", json={"code": link["code"]}),
            401, "bad_link_code")


def test_guessing_is_slowed_but_the_owners_device_gets_in(server: Server) -> None:
    name = fresh_name()
    home = signed_up(server.url, name)
    home.delete("/api/session")  # signed out, still trusted
    guesser = newcomer(server.url)
    for _ in range(5):
        refused(guesser.post("/api/session", json={"name": name, "password": "wrong guess!"}),
                401, "bad_credentials")
    throttled = guesser.post("/api/session", json={"name": name, "password": GOOD})
    refused(throttled, 429, "rate_limited")
    assert int(throttled.headers["Retry-After"]) > 0
    back = home.post("/api/session", json={"name": name, "password": GOOD})
    assert back.status_code == 200, back.text


def test_recovery_codes_sign_in_once(server: Server) -> None:
    name = fresh_name()
    client = person(server.url)
    codes = client.post("/api/account", json={"name": name, "password": GOOD}
                        ).json()["recovery_codes"]
    phone = newcomer(server.url)
    assert phone.post("/api/session/recovery", json={"name": name, "code": codes[3]}
                      ).status_code == 200
    refused(newcomer(server.url).post("/api/session/recovery",
                                      json={"name": name, "code": codes[3]}),
            401, "bad_credentials")
    assert phone.get("/api/account").json()["recovery_codes_left"] == 9


def test_a_deleted_account_leaves_its_games_to_the_opponent(server: Server) -> None:
    name = fresh_name()
    owner = signed_up(server.url, name)
    game = hosted(owner)
    guest = person(server.url)
    joined = guest.post(f"/api/games/{game['id']}/join",
                        json={"invite": game["invite"].removeprefix("/join/")})
    assert joined.status_code == 200, joined.text
    refused(owner.request("DELETE", "/api/account", json={"name": name, "password": "nope"}),
            401, "bad_credentials")
    session = owner.cookies[COOKIE]
    gone = owner.request("DELETE", "/api/account", json={"name": name, "password": GOOD})
    assert gone.status_code == 204
    assert COOKIE not in owner.cookies
    seen = guest.get(f"/api/games/{game['id']}").json()
    assert "deleted player" in str(seen)
    assert seen["outcome"] is None
    stolen = newcomer(server.url)
    stolen.cookies.set(COOKIE, session)
    refused(stolen.get("/api/account"), 401, "unknown_player")
    refused(newcomer(server.url).post("/api/session", json={"name": name, "password": GOOD}),
            401, "bad_credentials")


def test_guessing_from_many_addresses_is_slowed_too(server: Server) -> None:
    name = fresh_name()
    owner = signed_up(server.url, name)
    for address in range(20, 25):  # five addresses, one failure each
        transport = httpx.HTTPTransport(local_address=f"127.0.0.{address}")
        with httpx.Client(base_url=server.url, timeout=30, transport=transport) as guesser:
            refused(guesser.post("/api/session", json={"name": name, "password": "guess!!!!!"}),
                    401, "bad_credentials")
    transport = httpx.HTTPTransport(local_address="127.0.0.30")
    with httpx.Client(base_url=server.url, timeout=30, transport=transport) as guesser:
        refused(guesser.post("/api/session", json={"name": name, "password": GOOD}),
                429, "rate_limited")
    assert owner.post("/api/session", json={"name": name, "password": GOOD}).status_code == 200


def test_a_sign_in_rotates_the_devices_session_and_merges_only_what_there_is(
        server: Server) -> None:
    name = fresh_name()
    signed_up(server.url, name)
    device = newcomer(server.url)
    first = device.post("/api/session", json={"name": name, "password": GOOD})
    assert first.json()["merged"] is False  # a newcomer with nothing to bring
    old = device.cookies[COOKIE]
    again = device.post("/api/session", json={"name": name, "password": GOOD})
    assert again.status_code == 200, again.text
    assert device.cookies[COOKIE] != old
    stale = newcomer(server.url)
    stale.cookies.set(COOKIE, old)
    refused(stale.get("/api/account"), 401, "unknown_player")  # the old session ended
    assert len(device.get("/api/account/sessions").json()["sessions"]) == 2


def test_a_new_password_signs_every_other_device_out(server: Server) -> None:
    name = fresh_name()
    home = signed_up(server.url, name)
    phone = _sign_in_new(server.url, name)
    changed = home.put("/api/account/password", json={"current": GOOD,
                                                      "new": "another calm evening walk"})
    assert changed.status_code == 204, changed.text
    refused(phone.get("/api/account"), 401, "unknown_player")
    assert home.get("/api/account").status_code == 200
    assert _sign_in_new(server.url, name, "another calm evening walk")


def _sign_in_new(url: str, name: str, password: str = GOOD) -> httpx.Client:
    client = newcomer(url)
    answer = client.post("/api/session", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    return client


def test_a_link_code_says_how_long_it_lasts(server: Server) -> None:
    home = signed_up(server.url, fresh_name())
    assert home.post("/api/account/link").json()["seconds"] == 300


def test_guessing_from_one_address_meets_its_budget_and_others_go_on(
        tmp_path: Path) -> None:
    settings = Settings(rate_signins="1000/minute", rate_signins_per_address="6/minute",
                        account_failures="1000/minute")
    with serving(create_app(tmp_path / "games.sqlite3", static_dir=None,
                            settings=settings)) as url:
        name = fresh_name()
        owner = signed_up(url, name)
        guesser = newcomer(url)
        answers = [guesser.post("/api/session", json={"name": name, "password": f"guess {i}"})
                   for i in range(8)]
        assert [a.status_code for a in answers] == [401] * 6 + [429] * 2
        assert "from your address" in answers[-1].json()["error"]["message"]
        assert int(answers[-1].headers["Retry-After"]) > 0
        # The account is not locked: its owner, from another address, gets in.
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=url, timeout=30, transport=transport) as elsewhere:
            assert elsewhere.post("/api/session", json={"name": name, "password": GOOD}
                                  ).status_code == 200
        assert owner.get("/api/account").status_code == 200


def test_an_address_over_its_budget_is_refused_before_anything_is_read(
        tmp_path: Path) -> None:
    """Once an address is over its rate of tries, the next are refused before their
    cookie or their body are looked at: a malformed body and a made-up cookie get the
    same ``429`` (not ``422`` or ``401``), which costs the server almost nothing under a
    flood; another address is judged as before."""
    settings = Settings(rate_signins="1000/minute", rate_signins_per_address="3/minute",
                        account_failures="1000/minute")
    with serving(create_app(tmp_path / "games.sqlite3", static_dir=None,
                            settings=settings)) as url:
        guesser = newcomer(url)
        for i in range(3):
            refused(guesser.post("/api/session", json={"name": "nobody", "password": f"g{i}"}),
                    401, "bad_credentials")
        refused(guesser.post("/api/session", content=b"not json",
                             headers={"content-type": "application/json"}),
                429, "rate_limited")
        guesser.cookies.set(COOKIE, "made-up-token")
        refused(guesser.post("/api/session", json={"name": "nobody", "password": "g"}),
                429, "rate_limited")
        refused(guesser.post("/api/session/recovery", json={"name": "nobody", "code": "x"}),
                429, "rate_limited")
        transport = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=url, timeout=30, transport=transport) as elsewhere:
            refused(elsewhere.post("/api/session", content=b"not json",
                                   headers={"content-type": "application/json"}),
                    400, "bad_request")
