"""What a run added to the store, so a mistaken run can be undone exactly.

`mark(store)` notes the store's extent before a run (the highest row ids, the keys of
keyed tables, the cursors); `added(store, before)` lists what appeared since, kept in the
run's summary; `undo_run(store, run_id)` deletes exactly those rows, puts back the cursors
the run moved (unless a later run moved them again) and marks the run `undone`. Rows the
run only updated are left as they are. Runs on one store never interleave (a daily run
holds `Store.exclusive()`), so what appeared during a run is what that run added.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import Table, func, select

from research_radar.errors import StorageError
from research_radar.store.schema import (
    aliases,
    claims,
    corrections,
    cursors,
    findings,
    project_sources,
    projects,
    raw_responses,
    reports,
    runs,
    snapshots,
    sources,
)
from research_radar.store.store import Store

__all__ = ["Marks", "UndoSummary", "added", "mark", "undo_run"]

_BY_ID: dict[str, Table] = {
    "findings": findings,
    "snapshots": snapshots,
    "claims": claims,
    "corrections": corrections,
    "raw_responses": raw_responses,
}
_BY_KEY: dict[str, tuple[Table, str]] = {
    "sources": (sources, "key"),
    "projects": (projects, "key"),
    "aliases": (aliases, "alias"),
}


@dataclass
class Marks:
    """The store's extent at one moment."""

    ids: dict[str, int] = field(default_factory=dict)
    keys: dict[str, set[str]] = field(default_factory=dict)
    reports: set[tuple[str, str]] = field(default_factory=set)
    cursors: dict[tuple[str, str], str] = field(default_factory=dict)


@dataclass
class UndoSummary:
    """How many rows of each table an undo removed, and the cursors it put back."""

    run_id: int
    removed: dict[str, int] = field(default_factory=dict)
    cursors: int = 0


def mark(store: Store) -> Marks:
    """Note the store's extent (call before the run)."""
    marks = Marks()
    with store.engine.connect() as conn:
        for name, table in _BY_ID.items():
            marks.ids[name] = int(conn.execute(select(func.max(table.c.id))).scalar() or 0)
        for name, (table, column) in _BY_KEY.items():
            marks.keys[name] = {str(row[0]) for row in conn.execute(select(table.c[column]))}
        marks.reports = {
            (str(row[0]), str(row[1]))
            for row in conn.execute(select(reports.c.date, reports.c.language))
        }
        marks.cursors = {
            (str(row[0]), str(row[1])): str(row[2])
            for row in conn.execute(select(cursors.c.source, cursors.c.query, cursors.c.value))
        }
    return marks


def added(store: Store, before: Marks) -> dict[str, Any]:
    """What appeared since `before`, as JSON for the run's summary."""
    after = mark(store)
    result: dict[str, Any] = {}
    with store.engine.connect() as conn:
        for name, table in _BY_ID.items():
            rows = conn.execute(
                select(table.c.id).where(table.c.id > before.ids[name]).order_by(table.c.id)
            )
            result[name] = [int(row[0]) for row in rows]
    for name in _BY_KEY:
        result[name] = sorted(after.keys[name] - before.keys[name])
    result["reports"] = [list(item) for item in sorted(after.reports - before.reports)]
    result["cursors"] = [
        [source, query, before.cursors.get((source, query)), value]
        for (source, query), value in sorted(after.cursors.items())
        if before.cursors.get((source, query)) != value
    ]
    return result


def undo_run(store: Store, run_id: int) -> UndoSummary:
    """Remove exactly what run `run_id` added; the run is then marked `undone`.

    Raises StorageError when the run is unknown, still running, already undone, or
    recorded nothing to undo (it was interrupted before it could say what it added).
    """
    with store.engine.connect() as conn:
        row = conn.execute(select(runs.c.status, runs.c.summary).where(runs.c.id == run_id)).first()
    if row is None:
        raise StorageError(f"no run {run_id} in this store; see `radar runs`")
    status, summary = str(row[0]), dict(row[1] or {})
    if status == "undone":
        raise StorageError(f"run {run_id} was already undone")
    journal = summary.get("added")
    if status == "running" or not isinstance(journal, dict):
        raise StorageError(
            f"run {run_id} is {status} and recorded no list of what it added, so it cannot be "
            "undone exactly; nothing was changed"
        )
    result = UndoSummary(run_id=run_id)
    with store.transaction() as conn:
        for name, table in _BY_ID.items():
            ids = [int(i) for i in journal.get(name, [])]
            result.removed[name] = _delete_in(conn, table, table.c.id, ids)
        keys = [str(k) for k in journal.get("projects", [])]
        _delete_in(conn, project_sources, project_sources.c.project_key, keys)
        for name, (table, column) in _BY_KEY.items():
            keys = [str(k) for k in journal.get(name, [])]
            result.removed[name] = _delete_in(conn, table, table.c[column], keys)
        pairs = [(date.fromisoformat(d), str(lang)) for d, lang in journal.get("reports", [])]
        removed = 0
        for day, language in pairs:
            removed += conn.execute(
                reports.delete().where(reports.c.date == day, reports.c.language == language)
            ).rowcount
        result.removed["reports"] = removed
        for source, query, old, new in journal.get("cursors", []):
            where = (cursors.c.source == source, cursors.c.query == query, cursors.c.value == new)
            if old is None:
                changed = conn.execute(cursors.delete().where(*where)).rowcount
            else:
                changed = conn.execute(cursors.update().where(*where).values(value=old)).rowcount
            result.cursors += changed
        summary["undone"] = {"removed": result.removed, "cursors": result.cursors}
        conn.execute(
            runs.update().where(runs.c.id == run_id).values(status="undone", summary=summary)
        )
    return result


def _delete_in(conn: Any, table: Table, column: Any, values: list[Any]) -> int:
    removed = 0
    for start in range(0, len(values), 500):
        chunk = values[start : start + 500]
        removed += int(conn.execute(table.delete().where(column.in_(chunk))).rowcount or 0)
    return removed
