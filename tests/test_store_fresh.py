from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine

from research_radar.store.fresh import (
    HEAD,
    SCRIPT,
    create_fresh,
    current_revision,
    render_fresh_script,
)
from research_radar.store.store import open_store

MIGRATIONS = Path(__file__).parents[1] / "src" / "research_radar" / "store" / "migrations"


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def _migrated(path: Path, revision: str = "head") -> Engine:
    """A SQLite store brought to `revision` by the Alembic migrations themselves."""
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        config = _config()
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
    return engine


def _schema(engine: Engine) -> tuple[list[tuple[str, str, str, str | None]], str | None]:
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).all()
        return [tuple(row) for row in rows], current_revision(connection)  # type: ignore[misc]


def test_head_is_the_newest_migration() -> None:
    assert ScriptDirectory.from_config(_config()).get_current_head() == HEAD


def test_fresh_script_is_what_the_migrations_leave(tmp_path: Path, update_golden: bool) -> None:
    migrated = _migrated(tmp_path / "migrated.db")
    with migrated.connect() as connection:
        script = render_fresh_script(connection)
    if update_golden:
        SCRIPT.write_text(script, encoding="utf-8")
    assert script == SCRIPT.read_text(encoding="utf-8"), "run pytest --update-golden"
    fresh = open_store(str(tmp_path / "fresh.db"))
    tables, revision = _schema(fresh.engine)
    assert (tables, revision) == _schema(migrated)
    assert revision == HEAD and len(tables) > 30
    fresh.close()


def test_store_at_an_earlier_revision_is_upgraded_by_the_migrations(tmp_path: Path) -> None:
    _migrated(tmp_path / "old.db", "0002").dispose()
    store = open_store(str(tmp_path / "old.db"))
    upgraded, revision = _schema(store.engine)
    assert revision == HEAD
    assert upgraded == _schema(_migrated(tmp_path / "new.db"))[0]
    store.close()


def test_a_database_with_tables_is_never_made_fresh(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'other.db'}")
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE notes (id INTEGER)")
        assert not create_fresh(connection)
        assert current_revision(connection) is None
    with engine.begin() as connection:
        names = connection.exec_driver_sql("SELECT name FROM sqlite_master").scalars().all()
    assert names == ["notes"]
