"""Bots: players that made themselves bots, the lobby's seeks of bots, and games
whose free seat is offered to a bot.

A player that made itself a bot keeps a public handle (``players.bot``, unique,
``NULL`` for a person) and when its event stream was last open (``bot_seen``); a
seek of a bot says so (``seeks.bot``), so that the lobby can mark it without asking
for its player.  An online game may offer its free seat to a bot
(``games.bot_invited``, which it may decline: ``bot_declined``).  Rows stored before
are people's.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.Text))
        batch.add_column(sa.Column("bot_seen", sa.Text))
        batch.create_unique_constraint("players_bot_key", ["bot"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("bot_invited", sa.Text))
        batch.add_column(sa.Column("bot_declined", sa.Integer, sa.CheckConstraint(
            "bot_declined IN (0, 1)", name="games_bot_declined"), nullable=False,
            server_default="0"))
    op.create_index("games_by_bot_invited", "games", ["bot_invited"])
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("bot", sa.Integer, sa.CheckConstraint(
            "bot IN (0, 1)", name="seeks_bot"), nullable=False, server_default="0"))


def downgrade() -> None:
    op.drop_index("games_by_bot_invited", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bot_declined")
        batch.drop_column("bot_invited")
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("bot")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("players_bot_key", type_="unique")
        batch.drop_column("bot_seen")
        batch.drop_column("bot")
