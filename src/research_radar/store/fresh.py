"""A new SQLite store's schema in one step: the statements the migrations leave (#19).

Running the Alembic migrations on an empty SQLite file means importing Alembic, reading
every revision and rebuilding tables batch by batch; `radar daily --sample` paid that on
every run, since it starts a new store each time. `fresh_schema.sql` beside this module
holds what `upgrade head` leaves in an empty file: each `CREATE` statement as
`sqlite_master` keeps it, and the head revision in `alembic_version`. A test makes one
store each way and compares `sqlite_master` and `alembic_version`, so the script is the
migrations' result rather than a second schema to keep in step; when a migration is
added, that test fails until the script is written again (`pytest --update-golden`).

A store that holds any table is upgraded by Alembic as before. Whether a store is at the
head is read from its `alembic_version` table, without importing Alembic.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, inspect, text

__all__ = [
    "HEAD",
    "SCRIPT",
    "create_fresh",
    "current_revision",
    "fresh_statements",
    "render_fresh_script",
]

HEAD = "0003"
"""The newest migration's revision (a test keeps it equal to Alembic's head)."""
SCRIPT = Path(__file__).parent / "fresh_schema.sql"
_SEPARATOR = ";\n\n"


def fresh_statements() -> list[str]:
    """The recorded statements, in order: tables, then indexes, then the head revision."""
    body = SCRIPT.read_text(encoding="utf-8").strip()
    return [statement for statement in body.split(_SEPARATOR) if statement.strip()]


def create_fresh(connection: Connection) -> bool:
    """Create the schema at the head revision in an empty SQLite database, inside the
    connection's transaction (which holds the write lock). Returns False, changing
    nothing, when the database is not SQLite or already holds a table."""
    if connection.dialect.name != "sqlite":
        return False
    tables = connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar()
    if tables:
        return False
    for statement in fresh_statements():
        connection.exec_driver_sql(statement)
    return True


def current_revision(connection: Connection) -> str | None:
    """The revision in the store's `alembic_version` table (None without one)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def render_fresh_script(connection: Connection) -> str:
    """The script of a SQLite store that the migrations brought to the head: its tables,
    then its indexes (as `sqlite_master` keeps them), then its revision."""
    rows = connection.exec_driver_sql(
        "SELECT type, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
        "ORDER BY type = 'index', rowid"
    ).all()
    revision = current_revision(connection)
    statements = [sql for _type, sql in rows]
    statements.append(f"INSERT INTO alembic_version (version_num) VALUES ('{revision}')")
    return _SEPARATOR.join(statements) + ";\n"
