"""The server's views of a game uploaded from a device are those the device shows.

``tests/js/make_local_cases.py`` plays random games on one device and against the
computer as the server plays them, and records the ``GameView`` and ``GameSummary``
after every step; ``tests/js/local.test.mjs`` proves the page's ``js/local/view.js``
shows exactly these.  Here every state of those games is uploaded in turn, as the
page's sync does, and the server's answer, its ``GET`` and its list must be the same
views (but for the id, which is the server's, and the revision and times, which
count the server's saves).  A game the server holds finished stays as it ended."""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
SERVERS_OWN = {"id", "revision", "created", "updated"}


def _cases() -> list[dict[str, Any]]:
    spec = importlib.util.spec_from_file_location(
        "make_local_cases", ROOT / "tests" / "js" / "make_local_cases.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found: list[dict[str, Any]] = module.cases(seed=5, per_rule_set=3)
    return found


CASES = _cases()


def _without(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key not in SERVERS_OWN}


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    location: str | Path = (tmp_path / "games.sqlite3" if request.param == "sqlite"
                            else request.getfixturevalue("postgres_url"))
    with TestClient(create_app(location, static_dir=None)) as test_client:
        yield test_client


def test_the_server_shows_an_uploaded_game_as_the_device_does(client: TestClient) -> None:
    assert {case["mode"] for case in CASES} == {"local", "computer"}
    uploads = 0
    for case in CASES:
        settings = {"mode": case["mode"], "rules": case["rules"],
                    "created": "2026-11-30T09:12:03.120Z"}
        if case["mode"] == "computer":
            settings.update(level=case["level"], human=case["human"])
        shown: dict[str, Any] | None = None
        revision = 0
        for step in case["steps"]:
            if "error" in step:
                continue
            revision += 1
            body = {**settings, **step["game"], "device_revision": revision}
            response = client.put(f"/api/games/device/{case['id']}", json=body)
            if shown is not None and shown["outcome"] is not None:
                # Finished on the server: it stays as it ended.
                if _without(step["view"]) == _without(shown):
                    assert response.status_code == 200, response.text
                else:
                    assert response.status_code == 409, response.text
                    assert response.json()["error"]["code"] == "game_over"
                continue
            assert response.status_code == (200 if shown else 201), response.text
            view = response.json()
            assert _without(view) == _without(step["view"]), (case["id"], revision)
            assert view["device"] == case["id"]
            assert client.get(f"/api/games/{view['id']}").json() == view
            shown = view
            uploads += 1
        assert shown is not None
        listed = next(game for game in client.get("/api/games?limit=100").json()["games"]
                      if game["device"] == case["id"])
        final = next(step for step in reversed(case["steps"]) if "error" not in step
                     and _without(step["view"]) == _without(shown))
        assert _without(listed) == _without(final["summary"])
    assert uploads > 200
