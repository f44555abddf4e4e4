"""``docs/web-api.md`` says what the server does: the live messages' schema is the
one of the server's own models, and every refusal code the server answers is listed."""

from __future__ import annotations

import importlib.util
import json
import re
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

from quads.web import errors
from quads.web.app import create_app
from quads.web.openapi import live_schemas

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "web-api.md").read_text(encoding="utf-8")
CATALOGUES = ROOT / "src" / "quads" / "catalogue"


def _tool() -> Any:
    spec = importlib.util.spec_from_file_location("api_docs", ROOT / "tools" / "api_docs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_live_messages_schema_in_the_docs_is_current() -> None:
    assert _tool().with_block(DOC) == DOC, "run python tools/api_docs.py"


def test_the_live_messages_refer_to_the_document(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "docs.sqlite3", static_dir=None)) as client:
        components = client.get("/openapi.json").json()["components"]["schemas"]
    refs = re.findall(r'"/openapi.json#/components/schemas/(\w+)"', str(live_schemas())
                      .replace("'", '"'))
    assert set(refs) == {"ViewMessage", "GoneMessage", "PongMessage", "PingMessage",
                         "SyncMessage", "ActMessage", "ActedMessage", "RefusedMessage",
                         "TalkMessage", "WatchersMessage"}
    assert set(refs) <= set(components)
    assert components["ViewMessage"]["properties"]["view"] == {
        "$ref": "#/components/schemas/GameView"}
    assert components["RefusedMessage"]["properties"]["error"] == {
        "$ref": "#/components/schemas/ErrorDetail"}
    assert "PlaceAction" in str(components["ActMessage"]["properties"]["action"])


def _codes_answered() -> set[str]:
    """Every ``code`` the server can answer, read from the source of the site and the
    web layer."""
    source = "\n".join(path.read_text(encoding="utf-8")
                       for folder in ("site", "web")
                       for path in (ROOT / "src" / "quads" / folder).rglob("*.py"))
    codes = set(re.findall(r'error_response\(\s*\d{3},\s*"([a-z_]+)"', source))
    codes |= set(re.findall(r'(?:SiteError|cls)\(\s*"([a-z_]+)"', source))
    codes |= {code for _, code in errors._LIBRARY_CODES} | set(errors._FIELD_CODES.values())
    codes |= {"bad_request", "no_route"}
    return codes


def test_every_refusal_of_the_site_has_its_status_in_the_one_table() -> None:
    raised = set(re.findall(r'(?:SiteError|cls)\(\s*"([a-z_]+)"', "\n".join(
        path.read_text(encoding="utf-8") for folder in ("site", "web")
        for path in (ROOT / "src" / "quads" / folder).rglob("*.py"))))
    assert len(raised) > 25
    assert raised <= set(errors.STATUSES), raised - set(errors.STATUSES)


def test_the_docs_give_each_refusal_of_the_site_the_status_of_the_table() -> None:
    table = DOC[DOC.index("## Errors"):]
    documented: dict[str, set[int]] = {}
    for status, row in re.findall(r"^\| (\d{3}) \| ([^|]+) \|", table, flags=re.MULTILINE):
        for code in re.findall(r"`([a-z_]+)`", row):
            documented.setdefault(code, set()).add(int(status))
    for code, status in errors.STATUSES.items():
        assert documented.get(code) == {status}, (code, status, documented.get(code))


def test_every_refusal_code_is_in_the_docs() -> None:
    table = DOC[DOC.index("## Errors"):]
    listed = set(re.findall(r"`([a-z_]+)`", table))
    codes = _codes_answered()
    assert len(codes) > 25
    assert codes <= listed, codes - listed


def _codes_in_the_table() -> set[str]:
    """The codes of the docs' table of refusals (its column ``code``)."""
    table = DOC[DOC.index("## Errors"):]
    rows = re.findall(r"^\| \d{3} \| ([^|]+) \|", table, flags=re.MULTILINE)
    return {code for row in rows for code in re.findall(r"`([a-z_]+)`", row)}


def test_every_refusal_code_has_words_in_both_catalogues() -> None:
    # The page words a refusal from error.<code> (js/errors.js), in the player's language.
    codes = _codes_in_the_table()
    assert _codes_answered() <= codes, _codes_answered() - codes
    for lang in ("en", "de"):
        messages = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
        missing = sorted(code for code in codes if f"error.{code}" not in messages)
        assert not missing, f"{lang}.json words no error.<code> of {missing}"
