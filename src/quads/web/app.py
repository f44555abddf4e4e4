"""The web application: the API routes, the refusal handlers and the page."""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from quads import __version__
from quads.storage import GameStore
from quads.web import api, errors, puzzle_api
from quads.web.puzzles import PuzzleCache

__all__ = ["STATIC_DIR", "create_app"]

STATIC_DIR = Path(__file__).parent / "static"
"""The page: ``index.html`` and the files it loads."""


def create_app(
    db_path: str | Path,
    static_dir: Path | None = STATIC_DIR,
    today: Callable[[], datetime.date] = datetime.date.today,
) -> FastAPI:
    """The app over the games and puzzle results in ``db_path`` (created with its
    schema if missing).

    ``today`` gives the date of the day's puzzle (the server's local date);
    no puzzle after it is served.

    The API is under ``/api/``; the files of ``static_dir``, when it exists,
    are served from ``/``, with ``index.html`` as the page.

    :raises StorageError: if ``db_path`` cannot be opened as a Quads database.
    """
    app = FastAPI(
        title="Quads",
        version=__version__,
        description="Play Quarto-family games: the JSON API of `quads serve`.",
    )
    app.state.store = GameStore(db_path)
    app.state.puzzles = PuzzleCache()
    app.state.today = today
    errors.install(app)
    app.include_router(api.router)
    app.include_router(puzzle_api.router)
    if static_dir is not None and static_dir.is_dir():
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="page")
    return app
