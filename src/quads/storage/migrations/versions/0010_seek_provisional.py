"""Seeks say whether their seeker's rating is provisional.

A seek keeps the seeker's rating in its category when it was opened
(``seeks.rating``); ``seeks.provisional`` (0 or 1) says whether that rating was
still uncertain (a high deviation), so that the lobby shows it with a ``?``, as the
game does.  Rows stored before are 0.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.add_column(sa.Column("provisional", sa.Integer, sa.CheckConstraint(
            "provisional IN (0, 1)", name="seeks_provisional"), nullable=False,
            server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("provisional")
