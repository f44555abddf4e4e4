"""Accounts: a player's lasting self, its sessions and ways in, and its ratings.

An account is a player (``accounts.player``) with a unique name (``name_key``: the
name in lower case), a password's Argon2id hash (``NULL`` for an account that
signs in by passkey only), and since when it is deleted (``deleted``: its name stays
taken, its games stay for their opponents).  Its devices sign in by *sessions*, kept
by the SHA-256 of their tokens; by *passkeys* (WebAuthn credentials); by *recovery
codes* (hashed, each used once); and a signed-in device lets another in by a short
*link code* (hashed, expiring, used once).  A passkey ceremony's challenge waits in
``challenges`` between its two requests, on whichever process they land.  A device
that once signed in to an account keeps a *trusted device* token, so that throttled
sign-ins never lock its owner out.

Ratings are kept per player and category (``quads-blitz`` ...), one row each, and
every rated game's change of each seat's rating is a row of ``rating_changes``: one
per game and player, so that a result is counted once, whichever process ends it.
A game says whether it is rated (``games.rated``) and which rating it would count
for (``games.category``, ``NULL`` for one that cannot be rated), and once it is over
its result as a record writes it (``games.result``: ``1-0``, ``0-1``, ``1/2-1/2``,
``*``; ``NULL`` for games that ended before this revision, read by replaying them);
a seek says whether
it is rated and which ratings it accepts.  Rows stored before are casual games and open seeks.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player", sa.Text, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.Text, nullable=False),
        sa.Column("password", sa.Text),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("hide_ratings", sa.Integer, sa.CheckConstraint(
            "hide_ratings IN (0, 1)", name="accounts_hide_ratings"), nullable=False,
            server_default="0"),
        sa.Column("deleted", sa.Text),
        sa.UniqueConstraint("name_key", name="accounts_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("device", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("seen", sa.Text, nullable=False),
        sa.Index("sessions_by_player", "player", "seen"),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("used", sa.Text),
        sa.Index("passkeys_by_player", "player"),
    )
    op.create_table(
        "recovery_codes",
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("code_hash", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("player", "code_hash"),
    )
    op.create_table(
        "link_codes",
        sa.Column("code_hash", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("expires", sa.Text, nullable=False),
    )
    op.create_table(
        "challenges",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("challenge", sa.Text, nullable=False),
        sa.Column("purpose", sa.Text, nullable=False),
        sa.Column("player", sa.Text),
        sa.Column("expires", sa.Text, nullable=False),
        sa.Index("challenges_by_expires", "expires"),
    )
    op.create_table(
        "trusted_devices",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Index("trusted_devices_by_player", "player"),
    )
    op.create_table(
        "ratings",
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("category", sa.Text, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("played", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("player", "category"),
        sa.Index("ratings_by_category", "category", "rating"),
    )
    op.create_table(
        "rating_changes",
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("category", sa.Text, nullable=False),
        sa.Column("before", sa.Float, nullable=False),
        sa.Column("after", sa.Float, nullable=False),
        sa.Column("deviation", sa.Float, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("moment", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("game", "player"),
        sa.Index("rating_changes_by_player", "player", "category", "moment"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rated", sa.Integer, sa.CheckConstraint(
            "rated IN (0, 1)", name="games_rated"), nullable=False, server_default="0"))
        batch.add_column(sa.Column("category", sa.Text))
        batch.add_column(sa.Column("result", sa.Text))
    op.create_index("games_by_category", "games", ["category", "updated"])
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("rated", sa.Integer, sa.CheckConstraint(
            "rated IN (0, 1)", name="seeks_rated"), nullable=False, server_default="0"))
        batch.add_column(sa.Column("rating_min", sa.Integer))
        batch.add_column(sa.Column("rating_max", sa.Integer))
        batch.add_column(sa.Column("rating", sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("rating")
        batch.drop_column("rating_max")
        batch.drop_column("rating_min")
        batch.drop_column("rated")
    op.drop_index("games_by_category", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("result")
        batch.drop_column("category")
        batch.drop_column("rated")
    for table in ("rating_changes", "ratings", "trusted_devices", "challenges", "link_codes",
                  "recovery_codes", "passkeys", "sessions", "accounts"):
        op.drop_table(table)
