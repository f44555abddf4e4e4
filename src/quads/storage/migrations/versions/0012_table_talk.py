"""The quick messages said at a game's table.

``table_talk``: one row per message, numbered from 1 in each game (``seq``), with the
side that said it, the preset's name and the moment.  Not part of the game: saying
something changes no revision.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_talk",
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("side", sa.Text, sa.CheckConstraint("side IN ('first', 'second')",
                                                      name="table_talk_side"),
                  nullable=False),
        sa.Column("message", sa.Text, nullable=False),
        sa.Column("moment", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("game", "seq"),
    )


def downgrade() -> None:
    op.drop_table("table_talk")
