"""Where the server's parts are made and joined, and how a route reaches them.

:func:`wire` makes, once per app, the store's lane, the live hubs, the site's domains
(:mod:`quads.site`) and the caches, and keeps them with the app.  A route or a socket
names what it needs as a parameter of one of the types below (FastAPI's dependency
injection), never by reading the app's state itself::

    def get_game(game_id: GameId, games: GamesOf, player: Caller) -> GameView: ...

Each dependency is a coroutine, so that FastAPI resolves it on the event loop (a plain
function would cost a hop to its thread pool).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, FastAPI
from starlette.requests import HTTPConnection

from quads.site.accounts.passkeys import Passkeys
from quads.site.accounts.service import Accounts
from quads.site.accounts.throttle import AccountThrottle
from quads.site.bots.service import Bots
from quads.site.bots.tokens import BotTokens
from quads.site.games.service import Games
from quads.site.lobby.service import Lobby
from quads.site.players.profiles import Profiles
from quads.site.puzzles.days import PuzzleCache
from quads.site.puzzles.results import PuzzleResults
from quads.storage import GameStore, StoredGame
from quads.storage.accounts import AccountStore
from quads.storage.bot_keys import BotKeys
from quads.storage.bots import Bots as BotStore
from quads.web import cores
from quads.web.bot_streams import BotStreams
from quads.web.lane import DatabaseLane, lane_for
from quads.web.live_hub import LiveHub
from quads.web.lobby_hub import LobbyHub
from quads.web.middleware.identity import caller
from quads.web.middleware.known_players import KnownPlayers
from quads.web.puzzle_warmer import PuzzleWarmer
from quads.web.schemas.game_views import GameView
from quads.web.settings import Settings
from quads.web.thinking import Thinking
from quads.web.tournament_hub import TournamentHub
from quads.web.views import game_view

__all__ = [
    "AccountsOf",
    "BotStreamsOf",
    "BotTokensOf",
    "BotsOf",
    "CallerOf",
    "GamesOf",
    "HubOf",
    "KnownPlayersOf",
    "LobbyHubOf",
    "LobbyOf",
    "PasskeysOf",
    "ProfilesOf",
    "PuzzleCacheOf",
    "PuzzleResultsOf",
    "PuzzleWarmerOf",
    "SettingsOf",
    "StoreOf",
    "ThinkingOf",
    "TodayOf",
    "TokenChangedOf",
    "TournamentHubOf",
    "Viewer",
    "ViewerOf",
    "wire",
]


def wire(app: FastAPI, store: GameStore, settings: Settings,
         today: Callable[[], datetime.date]) -> None:
    """Make the parts of ``app`` over ``store`` with ``settings`` and keep them with it;
    ``today`` gives the date of the day's puzzle."""
    state = app.state
    state.store = store
    state.settings = settings
    state.lane = lane_for(store, DatabaseLane(
        settings.db_wait, settings.db_threads, probe=store.ping,
        initializer=cores.join if settings.share_core else None))
    state.hub = LiveHub(settings)
    state.bot_streams = BotStreams(store, settings)  # woken by the hub's changes
    state.hub.on_publish = state.bot_streams.changed
    state.known_players = KnownPlayers()  # people whose token was checked here
    state.lobby = LobbyHub(store, state.hub, settings)
    state.lobby_service = Lobby(state.lobby.lobby, state.lobby, settings)
    state.tournament_hub = TournamentHub(store, settings)
    state.puzzles = PuzzleCache()
    state.puzzle_warmer = PuzzleWarmer(state.puzzles)
    state.puzzle_results = PuzzleResults(store)
    state.today = today
    state.games = Games(store, state.hub, settings)
    state.bots = Bots(BotStore(store), state.hub, settings, state.lobby_service)
    state.token_changed = _token_changed(state.known_players, state.bot_streams, state.hub)
    state.bot_tokens = BotTokens(BotKeys(store), state.token_changed)
    state.accounts = Accounts(AccountStore(store), AccountThrottle(settings.account_failures))
    state.passkeys = Passkeys(AccountStore(store))
    state.profiles = Profiles(store, settings)


def _token_changed(known: KnownPlayers, streams: BotStreams,
                   hub: LiveHub) -> Callable[[str], None]:
    """What a player's token changed (here, or on another process) ends: what this
    process knew of it, and the player's event stream and live sockets here."""

    def changed(player: str) -> None:
        known.forget(player)
        streams.end(player)
        hub.end_player(player)

    return changed


@dataclass(frozen=True)
class Viewer:
    """Draws a game as the caller sees it: their seat, who has it open, the limits."""

    player: str | None
    hub: LiveHub
    settings: Settings

    def __call__(self, stored: StoredGame) -> GameView:
        return game_view(stored, self.player, self.hub.connected(stored.id), self.settings)


async def _caller(connection: HTTPConnection) -> str | None:
    return caller(connection)


async def _viewer(connection: HTTPConnection) -> Viewer:
    state = connection.app.state
    return Viewer(caller(connection), state.hub, state.settings)


async def _store(connection: HTTPConnection) -> GameStore:
    store: GameStore = connection.app.state.store
    return store


async def _settings(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


async def _hub(connection: HTTPConnection) -> LiveHub:
    hub: LiveHub = connection.app.state.hub
    return hub


async def _lobby(connection: HTTPConnection) -> Lobby:
    lobby: Lobby = connection.app.state.lobby_service
    return lobby


async def _games(connection: HTTPConnection) -> Games:
    games: Games = connection.app.state.games
    return games


async def _today(connection: HTTPConnection) -> datetime.date:
    today: Callable[[], datetime.date] = connection.app.state.today
    return today()


async def _puzzle_cache(connection: HTTPConnection) -> PuzzleCache:
    cache: PuzzleCache = connection.app.state.puzzles
    return cache


async def _puzzle_warmer(connection: HTTPConnection) -> PuzzleWarmer:
    warmer: PuzzleWarmer = connection.app.state.puzzle_warmer
    return warmer


async def _puzzle_results(connection: HTTPConnection) -> PuzzleResults:
    results: PuzzleResults = connection.app.state.puzzle_results
    return results


async def _bots(connection: HTTPConnection) -> Bots:
    bots: Bots = connection.app.state.bots
    return bots


async def _bot_streams(connection: HTTPConnection) -> BotStreams:
    streams: BotStreams = connection.app.state.bot_streams
    return streams


async def _known_players(connection: HTTPConnection) -> KnownPlayers:
    known: KnownPlayers = connection.app.state.known_players
    return known


async def _lobby_hub(connection: HTTPConnection) -> LobbyHub:
    hub: LobbyHub = connection.app.state.lobby
    return hub


async def _tournament_hub(connection: HTTPConnection) -> TournamentHub:
    hub: TournamentHub = connection.app.state.tournament_hub
    return hub


async def _bot_tokens(connection: HTTPConnection) -> BotTokens:
    tokens: BotTokens = connection.app.state.bot_tokens
    return tokens


async def _accounts(connection: HTTPConnection) -> Accounts:
    accounts: Accounts = connection.app.state.accounts
    return accounts


async def _passkeys(connection: HTTPConnection) -> Passkeys:
    passkeys: Passkeys = connection.app.state.passkeys
    return passkeys


async def _profiles(connection: HTTPConnection) -> Profiles:
    profiles: Profiles = connection.app.state.profiles
    return profiles


async def _on_token_changed(connection: HTTPConnection) -> Callable[[str], None]:
    changed: Callable[[str], None] = connection.app.state.token_changed
    return changed


async def _thinking(connection: HTTPConnection) -> Thinking:
    engine: Thinking = connection.app.state.thinking
    return engine


StoreOf = Annotated[GameStore, Depends(_store)]
"""The store of saved games, puzzle results and players."""
SettingsOf = Annotated[Settings, Depends(_settings)]
"""What the operator tuned (:mod:`quads.web.settings`)."""
HubOf = Annotated[LiveHub, Depends(_hub)]
"""The games' live sockets of this process (:mod:`quads.web.live`)."""
LobbyOf = Annotated[Lobby, Depends(_lobby)]
"""The lobby of the site (:class:`quads.site.lobby.service.Lobby`)."""
GamesOf = Annotated[Games, Depends(_games)]
"""The games of the site (:class:`quads.site.games.service.Games`)."""
CallerOf = Annotated[str | None, Depends(_caller)]
"""The calling player's id (:func:`quads.web.middleware.identity.caller`), ``None`` without one."""
ViewerOf = Annotated[Viewer, Depends(_viewer)]
"""How the caller sees a game (:class:`Viewer`)."""
TodayOf = Annotated[datetime.date, Depends(_today)]
"""The date of the day's puzzle (the server's local date)."""
PuzzleCacheOf = Annotated[PuzzleCache, Depends(_puzzle_cache)]
"""The puzzles generated (:class:`quads.site.puzzles.days.PuzzleCache`)."""
PuzzleWarmerOf = Annotated[PuzzleWarmer, Depends(_puzzle_warmer)]
"""What generates the coming dates' puzzles in the background."""
PuzzleResultsOf = Annotated[PuzzleResults, Depends(_puzzle_results)]
"""The players' puzzle results (:class:`quads.site.puzzles.results.PuzzleResults`)."""
BotsOf = Annotated[Bots, Depends(_bots)]
"""The bots of the site (:class:`quads.site.bots.service.Bots`)."""
BotStreamsOf = Annotated[BotStreams, Depends(_bot_streams)]
"""The bots' event streams open on this process."""
KnownPlayersOf = Annotated[KnownPlayers, Depends(_known_players)]
"""The people whose token this process checked
(:class:`quads.web.middleware.known_players.KnownPlayers`)."""
LobbyHubOf = Annotated[LobbyHub, Depends(_lobby_hub)]
"""The lobby's live sockets of this process (:mod:`quads.web.lobby_live`)."""
TournamentHubOf = Annotated[TournamentHub, Depends(_tournament_hub)]
"""The tournament sockets of this process (:mod:`quads.web.tournament_hub`)."""
BotTokensOf = Annotated[BotTokens, Depends(_bot_tokens)]
"""The bots' tokens (:class:`quads.site.bots.tokens.BotTokens`)."""
AccountsOf = Annotated[Accounts, Depends(_accounts)]
"""The accounts of the site (:class:`quads.site.accounts.service.Accounts`)."""
PasskeysOf = Annotated[Passkeys, Depends(_passkeys)]
"""The passkey ceremonies (:class:`quads.site.accounts.passkeys.Passkeys`)."""
ProfilesOf = Annotated[Profiles, Depends(_profiles)]
"""The accounts' profiles and the leaderboards
(:class:`quads.site.players.profiles.Profiles`)."""
TokenChangedOf = Annotated[Callable[[str], None], Depends(_on_token_changed)]
"""What to call once a player's tokens changed or ended: this process forgets them, and
ends that player's streams and live sockets here (other processes hear it from the
database)."""
ThinkingOf = Annotated[Thinking, Depends(_thinking)]
"""The engine's lanes and caches (:class:`quads.web.thinking.Thinking`)."""
