"""The API's contract is the OpenAPI document the server serves, kept in
``tests/web/openapi.json``: every path, method, parameter, body, status code and
message.  A change of the server that changes the document fails here, until the
file is written anew on purpose and its diff reviewed::

    QUADS_WRITE_CONTRACT=1 python -m pytest tests/web/test_api_contract.py

(the writing run fails too, so that it is never mistaken for a passing one).
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.web.app import create_app

CONTRACT = Path(__file__).with_name("openapi.json")


def _served(tmp_path: Path) -> dict[str, Any]:
    with TestClient(create_app(tmp_path / "contract.sqlite3", static_dir=None)) as client:
        document: dict[str, Any] = client.get("/openapi.json").json()
    return document


def _operations(document: dict[str, Any]) -> set[str]:
    return {f"{method.upper()} {path}" for path, item in document["paths"].items()
            for method in item}


def test_the_served_document_is_the_contract(tmp_path: Path) -> None:
    served = _served(tmp_path)
    text = json.dumps(served, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    if os.environ.get("QUADS_WRITE_CONTRACT") == "1":
        CONTRACT.write_text(text, encoding="utf-8")
        raise AssertionError(f"{CONTRACT.name} written: review its diff, then run again")
    kept = json.loads(CONTRACT.read_text(encoding="utf-8"))
    assert _operations(served) == _operations(kept), "the routes changed"
    for path, item in kept["paths"].items():
        for method, operation in item.items():
            assert served["paths"][path][method] == operation, f"{method.upper()} {path} changed"
    assert served["components"] == kept["components"], "the models changed"
    assert served == kept


def test_the_contract_covers_every_kind_of_route() -> None:
    kept = json.loads(CONTRACT.read_text(encoding="utf-8"))
    operations = _operations(kept)
    for expected in ("POST /api/games", "POST /api/games/{game_id}/actions",
                     "GET /api/seeks", "GET /api/puzzles/{day}", "POST /api/bot/upgrade"):
        assert expected in operations
