"""Bots: players that made themselves bots, and the lobby's seeks of bots.

A player that made itself a bot keeps a public handle (``players.bot``, unique,
``NULL`` for a person); a seek of a bot says so (``seeks.bot``), so that the lobby
can mark it without asking for its player.  Rows stored before are people's.

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
        batch.create_unique_constraint("players_bot_key", ["bot"])
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("bot", sa.Integer, sa.CheckConstraint(
            "bot IN (0, 1)", name="seeks_bot"), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("bot")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("players_bot_key", type_="unique")
        batch.drop_column("bot")
