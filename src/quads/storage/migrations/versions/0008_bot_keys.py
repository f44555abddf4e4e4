"""Bots' tokens that can be replaced, and their owners' keys.

A bot's token may be replaced (``players.token_hash``: the SHA-256 of the token that
is good now, unique; ``NULL`` while the token whose hash is the player's id is the
good one).  ``owner_key`` is the SHA-256 of the key handed to whoever made the bot,
with which they replace or revoke its token whatever became of it.  Rows stored
before keep ``NULL``: their tokens are as they were, and no owner's key.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("token_hash", sa.Text))
        batch.add_column(sa.Column("owner_key", sa.Text))
        batch.create_unique_constraint("players_token_hash_key", ["token_hash"])


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("players_token_hash_key", type_="unique")
        batch.drop_column("owner_key")
        batch.drop_column("token_hash")
