"""The schema as the last release that counted versions by PRAGMA user_version left it.

Games with owners, online seats, invitations, undo requests, resignations and
rematches; puzzle attempts with an explicit id; players by the hash of their
token; puzzle solves checked by the server.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_SIDE = "IN ('first', 'second')"


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("mode", sa.Text, sa.CheckConstraint("mode IN ('computer', 'local', 'online')"),
                  nullable=False),
        sa.Column("level", sa.Integer),
        sa.Column("human", sa.Text, sa.CheckConstraint(f"human {_SIDE}")),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("headers", sa.Text, nullable=False),
        sa.Column("actions", sa.Text, nullable=False),
        sa.Column("redo", sa.Text, nullable=False),
        sa.Column("ply", sa.Integer, nullable=False),
        sa.Column("status", sa.Text, sa.CheckConstraint("status IN ('ongoing', 'over')"),
                  nullable=False),
        sa.Column("to_move", sa.Text, sa.CheckConstraint(f"to_move {_SIDE}")),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("updated", sa.Text, nullable=False),
        sa.Column("owner", sa.Text),
        sa.Column("first_player", sa.Text),
        sa.Column("second_player", sa.Text),
        sa.Column("invite", sa.Text, unique=True),
        sa.Column("undo_request", sa.Text, sa.CheckConstraint(f"undo_request {_SIDE}")),
        sa.Column("resigned", sa.Text, sa.CheckConstraint(f"resigned {_SIDE}")),
        sa.Column("rematch", sa.Text),
    )
    op.create_index("games_by_status", "games", ["status", "updated"])
    op.create_index("games_by_owner", "games", ["owner", "updated"])
    op.create_index("games_by_first", "games", ["first_player", "updated"])
    op.create_index("games_by_second", "games", ["second_player", "updated"])
    op.create_table(
        "puzzle_results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("date", sa.Text, nullable=False),
        sa.Column("tries", sa.Integer, sa.CheckConstraint("tries >= 1"), nullable=False),
        sa.Column("seconds", sa.Integer, sa.CheckConstraint("seconds >= 0"), nullable=False),
        sa.Column("solved", sa.Integer, sa.CheckConstraint("solved IN (0, 1)"),
                  nullable=False),
        sa.Column("recorded", sa.Text, nullable=False),
    )
    op.create_index("puzzle_results_by_player", "puzzle_results", ["player", "date"])
    op.create_table(
        "players",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("created", sa.Text, nullable=False),
    )
    op.create_table(
        "puzzle_solves",
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("date", sa.Text, nullable=False),
        sa.Column("solved", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("player", "date"),
    )


def downgrade() -> None:
    for table in ("puzzle_solves", "players", "puzzle_results", "games"):
        op.drop_table(table)
