"""The store's tables (SQLAlchemy Core). The Alembic migrations create and change them.

Rows keep whole domain objects as JSON in `data` beside the columns that queries filter
on, so a new field on a model needs no migration; a new column or table does.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

__all__ = [
    "aliases",
    "claims",
    "corrections",
    "cursors",
    "family_bands",
    "family_entries",
    "family_terms",
    "findings",
    "host_snapshots",
    "metadata",
    "project_sources",
    "projects",
    "publications",
    "raw_responses",
    "reports",
    "runs",
    "snapshots",
    "source_health",
    "sources",
    "stage_runs",
]

metadata = MetaData()

runs = Table(
    "runs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("command", String(64), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True)),
    Column("status", String(16), nullable=False, default="running"),
    Column("summary", JSON, nullable=False, default=dict),
)

stage_runs = Table(
    "stage_runs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("run_id", Integer, nullable=False, index=True),
    Column("stage", String(32), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True)),
    Column("status", String(16), nullable=False, default="running"),
    Column("counts", JSON, nullable=False, default=dict),
    Column("errors", JSON, nullable=False, default=dict),
)

raw_responses = Table(
    "raw_responses",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("source", String(32), nullable=False),
    Column("request_key", Text, nullable=False),
    Column("status", Integer, nullable=False, default=200),
    Column("etag", String(256)),
    Column("last_modified", String(64)),
    Column("headers", JSON, nullable=False, default=dict),
    Column("body", LargeBinary, nullable=False),
    Column("content_hash", String(64), nullable=False),
    Column("fetched_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("source", "request_key", "content_hash", name="uq_raw_response"),
)

cursors = Table(
    "cursors",
    metadata,
    Column("source", String(32), primary_key=True),
    Column("query", Text, primary_key=True),
    Column("value", Text, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

source_health = Table(
    "source_health",
    metadata,
    Column("source", String(64), primary_key=True),
    Column("status", String(16), nullable=False),
    Column("last_ok_at", DateTime(timezone=True)),
    Column("last_error", Text),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

sources = Table(
    "sources",
    metadata,
    Column("key", String(512), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("url", Text, nullable=False),
    Column("title", Text, nullable=False, default=""),
    Column("data", JSON, nullable=False),
    Column("first_seen_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("source_key", String(512), nullable=False, index=True),
    Column("version", String(128), nullable=False),
    Column("version_date", DateTime(timezone=True)),
    Column("data", JSON, nullable=False),
    Column("observed_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("source_key", "version", name="uq_snapshot"),
)

projects = Table(
    "projects",
    metadata,
    Column("key", String(512), primary_key=True),
    Column("name", Text, nullable=False),
    Column("fork_of", String(512)),
    Column("derivative", Boolean, nullable=False, default=False),
    Column("family", String(128)),
    Column("data", JSON, nullable=False, default=dict),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

project_sources = Table(
    "project_sources",
    metadata,
    Column("project_key", String(512), primary_key=True),
    Column("source_key", String(512), primary_key=True),
    Column("relation", String(16), nullable=False),
    Column("evidence", Text, nullable=False, default=""),
)

aliases = Table(
    "aliases",
    metadata,
    Column("alias", String(512), primary_key=True),
    Column("project_key", String(512), nullable=False, index=True),
    Column("kind", String(32), nullable=False),
    Column("evidence", Text, nullable=False, default=""),
)

claims = Table(
    "claims",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("source_key", String(512), nullable=False, index=True),
    Column("version", String(128), nullable=False, default=""),
    Column("kind", String(16), nullable=False),
    Column("data", JSON, nullable=False),
    Column("hash", String(64), nullable=False, unique=True),
)

findings = Table(
    "findings",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_key", String(512), nullable=False, index=True),
    Column("date", Date, nullable=False),
    Column("origin", String(256), nullable=False, default="radar"),
    Column("name", Text, nullable=False),
    Column("family", String(128), index=True),
    Column("data", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # whether `family_entries` has seen this row's current data (reset on every update)
    Column("family_indexed", Boolean, nullable=False, default=False, index=True),
    # the loose form of the name's base (`review.entries`), for lookups by name; None
    # until the first read by name after a save (`history_reads`)
    Column("name_slug", Text, index=True),
    UniqueConstraint("project_key", "date", "origin", name="uq_finding"),
    # a day's own findings; origin first, so that no scan of a date range takes it in
    # place of (project_key, date, origin), which covers counting the keys before a day
    Index("ix_findings_origin_date", "origin", "date"),
)

family_entries = Table(
    "family_entries",
    metadata,
    Column("project_key", String(512), primary_key=True),
    Column("finding_id", Integer, nullable=False),
    Column("date", Date, nullable=False, index=True),
    Column("name", Text, nullable=False),
    Column("family", String(128), nullable=False),
    Column("tokens", JSON, nullable=False),
    Column("hashvalues", LargeBinary, nullable=False),
)
"""The family index: one entry per project (its newest finding), with its MinHash."""

family_bands = Table(
    "family_bands",
    metadata,
    Column("project_key", String(512), primary_key=True),
    Column("tree", Integer, primary_key=True),
    Column("band", LargeBinary, nullable=False),
    Index("ix_family_bands_tree_band", "tree", "band"),
)
"""Each entry's LSH Forest key per prefix tree, searched by prefix as a byte range."""

family_terms = Table(
    "family_terms",
    metadata,
    Column("token", String(512), primary_key=True),
    Column("df", Integer, nullable=False),
)
"""How many family entries hold each token (the IDF of the family score)."""

corrections = Table(
    "corrections",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("project_key", String(512), nullable=False),
    Column("date", Date, nullable=False),
    Column("text", Text, nullable=False),
    Column("data", JSON, nullable=False, default=dict),
    UniqueConstraint("project_key", "date", "text", name="uq_correction"),
)

reports = Table(
    "reports",
    metadata,
    Column("date", Date, primary_key=True),
    Column("language", String(8), primary_key=True),
    Column("markdown", Text, nullable=False),
    Column("content_hash", String(64), nullable=False),
    Column("data", JSON, nullable=False, default=dict),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

publications = Table(
    "publications",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("target", String(256), nullable=False),
    Column("report_date", Date, nullable=False),
    Column("part", Integer, nullable=False, default=1),
    Column("marker", String(128), nullable=False),
    Column("comment_id", String(64)),
    Column("url", Text),
    Column("published_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("target", "marker", name="uq_publication"),
)

host_snapshots = Table(
    "host_snapshots",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("host", String(256), nullable=False),
    Column("sha", String(64), nullable=False),
    Column("indexed_at", DateTime(timezone=True), nullable=False),
    Column("data", JSON, nullable=False, default=dict),
)
