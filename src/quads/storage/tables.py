"""The tables of the store, one schema for SQLite and PostgreSQL (SQLAlchemy Core).

Times are ISO 8601 texts in UTC with microseconds, dates ``YYYY-MM-DD``: the
same on both engines, sortable as text, and as the first releases of Quads
wrote them.  Changing a table means an Alembic migration in
``quads/storage/migrations/versions``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Float,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "accounts",
    "challenges",
    "connections",
    "exercises",
    "games",
    "link_codes",
    "metadata",
    "passkeys",
    "players",
    "processes",
    "puzzle_results",
    "puzzle_solves",
    "rating_changes",
    "ratings",
    "recovery_codes",
    "seeks",
    "sessions",
    "tournament_byes",
    "tournament_games",
    "tournament_players",
    "tournaments",
    "trusted_devices",
]

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", Text, primary_key=True),
    Column("rules", Text, nullable=False),
    Column("mode", Text, CheckConstraint("mode IN ('computer', 'local', 'online')"),
           nullable=False),
    Column("level", Integer),
    Column("human", Text, CheckConstraint("human IN ('first', 'second')")),
    Column("seed", BigInteger, nullable=False),
    Column("start", Text, nullable=False),
    Column("headers", Text, nullable=False),
    Column("actions", Text, nullable=False),
    Column("redo", Text, nullable=False),
    Column("ply", Integer, nullable=False),
    Column("status", Text, CheckConstraint("status IN ('ongoing', 'over')"), nullable=False),
    Column("to_move", Text, CheckConstraint("to_move IN ('first', 'second')")),
    Column("revision", Integer, nullable=False),
    Column("created", Text, nullable=False),
    Column("updated", Text, nullable=False),
    Column("owner", Text),
    Column("first_player", Text),
    Column("second_player", Text),
    Column("invite", Text, unique=True),
    Column("undo_request", Text, CheckConstraint("undo_request IN ('first', 'second')")),
    Column("resigned", Text, CheckConstraint("resigned IN ('first', 'second')")),
    Column("rematch", Text),
    Column("rematch_by", Text,
           CheckConstraint("rematch_by IN ('first', 'second')", name="games_rematch_by")),
    Column("device", Text),
    Column("device_revision", Integer),
    Column("clock", Text),
    Column("deadline", Text),
    Column("first_away", Text),
    Column("second_away", Text),
    Column("bot_invited", Text),
    Column("bot_declined", Integer, CheckConstraint("bot_declined IN (0, 1)",
                                                    name="games_bot_declined"),
           nullable=False, server_default="0"),
    Column("rated", Integer, CheckConstraint("rated IN (0, 1)", name="games_rated"),
           nullable=False, server_default="0"),
    Column("category", Text),
    Column("result", Text),
    Column("draw_offer", Text,
           CheckConstraint("draw_offer IN ('first', 'second')", name="games_draw_offer")),
    *(Column(name, Integer, CheckConstraint(f"{name} >= 0", name=f"games_{name}"),
             nullable=False, server_default="0")
      for name in ("draws_first", "draws_second", "undos_first", "undos_second")),
    Index("games_by_status", "status", "updated"),
    Index("games_by_owner", "owner", "updated"),
    Index("games_by_first", "first_player", "updated"),
    Index("games_by_second", "second_player", "updated"),
    Index("games_by_device", "owner", "device", unique=True),
    Index("games_by_deadline", "deadline"),
    Index("games_by_bot_invited", "bot_invited"),
    Index("games_by_category", "category", "updated"),
)
"""One row per game; the actions and the redo trail as JSON lists of action texts.

A game played on a device and uploaded from it (``PUT /api/games/device/{id}``)
keeps the device's id for it (``device``, unique per owner: an upload repeated
never makes a second game) and the device's revision of it last stored
(``device_revision``); both are ``NULL`` for the server's own games.

A game with a clock keeps it as JSON (``clock``, :meth:`quads.clock.Clock.to_json`)
and, while it goes on, when the running side's time or grace runs out
(``deadline``).  ``first_away`` and ``second_away``: since when each seat's player
has had the game open on no socket, as a server process saw it leave (``NULL``
while it is open, or never seen).  ``bot_invited``: the bot (player id) that a seated
player offered the free seat of an online game to, until it takes it;
``bot_declined``: whether it declined.  ``rated``: whether its result changes
its players' ratings (:data:`rating_changes`); ``category``: the rating it counts for,
or would (:mod:`quads.ratings`: ``quads-blitz`` ...), ``NULL`` for a game that cannot
be rated (no clock, rules of no preset, not online); ``result``: once it is over,
its result as a record writes it (``1-0``, ``0-1``, ``1/2-1/2``, ``*``), ``NULL``
before (and for games that ended before Quads kept it)."""

puzzle_results = Table(
    "puzzle_results", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player", Text, nullable=False),
    Column("date", Text, nullable=False),
    Column("tries", Integer, CheckConstraint("tries >= 1"), nullable=False),
    Column("seconds", Integer, CheckConstraint("seconds >= 0"), nullable=False),
    Column("solved", Integer, CheckConstraint("solved IN (0, 1)"), nullable=False),
    Column("recorded", Text, nullable=False),
    Column("attempt", Text),
    Index("puzzle_results_by_player", "player", "date"),
    Index("puzzle_results_by_attempt", "player", "attempt", unique=True),
)
"""One row per attempt at a daily puzzle, in the order they were stored (``id``).

``attempt`` is the id a client gave the attempt, if any (unique per player: an
attempt sent again is stored once)."""

players = Table(
    "players", metadata,
    Column("id", Text, primary_key=True),
    Column("created", Text, nullable=False),
    Column("name", Text),
    Column("bot", Text),
    Column("bot_seen", Text),
    Column("token_hash", Text),
    Column("owner_key", Text),
    Index("players_by_created", "created"),
    UniqueConstraint("bot", name="players_bot_key"),
    UniqueConstraint("token_hash", name="players_token_hash_key"),
)
"""The players this server issued a token to, by the token's hash, with the name others
see (``NULL`` until one is given or made up).  ``bot`` is the public handle of a player
that made itself a bot (``NULL`` for a person; never cleared); ``bot_seen`` when its
event stream was last open.  A bot's token may be replaced: ``token_hash`` is then the
hash of the one that is good (the one whose hash is the id is not, any more), and
``owner_key`` the hash of the key with which its maker replaces or revokes it."""

seeks = Table(
    "seeks", metadata,
    Column("id", Text, primary_key=True),
    Column("player", Text, nullable=False),
    Column("name", Text, nullable=False),
    Column("rules", Text, nullable=False),
    Column("clock", Text, nullable=False),
    Column("side", Text, CheckConstraint("side IN ('first', 'second', 'random')"),
           nullable=False),
    Column("created", Text, nullable=False),
    Column("seen", Text, nullable=False),
    Column("bot", Integer, CheckConstraint("bot IN (0, 1)", name="seeks_bot"),
           nullable=False, server_default="0"),
    Column("rated", Integer, CheckConstraint("rated IN (0, 1)", name="seeks_rated"),
           nullable=False, server_default="0"),
    Column("rating_min", Integer),
    Column("rating_max", Integer),
    Column("rating", Integer),
    Column("provisional", Integer, CheckConstraint("provisional IN (0, 1)",
                                                   name="seeks_provisional"),
           nullable=False, server_default="0"),
    Index("seeks_by_pool", "rules", "clock", "created"),
    Index("seeks_by_player", "player"),
    Index("seeks_by_seen", "seen"),
)
"""The lobby's open offers to play: who, under which rules (the canonical name), with
which clock (``300+3``, ``3d``), from which side; ``seen`` is when its player last had a
live socket on some server process.  A rated seek (``rated``) is taken only by an
account whose rating of its category lies between ``rating_min`` and ``rating_max``
(either may be ``NULL``: no bound); ``rating`` is the seeker's own in that category
when the seek was opened (``NULL`` for a player without an account), and
``provisional`` whether that rating was still uncertain then."""

puzzle_solves = Table(
    "puzzle_solves", metadata,
    Column("player", Text, nullable=False),
    Column("date", Text, nullable=False),
    Column("solved", Text, nullable=False),
    PrimaryKeyConstraint("player", "date"),
)
"""The puzzle dates each player's checked turns solved."""

processes = Table(
    "processes", metadata,
    Column("id", Text, primary_key=True),
    Column("seen", Text, nullable=False),
)
"""The server processes sharing the database, with the time each last said it lives."""

connections = Table(
    "connections", metadata,
    Column("process", Text, nullable=False),
    Column("game", Text, nullable=False),
    Column("player", Text, nullable=False),
    PrimaryKeyConstraint("process", "game", "player"),
    Index("connections_by_game", "game"),
)
"""Which player has which game open on a live socket of which process."""

table_talk = Table(
    "table_talk", metadata,
    Column("game", Text, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("side", Text, CheckConstraint("side IN ('first', 'second')",
                                         name="table_talk_side"), nullable=False),
    Column("message", Text, nullable=False),
    Column("moment", Text, nullable=False),
    PrimaryKeyConstraint("game", "seq"),
)
"""The quick messages said at each game's table, numbered from 1 in each game: a
preset's name (``hello``), never free text, which each reader's page words in
their own language.  Not part of the game: a message changes no revision."""

accounts = Table(
    "accounts", metadata,
    Column("player", Text, primary_key=True),
    Column("name", Text, nullable=False),
    Column("name_key", Text, nullable=False),
    Column("password", Text),
    Column("created", Text, nullable=False),
    Column("hide_ratings", Integer, CheckConstraint("hide_ratings IN (0, 1)",
                                                    name="accounts_hide_ratings"),
           nullable=False, server_default="0"),
    Column("deleted", Text),
    UniqueConstraint("name_key", name="accounts_name_key"),
)
"""The players that made themselves an account: its name as written and in lower case
(``name_key``, unique: two names that differ only in case are one), the Argon2id hash
of its password (``NULL``: passkeys only), and since when it is deleted (its name
stays taken, so that nobody else can pass for it)."""

sessions = Table(
    "sessions", metadata,
    Column("id", Text, primary_key=True),
    Column("player", Text, nullable=False),
    Column("device", Text, nullable=False),
    Column("created", Text, nullable=False),
    Column("seen", Text, nullable=False),
    Index("sessions_by_player", "player", "seen"),
)
"""The devices signed in to an account, each by the SHA-256 of its session token
(``id``), described for its owner (``Chrome on Android``), and when it was last seen."""

passkeys = Table(
    "passkeys", metadata,
    Column("id", Text, primary_key=True),
    Column("player", Text, nullable=False),
    Column("public_key", Text, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created", Text, nullable=False),
    Column("used", Text),
    Index("passkeys_by_player", "player"),
)
"""The WebAuthn credentials of accounts: the credential's id and public key
(base64url), its signature counter, and when it was last used."""

recovery_codes = Table(
    "recovery_codes", metadata,
    Column("player", Text, nullable=False),
    Column("code_hash", Text, nullable=False),
    PrimaryKeyConstraint("player", "code_hash"),
)
"""An account's unused recovery codes, by their SHA-256; a code used is deleted."""

link_codes = Table(
    "link_codes", metadata,
    Column("code_hash", Text, primary_key=True),
    Column("player", Text, nullable=False),
    Column("expires", Text, nullable=False),
)
"""The short codes by which a signed-in device lets a new one in: by their SHA-256,
until they expire or are used (then deleted)."""

challenges = Table(
    "challenges", metadata,
    Column("id", Text, primary_key=True),
    Column("challenge", Text, nullable=False),
    Column("purpose", Text, nullable=False),
    Column("player", Text),
    Column("expires", Text, nullable=False),
    Index("challenges_by_expires", "expires"),
)
"""The passkey ceremonies begun and not finished: the challenge sent (base64url), what
for (``register``, ``sign_in``), for which player, and until when it may be answered."""

trusted_devices = Table(
    "trusted_devices", metadata,
    Column("id", Text, primary_key=True),
    Column("player", Text, nullable=False),
    Column("created", Text, nullable=False),
    Index("trusted_devices_by_player", "player"),
)
"""The devices that signed in to an account once, by the SHA-256 of the token they
keep: their sign-ins are not slowed by the account's throttle."""

ratings = Table(
    "ratings", metadata,
    Column("player", Text, nullable=False),
    Column("category", Text, nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("played", Text, nullable=False),
    PrimaryKeyConstraint("player", "category"),
    Index("ratings_by_category", "category", "rating"),
)
"""Each account's Glicko-2 rating per category (:mod:`quads.ratings`), its number of
rated games and when it last played one (its deviation grows from then)."""

rating_changes = Table(
    "rating_changes", metadata,
    Column("game", Text, nullable=False),
    Column("player", Text, nullable=False),
    Column("category", Text, nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("score", Float, nullable=False),
    Column("moment", Text, nullable=False),
    PrimaryKeyConstraint("game", "player"),
    Index("rating_changes_by_player", "player", "category", "moment"),
)
"""What each rated game did to each seat's rating: one row per game and player, so
that no result is counted twice; the rating history of the profile pages."""

tournaments = Table(
    "tournaments", metadata,
    Column("id", Text, primary_key=True),
    Column("kind", Text, CheckConstraint("kind IN ('arena', 'swiss')", name="tournaments_kind"),
           nullable=False),
    Column("name", Text, nullable=False),
    Column("rules", Text, nullable=False),
    Column("clock", Text, nullable=False),
    Column("rated", Integer, CheckConstraint("rated IN (0, 1)", name="tournaments_rated"),
           nullable=False),
    Column("min_rated", Integer, nullable=False),
    Column("creator", Text),
    Column("created", Text, nullable=False),
    Column("starts", Text, nullable=False),
    Column("minutes", Integer, nullable=False),
    Column("status", Text, CheckConstraint("status IN ('created', 'started', 'finished')",
                                           name="tournaments_status"), nullable=False),
    Column("rounds", Integer),
    Column("round", Integer, nullable=False, server_default="0"),
    Column("round_started", Text),
    Index("tournaments_by_status", "status", "starts"),
)
"""The events (:mod:`quads.site.tournaments`): an arena's rules, clock, ratedness, start
and length in minutes (a Swiss event's longest), who made it (``None``: the site's
schedule) and its status; a Swiss event's number of ``rounds``, the ``round`` being
played (0 before the first) and when it began."""

tournament_players = Table(
    "tournament_players", metadata,
    Column("tournament", Text, nullable=False),
    Column("player", Text, nullable=False),
    Column("rating", Integer, nullable=False),
    Column("joined", Text, nullable=False),
    Column("active", Integer, CheckConstraint("active IN (0, 1)",
                                              name="tournament_players_active"), nullable=False),
    Column("free_since", Text, nullable=False),
    Column("current", Text),
    Column("first_round", Integer, nullable=False, server_default="1"),
    PrimaryKeyConstraint("tournament", "player"),
)
"""Who joined each event, their rating then, whether they are in (``active``) or paused,
since when they are free, the one game of the event they play now (``current``), and in
a Swiss event the first round they are paired in (``first_round``: a late entry)."""

tournament_games = Table(
    "tournament_games", metadata,
    Column("game", Text, primary_key=True),
    Column("tournament", Text, nullable=False),
    Column("first", Text, nullable=False),
    Column("second", Text, nullable=False),
    Column("started", Text, nullable=False),
    Column("result", Text, CheckConstraint(
        "result IN ('first', 'second', 'draw', 'aborted')", name="tournament_games_result")),
    Column("no_show", Text),
    Column("ended", Text),
    Column("round", Integer),
    Index("tournament_games_by_tournament", "tournament", "started"),
)
"""Each game an event paired, its players by side, and once it ended its result
(``aborted``: counted for nobody) and the player who did not show (``no_show``), written
in the transaction that ended the game; a Swiss event's game, its ``round``."""

tournament_byes = Table(
    "tournament_byes", metadata,
    Column("tournament", Text, nullable=False),
    Column("round", Integer, nullable=False),
    Column("player", Text, nullable=False),
    PrimaryKeyConstraint("tournament", "round"),
)
"""The player left out of each round of a Swiss event with an odd number of players
(who scores a point for it)."""

exercises = Table(
    "exercises", metadata,
    Column("id", Text, primary_key=True),
    Column("player", Text, nullable=False),
    Column("key", Text, nullable=False),
    Column("rules", Text, nullable=False),
    Column("position", Text, nullable=False),
    Column("kind", Text, CheckConstraint("kind IN ('turn', 'give')", name="exercises_kind"),
           nullable=False),
    Column("keep", Text, CheckConstraint("keep IN ('win', 'draw')", name="exercises_keep"),
           nullable=False),
    Column("played", Text, nullable=False),
    Column("answers", Text, nullable=False),
    Column("game", Text),
    Column("found", Text, nullable=False),
    Column("seen", Integer, nullable=False),
    Column("card", Text, nullable=False),
    Column("due", Text, nullable=False),
    Column("learnt", Integer, CheckConstraint("learnt IN (0, 1)", name="exercises_learnt"),
           nullable=False),
    Column("tries", Integer, nullable=False),
    Column("answered", Text),
    UniqueConstraint("player", "key", name="exercises_player_key"),
    Index("exercises_by_due", "player", "due"),
)
"""A player's exercises (:mod:`quads.mistakes`): one per position up to symmetry
(``key``) and kind, with the rules, the position (its string), the value to keep, the
turn played there (``played``) and every turn that keeps the value (``answers``,
their texts), the game it was first found in, when, and how often the mistake was
made (``seen``); its spaced-repetition memory (``card``, the FSRS card's JSON), when
it is due, whether it is learnt, the answers given and the last answer's moment."""

exercise_answers = Table(
    "exercise_answers", metadata,
    Column("exercise", Text, nullable=False),
    Column("answer", Text, nullable=False),
    Column("at", Text, nullable=False),
    PrimaryKeyConstraint("exercise", "answer"),
)
"""The answers a device gave while it could not reach the server, by the id it gave
each (``answer``), once they are counted: an answer sent again (its answer was lost on
the way back) is counted once."""

game_ends = Table(
    "game_ends", metadata,
    Column("game", Text, primary_key=True),
    Column("ended", Text, nullable=False),
    Column("mistakes", Text, CheckConstraint("mistakes IN ('todo', 'done')",
                                             name="game_ends_mistakes"), nullable=False),
    Column("taken", Text),
    Column("tries", Integer, nullable=False),
    Index("game_ends_todo", "mistakes", "ended"),
)
"""Each game that ended on this site (played to its end here, or uploaded from a
device), once: the transaction that ends it writes the row and counts its turns for
the explorer (``explored``).  ``mistakes`` says whether its players' mistakes were
looked for yet (the queue of :mod:`quads.site.mistakes.finder`), ``taken`` when a
process took it to look (a lease), ``tries`` how often one did."""

explored = Table(
    "explored", metadata,
    Column("rules", Text, nullable=False),
    Column("position", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("rated", Integer, CheckConstraint("rated IN (0, 1)", name="explored_rated"),
           nullable=False),
    Column("band", Integer, nullable=False),
    Column("result", Text, nullable=False),
    Column("games", Integer, nullable=False),
    Column("first", Integer, nullable=False),
    Column("second", Integer, nullable=False),
    Column("draws", Integer, nullable=False),
    PrimaryKeyConstraint("rules", "position", "source", "rated", "band", "result"),
)
"""What people played (:mod:`quads.explorer`): per rule set and position (its key up
to symmetry), per kind of game (``source``: ``people``, or ``level-N`` against the
computer), rated or not, and rating band (the players' mean rating before the game,
rounded down to a multiple of 200; 0 for none), each turn (``result``: the key of
the position it led to) and how many games played it, with how they ended."""
