"""Swiss events at run time: an event's number of rounds, the round being played and
when it began; the first round a player is paired in (the rounds before score a
half-point bye); the round of each game; and each round's bye.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("rounds", sa.Integer))
    op.add_column("tournaments", sa.Column("round", sa.Integer, nullable=False,
                                           server_default="0"))
    op.add_column("tournaments", sa.Column("round_started", sa.Text))
    op.add_column("tournament_players", sa.Column("first_round", sa.Integer, nullable=False,
                                                  server_default="1"))
    op.add_column("tournament_games", sa.Column("round", sa.Integer))
    op.create_table(
        "tournament_byes",
        sa.Column("tournament", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("tournament", "round"),
    )


def downgrade() -> None:
    op.drop_table("tournament_byes")
    with op.batch_alter_table("tournament_games") as batch:
        batch.drop_column("round")
    with op.batch_alter_table("tournament_players") as batch:
        batch.drop_column("first_round")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("round_started")
        batch.drop_column("round")
        batch.drop_column("rounds")
