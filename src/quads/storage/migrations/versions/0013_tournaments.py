"""Tournaments: arenas (and, later, Swiss events), their players and their games.

``tournaments``: one row per event, with its rules, clock, ratedness, start, length
(minutes, for an arena) and status (``created``, ``started``, ``finished``).
``tournament_players``: who joined, whether they are in (``active``) or paused, when
they became free and the game they are playing now (``current``: one at most, which
is how no player is ever in two games of one event).  ``tournament_games``: each game
an event paired, with its result once it ended, written in the transaction that
ends the game (so that no result is counted twice or lost).

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("kind", sa.Text, sa.CheckConstraint("kind IN ('arena', 'swiss')",
                                                      name="tournaments_kind"),
                  nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("clock", sa.Text, nullable=False),
        sa.Column("rated", sa.Integer, sa.CheckConstraint("rated IN (0, 1)",
                                                          name="tournaments_rated"),
                  nullable=False),
        sa.Column("min_rated", sa.Integer, nullable=False),
        sa.Column("creator", sa.Text),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("starts", sa.Text, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False),
        sa.Column("status", sa.Text, sa.CheckConstraint(
            "status IN ('created', 'started', 'finished')", name="tournaments_status"),
            nullable=False),
    )
    op.create_index("tournaments_by_status", "tournaments", ["status", "starts"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament", sa.Text, nullable=False),
        sa.Column("player", sa.Text, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined", sa.Text, nullable=False),
        sa.Column("active", sa.Integer, sa.CheckConstraint(
            "active IN (0, 1)", name="tournament_players_active"), nullable=False),
        sa.Column("free_since", sa.Text, nullable=False),
        sa.Column("current", sa.Text),
        sa.PrimaryKeyConstraint("tournament", "player"),
    )
    op.create_table(
        "tournament_games",
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("tournament", sa.Text, nullable=False),
        sa.Column("first", sa.Text, nullable=False),
        sa.Column("second", sa.Text, nullable=False),
        sa.Column("started", sa.Text, nullable=False),
        sa.Column("result", sa.Text, sa.CheckConstraint(
            "result IN ('first', 'second', 'draw', 'aborted')", name="tournament_games_result")),
        sa.Column("no_show", sa.Text),
        sa.Column("ended", sa.Text),
    )
    op.create_index("tournament_games_by_tournament", "tournament_games",
                    ["tournament", "started"])


def downgrade() -> None:
    op.drop_index("tournament_games_by_tournament", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_table("tournament_players")
    op.drop_index("tournaments_by_status", "tournaments")
    op.drop_table("tournaments")
