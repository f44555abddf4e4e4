"""Who asked for the rematch of a game ("Play again"), so that the other player's notice
can say so.  Games offered again before this revision keep ``NULL``: not known.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column(
            "rematch_by", sa.Text,
            sa.CheckConstraint("rematch_by IN ('first', 'second')", name="games_rematch_by")))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_by")
