"""Profiles, leaderboards and the export of one's games through a real server: two
accounts play rated games from the lobby; anyone reads their profiles, results, games
and rating history; a leaderboard lists established ratings; a player exports their
own games, and only theirs, as records the library reads back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import insert

from bot_helpers import newcomer, person
from e2e.quads_server import Server, free_port
from quads.outcome import Player
from quads.record import read_record
from quads.storage import GameStore
from quads.storage.accounts import AccountStore
from quads.storage.database import moment_text
from quads.storage.stored import now
from quads.storage.tables import ratings
from quads.web.middleware.identity import COOKIE

GOOD = "a quiet heron by the lake"
RAPID = {"initial": 180, "increment": 2}  # 196 s a side: quads-rapid
EXPORT_GAMES = 4

SETTINGS = (f"export_games = {EXPORT_GAMES}\n"
            'rate_exports = "3/hour"\nrate_exports_per_address = "100000/minute"\n')
"""The server's settings: a small bound on an export, and a rate of exports that one
test meets while the others (each its own player) stay below it."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    directory = tmp_path_factory.mktemp("profiles")
    running = Server(directory / "games.sqlite3", free_port(), directory / "server.log",
                     settings=SETTINGS)
    running.start()
    yield running
    running.kill()


_names = iter(range(10_000))


def fresh_name() -> str:
    return f"player-{next(_names)}"


def ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json()


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code


def signed_up(url: str, name: str) -> httpx.Client:
    client = person(url)
    ok(client.post("/api/account", json={"name": name, "password": GOOD}), 201)
    return client


def rated_game(seeker: httpx.Client, taker: httpx.Client, *, rules: str = "quads",
               rated: bool = True) -> dict[str, Any]:
    """A game from a seek of ``seeker`` (the first seat) that ``taker`` accepts."""
    seek = ok(seeker.post("/api/seeks", json={"rules": rules, "clock": RAPID,
                                               "side": "first", "rated": rated}), 201)
    game: dict[str, Any] = ok(taker.post(f"/api/seeks/{seek['id']}/accept"), 201)
    assert game["rated"] is rated
    return game


def resign(client: httpx.Client, game: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = ok(client.post(f"/api/games/{game['id']}/resign",
                                          json={"revision": game["revision"]}))
    assert view["outcome"] is not None
    return view


@pytest.fixture(scope="module")
def played(server: Server) -> dict[str, Any]:
    """Two accounts and their games: Ada wins two rated games and loses one, and wins a
    casual game of classic."""
    ada_name, bea_name = fresh_name(), fresh_name()
    ada, bea = signed_up(server.url, ada_name), signed_up(server.url, bea_name)
    won = [resign(bea, rated_game(ada, bea)) for _ in range(2)]
    lost = resign(ada, rated_game(bea, ada))
    casual = resign(bea, rated_game(ada, bea, rules="classic", rated=False))
    return {"ada": ada, "bea": bea, "ada_name": ada_name, "bea_name": bea_name,
            "won": [g["id"] for g in won], "lost": lost["id"], "casual": casual["id"]}


def test_anyone_reads_a_profile_with_ratings_results_and_games(
        server: Server, played: dict[str, Any]) -> None:
    stranger = newcomer(server.url)
    profile = ok(stranger.get(f"/api/players/{played['ada_name'].upper()}"))
    assert profile["name"] == played["ada_name"]
    assert profile["bot"] is None
    assert list(profile["ratings"]) == ["quads-rapid"]
    rating = profile["ratings"]["quads-rapid"]
    assert rating["games"] == 3
    assert rating["provisional"] is True
    assert profile["results"] == {"wins": 3, "draws": 0, "losses": 1}
    assert profile["puzzles"] == {"streak": 0, "solved": 0}
    assert [g["id"] for g in profile["games"]] == [
        played["casual"], played["lost"], *played["won"][::-1]]
    assert profile["next"] is None
    casual, lost, last_won, first_won = profile["games"]
    assert (casual["rules"], casual["rated"], casual["rating"], casual["result"]) == (
        "classic:losing-calls", False, None, "win")
    assert (lost["side"], lost["result"], lost["clock"], lost["category"]) == (
        "second", "loss", "180+2", "quads-rapid")
    assert lost["opponent"] == {"name": played["bea_name"], "account": True, "bot": False}
    change = first_won["rating"]
    assert change["before"] == 1500
    assert change["change"] == change["after"] - change["before"] > 0
    assert lost["rating"]["change"] < 0
    assert last_won["rating"]["before"] == first_won["rating"]["after"]
    assert rating["rating"] == profile["games"][1]["rating"]["after"]  # the lost game, last
    # A token this server never issued reads it too: a profile looks at nobody.
    unknown = newcomer(server.url)
    unknown.cookies.set(COOKIE, "x" * 43)
    assert ok(unknown.get(f"/api/players/{played['ada_name']}"))["name"] == played["ada_name"]
    refused(unknown.get("/api/games"), 401, "unknown_player")


def test_the_games_are_filtered_and_paged(server: Server, played: dict[str, Any]) -> None:
    stranger = newcomer(server.url)
    games = f"/api/players/{played['ada_name']}/games"
    assert [g["id"] for g in ok(stranger.get(games, params={"result": "win"}))["games"]] == [
        played["casual"], *played["won"][::-1]]
    assert [g["id"] for g in ok(stranger.get(games, params={"result": "loss"}))["games"]] == [
        played["lost"]]
    assert ok(stranger.get(games, params={"result": "draw"})) == {"games": [], "next": None}
    assert [g["id"] for g in ok(stranger.get(games, params={"rules": "classic"}))["games"]] == [
        played["casual"]]
    bea = ok(stranger.get(f"/api/players/{played['bea_name']}/games",
                          params={"result": "win", "rules": "quads"}))
    assert [g["id"] for g in bea["games"]] == [played["lost"]]
    seen: list[str] = []
    params: dict[str, Any] = {"limit": 3}
    while True:
        page = ok(stranger.get(games, params=params))
        assert len(page["games"]) <= 3
        seen += [g["id"] for g in page["games"]]
        if page["next"] is None:
            break
        params["cursor"] = page["next"]
    assert seen == [played["casual"], played["lost"], *played["won"][::-1]]
    refused(stranger.get(games, params={"result": "lost"}), 400, "bad_request")
    refused(stranger.get(games, params={"rules": "chess"}), 400, "invalid_rules")
    refused(stranger.get(games, params={"cursor": "bm90IGEgY3Vyc29y"}), 422, "invalid_cursor")
    refused(stranger.get("/api/players/nobody-at-all/games"), 404, "not_found")


def test_the_rating_history_has_a_point_a_rated_game(server: Server,
                                                      played: dict[str, Any]) -> None:
    stranger = newcomer(server.url)
    history = ok(stranger.get(f"/api/players/{played['ada_name'].lower()}/ratings/quads-rapid"))
    assert (history["name"], history["category"]) == (played["ada_name"], "quads-rapid")
    points = history["points"]
    assert [p["game"] for p in points] == [*played["won"], played["lost"]]
    assert points[0]["rating"] > 1500
    assert points[2]["rating"] < points[1]["rating"]
    assert points[0]["moment"] <= points[1]["moment"] <= points[2]["moment"]
    empty = ok(stranger.get(f"/api/players/{played['ada_name']}/ratings/classic-blitz"))
    assert empty["points"] == []
    refused(stranger.get(f"/api/players/{played['ada_name']}/ratings/chess-blitz"), 404,
            "not_found")
    refused(stranger.get(f"/api/players/{played['ada_name']}/ratings/quads"), 400,
            "bad_request")


def test_players_me_keeps_its_meaning(server: Server, played: dict[str, Any]) -> None:
    assert ok(played["ada"].get("/api/players/me")) == {"name": played["ada_name"],
                                                         "bot": None}
    assert ok(newcomer(server.url).get("/api/players/me")) == {"name": None, "bot": None}
    refused(newcomer(server.url).get("/api/players/me/games"), 404, "not_found")  # reserved


def test_a_deleted_account_has_no_profile(server: Server) -> None:
    name = fresh_name()
    gone, other = signed_up(server.url, name), signed_up(server.url, fresh_name())
    resign(gone, rated_game(other, gone))
    assert ok(newcomer(server.url).get(f"/api/players/{name}"))["results"]["losses"] == 1
    deleted = gone.request("DELETE", "/api/account", json={"name": name, "password": GOOD})
    assert deleted.status_code == 204, deleted.text
    stranger = newcomer(server.url)
    for path in (f"/api/players/{name}", f"/api/players/{name}/games",
                 f"/api/players/{name}/ratings/quads-rapid"):
        refused(stranger.get(path), 404, "not_found")
    refused(stranger.get("/api/players/nobody-at-all"), 404, "not_found")
    other_name = ok(other.get("/api/players/me"))["name"]
    (game,) = ok(stranger.get(f"/api/players/{other_name}"))["games"]
    assert game["opponent"] == {"name": "deleted player", "account": False, "bot": False}


def test_a_leaderboard_lists_established_recent_ratings(server: Server) -> None:
    names = [fresh_name() for _ in range(4)]
    for name in names:
        signed_up(server.url, name)
    # An established rating (deviation 75 or less) takes dozens of rated games; this
    # test writes the rows that they would have left into the server's database, with
    # the store the server uses, and then asks the server.
    store = GameStore(server.db)
    try:
        accounts = AccountStore(store)
        player = {name: accounts.by_name(name).player for name in names}  # type: ignore[union-attr]
        with store.begin(write=True) as connection:
            for name, rating, deviation, days in ((names[0], 1720.4, 60.0, 1),
                                                  (names[1], 1880.0, 74.0, 3),
                                                  (names[2], 2300.0, 90.0, 1),
                                                  (names[3], 2100.0, 50.0, 45)):
                connection.execute(insert(ratings), {
                    "player": player[name], "category": "advanced-classical",
                    "rating": rating, "deviation": deviation, "volatility": 0.06,
                    "games": 40, "played": moment_text(now() - timedelta(days=days))})
    finally:
        store.close()
    stranger = newcomer(server.url)
    board = ok(stranger.get("/api/leaderboard/advanced-classical"))
    assert board == {"category": "advanced-classical", "players": [
        {"name": names[1], "rating": 1880, "deviation": 74, "games": 40},
        {"name": names[0], "rating": 1720, "deviation": 60, "games": 40}]}
    assert ok(stranger.get("/api/leaderboard/classic-correspondence"))["players"] == []
    refused(stranger.get("/api/leaderboard/chess-blitz"), 404, "not_found")
    # The profile shows every rating, on the board or not.
    shown = ok(stranger.get(f"/api/players/{names[2]}"))["ratings"]["advanced-classical"]
    assert shown == {"rating": 2300, "deviation": 90, "provisional": False, "games": 40}


def _records(text: str) -> list[str]:
    """The records of an export: a blank line between two (one also parts a record's
    headers from its moves, before which no header follows)."""
    return [] if not text else re.split(r"\n\n(?=\[)", text)


def _all_games(client: httpx.Client) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    params: dict[str, Any] = {}
    while True:
        page = ok(client.get("/api/games", params=params))
        games += page["games"]
        if page["next"] is None:
            return games
        params["cursor"] = page["next"]


def test_an_export_holds_every_game_of_the_caller_as_records(server: Server) -> None:
    name = fresh_name()
    ada, bea = signed_up(server.url, name), signed_up(server.url, fresh_name())
    resign(bea, rated_game(ada, bea))  # a rated game won
    ongoing = rated_game(bea, ada, rules="classic", rated=False)  # Bea seated first
    ok(bea.post(f"/api/games/{ongoing['id']}/actions",
                json={"revision": ongoing["revision"], "action": "give", "piece": "7"}))
    computer = ok(ada.post("/api/games", json={"mode": "computer", "rules": "advanced",
                                               "level": 1, "human": "first"}), 201)
    ok(ada.post(f"/api/games/{computer['id']}/actions",
                json={"revision": computer["revision"], "action": "give", "piece": "3"}))
    listed = _all_games(ada)
    assert len(listed) == 3
    answer = ada.get("/api/account/export")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert answer.headers["content-disposition"] == (
        f'attachment; filename="quads-games-{name}.txt"')
    assert answer.headers["cache-control"] == "no-store"
    records = _records(answer.text)
    assert len(records) == len(listed)
    games = [read_record(record) for record in records]
    assert [g.headers["Mode"] for g in games] == ["computer", "online", "online"]
    mine, still, won = games
    assert (mine.rules.name, mine.headers["Level"], mine.headers["Human"]) == (
        "advanced", "1", "first")
    assert len(mine.actions) >= 1
    assert still.outcome is None
    assert (still.headers["First"], still.headers["Second"]) == (
        ok(bea.get("/api/players/me"))["name"], name)
    assert (still.headers["Rated"], still.headers["TimeControl"]) == ("no", "180+2")
    assert won.outcome is not None
    assert won.outcome.result == "1-0"
    assert (won.headers["First"], won.headers["Rated"], won.headers["Category"]) == (
        name, "yes", "quads-rapid")
    assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2}", won.headers["Date"])
    assert won.resigned is Player.SECOND


def test_an_export_is_the_callers_own_and_bounded(server: Server,
                                                  played: dict[str, Any]) -> None:
    stranger = person(server.url)
    answer = stranger.get("/api/account/export")
    assert answer.status_code == 200, answer.text
    assert answer.text == ""  # the stranger's games: none, and never another's
    assert answer.headers["content-disposition"] == 'attachment; filename="quads-games.txt"'
    nobody = newcomer(server.url).get("/api/account/export")
    assert (nobody.status_code, nobody.text) == (200, "")
    assert COOKIE not in nobody.cookies  # a read makes nobody
    # Anonymous players export their own games too, the newest EXPORT_GAMES of them.
    host, guest = person(server.url), person(server.url)
    ids = [resign(guest, rated_game(host, guest, rated=False))["id"] for _ in range(5)]
    assert [g["id"] for g in _all_games(host)] == ids[::-1]
    records = _records(host.get("/api/account/export").text)
    assert len(records) == EXPORT_GAMES < len(ids)
    games = [read_record(record) for record in records]
    assert all(g.outcome is not None and g.outcome.result == "1-0" for g in games)
    assert {g.headers["Rated"] for g in games} == {"no"}


def test_exports_are_counted_against_their_rate(server: Server) -> None:
    exporter = person(server.url)
    for _ in range(3):
        assert exporter.get("/api/account/export").status_code == 200
    answer = exporter.get("/api/account/export")
    refused(answer, 429, "rate_limited")
    assert int(answer.headers["retry-after"]) > 0
