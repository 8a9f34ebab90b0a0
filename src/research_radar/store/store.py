"""The store: SQLAlchemy 2 tables over SQLite by default (any SQLAlchemy URL works).

The schema is created and upgraded by the Alembic migrations in `migrations/`, never by
`create_all`, so a store made by one version opens in every later one (a new SQLite store
gets what they leave in one step: `store.fresh`, checked against them by a test). Each stage writes
inside one transaction (`Store.transaction()`): a crash mid-stage leaves the store as it
was before the stage, and running again finishes the work without duplicates.

SQLite runs in WAL mode, so readers never wait for the writer; still, a stage reads what it
needs before its transaction or through the transaction's own connection (issue #19).
Writes are batched `INSERT … ON CONFLICT` statements (SQLite's and PostgreSQL's dialect
insert), one executemany per table rather than a select and a write per row.

Opening a store (URL, pragmas, migrations, failure messages) is `store.opening`; the log
of runs and stages, which `Store` inherits, is `store.runlog`.
"""

from __future__ import annotations

import gzip
import logging
import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    Text,
    cast,
    func,
    select,
)
from sqlalchemy.exc import OperationalError

from research_radar.errors import StorageError
from research_radar.models import Claim, Correction, Finding, Project, Snapshot, Source
from research_radar.store.opening import connect_store, write_failure
from research_radar.store.rows import (
    RawRecord,
    claim_rows,
    content_hash,
    finding_rows,
    project_rows,
    raw_rows,
    snapshot_rows,
    source_rows,
)
from research_radar.store.runlog import RunLog, now
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
    snapshots,
    source_health,
    sources,
)
from research_radar.store.upserts import chunks as _chunks
from research_radar.store.upserts import upsert_many as _upsert_many

__all__ = ["Store", "open_store"]

log = logging.getLogger(__name__)


def open_store(url: str) -> Store:
    """Open (and create or upgrade) the store at a SQLAlchemy URL or a file path.

    A file store's folder must exist: a mistyped path never leaves new folders behind.
    """
    return Store(connect_store(url))


class Store(RunLog):
    """Read and write domain objects. All writes go through `transaction()`."""

    def __init__(self, engine: Engine):
        self.engine = engine
        # pooled connections are closed when the store goes (or at exit), never left open
        self._closer = weakref.finalize(self, engine.dispose)
        self._exclusive_depth = 0

    def close(self) -> None:
        """Close the store's pooled connections (it can still be used; they reopen)."""
        self.engine.dispose()

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One stage's writes: committed together or not at all.

        A store that cannot be written (read-only, locked) raises StorageError.
        """
        try:
            with self.engine.begin() as connection:
                yield connection
        except OperationalError as exc:
            raise StorageError(write_failure(self.engine, exc)) from exc

    def source_keys_updated_after(self, moment: datetime | None) -> list[str]:
        """Keys of the sources saved after `moment` (every source when None)."""
        query = select(sources.c.key).order_by(sources.c.key)
        if moment is not None:
            query = query.where(sources.c.updated_at > moment)
        with self.engine.connect() as conn:
            return [str(row[0]) for row in conn.execute(query)]

    # -- raw responses and cursors -------------------------------------------------------

    def save_raw(
        self,
        conn: Connection,
        source: str,
        request_key: str,
        body: bytes,
        *,
        status: int = 200,
        etag: str | None = None,
        last_modified: str | None = None,
        headers: dict[str, str] | None = None,
        fetched_at: datetime | None = None,
    ) -> bool:
        """Keep a raw response, gzip-compressed. Returns False when already kept."""
        record = RawRecord(
            request_key, body, status, etag, last_modified, headers or {}, fetched_at
        )
        return self.save_raws(conn, source, [record]) == 1

    def save_raws(self, conn: Connection, source: str, records: Iterable[RawRecord]) -> int:
        """Keep raw responses, gzip-compressed, once each by content. Returns how many were new."""
        rows = raw_rows(source, list(records), now())
        return _upsert_many(conn, raw_responses, ["source", "request_key", "content_hash"], rows)

    def load_raw(self, source: str, request_key: str) -> dict[str, Any] | None:
        """The newest raw response for a request, with its body decompressed."""
        with self.engine.connect() as conn:
            row = (
                conn.execute(
                    select(raw_responses)
                    .where(
                        raw_responses.c.source == source, raw_responses.c.request_key == request_key
                    )
                    .order_by(raw_responses.c.id.desc())
                    .limit(1)
                )
                .mappings()
                .first()
            )
        if row is None:
            return None
        result = dict(row)
        result["body"] = gzip.decompress(row["body"])
        return result

    def load_raw_keys(self, source: str, request_keys: Iterable[str]) -> set[str]:
        """Those of some request keys that have a kept response (a query per 500 keys)."""
        found: set[str] = set()
        with self.engine.connect() as conn:
            for chunk in _chunks(sorted(set(request_keys))):
                rows = conn.execute(
                    select(raw_responses.c.request_key)
                    .where(raw_responses.c.source == source, raw_responses.c.request_key.in_(chunk))
                    .distinct()
                )
                found.update(str(row[0]) for row in rows)
        return found

    def load_raw_key_set(self, source: str, at_most: int) -> set[str] | None:
        """Every request key of a source that has a kept response, or None when there are
        more than `at_most` of them (one query)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(raw_responses.c.request_key)
                .where(raw_responses.c.source == source)
                .distinct()
                .limit(at_most + 1)
            ).all()
        return {str(row[0]) for row in rows} if len(rows) <= at_most else None

    def load_cursor(self, source: str, query: str) -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(cursors.c.value).where(cursors.c.source == source, cursors.c.query == query)
            ).first()
        return None if row is None else str(row[0])

    def save_cursor(self, conn: Connection, source: str, query: str, value: str) -> None:
        self.save_cursors(conn, source, {query: value})

    def save_cursors(self, conn: Connection, source: str, values: Mapping[str, str]) -> None:
        """Keep the cursors of a source (query -> value) in one batch (#19)."""
        moment = now()
        rows = [
            {"source": source, "query": query, "value": value, "updated_at": moment}
            for query, value in values.items()
        ]
        _upsert_many(conn, cursors, ["source", "query"], rows, ("value", "updated_at"))

    def save_health(
        self, conn: Connection, source: str, ok: bool, error: str | None = None
    ) -> None:
        moment = now()
        values: dict[str, Any] = {"status": "ok" if ok else "failed", "updated_at": moment}
        values["last_error"] = None if ok else error
        if ok:
            values["last_ok_at"] = moment
        _upsert(conn, source_health, {"source": source}, values)

    def load_health(self) -> dict[str, dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(source_health)).mappings()
            return {row["source"]: dict(row) for row in rows}

    # -- sources, snapshots, claims -----------------------------------------------------

    def save_source(self, conn: Connection, source: Source) -> None:
        self.save_sources(conn, [source])

    def save_sources(
        self, conn: Connection, items: Iterable[Source], *, only_new: bool = False
    ) -> None:
        """Insert or update sources; with `only_new`, leave sources already kept as they are."""
        rows = source_rows(items, now())
        update = () if only_new else ("kind", "url", "title", "data", "updated_at")
        _upsert_many(conn, sources, ["key"], rows, update)

    def load_sources(self, kind: str | None = None) -> list[Source]:
        query = select(sources.c.data).order_by(sources.c.key)
        if kind:
            query = query.where(sources.c.kind == kind)
        with self.engine.connect() as conn:
            return [Source.model_validate(row[0]) for row in conn.execute(query)]

    def load_sources_of(self, keys: Iterable[str]) -> dict[str, Source]:
        """Some sources by key (those the store has)."""
        found: dict[str, Source] = {}
        with self.engine.connect() as conn:
            for chunk in _chunks(sorted(set(keys))):
                rows = conn.execute(
                    select(sources.c.key, sources.c.data).where(sources.c.key.in_(chunk))
                )
                found.update((key, Source.model_validate(data)) for key, data in rows)
        return found

    def load_source(self, key: str) -> Source | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(sources.c.data).where(sources.c.key == key)).first()
        return None if row is None else Source.model_validate(row[0])

    def save_snapshot(self, conn: Connection, snapshot: Snapshot) -> None:
        self.save_snapshots(conn, [snapshot])

    def save_snapshots(self, conn: Connection, items: Iterable[Snapshot]) -> None:
        rows = snapshot_rows(items, now())
        _upsert_many(conn, snapshots, ["source_key", "version"], rows, ("version_date", "data"))

    def load_snapshots(self, source_key: str) -> list[Snapshot]:
        """Snapshots of a source, newest version date first."""
        return self.load_snapshots_of([source_key]).get(source_key, [])

    def load_snapshots_of(
        self, source_keys: Iterable[str], conn: Connection | None = None
    ) -> dict[str, list[Snapshot]]:
        """Snapshots of several sources in one pass: source key → newest version date first.

        Pass `conn` to read inside an open transaction (its own writes included)."""
        wanted = sorted(set(source_keys))
        found: dict[str, list[Snapshot]] = {}
        with _reading(self.engine, conn) as reader:
            for chunk in _chunks(wanted):
                rows = reader.execute(
                    select(snapshots.c.source_key, snapshots.c.data)
                    .where(snapshots.c.source_key.in_(chunk))
                    .order_by(
                        snapshots.c.source_key,
                        snapshots.c.version_date.desc(),
                        snapshots.c.id.desc(),
                    )
                )
                for key, data in rows:
                    found.setdefault(key, []).append(Snapshot.model_validate(data))
        return found

    def save_claims(
        self, conn: Connection, source_key: str, version: str, items: list[Claim]
    ) -> int:
        """Keep claims once each (by content). Returns how many were new."""
        return self.save_claims_of(conn, [(source_key, version, items)])

    def save_claims_of(
        self, conn: Connection, groups: Iterable[tuple[str, str, list[Claim]]]
    ) -> int:
        """`save_claims` of many (source key, version, claims) in one batch (#19)."""
        return _upsert_many(conn, claims, ["hash"], claim_rows(groups))

    def load_claims(self, source_key: str, version: str | None = None) -> list[Claim]:
        query = select(claims.c.data).where(claims.c.source_key == source_key).order_by(claims.c.id)
        if version is not None:
            query = query.where(claims.c.version == version)
        with self.engine.connect() as conn:
            return [Claim.model_validate(row[0]) for row in conn.execute(query)]

    # -- findings, projects, aliases ------------------------------------------------------

    def save_finding(self, conn: Connection, finding: Finding, origin: str = "radar") -> None:
        self.save_findings(conn, [finding], [origin])

    def save_findings(
        self,
        conn: Connection,
        items: Sequence[Finding],
        origins: Sequence[str] | None = None,
    ) -> None:
        """Insert or update findings; `origins` gives each one's origin (default "radar")."""
        rows = finding_rows(
            items, origins if origins is not None else ["radar"] * len(items), now()
        )
        update = ("name", "family", "data", "family_indexed", "name_slug")
        _upsert_many(conn, findings, ["project_key", "date", "origin"], rows, update)

    def load_findings(
        self,
        on: date | None = None,
        before: date | None = None,
        origin: str | None = None,
        *,
        except_origins: Iterable[str] = (),
    ) -> list[Finding]:
        """Findings, oldest first; filter by a day, by `before` (exclusive), by origin or
        leave some origins out."""
        query = select(findings.c.data).order_by(findings.c.date, findings.c.id)
        left_out = sorted(set(except_origins))
        if left_out:
            query = query.where(findings.c.origin.not_in(left_out))
        if on is not None:
            query = query.where(findings.c.date == on)
        if before is not None:
            query = query.where(findings.c.date < before)
        if origin is not None:
            query = query.where(findings.c.origin == origin)
        with self.engine.connect() as conn:
            return [Finding.model_validate(row[0]) for row in conn.execute(query)]

    def load_finding_texts(self) -> list[str]:
        """Every finding as the JSON text it is stored as, oldest first (by date, then as
        stored), for a reader that validates it straight from the text
        (`Finding.model_validate_json`): the driver's JSON decoding, a third of reading a
        large store, is left out (issue #18)."""
        query = select(cast(findings.c.data, Text)).order_by(findings.c.date, findings.c.id)
        with self.engine.connect() as conn:
            return [str(row[0]) for row in conn.execute(query)]

    def load_finding_rows(self) -> list[dict[str, Any]]:
        """Every finding row with its origin, for history listings."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    findings.c.project_key, findings.c.date, findings.c.origin, findings.c.name
                ).order_by(findings.c.date, findings.c.id)
            ).mappings()
            return [dict(row) for row in rows]

    def save_project(self, conn: Connection, project: Project) -> None:
        self.save_projects(conn, [project])

    def save_projects(
        self,
        conn: Connection,
        items: Iterable[Project],
        *,
        linked: Mapping[tuple[str, str], tuple[str, str]] | None = None,
    ) -> None:
        """Insert or update projects and their links to sources.

        `linked`: links this transaction wrote already (`save_project_sources`), which are
        not written again where they hold the relation a project gives that source (every
        writer gives a source the same relation to a project: `primary` to its own key).
        """
        rows, links = project_rows(items, now())
        if linked:
            links = [
                link
                for link in links
                if linked.get((link["project_key"], link["source_key"]), ("",))[0]
                != link["relation"]
            ]
        update = ("name", "fork_of", "derivative", "family", "data")
        _upsert_many(conn, projects, ["key"], rows, update)
        _upsert_many(conn, project_sources, ["project_key", "source_key"], links, ("relation",))

    def save_project_sources(
        self, conn: Connection, links: Mapping[tuple[str, str], tuple[str, str]]
    ) -> int:
        """Link projects to sources, keeping links already stored as they are.

        Args:
            links: (project key, source key) → (relation, evidence).

        Returns how many links were new.
        """
        rows = [
            {"project_key": project, "source_key": source, "relation": rel, "evidence": why}
            for (project, source), (rel, why) in links.items()
        ]
        return _upsert_many(conn, project_sources, ["project_key", "source_key"], rows)

    def load_projects(self) -> list[Project]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(projects.c.data).order_by(projects.c.key))
            return [Project.model_validate(row[0]) for row in rows]

    def load_projects_of(self, keys: Iterable[str]) -> dict[str, Project]:
        """Some projects by key (those the store has)."""
        found: dict[str, Project] = {}
        with self.engine.connect() as conn:
            for chunk in _chunks(sorted(set(keys))):
                rows = conn.execute(
                    select(projects.c.key, projects.c.data).where(projects.c.key.in_(chunk))
                )
                found.update((key, Project.model_validate(data)) for key, data in rows)
        return found

    def save_alias(
        self, conn: Connection, alias: str, project_key: str, kind: str, evidence: str = ""
    ) -> None:
        self.save_aliases(conn, {alias: (project_key, kind, evidence)})

    def save_aliases(self, conn: Connection, items: Mapping[str, tuple[str, str, str]]) -> None:
        """Insert or update aliases: alias → (project key, kind, evidence)."""
        rows = [
            {"alias": alias, "project_key": key, "kind": kind, "evidence": evidence}
            for alias, (key, kind, evidence) in items.items()
        ]
        _upsert_many(conn, aliases, ["alias"], rows, ("project_key", "kind", "evidence"))

    def load_aliases(self) -> dict[str, str]:
        """alias -> project key."""
        with self.engine.connect() as conn:
            return {
                row[0]: row[1]
                for row in conn.execute(select(aliases.c.alias, aliases.c.project_key))
            }

    def save_corrections(self, conn: Connection, items: Iterable[tuple[date, Correction]]) -> int:
        """Keep corrections once each (project, day, text). Returns how many were new."""
        rows = [
            {
                "project_key": correction.project_key,
                "date": day,
                "text": correction.text,
                "data": correction.model_dump(mode="json"),
            }
            for day, correction in items
        ]
        return _upsert_many(conn, corrections, ["project_key", "date", "text"], rows)

    # -- reports ----------------------------------------------------------------------

    def save_report(
        self, conn: Connection, day: date, language: str, markdown: str, data: dict[str, Any]
    ) -> None:
        _upsert(
            conn,
            reports,
            {"date": day, "language": language},
            {"markdown": markdown, "content_hash": content_hash(markdown), "data": data},
            insert_only={"created_at": now()},
        )

    def load_report_data(self, day: date, language: str = "zh") -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(reports.c.data).where(reports.c.date == day, reports.c.language == language)
            ).first()
        return None if row is None else dict(row[0])

    def load_reports(self, language: str = "zh") -> list[tuple[date, str, dict[str, Any]]]:
        """Every report in `language` as (day, Markdown, data), oldest first."""
        query = (
            select(reports.c.date, reports.c.markdown, reports.c.data)
            .where(reports.c.language == language)
            .order_by(reports.c.date)
        )
        with self.engine.connect() as conn:
            return [(day, str(text), dict(data or {})) for day, text, data in conn.execute(query)]

    def first_report_day(self) -> date | None:
        """The day of the earliest report the radar wrote into this store (None: none yet)."""
        with self.engine.connect() as conn:
            return conn.execute(select(func.min(reports.c.date))).scalar()

    def load_report(self, day: date, language: str = "zh") -> str | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(reports.c.markdown).where(
                    reports.c.date == day, reports.c.language == language
                )
            ).first()
        return None if row is None else str(row[0])


def _upsert(
    conn: Connection,
    table: Table,
    keys: dict[str, Any],
    values: dict[str, Any],
    insert_only: dict[str, Any] | None = None,
) -> None:
    """Update the row with `keys`, or insert it (with `insert_only` too)."""
    _upsert_many(conn, table, list(keys), [{**keys, **values, **(insert_only or {})}], values)


@contextmanager
def _reading(engine: Engine, conn: Connection | None) -> Iterator[Connection]:
    """The given connection (inside its transaction), else a new one for this read."""
    if conn is not None:
        yield conn
        return
    with engine.connect() as reader:
        yield reader
