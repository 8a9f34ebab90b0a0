from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    select,
)

from research_radar.store.upserts import upsert_many

_TABLE = Table(
    "things",
    MetaData(),
    Column("key", Integer, primary_key=True),
    Column("value", JSON),
    Column("day", Date),
    Column("at", DateTime(timezone=True)),
    Column("flag", Boolean),
    Column("label", String(16), default="none"),
)


def _rows(path: Path, rows: list[dict[str, object]], update: tuple[str, ...] = ()) -> list[tuple]:
    engine = create_engine(f"sqlite:///{path}")
    _TABLE.metadata.create_all(engine)
    with engine.begin() as conn:
        upsert_many(conn, _TABLE, ["key"], rows, update)
    with engine.connect() as conn:
        found = [tuple(row) for row in conn.execute(select(_TABLE).order_by(_TABLE.c.key))]
    engine.dispose()
    return found


def test_equal_values_of_other_types_stay_apart(tmp_path: Path) -> None:
    """A value met before is converted once, but 1 and True (equal in Python) are not one
    value; nor are 0 and False."""
    at = datetime(2026, 3, 1, 8, 30, 15, 250, tzinfo=UTC)
    values: list[object] = [True, 1, False, 0, {"a": [1, "二"]}, None, 1, True, 0]
    rows = [
        {"key": n, "value": value, "day": date(2026, 3, 1), "at": at, "flag": n % 2 == 0}
        for n, value in enumerate(values)
    ]
    found = _rows(tmp_path / "a.db", [{**row, "label": "x"} for row in rows])
    assert [row[1] for row in found] == values
    assert [type(row[1]) for row in found] == [type(value) for value in values]
    assert {row[2] for row in found} == {date(2026, 3, 1)}
    assert {row[3] for row in found} == {at.replace(tzinfo=None)}
    assert [row[4] for row in found] == [n % 2 == 0 for n in range(len(values))]


def test_a_column_default_is_written_when_rows_leave_it_out(tmp_path: Path) -> None:
    rows = [{"key": 1, "value": [], "day": None, "at": None, "flag": None}]
    assert _rows(tmp_path / "b.db", rows) == [(1, [], None, None, None, "none")]


def test_a_stored_key_is_updated_or_kept(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    first = {"key": 1, "value": "a", "day": None, "at": None, "flag": False, "label": "first"}
    _rows(path, [first])
    again = {**first, "value": "b", "label": "again"}
    assert _rows(path, [again]) == [(1, "a", None, None, False, "first")]
    assert _rows(path, [again], update=("value",)) == [(1, "b", None, None, False, "first")]


def test_serialised_json_is_written_as_it_is_and_reads_back_as_json(tmp_path: Path) -> None:
    """A `JsonText` value is the column's JSON already: read back as what it encodes, on
    the driver's path and on SQLAlchemy's (a row that leaves a default out); the text is
    stored as given, not encoded again."""
    from research_radar.store.upserts import JsonText

    rows = [
        {"key": n, "value": JsonText(text), "day": None, "at": None, "flag": None}
        for n, text in enumerate(['{"a": [1, "二"]}', "123", '"x"', "null"])
    ]
    expected = [{"a": [1, "二"]}, 123, "x", None]
    assert [row[1] for row in _rows(tmp_path / "d.db", [{**r, "label": "y"} for r in rows])] == (
        expected
    )
    assert [row[1] for row in _rows(tmp_path / "e.db", rows)] == expected  # default: SQLAlchemy
    engine = create_engine(f"sqlite:///{tmp_path / 'd.db'}")
    with engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT value FROM things WHERE key = 0").scalar()
    engine.dispose()
    assert stored == '{"a": [1, "二"]}'


def test_serialised_and_plain_values_of_one_column_are_refused(tmp_path: Path) -> None:
    from research_radar.store.upserts import JsonText

    rows: list[dict[str, object]] = [
        {"key": 1, "value": JsonText("{}"), "day": None, "at": None, "flag": None},
        {"key": 2, "value": {}, "day": None, "at": None, "flag": None},
    ]
    with pytest.raises(TypeError, match="serialised"):
        _rows(tmp_path / "f.db", rows)
