"""Clocks, the lobby's seeks, and players' names.

A game with a clock keeps it as JSON (``clock``) and, while it goes on, the
moment the running side's time or grace runs out (``deadline``, indexed: every
server process looks for games whose deadline has passed).  ``first_away`` and
``second_away`` are when each seat's player was last seen leaving the game
(``NULL`` while they have it open).  A seek is an offer to play in the lobby;
``seen`` is when its player last had a live socket.  Rows stored before keep
``NULL``: no clock, no name.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock", sa.Text))
        batch.add_column(sa.Column("deadline", sa.Text))
        batch.add_column(sa.Column("first_away", sa.Text))
        batch.add_column(sa.Column("second_away", sa.Text))
    op.create_index("games_by_deadline", "games", ["deadline"])
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name", sa.Text))
    op.create_table(
        "seeks",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("clock", sa.Text, nullable=False),
        sa.Column("side", sa.Text, sa.CheckConstraint("side IN ('first', 'second', 'random')"),
                  nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("seen", sa.Text, nullable=False),
    )
    op.create_index("seeks_by_pool", "seeks", ["rules", "clock", "created"])
    op.create_index("seeks_by_player", "seeks", ["player"])
    op.create_index("seeks_by_seen", "seeks", ["seen"])


def downgrade() -> None:
    op.drop_table("seeks")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name")
    op.drop_index("games_by_deadline", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("second_away")
        batch.drop_column("first_away")
        batch.drop_column("deadline")
        batch.drop_column("clock")
