"""A player's exercises: the positions where they threw away a win or a draw, one per
position up to symmetry (``key``), with the turns that keep the value and the
spaced-repetition memory that says when each comes back.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "exercises",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("position", sa.Text, nullable=False),
        sa.Column("kind", sa.Text, sa.CheckConstraint("kind IN ('turn', 'give')",
                                                      name="exercises_kind"), nullable=False),
        sa.Column("keep", sa.Text, sa.CheckConstraint("keep IN ('win', 'draw')",
                                                      name="exercises_keep"), nullable=False),
        sa.Column("played", sa.Text, nullable=False),
        sa.Column("answers", sa.Text, nullable=False),
        sa.Column("game", sa.Text),
        sa.Column("found", sa.Text, nullable=False),
        sa.Column("seen", sa.Integer, nullable=False),
        sa.Column("card", sa.Text, nullable=False),
        sa.Column("due", sa.Text, nullable=False),
        sa.Column("learnt", sa.Integer, sa.CheckConstraint("learnt IN (0, 1)",
                                                           name="exercises_learnt"),
                  nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("answered", sa.Text),
        sa.UniqueConstraint("player", "key", name="exercises_player_key"),
    )
    op.create_index("exercises_by_due", "exercises", ["player", "due"])


def downgrade() -> None:
    op.drop_index("exercises_by_due", "exercises")
    op.drop_table("exercises")
