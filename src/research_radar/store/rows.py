"""The rows the store writes for domain objects: each object's columns and its JSON.

A model's JSON is serialised once, by pydantic (`model_dump_json`, several times faster
than `model_dump` then `json.dumps`), and written as that text (`upserts.JsonText`); a
raw response is gzip-compressed at a fast level. What a read gives back is the same
(#19).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from research_radar.models import Claim, Finding, Project, Snapshot, Source
from research_radar.store.upserts import JsonText

__all__ = [
    "GZIP_LEVEL",
    "RawRecord",
    "claim_rows",
    "content_hash",
    "finding_rows",
    "project_rows",
    "raw_rows",
    "snapshot_rows",
    "source_rows",
]

Row = dict[str, Any]


def content_hash(data: bytes | str) -> str:
    """SHA-256 hex digest of bytes or UTF-8 text."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


@dataclass(frozen=True)
class RawRecord:
    """A raw response to keep (`Store.save_raws`)."""

    request_key: str
    body: bytes
    status: int = 200
    etag: str | None = None
    last_modified: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    fetched_at: datetime | None = None


GZIP_LEVEL = 3
"""zlib level of a kept raw response. On the replayed repositories' responses level 9
(gzip's default, used before) took twice the CPU of 3 for 4% smaller bodies; levels 1–3
cost about the same. Any level reads back with `gzip.decompress`."""
_GZIP_THREADS = 2
"""Threads compressing a large batch of raw responses: zlib lets go of the interpreter
lock while it compresses, and compressing was most of a large collect's write (#19)."""
_GZIP_PARTS = 8
"""Parts a large batch is compressed in, a task each: a task per body cost half as much
CPU again as the compressing (50,000 responses: 3.8 s against 2.6 s)."""


_GZIP_WBITS = 16 + zlib.MAX_WBITS
"""zlib's gzip container (header with mtime 0: the same bytes every time)."""


def _gzip_all(bodies: Sequence[bytes]) -> list[bytes]:
    """Each body gzip-compressed, in order. zlib writes the gzip container itself in 60 %
    of the CPU time `gzip.compress` takes for a response of a few KB (#19); either reads
    back with `gzip.decompress`."""
    return [zlib.compress(body, GZIP_LEVEL, _GZIP_WBITS) for body in bodies]


def _gzipped(bodies: Sequence[bytes]) -> list[bytes]:
    """`_gzip_all`, a large batch in parts on `_GZIP_THREADS` threads."""
    if len(bodies) < 64:
        return _gzip_all(bodies)
    size = -(-len(bodies) // _GZIP_PARTS)
    parts = [bodies[start : start + size] for start in range(0, len(bodies), size)]
    with ThreadPoolExecutor(max_workers=_GZIP_THREADS) as pool:
        return [body for part in pool.map(_gzip_all, parts) for body in part]


def raw_rows(source: str, records: Sequence[RawRecord], now: datetime) -> list[Row]:
    """Rows of `raw_responses`: bodies compressed, each hashed before (its identity)."""
    return [
        {
            "source": source,
            "request_key": record.request_key,
            "status": record.status,
            "etag": record.etag,
            "last_modified": record.last_modified,
            "headers": dict(record.headers),
            "body": body,
            "content_hash": content_hash(record.body),
            "fetched_at": record.fetched_at or now,
        }
        for record, body in zip(records, _gzipped([r.body for r in records]), strict=True)
    ]


def source_rows(items: Iterable[Source], now: datetime) -> list[Row]:
    return [
        {
            "key": source.key,
            "kind": source.kind.value,
            "url": source.url,
            "title": source.title,
            "data": JsonText(source.model_dump_json()),
            "updated_at": now,
            "first_seen_at": now,
        }
        for source in items
    ]


def snapshot_rows(items: Iterable[Snapshot], now: datetime) -> list[Row]:
    return [
        {
            "source_key": snapshot.source_key,
            "version": snapshot.version,
            "version_date": snapshot.version_date,
            "data": JsonText(snapshot.model_dump_json()),
            "observed_at": now,
        }
        for snapshot in items
    ]


def claim_rows(groups: Iterable[tuple[str, str, list[Claim]]]) -> list[Row]:
    """Rows of `claims` from (source key, version, claims): each claim's JSON with sorted
    keys, serialised once for its hash (its identity, as stores made before hold it) and
    its `data`."""
    rows = []
    for source_key, version, items in groups:
        for claim in items:
            text = json.dumps(claim.model_dump(mode="json"), sort_keys=True)
            rows.append(
                {
                    "source_key": source_key,
                    "version": version,
                    "kind": claim.kind.value,
                    "data": JsonText(text),
                    "hash": content_hash(source_key + version + text),
                }
            )
    return rows


def finding_rows(items: Sequence[Finding], origins: Sequence[str], now: datetime) -> list[Row]:
    """Rows of `findings`, each marked as not yet seen by the family index."""
    return [
        {
            "project_key": finding.project_key,
            "date": finding.date,
            "origin": origin,
            "name": finding.name,
            "family": finding.family,
            "data": JsonText(finding.model_dump_json()),
            "created_at": now,
            "family_indexed": False,
            "name_slug": None,
        }
        for finding, origin in zip(items, origins, strict=True)
    ]


def project_rows(items: Iterable[Project], now: datetime) -> tuple[list[Row], list[Row]]:
    """Rows of `projects` and of their links to their sources (`project_sources`)."""
    rows, links = [], []
    for project in items:
        rows.append(
            {
                "key": project.key,
                "name": project.name,
                "fork_of": project.fork_of,
                "derivative": project.derivative,
                "family": project.family,
                "data": JsonText(project.model_dump_json()),
                "created_at": now,
            }
        )
        links += [
            {
                "project_key": project.key,
                "source_key": source_key,
                "relation": "primary" if source_key == project.key else "part-of",
                "evidence": "",
            }
            for source_key in project.sources
        ]
    return rows, links
