"""The answers to exercises a device gave offline, by the id it gave each, so that one
sent again is counted once (``exercise_answers``).

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "exercise_answers",
        sa.Column("exercise", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("at", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("exercise", "answer"),
    )


def downgrade() -> None:
    op.drop_table("exercise_answers")
