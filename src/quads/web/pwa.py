"""The installable page: its web app manifest and its service worker.

``/manifest.webmanifest`` is served as ``application/manifest+json`` whatever
the system's table of media types says.  ``/sw.js`` is the service worker of
``static/sw.js`` with its ``BUILD`` line filled in: the release it keeps files
for and the list of those files (the page, its styles, scripts, icons,
WebAssembly engine and manifest, the opening books of :mod:`quads.web.books`
and the message catalogues).  The release is the package's version and a
digest of those files, so that any change of the page, even without a
new version number, installs a new worker that keeps the new files and drops
the old ones.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response

from quads import __version__
from quads.catalogue import LANGUAGES, catalogue
from quads.web.books import PREFIX, book_digest, book_paths

__all__ = ["KEPT_SUFFIXES", "MANIFEST", "WORKER", "install", "kept_files", "release",
           "worker_script"]

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
MANIFEST_TYPE = "application/manifest+json"

KEPT_SUFFIXES = (".css", ".js", ".json", ".png", ".svg", ".wasm", ".webmanifest")
"""The page's files that the service worker keeps, besides ``index.html``."""

_BUILD_LINE = re.compile(r"^const BUILD = .*;$", re.MULTILINE)


def _static_files(static_dir: Path) -> list[str]:
    """The paths under ``/`` of the files the worker keeps, ``index.html`` as ``/``."""
    paths = ["/"]
    for file in sorted(static_dir.rglob("*")):
        relative = file.relative_to(static_dir).as_posix()
        if file.is_file() and file.suffix in KEPT_SUFFIXES and relative != WORKER:
            paths.append(f"/{relative}")
    return paths


def kept_files(static_dir: Path) -> list[str]:
    """Every path the worker keeps: the page's files, the opening books (so that the
    engine in the page plays without the server), then each catalogue."""
    return [*_static_files(static_dir), *book_paths(),
            *(f"/api/messages/{lang}" for lang in LANGUAGES)]


def release(static_dir: Path) -> str:
    """The package's version and a digest of what the worker keeps and of the
    worker itself, e.g. ``0.1.0-3f2a9c41d07e``."""
    digest = hashlib.sha256()
    for path in [*_static_files(static_dir), f"/{WORKER}"]:
        file = static_dir / ("index.html" if path == "/" else path.lstrip("/"))
        digest.update(path.encode() + b"\0")
        if file.is_file():
            digest.update(file.read_bytes())
    for path in book_paths():
        name = path.removeprefix(PREFIX).removesuffix(".bin")
        digest.update(path.encode() + b"\0" + str(book_digest(name)).encode())
    for lang in LANGUAGES:
        digest.update(json.dumps(catalogue(lang), sort_keys=True).encode())
    return f"{__version__}-{digest.hexdigest()[:12]}"


def worker_script(static_dir: Path) -> str:
    """``sw.js`` with its ``BUILD`` line filled in.

    :raises ValueError: if the file has no ``const BUILD = ...;`` line, or several.
    """
    template = (static_dir / WORKER).read_text(encoding="utf-8")
    if len(_BUILD_LINE.findall(template)) != 1:
        raise ValueError(f"{WORKER} needs exactly one line 'const BUILD = ...;'")
    build = {"version": release(static_dir), "files": kept_files(static_dir)}
    line = f"const BUILD = {json.dumps(build)};"
    return _BUILD_LINE.sub(lambda _: line, template)


def install(app: FastAPI, static_dir: Path) -> None:
    """Add ``/sw.js`` and ``/manifest.webmanifest`` for the files of ``static_dir``
    that exist; the worker is built once, now."""
    if (static_dir / WORKER).is_file():
        script = worker_script(static_dir)

        @app.api_route(f"/{WORKER}", methods=["GET", "HEAD"], include_in_schema=False)
        def service_worker() -> Response:
            """The service worker of this release; the browser checks it on every visit."""
            return Response(script, media_type="text/javascript",
                            headers={"Cache-Control": "no-cache"})

    manifest = static_dir / MANIFEST
    if manifest.is_file():

        @app.api_route(f"/{MANIFEST}", methods=["GET", "HEAD"], include_in_schema=False)
        def web_app_manifest() -> FileResponse:
            """The web app manifest, with the media type that browsers expect."""
            return FileResponse(manifest, media_type=MANIFEST_TYPE)
