"""The web application: the API routes, the refusal handlers and the page."""

from __future__ import annotations

import datetime
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path as FilePath
from typing import Annotated

from fastapi import FastAPI, Path
from fastapi.responses import RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from sqlalchemy import URL

from quads import __version__
from quads.storage import GameStore
from quads.storage.stored import now
from quads.web import (
    accounts_api,
    analysis_api,
    api,
    books,
    bot_api,
    bot_keys,
    cores,
    errors,
    explorer_api,
    live,
    lobby_api,
    lobby_live,
    mistakes_api,
    openapi,
    passkeys_api,
    players_api,
    profiles_api,
    puzzle_api,
    pwa,
    sessions_api,
    talk_api,
    thinking,
    tournaments_api,
    watch_api,
)
from quads.web.arenas import limit_arenas
from quads.web.keyed_writer import KeyedWriter
from quads.web.middleware import faults, rates
from quads.web.middleware.access import AccessLogMiddleware
from quads.web.middleware.gate import SignInGateMiddleware
from quads.web.middleware.headers import SecurityHeadersMiddleware
from quads.web.middleware.hosts import HostCheckMiddleware
from quads.web.middleware.identity import PlayerMiddleware
from quads.web.middleware.limits import BodyLimitMiddleware
from quads.web.middleware.origins import CrossSiteMiddleware
from quads.web.mistake_finder import MistakeFinder
from quads.web.settings import Settings
from quads.web.timekeeper import Timekeeper
from quads.web.tournament_keeper import TournamentKeeper
from quads.web.upkeep import Pruner
from quads.web.wiring import wire

__all__ = ["STATIC_DIR", "app_from_env", "create_app"]


STATIC_DIR = FilePath(__file__).parent / "static"
"""The page: ``index.html`` and the files it loads."""


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Listen to the other processes' changes (PostgreSQL) and prune the store
    (:mod:`quads.web.upkeep`) while the app runs."""
    store: GameStore = app.state.store
    listener = None
    if store.postgres:
        from quads.web.notify import ChangeListener

        listener = ChangeListener(store, app.state.hub, app.state.lobby)
        listener.on_key = app.state.token_changed
        # No token is taken from memory while the news of a change could be missed.
        app.state.known_players.trusted = listener.listening.is_set
        listener.start()
    share_core = app.state.settings.share_core and cores.claim() is not None
    if share_core:
        cores.join()  # the event loop's thread, with the database lane's
    app.state.hub.on_away = _away_writer(store, share_core)
    app.state.listener = listener
    timekeeper = Timekeeper(store, app.state.hub, app.state.lobby, app.state.settings)
    app.state.timekeeper = timekeeper
    timekeeper.start()
    tournaments = TournamentKeeper(store, app.state.hub, app.state.settings)
    app.state.tournaments = tournaments
    tournaments.start()
    app.state.tournament_hub.start()
    pruner = Pruner(store, app.state.hub, app.state.settings)
    app.state.pruner = pruner
    pruner.start()
    finder = MistakeFinder(store, app.state.thinking, app.state.settings)
    app.state.mistake_finder = finder
    finder.start()
    warmer = app.state.puzzle_warmer
    try:
        yield
    finally:
        await timekeeper.stop()
        await tournaments.stop()
        await app.state.tournament_hub.stop()
        await warmer.stop()
        await pruner.stop()
        await finder.stop()
        if listener is not None:
            listener.stop()
        store.close()
        if share_core:
            cores.release()


def _reloaded(app: FastAPI) -> Callable[[], None]:
    """What the hub calls when changes may have been missed (the listener is back):
    every bot's stream looks once, and every person's token is checked again."""

    def reloaded() -> None:
        app.state.known_players.clear()
        app.state.bot_streams.wake_all()

    return reloaded


def _away_writer(store: GameStore, share_core: bool) -> Callable[[str, str, bool], None]:
    """Record in ``store`` when a seat's player leaves a game or comes back, as this
    process's live hub sees it (its sockets, and the others' as last heard), in a
    thread of its own (on the event loop's core with ``share_core``); a departure or a
    return that the database could not take is written once it can
    (:class:`~quads.web.keyed_writer.KeyedWriter`)."""

    def mark(key: tuple[str, str], value: tuple[bool, datetime.datetime]) -> None:
        store.mark_away(*key, *value)

    writer: KeyedWriter[tuple[str, str], tuple[bool, datetime.datetime]] = KeyedWriter(
        mark, "quads-away", initializer=cores.join if share_core else None)

    def write(game_id: str, player: str, away: bool) -> None:
        writer.put((game_id, player), (away, now()))

    return write


def create_app(
    db_path: str | FilePath | URL,
    static_dir: FilePath | None = STATIC_DIR,
    today: Callable[[], datetime.date] = datetime.date.today,
    settings: Settings | None = None,
) -> FastAPI:
    """The app over the games and puzzle results in ``db_path``: a SQLite file's path
    or a ``postgresql://`` URL (created with its schema if missing, migrated if older).
    On PostgreSQL, several processes may serve one database: each one's live sockets
    hear of the others' saves.

    ``today`` gives the date of the day's puzzle (the server's local date);
    no puzzle after it is served.  ``settings`` are the limits of
    :mod:`quads.web.settings` (default: :class:`Settings`' defaults).

    The API is under ``/api/`` (its live sockets too), with its documentation at
    ``/docs`` served from local files; ``/join/TOKEN`` (an invitation) leads to the
    page's join screen; the opening books are served to the page at
    ``/engine/books/NAME.bin`` (:mod:`quads.web.books`); the files of ``static_dir``,
    when it exists,
    are served from ``/``, with ``index.html`` as the page, its service worker
    ``/sw.js`` filled in for this release and its manifest (:mod:`quads.web.pwa`).

    :raises StorageError: if ``db_path`` cannot be opened as a Quads database.
    """
    app = FastAPIOffline(
        title="Quads",
        version=__version__,
        description="Play Quarto-family games: the JSON API of `quads serve`.",
        redoc_url=None,
        static_url="/api-docs-assets",
        lifespan=_lifespan,
        generate_unique_id_function=lambda route: route.name,
    )
    settings = settings if settings is not None else Settings()
    store = GameStore(db_path, statement_timeout=settings.statement_timeout)
    wire(app, store, settings, today)
    app.state.hub.on_reload = _reloaded(app)
    errors.install(app)
    faults.install(app)
    thinking.install(app, app.state.settings)
    rates.install(app, app.state.settings)
    app.include_router(api.router)
    app.include_router(live.router)
    app.include_router(puzzle_api.router)
    app.include_router(analysis_api.router)
    app.include_router(players_api.router)
    app.include_router(profiles_api.router)  # after /api/players/me, which stays the caller
    app.include_router(accounts_api.router)
    app.include_router(sessions_api.router)
    app.include_router(passkeys_api.router)
    app.include_router(lobby_api.router)
    app.include_router(watch_api.router)
    app.include_router(talk_api.router)
    app.include_router(tournaments_api.router)
    app.include_router(mistakes_api.router)
    app.include_router(explorer_api.router)
    app.include_router(lobby_live.router)
    app.include_router(bot_api.router)
    app.include_router(bot_api.people)
    app.include_router(bot_keys.router)
    openapi.install(app)
    books.install(app)
    app.add_middleware(PlayerMiddleware, store=store, known=app.state.known_players)
    # Outside the identity: a try to sign in that would be refused costs nothing more.
    app.add_middleware(SignInGateMiddleware)
    app.add_middleware(CrossSiteMiddleware)
    app.add_middleware(BodyLimitMiddleware)
    app.add_middleware(HostCheckMiddleware, allowed_hosts=app.state.settings.allowed_hosts)
    # Inside the headers and the access log, so that a fault's JSON answer gets both.
    app.add_middleware(faults.FaultMiddleware)
    app.add_middleware(SecurityHeadersMiddleware,
                       docs=("/docs", app.swagger_ui_oauth2_redirect_url))
    app.add_middleware(AccessLogMiddleware)

    @app.get("/join/{token}", include_in_schema=False)
    def join_page(
        token: Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,100}$")],
    ) -> RedirectResponse:
        """An invitation's address: the page, at its join screen."""
        return RedirectResponse(f"/#/join/{token}", status_code=303)

    if static_dir is not None and static_dir.is_dir():
        pwa.install(app, static_dir)
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="page")
    return app


def app_from_env() -> FastAPI:
    """The app over the database named by ``$QUADS_DB``, with the settings of
    ``$QUADS_CONFIG``: what each process of ``quads serve --workers N`` runs.  The
    process's allocator keeps two arenas (:mod:`quads.web.arenas`)."""
    limit_arenas()
    return create_app(os.environ["QUADS_DB"], settings=Settings.from_env())
