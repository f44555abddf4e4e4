"""Who has which game open on which server process, for presence across processes.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "processes",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("seen", sa.Text, nullable=False),
    )
    op.create_table(
        "connections",
        sa.Column("process", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("process", "game", "player"),
    )
    op.create_index("connections_by_game", "connections", ["game"])


def downgrade() -> None:
    op.drop_table("connections")
    op.drop_table("processes")
