"""Alembic's environment for the store's migrations.

Quads runs them itself when a store opens (:func:`quads.storage.migrate.upgrade`),
handing over its connection in ``config.attributes["connection"]``.  For a
developer's own ``alembic`` command, ``sqlalchemy.url`` in the configuration
names the database instead.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from quads.storage.tables import metadata

config = context.config
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    url = config.get_main_option("sqlalchemy.url")
    assert url, "set sqlalchemy.url, or run the migrations through quads.storage"
    with create_engine(url).connect() as own:
        context.configure(connection=own, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
