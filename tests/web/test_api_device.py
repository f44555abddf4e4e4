"""Games played on a device and uploaded (``PUT /api/games/device/{device_id}``): every
action replayed by the rules, an illegal one refused with nothing stored, one game per
device id however often (or however concurrently) it is sent, a newer upload replacing
the actions, the device owning the game while it goes on, and nobody else reaching it.
On SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import threading
import uuid
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.storage import GameStore
from quads.web.app import create_app
from quads.web.middleware.identity import COOKIE
from quads.web.settings import Settings
from web.conftest import ERROR_FIELDS, another_browser

CREATED = "2026-11-30T09:12:03.120Z"

CLASSIC_CLAIM = ["give 7", "place A1", "give C", "place B1", "give D", "place C1", "give E",
                 "place D1", "give 3", "claim"]
"""A classic game: the first player completes row 1 (7, C, D and E are all dark) with D1
and hands over without declaring; the second claims it."""


def device_id() -> str:
    return str(uuid.uuid4())


def body(actions: list[str], *, revision: int = 1, redo: list[str] | None = None,
         **fields: Any) -> dict[str, Any]:
    """An upload of a game against the computer at level 3, the person first."""
    upload: dict[str, Any] = {"mode": "computer", "rules": "quads", "level": 3,
                              "human": "first", "actions": actions, "redo": redo or [],
                              "created": CREATED, "device_revision": revision}
    upload.update(fields)
    return upload


def put(client: TestClient, device: str, upload: dict[str, Any], expect: int,
        **headers: str) -> dict[str, Any]:
    response = client.put(f"/api/games/device/{device}", json=upload, headers=headers)
    assert response.status_code == expect, response.text
    data: dict[str, Any] = response.json()
    if expect >= 400:
        assert set(data) == {"error"}
        assert {"code", "message"} <= set(data["error"]) <= ERROR_FIELDS
    return data


@pytest.fixture
def client(location: str | Path) -> Iterator[TestClient]:
    with TestClient(create_app(location, static_dir=None)) as test_client:
        yield test_client


@pytest.fixture
def store(location: str | Path) -> Iterator[GameStore]:
    store = GameStore(location)
    yield store
    store.close()


def device_games(store: GameStore) -> list[Any]:
    return [s for s in store.summaries() if s.device is not None]


def test_an_upload_is_stored_once_and_shown_with_its_device(client: TestClient,
                                                            store: GameStore) -> None:
    device = device_id()
    upload = body(["give 7", "place A1", "give C"], redo=["place B1"], revision=4)
    view = put(client, device, upload, 201)
    assert client.cookies.get(COOKIE)  # the upload made the caller a player
    assert (view["device"], view["mode"], view["level"], view["human"]) == (
        device, "computer", 3, "first")
    assert (view["moves"], view["ply"], view["revision"]) == (["7", "A1C"], 3, 1)
    assert (view["can_redo"], view["can_undo"], view["computer_to_move"]) == (True, True, False)
    again = put(client, device, upload, 200)
    assert again == view
    [listed] = client.get("/api/games").json()["games"]
    assert (listed["id"], listed["device"], listed["ply"], listed["revision"]) == (
        view["id"], device, 3, 1)
    assert listed["created"].startswith("2026-11-30T09:12:03.12")
    assert client.get(f"/api/games/{view['id']}").json() == view
    stored = store.load(view["id"])
    assert (stored.device, stored.device_revision, stored.owner is not None) == (
        device, 4, True)
    assert stored.game.headers == {"Date": "2026.11.30"}
    record = client.get(f"/api/games/{view['id']}/record").text
    assert '[Mode "computer"]' in record
    assert "1. 7 A1C" in record


def test_a_newer_upload_replaces_the_actions_and_an_older_one_changes_nothing(
        client: TestClient, store: GameStore) -> None:
    device = device_id()
    first = put(client, device, body(["give 7", "place A1", "give C"], revision=3), 201)
    newer = put(client, device, body(["give 7", "place A1", "give C", "place B1", "give D"],
                                     revision=5), 200)
    assert (newer["id"], newer["revision"], newer["moves"]) == (
        first["id"], 2, ["7", "A1C", "B1D"])
    # A late copy of an older upload, or the same revision again, changes nothing.
    late = put(client, device, body(["give 7", "place A1", "give C", "place B2", "give E"],
                                    revision=4), 200)
    assert late == newer
    assert put(client, device, body(["give 9"], revision=5), 200) == newer
    # Different actions, undone ones too: the game is the device's.
    back = put(client, device, body(["give 7"], redo=["place A1", "give C"], revision=8), 200)
    assert (back["moves"], back["can_redo"], back["revision"]) == (["7"], True, 3)
    # Newer but the same game: nothing to replay, the device revision is kept.
    same = put(client, device, body(["give 7"], redo=["place A1", "give C"], revision=9), 200)
    assert same["moves"] == ["7"]
    assert store.load(first["id"]).device_revision == 9
    assert len(device_games(store)) == 1


def test_an_illegal_action_list_is_refused_and_stores_nothing(client: TestClient,
                                                              store: GameStore) -> None:
    device = device_id()
    refused = put(client, device, body(["give 7", "give 8"]), 422)["error"]
    assert refused == {"code": "illegal_action",
                       "message": "cannot give 8: piece 7 must be placed first",
                       "reason": "place_first", "params": {"piece": "8", "hand": "7"}}
    taken = put(client, device, body(["give 7", "place A1", "give C", "place A1"]), 422)
    assert (taken["error"]["reason"], taken["error"]["params"]) == ("cell_taken",
                                                                    {"cell": "A1"})
    # A redo trail that cannot be played again is refused too.
    over = put(client, device, body(["give 7", "resign first"], redo=["place A1"]), 422)
    assert over["error"]["code"] == "illegal_action"
    claim = put(client, device, body(["give 7", "claim"]), 422)
    assert claim["error"]["reason"] == "nothing_to_claim"
    assert device_games(store) == []
    # Once stored, an illegal newer upload leaves the game as it was.
    view = put(client, device, body(["give 7", "place A1", "give C"], revision=2), 201)
    put(client, device, body(["give 7", "place A1", "give C", "place A1"], revision=3), 422)
    assert client.get(f"/api/games/{view['id']}").json() == view
    assert store.load(view["id"]).device_revision == 2


def test_requests_that_do_not_fit_are_refused(client: TestClient, store: GameStore) -> None:
    good = body(["give 7"])
    for device, upload in [
        ("not-a-uuid", good),
        (device_id().upper(), good),
        (device_id(), {**good, "mode": "online"}),
        (device_id(), {**good, "actions": ["give G"]}),
        (device_id(), {**good, "actions": ["Give 7"]}),
        (device_id(), {**good, "actions": ["give 7", "place A1"] * 17}),
        (device_id(), {**good, "created": "2026-11-30T09:12:03"}),  # no offset
        (device_id(), {**good, "created": "2026-11-30 09:12:03Z"}),
        (device_id(), {**good, "created": 1_790_000_000}),
        (device_id(), {**good, "device_revision": -1}),
        (device_id(), {**good, "device_revision": "2"}),
        (device_id(), {key: value for key, value in good.items() if key != "level"}),
        (device_id(), {key: value for key, value in good.items() if key != "rules"}),
    ]:
        assert put(client, device, upload, 400)["error"]["code"] in (
            "bad_request", "invalid_rules"), (device, upload)
    assert put(client, device_id(), {**good, "rules": "squares"}, 400)["error"]["code"] \
        == "invalid_rules"
    # Written as a moment, but no calendar has it: the rules' refusal.
    for moment in ("2026-02-30T09:12:03Z", "2026-11-30T25:00:00Z", "2026-11-30T09:12:03+99:00"):
        refused = put(client, device_id(), {**good, "created": moment}, 422)["error"]
        assert (refused["code"], refused["reason"], refused["params"]) == (
            "invalid_date", "time", {"time": moment})
    assert device_games(store) == []


def test_a_local_upload_and_a_custom_rule_set(client: TestClient) -> None:
    upload = {"mode": "local", "rules": "lines:height,color:declare",
              "actions": ["give 7", "place A1", "give C"], "created": CREATED,
              "device_revision": 2}
    view = put(client, device_id(), upload, 201)
    assert (view["mode"], view["level"], view["human"], view["you"]) == (
        "local", None, None, None)
    assert view["seats"] == {"first": "you", "second": "you"}
    assert (view["rules"], view["calling"], view["claim_offered"]) == (
        "lines:height,color:declare", "declare", True)


def test_a_time_to_come_counts_as_now(client: TestClient) -> None:
    # Within a day of the server's now (a device's clock a little ahead); later is
    # refused (test_api_ranges.py).
    soon = (datetime.now(UTC) + timedelta(hours=20)).isoformat(timespec="seconds")
    view = put(client, device_id(), body(["give 7"], created=soon), 201)
    [listed] = client.get("/api/games").json()["games"]
    assert listed["id"] == view["id"]
    assert listed["created"] <= listed["updated"]


def test_the_device_owns_the_game_while_it_goes_on(client: TestClient,
                                                   store: GameStore) -> None:
    device = device_id()
    view = put(client, device, body(["give 7", "place A1", "give C", "place B1", "give D"],
                                    redo=["place C1"], revision=5), 201)
    game_id, revision = view["id"], view["revision"]
    refusals = [
        client.post(f"/api/games/{game_id}/actions",
                    json={"revision": revision, "action": "place", "cell": "C1"}),
        client.post(f"/api/games/{game_id}/computer", json={"revision": revision}),
        client.post(f"/api/games/{game_id}/undo", json={"revision": revision}),
        client.post(f"/api/games/{game_id}/redo", json={"revision": revision}),
        client.post(f"/api/games/{game_id}/resign", json={"revision": revision}),
    ]
    for response in refusals:
        assert response.status_code == 409, response.text
        assert response.json()["error"]["code"] == "on_device"
    assert client.get(f"/api/games/{game_id}").json() == view
    assert client.get(f"/api/games/{game_id}/hint").status_code == 409  # the computer's turn
    assert client.post(f"/api/games/{game_id}/rematch").json()["error"]["code"] == "not_over"
    # Deleting it is the owner's right; a later upload brings it back as a new game.
    assert client.delete(f"/api/games/{game_id}?revision={revision}").status_code == 204
    assert device_games(store) == []
    back = put(client, device, body(["give 7"], revision=6), 201)
    assert back["id"] != game_id


def test_a_finished_upload_is_a_normal_finished_game(client: TestClient,
                                                     store: GameStore) -> None:
    device = device_id()
    upload = body(CLASSIC_CLAIM, rules="classic", revision=10)
    view = put(client, device, upload, 201)
    assert view["outcome"] is not None
    assert (view["outcome"]["reason"], view["outcome"]["winner"]) == ("claim", "second")
    assert view["moves"][-1] == "!"
    # The same again changes nothing; other actions are refused: it stays as it ended.
    assert put(client, device, {**upload, "device_revision": 11}, 200) == view
    changed = put(client, device, body(CLASSIC_CLAIM[:-1], rules="classic", revision=12), 409)
    assert changed["error"]["code"] == "game_over"
    # Record, review and "Play again" work as for any game; the rematch is the server's.
    assert client.get(f"/api/games/{view['id']}/record").status_code == 200
    rematch = client.post(f"/api/games/{view['id']}/rematch")
    assert rematch.status_code == 201, rematch.text
    assert (rematch.json()["device"], rematch.json()["human"]) == (None, "second")
    assert client.post(f"/api/games/{view['id']}/resign",
                       json={"revision": view["revision"] + 1}).json()["error"]["code"] \
        == "game_over"
    assert len(device_games(store)) == 1


def test_other_rules_or_players_for_the_same_device_id_are_refused(client: TestClient) -> None:
    device = device_id()
    put(client, device, body(["give 7"], revision=1), 201)
    for fields in ({"rules": "classic"}, {"level": 4}, {"human": "second"}):
        refused = put(client, device, body(["give 7", "place A1"], revision=2, **fields), 409)
        assert refused["error"]["code"] == "device_mismatch"
    local = {"mode": "local", "rules": "quads", "actions": ["give 7"], "created": CREATED,
             "device_revision": 3}
    assert put(client, device, local, 409)["error"]["code"] == "device_mismatch"


def test_a_stranger_cannot_touch_it(client: TestClient, store: GameStore) -> None:
    device = device_id()
    view = put(client, device, body(["give 7", "place A1", "give C"], revision=3), 201)
    stranger = another_browser(client)
    try:
        assert stranger.get(f"/api/games/{view['id']}").status_code == 403
        assert stranger.delete(f"/api/games/{view['id']}?revision=1").status_code == 403
        # The stranger's upload under the same device id is a game of their own.
        theirs = put(stranger, device, body(["give 9"], revision=50), 201)
        assert theirs["id"] != view["id"]
        assert [g["id"] for g in stranger.get("/api/games").json()["games"]] == [theirs["id"]]
        # An unknown token is refused, not replaced.
        stranger.cookies.clear()  # one cookie, not a second beside the first
        stranger.cookies.set(COOKIE, "made-up")
        assert put(stranger, device, body(["give 9"], revision=51), 401)["error"]["code"] \
            == "unknown_player"
    finally:
        stranger.close()
    assert client.get(f"/api/games/{view['id']}").json() == view
    assert [g["id"] for g in client.get("/api/games").json()["games"]] == [view["id"]]
    assert len(device_games(store)) == 2


def test_another_sites_page_cannot_upload(client: TestClient, store: GameStore) -> None:
    refused = put(client, device_id(), body(["give 7"]), 403, **{"Sec-Fetch-Site": "cross-site"})
    assert refused["error"]["code"] == "cross_site"
    refused = put(client, device_id(), body(["give 7"]), 403, Origin="https://elsewhere.example")
    assert refused["error"]["code"] == "cross_site"
    assert device_games(store) == []


def test_concurrent_uploads_make_one_game(client: TestClient, store: GameStore) -> None:
    put(client, device_id(), body(["give 1"]), 201)  # the caller's cookie, first
    device = device_id()
    browsers = [another_browser(client) for _ in range(6)]
    for browser in browsers:
        browser.cookies.set(COOKIE, client.cookies[COOKIE])
    barrier = threading.Barrier(len(browsers))
    statuses: list[int] = []
    ids: set[str] = set()

    def send(browser: TestClient, number: int) -> None:
        barrier.wait()
        actions = ["give 7", "place A1", "give C", "place B1", "give D"][:1 + number % 3]
        response = browser.put(f"/api/games/device/{device}",
                               json=body(actions, revision=1 + number % 3))
        statuses.append(response.status_code)
        ids.add(response.json()["id"])

    threads = [threading.Thread(target=send, args=(b, n)) for n, b in enumerate(browsers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for browser in browsers:
        browser.close()
    assert sorted(statuses) == [200] * 5 + [201]
    assert len(ids) == 1
    games = [s for s in store.summaries() if s.device == device]
    assert len(games) == 1
    # The newest revision sent is the one kept, whatever the order they came in.
    stored = store.load(games[0].id)
    assert stored.device_revision == 3
    assert len(stored.game.actions) == 3


def test_only_the_first_upload_counts_as_a_new_game(tmp_path: Path) -> None:
    app = create_app(tmp_path / "rates.sqlite3", static_dir=None,
                     settings=Settings(rate_games="2/minute"))
    with TestClient(app) as client:
        device = device_id()
        put(client, device, body(["give 7"], revision=1), 201)
        for revision in range(2, 8):  # repeats and replacements are free
            put(client, device, body(["give 7"], revision=revision), 200)
        put(client, device_id(), body(["give 7"]), 201)
        over = client.put(f"/api/games/device/{device_id()}", json=body(["give 7"]))
        assert over.status_code == 429
        assert over.json()["error"]["code"] == "rate_limited"
        assert len(client.get("/api/games").json()["games"]) == 2
