"""Opening a store: the URL or file path, the SQLite pragmas, the schema's migrations, and
the messages that say why a store could not be opened or written (never advice that
loses data)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import OperationalError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from research_radar.config import is_database_url
from research_radar.errors import StorageError
from research_radar.store.fresh import HEAD, create_fresh, current_revision

__all__ = ["connect_store", "upgrade_store", "write_failure"]


def _migrations_dir() -> Path:
    return Path(__file__).parent / "migrations"


def upgrade_store(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision.

    Safe when several processes open a fresh store at once: a store already at the newest
    revision is only read (so a read-only store opens), and a migration runs under a lock
    (SQLite: an immediate write transaction; PostgreSQL: an advisory lock), so the second
    process waits, then finds the schema made and changes nothing. An empty SQLite store
    gets the migrations' result in one step (`store.fresh`, #19).
    """
    if _at_head(engine):
        return
    with _migration_lock(engine) as connection:
        if create_fresh(connection):
            return
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(_migrations_dir()))
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _at_head(engine: Engine) -> bool:
    """True when the store's schema is at the newest revision (read only)."""
    with engine.connect() as connection:
        current = current_revision(connection)
    return current is not None and current == HEAD


_MIGRATION_LOCK = 0x5241444152  # "RADAR": the PostgreSQL advisory lock of a migration


@contextmanager
def _migration_lock(engine: Engine) -> Iterator[Connection]:
    """A connection in a transaction that no other process can migrate alongside."""
    if engine.dialect.name == "sqlite":
        # pysqlite would defer BEGIN to the first INSERT; take the write lock up front
        locked = create_engine(
            engine.url,
            poolclass=NullPool,
            connect_args={"isolation_level": None, "timeout": 60},
        )
        try:
            with locked.connect() as connection:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    yield connection
                except BaseException:
                    connection.exec_driver_sql("ROLLBACK")
                    raise
                connection.exec_driver_sql("COMMIT")
        finally:
            locked.dispose()
        return
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
        yield connection


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    # WAL: a reader never waits for the writer, nor the writer for readers (issue #19);
    # NORMAL is durable in WAL mode up to the last committed transaction.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def connect_store(url: str) -> Engine:
    """The engine of the store at a SQLAlchemy URL or a file path, its schema created or
    upgraded.

    A file store's folder must exist: a mistyped path never leaves new folders behind.
    """
    if not is_database_url(url):
        path = Path(url).expanduser()
        if path.is_dir():
            raise StorageError(
                f"the store {path} is a folder; give a file path, e.g. {path}/radar.db"
            )
        if not path.parent.is_dir():
            raise StorageError(
                f"cannot create the store {path}: the folder {path.parent} does not exist "
                "(or is not a folder); create it first or pass another --db"
            )
        url = f"sqlite:///{path}"
    try:
        engine = create_engine(url)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        upgrade_store(engine)
    except SQLAlchemyError as exc:
        raise StorageError(_open_failure(url, exc)) from exc
    except ModuleNotFoundError as exc:
        raise StorageError(
            f"cannot open the store {_safe_url(url)}: its database driver is not installed "
            f"({exc.name}); for PostgreSQL run `pip install 'research-radar[postgres]'`"
        ) from exc
    return engine


def _safe_url(url: str) -> str:
    """A store URL without its password, fit for a message."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return url


def _open_failure(url: str, exc: SQLAlchemyError) -> str:
    """Why a store could not be opened, and what to check: never advice that loses data."""
    detail = " ".join(str(getattr(exc, "orig", None) or exc).split())
    where = _safe_url(url)
    if "readonly" in detail or "read-only" in detail:
        return (
            f"the store {where} is read-only and needs its schema created or upgraded; "
            "open it once with write access"
        )
    if "file is not a database" in detail or "not a database" in detail:
        return (
            f"{where} is not a radar store (not an SQLite database); nothing was changed. "
            "Pass --db (or RADAR_DB) with the path of your store, or a new file name"
        )
    return (
        f"cannot open the store {where}: {exc.__class__.__name__}: {detail}. "
        "Check --db / RADAR_DB and that the database is reachable; nothing was changed"
    )


def write_failure(engine: Engine, exc: OperationalError) -> str:
    detail = " ".join(str(exc.orig or exc).split())
    where = _safe_url(str(engine.url))
    if "readonly" in detail or "read-only" in detail:
        return (
            f"the store {where} is read-only: this command writes to it. "
            "Use a writable copy (--db) or a read-only command such as `radar runs`"
        )
    if "locked" in detail:
        return f"the store {where} is busy (locked by another process); try again shortly"
    return f"the store {where} could not be written: {detail}"
