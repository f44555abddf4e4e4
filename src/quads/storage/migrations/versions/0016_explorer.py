"""Each game that ended on this site, once (``game_ends``: the queue of the games whose
mistakes are still to be looked for), and what people played from each position up to
symmetry (``explored``), counted in the transaction that ends a game.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_ends",
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("ended", sa.Text, nullable=False),
        sa.Column("mistakes", sa.Text, sa.CheckConstraint(
            "mistakes IN ('todo', 'done')", name="game_ends_mistakes"), nullable=False),
        sa.Column("taken", sa.Text),
        sa.Column("tries", sa.Integer, nullable=False),
    )
    op.create_index("game_ends_todo", "game_ends", ["mistakes", "ended"])
    # The games that ended before: noted (their mistakes not looked for, which would
    # flood the queue); ``quads explorer recount`` counts their turns.
    op.execute("INSERT INTO game_ends (game, ended, mistakes, taken, tries) "
               "SELECT id, updated, 'done', NULL, 0 FROM games "
               "WHERE status = 'over' AND mode IN ('online', 'computer')")
    op.create_table(
        "explored",
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("position", sa.Text, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("rated", sa.Integer, sa.CheckConstraint("rated IN (0, 1)",
                                                          name="explored_rated"),
                  nullable=False),
        sa.Column("band", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("first", sa.Integer, nullable=False),
        sa.Column("second", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.PrimaryKeyConstraint("rules", "position", "source", "rated", "band", "result"),
    )


def downgrade() -> None:
    op.drop_table("explored")
    op.drop_index("game_ends_todo", "game_ends")
    op.drop_table("game_ends")
