"""Players by the time they were issued, so that a prune finds the old ones without
reading every player.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("players_by_created", "players", ["created"])


def downgrade() -> None:
    op.drop_index("players_by_created", "players")
