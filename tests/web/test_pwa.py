"""The installable page's two routes: the web app manifest and the service worker."""

from __future__ import annotations

import json
import re
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # the test client asks for httpx2, not installed here
    from fastapi.testclient import TestClient

import quads.web.pwa
from quads import __version__
from quads.web.app import STATIC_DIR, create_app

BUILD = re.compile(r"^const BUILD = (.*);$", re.MULTILINE)


@pytest.fixture
def static(tmp_path: Path) -> Path:
    """A copy of the page's files, free to change."""
    copy = tmp_path / "static"
    shutil.copytree(STATIC_DIR, copy)
    return copy


def build(client: Any) -> dict[str, Any]:
    """The BUILD object of the served worker."""
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    match = BUILD.search(answer.text)
    assert match, answer.text[:500]
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def test_the_manifest_is_served_as_a_manifest(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as client:
        answer = client.get("/manifest.webmanifest")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/manifest+json"
        manifest = answer.json()
        assert manifest["start_url"] == manifest["scope"] == "/"
        assert manifest["display"] == "standalone"
        for icon in manifest["icons"]:
            assert client.get(icon["src"]).status_code == 200, icon
        assert client.head("/manifest.webmanifest").status_code == 200


def test_the_worker_keeps_the_page_and_the_catalogues(db_path: Path) -> None:
    with TestClient(create_app(db_path)) as client:
        answer = client.get("/sw.js")
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.headers["cache-control"] == "no-cache"
        assert answer.text.count("const BUILD") == 1
        data = build(client)
        assert data["version"].startswith(f"{__version__}-")
        files = data["files"]
        assert files[0] == "/"
        scripts = sorted(f"/js/{file.name}" for file in (STATIC_DIR / "js").glob("*.js"))
        assert set(scripts) <= set(files)
        assert {"/css/quads.css", "/manifest.webmanifest", "/icons/quads.svg",
                "/icons/quads-192.png", "/api/messages/en", "/api/messages/de"} <= set(files)
        assert "/sw.js" not in files
        assert not [path for path in files if path.startswith("/api/")
                    and not path.startswith("/api/messages/")]
        for path in files:
            assert client.get(path).status_code == 200, path


def test_a_changed_page_is_a_new_release(db_path: Path, static: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    with TestClient(create_app(db_path, static_dir=static)) as client:
        first = build(client)["version"]
    with TestClient(create_app(db_path, static_dir=static)) as client:
        assert build(client)["version"] == first  # the same files: the same release
    script = static / "js" / "main.js"
    script.write_text(script.read_text("utf-8") + "\n// changed\n", "utf-8")
    with TestClient(create_app(db_path, static_dir=static)) as client:
        changed = build(client)["version"]
    assert changed != first
    monkeypatch.setattr(quads.web.pwa, "__version__", "99.0.0")
    with TestClient(create_app(db_path, static_dir=static)) as client:
        assert build(client)["version"].startswith("99.0.0-")


def test_a_new_script_is_kept_too(db_path: Path, static: Path) -> None:
    (static / "js" / "extra.js").write_text("export {};\n", "utf-8")
    with TestClient(create_app(db_path, static_dir=static)) as client:
        assert "/js/extra.js" in build(client)["files"]


def test_a_worker_without_its_build_line_is_refused(db_path: Path, static: Path) -> None:
    (static / "sw.js").write_text("// nothing to fill in\n", "utf-8")
    with pytest.raises(ValueError, match="BUILD"):
        create_app(db_path, static_dir=static)


def test_no_worker_and_no_manifest_without_their_files(db_path: Path, tmp_path: Path) -> None:
    static = tmp_path / "bare"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>Quads</title>", "utf-8")
    with TestClient(create_app(db_path, static_dir=static)) as client:
        assert client.get("/").status_code == 200
        assert client.get("/sw.js").status_code == 404
        assert client.get("/manifest.webmanifest").status_code == 404
