"""Draw offers, and how many offers and undo requests each side made.

``games.draw_offer``: the side whose offer of a draw waits for the other's answer
(``NULL``: none).  ``draws_first``, ``draws_second``, ``undos_first`` and
``undos_second``: how many draw offers and undo requests each side has made in the
game, which a few per game bound.  Rows stored before have none (0).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

COUNTS = ("draws_first", "draws_second", "undos_first", "undos_second")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("draw_offer", sa.Text, sa.CheckConstraint(
            "draw_offer IN ('first', 'second')", name="games_draw_offer")))
        for name in COUNTS:
            batch.add_column(sa.Column(name, sa.Integer, sa.CheckConstraint(
                f"{name} >= 0", name=f"games_{name}"), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name in reversed(COUNTS):
            batch.drop_column(name)
        batch.drop_column("draw_offer")
