"""The app around the game routes: OpenAPI, the page's files, the message catalogues."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.catalogue import catalogue, message
from quads.web.app import create_app

CATALOGUE_DIR = Path(__file__).parents[2] / "src" / "quads" / "catalogue"

ROUTES = {
    "/api/games": {"get", "post"},
    "/api/games/import": {"post"},
    "/api/games/device/{device_id}": {"put"},
    "/api/games/{game_id}": {"get", "delete"},
    "/api/games/{game_id}/join": {"post"},
    "/api/games/{game_id}/invite.svg": {"get"},
    "/api/games/{game_id}/undo/answer": {"post"},
    "/api/games/{game_id}/draw": {"post"},
    "/api/games/{game_id}/draw/answer": {"post"},
    "/api/games/{game_id}/talk": {"get", "post"},
    "/api/watch": {"get"},
    "/api/tournaments": {"get", "post"},
    "/api/tournaments/{tournament_id}": {"get"},
    "/api/tournaments/{tournament_id}/join": {"post"},
    "/api/tournaments/{tournament_id}/withdraw": {"post"},
    "/api/games/{game_id}/resign": {"post"},
    "/api/games/{game_id}/rematch": {"post"},
    "/api/invites/{token}": {"get"},
    "/api/games/{game_id}/actions": {"post"},
    "/api/games/{game_id}/computer": {"post"},
    "/api/games/{game_id}/undo": {"post"},
    "/api/games/{game_id}/redo": {"post"},
    "/api/games/{game_id}/record": {"get"},
    "/api/games/{game_id}/hint": {"get"},
    "/api/games/{game_id}/review": {"get"},
    "/api/analysis": {"get"},
    "/api/messages/{lang}": {"get"},
    "/api/players": {"post"},
    "/api/puzzles/history": {"get"},
    "/api/puzzles/ahead": {"get"},
    "/api/puzzles/adopt": {"post"},
    "/api/puzzles/{day}": {"get"},
    "/api/puzzles/{day}/check": {"post"},
    "/api/puzzles/{day}/result": {"post"},
    "/api/games/{game_id}/abandoned": {"post"},
    "/api/seeks": {"get", "post"},
    "/api/seeks/{seek_id}": {"delete"},
    "/api/seeks/{seek_id}/accept": {"post"},
    "/api/pairing": {"post"},
    "/api/bot/upgrade": {"post"},
    "/api/bot/stream": {"get"},
    "/api/bot/invitations/{game_id}/accept": {"post"},
    "/api/bot/invitations/{game_id}/decline": {"post"},
    "/api/bot/token": {"post", "delete"},
    "/api/bots": {"get"},
    "/api/bots/{handle}/token": {"post"},
    "/api/bots/{handle}/revoke": {"post"},
    "/api/games/{game_id}/invite-bot": {"post"},
    "/api/players/me": {"get", "put"},
    "/api/account": {"get", "post", "patch", "delete"},
    "/api/account/password": {"put"},
    "/api/account/recovery-codes": {"post"},
    "/api/account/sessions": {"get", "delete"},
    "/api/account/sessions/{session}": {"delete"},
    "/api/account/link": {"post"},
    "/api/session": {"post", "delete"},
    "/api/session/recovery": {"post"},
    "/api/session/link": {"post"},
    "/api/session/passkey": {"post"},
    "/api/passkeys/options": {"post"},
    "/api/passkeys": {"post"},
    "/api/passkeys/{passkey}": {"delete"},
    "/api/account/export": {"get"},
    "/api/players/{name}": {"get"},
    "/api/players/{name}/games": {"get"},
    "/api/players/{name}/ratings/{category}": {"get"},
    "/api/leaderboard/{category}": {"get"},
    "/api/mistakes": {"get"},
    "/api/explorer": {"get"},
    "/api/mistakes/{exercise_id}/answer": {"post"},
    "/api/mistakes/answers": {"post"},
}


def test_openapi_lists_every_route(client: Any) -> None:
    answer = client.get("/openapi.json")
    assert answer.status_code == 200
    document = answer.json()
    assert {path: set(methods) for path, methods in document["paths"].items()} == ROUTES
    schemas = document["components"]["schemas"]
    for model in ("LocalGame", "ComputerGame", "OnlineGame", "ImportComputer", "PlaceAction",
                  "GiveAction", "RevisionRequest", "GameView",
                  "GameSummaryView", "GameList", "LastTurn", "OutcomeView", "ErrorView",
                  "PuzzleView", "CheckRequest", "VerdictView", "ResultRequest",
                  "PuzzleHistory", "AnalysisView", "ReviewView"):
        assert model in schemas
    assert set(schemas["GameView"]["properties"]) >= {"id", "ply", "board", "safe", "moves",
                                                      "last", "outcome", "computer_to_move"}
    actions = document["paths"]["/api/games/{game_id}/actions"]["post"]
    assert set(actions["responses"]) >= {"200", "400", "404", "409", "422"}


def test_openapi_states_the_constraints_the_server_enforces(client: Any) -> None:
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    assert schemas["PlaceAction"]["properties"]["cell"]["pattern"] == "^[A-D][1-4]$"
    assert schemas["PlaceAction"]["required"] == ["revision", "action", "cell"]
    level = schemas["ComputerGame"]["properties"]["level"]
    assert (level["type"], level["minimum"], level["maximum"]) == ("integer", 1, 5)
    rules = schemas["LocalGame"]["properties"]["rules"]["enum"]
    assert {"quads", "classic", "advanced", "lines:height,color:auto"} <= set(rules)
    # 2 shape sets x 15 trait sets x (auto, and declare with 3 kinds of false calls),
    # presets by name
    assert len(rules) == 120
    # ... and the server refuses what the schema does not allow, and only that.
    assert client.post("/api/games", json={"mode": "local", "rules": "lines:color,height:auto"}
                       ).status_code == 400  # not in the traits' order
    assert client.post("/api/games", json={"mode": "local", "rules": "lines:height,color:auto"}
                       ).status_code == 201
    assert client.post("/api/games", json={"mode": "computer", "level": 2.0, "human": "first"}
                       ).status_code == 201  # JSON Schema's integer: 2.0 is 2
    for bad_level in (2.5, "2", True, 0, 6):
        assert client.post("/api/games", json={"mode": "computer", "level": bad_level,
                                               "human": "first"}).status_code == 400


def test_openapi_states_the_constraints_of_a_device_upload(client: Any) -> None:
    document = client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    upload = document["paths"]["/api/games/device/{device_id}"]["put"]
    assert upload["operationId"] == "upload_game"
    [device_id] = upload["parameters"]
    assert device_id["schema"]["pattern"] == (
        "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
    assert set(upload["responses"]) >= {"200", "201", "400", "401", "409", "413", "415",
                                        "422", "429", "503"}
    assert "links" in upload["responses"]["200"]
    body = upload["requestBody"]["content"]["application/json"]["schema"]
    assert body["discriminator"]["propertyName"] == "mode"
    local, computer = schemas["DeviceLocal"], schemas["DeviceComputer"]
    assert set(local["required"]) == {"mode", "rules", "actions", "created", "device_revision"}
    assert set(computer["required"]) == set(local["required"]) | {"level", "human"}
    actions = local["properties"]["actions"]
    assert actions["maxItems"] == 33
    assert actions["items"]["pattern"] == (
        "^(?:give [0-9A-F]|place [A-D][1-4]|declare|claim|decline|resign (?:first|second))$")
    assert local["properties"]["redo"]["maxItems"] == 33
    assert local["properties"]["created"]["pattern"].startswith("^[0-9]{4}-[0-9]{2}-[0-9]{2}T")
    revision = local["properties"]["device_revision"]
    assert (revision["type"], revision["minimum"], revision["maximum"]) == (
        "integer", 0, 2**31 - 1)
    assert schemas["GameView"]["properties"]["device"]
    assert "device" in schemas["GameView"]["required"]
    assert "device" in schemas["GameSummaryView"]["required"]
    result = schemas["ResultRequest"]["properties"]
    assert result["line"]["anyOf"][0]["maxItems"] == 16
    assert result["attempt"]["anyOf"][0]["pattern"] == device_id["schema"]["pattern"]


def test_every_refusal_is_documented_as_json(client: Any) -> None:
    document = client.get("/openapi.json").json()
    for item in document["paths"].values():
        for operation in item.values():
            responses = operation["responses"]
            assert {"400", "401", "503"} <= set(responses), operation["operationId"]
            for status, response in responses.items():
                if status >= "400":
                    assert response["content"] == {"application/json": {"schema": {
                        "$ref": "#/components/schemas/ErrorView"}}}, operation["operationId"]


def test_answers_showing_a_game_link_to_the_routes_that_use_it(client: Any) -> None:
    document = client.get("/openapi.json").json()
    created = document["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    takes_id = {op["operationId"] for path, item in document["paths"].items()
                for op in item.values() if "{game_id}" in path}
    assert set(created) == takes_id
    act = created["act"]
    assert act["parameters"] == {"path.game_id": "$response.body#/id"}
    assert act["requestBody"] == {"revision": "$response.body#/revision"}
    assert "requestBody" not in created["get_game"]
    played = document["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]["200"]
    assert set(played["links"]) == takes_id


@pytest.mark.parametrize(("method", "path", "allow"), [
    ("TRACE", "/api/games", {"GET", "POST"}),
    ("PUT", "/api/games/abc", {"GET", "DELETE"}),
    ("GET", "/api/games/abc/actions", {"POST"}),
    ("DELETE", "/api/games/import", {"POST"}),      # a fixed address, not a game's id
    ("GET", "/api/puzzles/adopt", {"POST"}),        # not a date
    ("POST", "/api/puzzles/history", {"GET"}),
])
def test_a_method_not_allowed_names_the_allowed_ones(client: Any, method: str, path: str,
                                                     allow: set[str]) -> None:
    answer = client.request(method, path)
    assert answer.status_code == 405
    assert set(answer.headers["allow"].split(", ")) == allow
    assert answer.json()["error"]["code"] == "no_route"


def test_an_unknown_api_address_is_not_found(client: Any) -> None:
    answer = client.get("/api/nothing/here")
    assert (answer.status_code, answer.json()["error"]["code"]) == (404, "no_route")


def test_the_page_is_served_at_the_root(db_path: Path, tmp_path: Path) -> None:
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>Quads</title>", encoding="utf-8")
    (static / "js" / "app.js").write_text("export {};\n", encoding="utf-8")
    with TestClient(create_app(db_path, static_dir=static)) as client:
        page = client.get("/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "<title>Quads</title>" in page.text
        assert client.get("/js/app.js").status_code == 200
        # The API routes come first.
        assert client.get("/api/games").json() == {"games": [], "next": None}
        missing = client.get("/js/missing.js")
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "no_route"


def test_no_page_without_its_directory(client: Any) -> None:
    assert client.get("/").status_code == 404


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_message_catalogue(client: Any, lang: str) -> None:
    answer = client.get(f"/api/messages/{lang}")
    assert answer.status_code == 200
    served = answer.json()
    on_disk = json.loads((CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))
    assert served == on_disk
    assert served == catalogue(lang)
    assert "app.title" in served


@pytest.mark.parametrize(("lang", "status"), [("fr", 400), ("EN", 400), ("en.json", 400),
                                              ("..", 404)])
def test_no_other_catalogue(client: Any, lang: str, status: int) -> None:
    answer = client.get(f"/api/messages/{lang}")
    assert answer.status_code == status
    assert answer.json()["error"]["code"] in ("bad_request", "no_route")


def test_messages_for_the_server() -> None:
    assert message("en", "app.title") == catalogue("en")["app.title"]
    with pytest.raises(KeyError):
        message("de", "no.such.key")
    assert message("fr", "app.title") == catalogue("en")["app.title"]
    key = next((k for k, text in catalogue("en").items() if "{" in text), None)
    if key is not None:
        name = catalogue("en")[key].split("{", 1)[1].split("}", 1)[0]
        assert "{" + name + "}" not in message("en", key, **{name: "Ada"})
