"""Alembic environment: migrations run on the connection the store hands over."""

from alembic import context

from research_radar.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only for `alembic revision --autogenerate` by hand
    from sqlalchemy import create_engine

    url = context.config.get_main_option("sqlalchemy.url") or "sqlite:///radar-dev.db"
    connection = create_engine(url).connect()

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
