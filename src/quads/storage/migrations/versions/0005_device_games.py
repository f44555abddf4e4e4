"""Games played on a device and uploaded from it, and puzzle attempts sent again.

A game uploaded from a device keeps the device's id for it and the device's
revision last stored; one owner has at most one game per device id, so an upload
repeated (an answer lost on the way) never makes a second game.  A puzzle
attempt may carry the id its client gave it, stored once per player.  Rows
stored before keep ``NULL`` in the new columns, which the unique indexes let
repeat.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("device", sa.Text))
        batch.add_column(sa.Column("device_revision", sa.Integer))
    op.create_index("games_by_device", "games", ["owner", "device"], unique=True)
    with op.batch_alter_table("puzzle_results") as batch:
        batch.add_column(sa.Column("attempt", sa.Text))
    op.create_index("puzzle_results_by_attempt", "puzzle_results", ["player", "attempt"],
                    unique=True)


def downgrade() -> None:
    op.drop_index("puzzle_results_by_attempt", "puzzle_results")
    with op.batch_alter_table("puzzle_results") as batch:
        batch.drop_column("attempt")
    op.drop_index("games_by_device", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("device_revision")
        batch.drop_column("device")
