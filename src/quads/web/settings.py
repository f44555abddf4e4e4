"""What an operator may tune: the limits that keep one client from starving the
others, and how long what nobody plays is kept (``docs/deploy.md``).

:class:`Settings` holds every limit with a default fit for a small public site;
``quads serve --config FILE`` reads a TOML file whose keys are the field names
(``[limits]`` table or top level), and every process of ``quads serve
--workers N`` reads the same file through ``$QUADS_CONFIG``.

Rates are written as the :mod:`limits` library reads them: ``"30/minute"``,
``"10/second;200/hour"``.

A setting that a release gave up (:data:`RETIRED`) is still read from a file, and
ignored with a warning, so that an operator's file keeps working after an upgrade.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from limits import parse_many

__all__ = ["CONFIG_ENV", "RETIRED", "Settings", "SettingsError", "client_address",
           "settings_toml"]

CONFIG_ENV = "QUADS_CONFIG"
"""The environment variable that names the settings file of a worker process."""


class SettingsError(ValueError):
    """A settings file that cannot be read, or a value out of its range."""


RETIRED = {
    "bot_poll": "bot streams look when their games change, and every bot_sweep seconds",
}
"""Settings of earlier releases that a file may still name: read, and ignored with a
warning that says what took their place."""

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Settings:
    """The server's limits.  Times are in seconds, sizes in bytes."""

    # ---- connections (the HTTP server itself) ------------------------------------
    header_timeout: float = 10.0
    """Time a connection has to send a request's whole head (line and headers)."""
    body_timeout: float = 30.0
    """Time a request has to send its whole body."""
    keep_alive: float = 75.0
    """Time an idle connection is kept open between two requests."""
    max_connections: int = 0
    """Open connections at most (0: derived from the file-handle limit at start)."""
    connections_per_client: int = 400
    """Open connections at most from one client address: forty browsers behind one
    address, each with the six connections a browser opens to a site and its two live
    sockets, and two to spare (a proxy trusted by ``forwarded_allow_ips`` is not
    held to it)."""
    edge_hold: float = 5.0
    """A try to sign in or up that comes again from an address refused ``429`` at the
    edge before that refusal's ``Retry-After`` is over is not read until then, nor
    for longer than this many seconds; it is then judged afresh.  A client that asks
    again at once, whatever it was told, gets one answer a connection a while."""

    # ---- live sockets -------------------------------------------------------------
    ws_max_message: int = 4096
    """The largest message a client may send on a live socket."""
    ws_compression: bool = False
    """Compress the messages of live sockets (permessage-deflate) when the client
    offers it.  Off: a view is about a kilobyte, one packet either way, and
    compression would cost CPU on both ends for every message and some 64 KiB of
    memory for every open socket."""
    sockets_per_game: int = 2000
    """Live sockets at most on one game (players and spectators together)."""
    sockets_per_client: int = 120
    """Live sockets at most from one client address: forty pages holding two each (a
    game and the lobby), and a third while one reconnects or in a second tab."""
    socket_rate: str = "240/minute"
    """How often one client address may open a live socket: forty pages opening six a
    minute."""

    # ---- engine work (analysis, hints, reviews, computer moves) ---------------------
    engine_threads: int = 0
    """Threads that think, in each engine lane (0: one per core)."""
    engine_queue: int = 64
    """Engine jobs waiting or running at most, all clients together (in each lane:
    ``play`` for computer moves, hints and puzzle checks, ``study`` for analyses,
    reviews and new puzzles)."""
    engine_per_client: int = 2
    """Engine jobs waiting or running at most for one player (in each lane); the
    callers of one address without an identity share one such allowance."""
    engine_per_address: int = 12
    """Engine jobs waiting or running at most for one client address (in each lane),
    all its players together: a room's players each have their own two, while one
    client who makes identities anew holds no more than this."""
    engine_cache: int = 4096
    """Analyses remembered, by canonical position (and a sixteenth as many reviews of
    finished games)."""
    engine_study_nice: int = 10
    """How much lower the priority of the threads that analyse and review is than the
    server's (Linux ``nice``, 0-19): the event loop and computer moves come first."""

    # ---- accounts ----------------------------------------------------------------
    account_threads: int = 1
    """Threads that hash and verify passwords (each hash is some 30 ms of a core)."""
    account_queue: int = 32
    """Sign-ups, sign-ins and password changes waiting or running at most, all clients
    together: a flood of them is refused (``429 busy``) rather than queued for long."""
    account_per_address: int = 8
    """Of those, at most this many from one client address (one per player)."""
    account_nice: int = 5
    """How much lower the priority of the threads that hash is than the server's, so
    that moves come first while sign-ins flood."""
    account_share: float = 0.25
    """The part of one core that each hashing thread takes at most: after a hash it
    rests three times as long (at 0.25).  A flood of sign-ins then costs the machine
    a quarter of a core, and its tries wait (or are refused ``429 busy``) instead."""
    account_failures: str = "10/15minutes;30/day"
    """Failed sign-ins at one account from devices that never signed in to it, after
    which such devices are refused for a while (its own devices never are)."""

    # ---- rates of creation ---------------------------------------------------------
    # A player is counted on their own; their address, which a room of some forty
    # people may share (a school class, a cafe), has a budget of its own above it.
    rate_games: str = "30/minute;300/hour"
    """New games (created, imported, rematches, seeks accepted) per player: what one
    person plays, and more."""
    rate_games_per_address: str = "120/minute;1200/hour"
    """New games per client address, all its players together: forty players starting
    three games a minute, thirty an hour."""
    rate_identities: str = "60/minute;300/hour"
    """New players (identities) per client address: forty newcomers in the same minute,
    and a half again for second browsers; five such rooms an hour."""
    rate_joins: str = "30/minute"
    """Joins of online games per player."""
    rate_joins_per_address: str = "120/minute"
    """Joins per client address: forty players joining three games a minute."""
    rate_names: str = "10/minute;60/hour"
    """Names chosen (``PUT /api/players/me``) per player; a name is no new identity."""
    rate_names_per_address: str = "120/minute"
    """Names chosen per client address: forty players naming themselves three times a
    minute."""
    rate_puzzles: str = "60/minute"
    """Puzzle checks and results per player."""
    rate_puzzles_per_address: str = "240/minute"
    """Puzzle checks and results per client address: forty players trying a turn every
    ten seconds."""
    rate_seeks: str = "20/minute;300/hour"
    """Seeks opened in the lobby (and quick pairings) per player."""
    rate_seeks_per_address: str = "120/minute;1200/hour"
    """Seeks per client address: forty players opening three a minute, thirty an hour."""
    rate_signups: str = "3/hour"
    """Accounts made per player: one, and a retry or two."""
    rate_signups_per_address: str = "60/hour"
    """Accounts made per client address: a class of forty makes its accounts."""
    rate_signins: str = "10/minute;60/hour"
    """Tries to sign in (by password, recovery code or link code) per player."""
    rate_signins_per_address: str = "60/minute;300/hour"
    """Tries to sign in per client address: a room of forty signing in at once, while
    one client's guesses are slowed to a few a minute on average."""
    rate_keys: str = "10/hour;30/day"
    """Bots' tokens replaced or revoked by the bot itself (``/api/bot/token``) per bot."""
    rate_keys_per_address: str = "30/hour"
    """Bots' tokens replaced or revoked per client address, by bots and by owners
    (``/api/bots/{handle}/token``, ``.../revoke``, wrong keys too)."""
    rate_talk: str = "3/5second;20/minute"
    """Quick messages one player may say at the tables of their games: a few in a row,
    never a stream."""
    rate_talk_per_address: str = "240/minute"
    """The same for all the players of one client address."""
    rate_tournaments: str = "5/hour;20/day"
    """Tournaments one account may make (``POST /api/tournaments``)."""
    rate_tournaments_per_address: str = "30/hour"
    """Tournaments made from one client address."""
    rate_exports: str = "5/hour;20/day"
    """Exports of one's games (``GET /api/account/export``) per player: each reads and
    writes out every game, up to ``export_games``."""
    rate_exports_per_address: str = "60/hour"
    """Exports per client address: a class of forty takes its games home."""
    rate_explorer: str = "120/minute"
    """Looks in the explorer (``GET /api/explorer``) per player: one a turn, and more
    while browsing."""
    rate_explorer_per_address: str = "1200/minute"
    """Looks in the explorer from one client address."""

    # ---- the lobby and clocks ----------------------------------------------------------
    seeks_per_player: int = 3
    """Open seeks at most of one player."""
    seek_linger: float = 6.0
    """Seconds a seek stays open after its player's last live socket closed."""
    lobby_sockets: int = 10_000
    """Lobby sockets at most on one process (each client address within
    ``sockets_per_client``)."""
    bot_streams: int = 1_000
    """Bots' event streams (``GET /api/bot/stream``) at most on one process; one per bot."""
    bot_sweep: float = 60.0
    """Seconds between two looks of a bot's stream by itself.  A stream looks for its
    games begun and ended when one of its games changes (:mod:`quads.web.bot_streams`);
    this look finds what it might not have been told."""
    bot_heartbeat: float = 10.0
    """Seconds of silence after which a bot's stream sends an empty line."""
    clock_grace: float = 30.0
    """Seconds each side has for its first turn of a real-time game; a side that misses
    it has the game aborted."""
    clock_tick: float = 0.5
    """Seconds between two looks for games whose time ran out."""
    tournament_tick: float = 1.0
    """Seconds between two rounds of the tournaments' keeper (arenas started, paired and
    ended); 0: this process runs none."""
    tournament_refresh: float = 1.0
    """Seconds between two looks at the events that live sockets of this process follow
    (one read an event, whoever follows it); 0: the sockets are sent the event once."""
    tournament_sockets: int = 10_000
    """Tournament sockets at most on one process (each client address within
    ``sockets_per_client``)."""
    mistakes_tick: float = 2.0
    """Seconds between two rounds of looking for the mistakes of the games that ended
    (:mod:`quads.web.mistake_finder`); 0: this process looks for none."""
    mistakes_per_round: int = 20
    """Ended games one round looks at, at most, before the next round."""
    mistakes_seconds: float = 2.0
    """Seconds the solver may search each position of a game whose mistakes are looked
    for; a turn whose value it cannot reach in that time gives no exercise."""
    scheduled_arenas: bool = True
    """Whether the tournaments' keeper makes the site's own arenas (an hourly Quads blitz
    and a daily classic one, :mod:`quads.site.tournaments.schedule`)."""
    abandon_realtime: float = 30.0
    """Seconds a player of a real-time game must have had it open nowhere during their
    turn before the opponent may claim it, at least (``abandon_share`` of a longer
    game is longer)."""
    abandon_share: float = 0.1
    """The part of a real-time game's estimated length for one side (its initial time
    and an increment for each of its 8 turns) that its player may be away before the
    opponent may claim it, when that is longer than ``abandon_realtime``, and at most
    ``abandon_untimed``: a 10+5 game allows 64 s, a 3+2 game 30 s."""
    abandon_untimed: float = 300.0
    """The same for a game without a clock (a correspondence game has its move deadline
    instead), and the longest wait in a real-time game."""

    # ---- profiles ----------------------------------------------------------------------
    leaderboard_days: float = 30.0
    """Days within which an account must have played a rated game of a category to be
    on its leaderboard."""
    export_games: int = 10_000
    """Games at most in one export of a player's games (the most recently played)."""

    # ---- the database ----------------------------------------------------------------
    db_wait: float = 1.5
    """Time a request waits for the database before it answers ``503``."""
    statement_timeout: float = 5.0
    """Time the database may spend on one statement (PostgreSQL)."""
    db_threads: int = 4
    """Threads that run the store calls of the quick routes and the live sockets
    (the database lane, :mod:`quads.web.lane`)."""
    share_core: bool = True
    """Keep the event loop and the database lane's threads on one core, which costs
    less than passing Python's lock between cores (:mod:`quads.web.cores`); the
    engine's threads still use every core.  Each server process claims a core of its
    own, while one is free."""

    # ---- retention -------------------------------------------------------------------
    unplayed_days: float = 7.0
    """Days after which a game nobody acted in, and a player with no game and no
    puzzle result, are deleted."""
    ended_days: float = 365.0
    """Days after which a finished game, or one nobody moved in, is deleted."""
    prune_interval: float = 3600.0
    """Seconds between two prunes by the server itself (0: never)."""

    # ---- proxies and hosts -----------------------------------------------------------
    allowed_hosts: tuple[str, ...] = ()
    """The ``Host`` names this server answers (empty: the loopback names if it
    listens on loopback, else any)."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Addresses (or networks) whose ``X-Forwarded-*`` headers are believed."""

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name.startswith("rate_") or item.name == "socket_rate":
                try:
                    parse_many(value)
                except ValueError as exc:
                    raise SettingsError(f"{item.name}: cannot read the rate {value!r}: "
                                        f"{exc}") from None
            elif isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
                raise SettingsError(f"{item.name}: must not be negative, not {value}")
        if not 0.0 < self.account_share <= 1.0:
            raise SettingsError(
                f"account_share: a part of one core, above 0 and at most 1, not "
                f"{self.account_share}")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Settings:
        """Settings from ``values`` (a TOML table); unknown keys are refused.

        :raises SettingsError: for an unknown key or a value of the wrong type.
        """
        nested = values.get("limits", {})
        table = dict(nested) if isinstance(nested, dict) else {}
        table.update({k: v for k, v in values.items() if k != "limits"})
        known = {item.name for item in fields(cls)}
        chosen: dict[str, Any] = {}
        for key, value in table.items():
            name = key.replace("-", "_")
            if name in RETIRED:
                _log.warning("quads: the setting %r is no longer used (%s); it is ignored",
                             key, RETIRED[name])
                continue
            if name not in known:
                raise SettingsError(f"unknown setting {key!r}")
            default = getattr(cls, name, None)
            if isinstance(default, tuple):
                if isinstance(value, str):
                    value = [value]
                if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                    raise SettingsError(f"{key}: expected a list of texts")
                value = tuple(value)
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise SettingsError(f"{key}: expected true or false, not {value!r}")
            elif isinstance(value, bool) or not (
                    isinstance(value, type(default))
                    or (isinstance(default, float) and isinstance(value, int))):
                raise SettingsError(
                    f"{key}: expected {type(default).__name__}, not {value!r}")
            chosen[name] = value
        return cls(**chosen)

    @classmethod
    def from_file(cls, path: str | Path) -> Settings:
        """Settings from a TOML file.

        :raises SettingsError: if it cannot be read or holds a wrong value.
        """
        try:
            with Path(path).open("rb") as file:
                return cls.from_mapping(tomllib.load(file))
        except OSError as exc:
            raise SettingsError(f"cannot read {path}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"cannot read {path}: {exc}") from None

    @classmethod
    def from_env(cls) -> Settings:
        """The settings of ``$QUADS_CONFIG`` if set, else the defaults."""
        path = os.environ.get(CONFIG_ENV)
        return cls.from_file(path) if path else cls()

    def replace(self, **changes: Any) -> Settings:
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)


def client_address(scope: Mapping[str, Any]) -> str:
    """The address that limits count a request or socket against: the peer's address
    (as a trusted proxy gave it), an IPv6 address by its /64 network (one household
    or one server holds a whole /64)."""
    client = scope.get("client")
    host = str(client[0]) if client else "unknown"
    if ":" in host:
        import ipaddress

        try:
            network = ipaddress.IPv6Network(f"{host}/64", strict=False)
        except ValueError:
            return host
        return str(network)
    return host


def settings_toml(settings: Settings) -> str:
    """``settings`` as a TOML file that :meth:`Settings.from_file` reads back equal:
    every field, one a line, under ``[limits]``."""
    lines = ["[limits]"]
    for item in fields(settings):
        value = getattr(settings, item.name)
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, tuple):
            text = "[" + ", ".join(_toml_text(v) for v in value) + "]"
        elif isinstance(value, str):
            text = _toml_text(value)
        else:
            text = repr(value)
        lines.append(f"{item.name} = {text}")
    return "\n".join(lines) + "\n"


def _toml_text(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'
