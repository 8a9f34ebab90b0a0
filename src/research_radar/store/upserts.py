"""Batched upserts: the store's writes as `INSERT … ON CONFLICT`, one executemany a batch.

`upsert_many` writes rows of a table (dicts of column → value) on SQLite and PostgreSQL
with the dialect's conflict clause, and on other databases with a select then an insert
or update per row. On SQLite the batch goes to the driver at once (`_driver_rows`): the
statement is compiled once and each column converted by its type's own bind processor,
a value met before converted once, rather than each row's parameters built by
SQLAlchemy one at a time, most of a large import's write (#19). What is stored is the
same.

A JSON column's value may come serialised already (`JsonText`, e.g. pydantic's
`model_dump_json`, several times faster than `model_dump` and then `json.dumps`): it is
written as it is, as text on SQLite and cast to JSON on PostgreSQL (#19).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, Table, Text, bindparam, cast, select

__all__ = ["BATCH", "JsonText", "chunks", "conflict_insert", "upsert_many"]


class JsonText(str):
    """A JSON column's value, serialised already: `upsert_many` writes the text as it is."""


BATCH = 500
"""Rows per executemany, and keys per `IN (…)` (below SQLite's bound variable limit)."""


def chunks(items: Sequence[Any]) -> Iterator[Sequence[Any]]:
    """`items` in slices of `BATCH`."""
    for start in range(0, len(items), BATCH):
        yield items[start : start + BATCH]


def upsert_many(
    conn: Connection,
    table: Table,
    keys: list[str],
    rows: list[dict[str, Any]],
    update: Iterable[str] = (),
) -> int:
    """Insert rows; a row whose `keys` are already stored has its `update` columns
    overwritten (none: it is left as it is). Returns how many rows were inserted or updated.

    One `INSERT … ON CONFLICT` executemany per batch on SQLite and PostgreSQL; other
    databases get a select then an insert or update per row. Every row names the same
    columns.
    """
    columns = list(update)
    if not rows:
        return 0
    name = conn.dialect.name
    serialised = _serialised(rows)
    if name not in ("sqlite", "postgresql"):
        decoded = ({**row, **{c: json.loads(row[c]) for c in serialised}} for row in rows)
        return sum(_upsert_slow(conn, table, keys, row, columns) for row in decoded)
    statement = conflict_insert(table, name, keys, columns, serialised)
    if name == "postgresql":
        return _upsert_returning(conn, statement, table, keys, rows, last_wins=bool(columns))
    driver = _driver_statement(
        conn.dialect, table, tuple(keys), tuple(columns), tuple(rows[0]), serialised
    )
    changed = 0
    for batch in chunks(rows):
        if driver is None:
            result = conn.execute(statement, batch)
        else:
            sql, order, processors = driver
            result = conn.exec_driver_sql(sql, _driver_rows(batch, order, processors))
        changed += max(result.rowcount, 0)
    return changed


def _serialised(rows: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """The columns whose values come serialised (`JsonText`): all of a column's, or none."""
    columns = tuple(column for column, value in rows[0].items() if isinstance(value, JsonText))
    for column in columns:
        if not all(isinstance(row[column], JsonText) for row in rows):
            raise TypeError(f"{column}: some values are serialised (JsonText), some not")
    return columns


Processor = Any
"""A column type's bind processor (value → what the driver takes), or None."""


@functools.lru_cache(maxsize=128)
def _driver_statement(
    dialect: Any,
    table: Table,
    keys: tuple[str, ...],
    update: tuple[str, ...],
    columns: tuple[str, ...],
    serialised: tuple[str, ...] = (),
) -> tuple[str, list[str], list[Processor]] | None:
    """The SQL of the upsert for the driver (SQLite's `?` parameters), its parameters'
    columns in order and their types' bind processors (none for a `serialised` column);
    None when SQLAlchemy adds parameters the rows do not give (a column's Python-side
    default): then it writes."""
    statement = conflict_insert(table, dialect.name, list(keys), list(update), serialised)
    compiled = statement.compile(dialect=dialect, column_keys=list(columns))
    order = list(compiled.positiontup or ())
    if dialect.paramstyle != "qmark" or sorted(order) != sorted(columns):
        return None
    processors = [
        None if column in serialised else table.c[column].type._cached_bind_processor(dialect)
        for column in order
    ]
    return str(compiled), order, processors


def _driver_rows(
    rows: Sequence[dict[str, Any]], order: list[str], processors: list[Processor]
) -> list[tuple[Any, ...]]:
    """The rows as the driver's parameter tuples, each value through its column's
    processor; a hashable value (a date, the write's timestamp) is converted once."""
    values: list[Any] = []
    for column, processor in zip(order, processors, strict=True):
        column_values = [row[column] for row in rows]
        if processor is not None:
            column_values = _processed(column_values, processor)
        values.append(column_values)
    return list(zip(*values, strict=True))


def _processed(values: list[Any], processor: Processor) -> list[Any]:
    """`processor` of each value; values equal in type and value are converted once."""
    done: dict[tuple[type, Any], Any] = {}
    result = []
    for value in values:
        try:
            seen = (value.__class__, value)
            converted = done[seen] if seen in done else done.setdefault(seen, processor(value))
        except TypeError:  # unhashable: a dict or list for a JSON column
            converted = processor(value)
        result.append(converted)
    return result


def _upsert_returning(
    conn: Connection,
    statement: Any,
    table: Table,
    keys: list[str],
    rows: list[dict[str, Any]],
    *,
    last_wins: bool,
) -> int:
    """PostgreSQL gives no row count for an executemany: count the rows that RETURNING
    gives instead, one multi-row INSERT per batch. A key given twice is written once (the
    last row when it updates, the first when it only inserts, as row by row would), since
    one INSERT may not touch a row twice."""
    unique: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        key = tuple(row[name] for name in keys)
        if last_wins or key not in unique:
            unique[key] = row
    batch = list(unique.values())
    returning = statement.returning(table.c[keys[0]])
    return sum(len(conn.execute(returning, part).all()) for part in chunks(batch))


def conflict_insert(
    table: Table, dialect: str, keys: list[str], update: list[str], serialised: Sequence[str] = ()
) -> Any:
    """`INSERT … ON CONFLICT (keys) DO UPDATE SET update… | DO NOTHING` in the dialect's form.

    `serialised`: JSON columns whose values are given as JSON text (`JsonText`)."""
    statement = _dialect_insert(dialect)(table)
    if serialised:
        # SQLite keeps JSON as text; a cast there would give `123` numeric affinity
        statement = statement.values(
            {
                column: bindparam(column, type_=Text)
                if dialect == "sqlite"
                else cast(bindparam(column, type_=Text), table.c[column].type)
                for column in serialised
            }
        )
    if update:
        return statement.on_conflict_do_update(
            index_elements=keys, set_={column: statement.excluded[column] for column in update}
        )
    return statement.on_conflict_do_nothing(index_elements=keys)


def _dialect_insert(dialect: str) -> Any:
    """The dialect's `insert`, importing only that dialect: an import into SQLite need not
    load PostgreSQL's (#19)."""
    if dialect == "sqlite":
        from sqlalchemy.dialects import sqlite

        return sqlite.insert
    from sqlalchemy.dialects import postgresql

    return postgresql.insert


def _upsert_slow(
    conn: Connection, table: Table, keys: list[str], row: dict[str, Any], update: list[str]
) -> int:
    condition = [table.c[name] == row[name] for name in keys]
    if conn.execute(select(table.c[keys[0]]).where(*condition)).first() is None:
        conn.execute(table.insert().values(**row))
        return 1
    if update:
        conn.execute(table.update().where(*condition).values({c: row[c] for c in update}))
        return 1
    return 0
