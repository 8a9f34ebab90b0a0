"""The mechanism-family index kept in the store: one entry per project with its tokens and
MinHash, its LSH Forest keys (searched by prefix as byte ranges) and token document
frequencies. Written once per finding; read a neighbourhood at a time (issue #19)."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from sqlalchemy import Connection, bindparam, func, literal_column, select, union_all, update

from research_radar.models import Finding
from research_radar.resolve.minhash import (
    BAND_WIDTH,
    forest_neighbourhood,
    forest_reads,
    key_after,
    shared_width,
)
from research_radar.store.schema import family_bands, family_entries, family_terms, findings
from research_radar.store.store import Store

__all__ = [
    "FamilyEntry",
    "load_family_entries",
    "load_family_neighbourhood",
    "load_family_terms",
    "load_findings_by_id",
    "load_newest_family_date",
    "load_unindexed_findings",
    "save_family_entries",
]

_CHUNK = 500


@dataclass(frozen=True)
class FamilyEntry:
    """One project in the family index."""

    project_key: str
    finding_id: int
    date: date
    name: str
    family: str
    tokens: frozenset[str]
    hashvalues: bytes


def _entry(row: Any) -> FamilyEntry:
    return FamilyEntry(
        row.project_key,
        row.finding_id,
        row.date,
        row.name,
        row.family,
        frozenset(row.tokens),
        bytes(row.hashvalues),
    )


def load_unindexed_findings(store: Store, *, before: date) -> list[int]:
    """Ids of the findings before a day (exclusive) the index has not seen, oldest first."""
    query = (
        select(findings.c.id)
        .where(findings.c.family_indexed.is_(False), findings.c.date < before)
        .order_by(findings.c.date, findings.c.id)
    )
    with store.engine.connect() as conn:
        return [row[0] for row in conn.execute(query)]


def load_findings_by_id(store: Store, ids: Sequence[int]) -> list[tuple[int, Finding]]:
    """Some findings with their ids, oldest first."""
    found: list[tuple[date, int, Finding]] = []
    with store.engine.connect() as conn:
        for start in range(0, len(ids), _CHUNK):
            rows = conn.execute(
                select(findings.c.id, findings.c.date, findings.c.data).where(
                    findings.c.id.in_(ids[start : start + _CHUNK])
                )
            )
            found += [(day, row_id, Finding.model_validate(data)) for row_id, day, data in rows]
    return [(row_id, finding) for _, row_id, finding in sorted(found, key=lambda r: r[:2])]


def load_family_entries(store: Store, keys: Iterable[str]) -> dict[str, FamilyEntry]:
    """The entries of some projects."""
    wanted = sorted(set(keys))
    found: dict[str, FamilyEntry] = {}
    with store.engine.connect() as conn:
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            rows = conn.execute(
                select(family_entries).where(family_entries.c.project_key.in_(chunk))
            )
            found.update((row.project_key, _entry(row)) for row in rows)
    return found


def load_newest_family_date(store: Store) -> date | None:
    with store.engine.connect() as conn:
        value = conn.execute(select(func.max(family_entries.c.date))).scalar()
    return value if isinstance(value, date) else None


def load_family_neighbourhood(
    store: Store, queries: Sequence[Sequence[bytes]], k: int, *, whole: bool | None = None
) -> set[str]:
    """The stored projects a forest needs to answer each query (its forest key per tree)
    as the forest of every stored entry would (`forest_reads`, asking for `k`).

    `whole`: read every stored forest key at once (True) or only the ranges the queries
    reach (False); None chooses by the index's size against the queries' (`_WHOLE`).

    Only the forest keys a query reads are read: around each query's key the nearest
    keys on either side, in one statement for many queries, and further ranges a page
    at a time, as the query reaches them (#19).
    """
    if not queries:
        return set()
    with store.engine.connect() as conn:
        stored = conn.execute(select(func.count()).select_from(family_entries)).scalar() or 0
        if not stored:
            return set()
        if whole if whole is not None else stored <= min(_WHOLE * len(queries), _WHOLE_MOST):
            rows = conn.execute(
                select(family_bands.c.project_key, family_bands.c.tree, family_bands.c.band)
            )
            return forest_neighbourhood(queries, [(a, b, bytes(c)) for a, b, c in rows], k)
        reader = _BandReader(conn, len(queries[0][0]), max(k, 1))
        reader.prefetch([(tree, band) for bands in queries for tree, band in enumerate(bands)])
        needed: set[str] = set()
        for bands in queries:
            reach = [reader.reach[tree, band] for tree, band in enumerate(bands)]
            needed |= forest_reads(bands, k, reader.segment, reach)
    return needed


_WHOLE = 20
"""Stored entries per query up to which `load_family_neighbourhood` reads every forest
key at once (one scan) rather than the ranges around each query's (a statement per
`_AROUND` of them): many queries against a small index, as a large first run has."""
_WHOLE_MOST = 25_000
"""Stored entries beyond which the index is never read whole (its forest keys held in
memory at once: about 70 MB at this size)."""


Group = tuple[bytes, list[str]]
"""A forest key with the projects under it."""


class _BandReader:
    """Reads a tree's forest keys by range: from the rows read around the queries' keys
    when they hold the range, else from the store, a page at a time."""

    def __init__(self, conn: Connection, size: int, page: int) -> None:
        self._conn = conn
        self._size = size
        self._page = page
        self._near: dict[tuple[int, bytes], list[tuple[bytes, bytes, list[bytes], list[Group]]]]
        self._near = {}
        """Per tree and first hash value: ranges [lo, hi) read whole, each with its forest
        keys and their projects, in order."""
        self.reach: dict[tuple[int, bytes], int] = {}
        """Per (tree, forest key) prefetched: the widest prefix it shares with a stored key
        of the tree (`forest_reads`' `reach`)."""

    def prefetch(self, around: Sequence[tuple[int, bytes]]) -> None:
        """Read, for each (tree, forest key), up to a page of keys on either side of it
        within its first hash value (every query's range lies there)."""
        wanted = sorted(set(around))
        for start in range(0, len(wanted), _AROUND):
            chunk = wanted[start : start + _AROUND]
            chunk += [chunk[-1]] * (_AROUND - len(chunk))  # one statement for every chunk
            params: dict[str, Any] = {}
            for at, (tree, band) in enumerate(chunk):
                first = band[:BAND_WIDTH]
                params |= {
                    f"t{at}": tree,
                    f"lo{at}": first,
                    f"mid{at}": band,
                    f"hi{at}": key_after(first, self._size),
                }
            below: dict[int, list[tuple[bytes, str]]] = {}
            above: dict[int, list[tuple[bytes, str]]] = {}
            for side, at, key, value in self._conn.execute(_around_query(_NEAR), params):
                (below if side == 0 else above).setdefault(at, []).append((bytes(value), key))
            for at, (tree, band) in enumerate(chunk[: len(wanted) - start]):
                self._keep_around(tree, band, below.get(at, []), above.get(at, []))

    def _keep_around(
        self,
        tree: int,
        band: bytes,
        below: list[tuple[bytes, str]],
        above: list[tuple[bytes, str]],
    ) -> None:
        first = band[:BAND_WIDTH]
        lo, hi = first, key_after(first, self._size)
        nearest = [max(below)[0]] if below else []
        nearest += [min(above)[0]] if above else []
        self.reach[tree, band] = shared_width(band, nearest)
        rows = sorted(below + above)
        if len(below) == _NEAR:  # the lowest key's projects may go on below the page
            lowest = min(value for value, _ in below)
            lo = lowest + b"\0"
            rows = [row for row in rows if row[0] != lowest]
        if len(above) == _NEAR:
            hi = max(value for value, _ in above)
            rows = [row for row in rows if row[0] != hi]
        groups = _grouped(rows)
        near = (lo, hi, [value for value, _ in groups], groups)
        self._near.setdefault((tree, first), []).append(near)

    def segment(self, tree: int, lo: bytes, hi: bytes) -> Iterator[Group]:
        for near_lo, near_hi, keys, groups in self._near.get((tree, lo[:BAND_WIDTH]), []):
            if near_lo <= lo and hi <= near_hi:
                yield from groups[bisect_left(keys, lo) : bisect_left(keys, hi)]
                return
        yield from self._pages(tree, lo, hi)

    def _pages(self, tree: int, lo: bytes, hi: bytes) -> Iterator[Group]:
        """The forest keys of [lo, hi) from the store, a page at a time."""
        size = self._page
        while True:
            rows = [
                (bytes(value), key)
                for key, value in self._conn.execute(
                    _range_query(), {"t": tree, "lo": lo, "hi": hi, "n": size}
                )
            ]
            groups = _grouped(sorted(rows))
            if len(rows) < size:
                yield from groups
                return
            if len(groups) == 1:  # one key's projects fill the page: a larger one
                size *= 2
                continue
            yield from groups[:-1]  # the last key's projects may go on past the page
            lo = groups[-1][0]


def _grouped(rows: Sequence[tuple[bytes, str]]) -> list[Group]:
    """(forest key, project) rows in order → each forest key with its projects."""
    groups: list[Group] = []
    for value, key in rows:
        if groups and groups[-1][0] == value:
            groups[-1][1].append(key)
        else:
            groups.append((value, [key]))
    return groups


_NEAR = 8
"""Forest keys read on either side of a query's key up front: enough for the long
prefixes, whose ranges are small; a query that goes on reads further ranges in pages."""
_AROUND = 8
"""Query forest keys read around per statement (two ranges each): a statement of more
parts takes longer to compile than the round trips it saves."""


@cache
def _around_query(page: int) -> Any:
    """Up to `page` forest keys below and from each of `_AROUND` (tree, key) pairs, within
    [lo, hi): one statement, compiled once, each side read by the (tree, band) index."""
    parts = []
    for at in range(_AROUND):
        tree = family_bands.c.tree == bindparam(f"t{at}")
        sides = (
            (
                0,
                family_bands.c.band >= bindparam(f"lo{at}"),
                family_bands.c.band < bindparam(f"mid{at}"),
                family_bands.c.band.desc(),
            ),
            (
                1,
                family_bands.c.band >= bindparam(f"mid{at}"),
                family_bands.c.band < bindparam(f"hi{at}"),
                family_bands.c.band,
            ),
        )
        for side, low, high, order in sides:
            part = (
                select(
                    literal_column(str(side)).label("side"),
                    literal_column(str(at)).label("at"),
                    family_bands.c.project_key,
                    family_bands.c.band,
                )
                .where(tree, low, high)
                .order_by(order)
                .limit(page)
                .subquery()
            )
            parts.append(select(part))
    return union_all(*parts)


@cache
def _range_query() -> Any:
    """Up to `n` (project key, forest key) rows of a tree in [lo, hi), in key order."""
    return (
        select(family_bands.c.project_key, family_bands.c.band)
        .where(
            family_bands.c.tree == bindparam("t"),
            family_bands.c.band >= bindparam("lo"),
            family_bands.c.band < bindparam("hi"),
        )
        .order_by(family_bands.c.band)
        .limit(bindparam("n"))
    )


def load_family_terms(store: Store, tokens: Iterable[str]) -> tuple[dict[str, int], int]:
    """Document frequencies of some tokens, and how many entries the index holds."""
    wanted = sorted(set(tokens))
    df: dict[str, int] = {}
    with store.engine.connect() as conn:
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            rows = conn.execute(
                select(family_terms.c.token, family_terms.c.df).where(
                    family_terms.c.token.in_(chunk)
                )
            )
            df.update((token, count) for token, count in rows)
        total = conn.execute(select(func.count()).select_from(family_entries)).scalar() or 0
    return df, int(total)


def save_family_entries(
    conn: Connection,
    entries: Sequence[FamilyEntry],
    bands: Mapping[str, Sequence[bytes]],
    df_change: Counter[str],
    indexed: Sequence[int],
) -> None:
    """Replace entries (and their forest keys), move token counts by `df_change` and mark
    the findings `indexed` as seen."""
    keys = [entry.project_key for entry in entries]
    for start in range(0, len(keys), _CHUNK):
        chunk = keys[start : start + _CHUNK]
        conn.execute(family_entries.delete().where(family_entries.c.project_key.in_(chunk)))
        conn.execute(family_bands.delete().where(family_bands.c.project_key.in_(chunk)))
    if entries:
        conn.execute(
            family_entries.insert(),
            [
                {
                    "project_key": e.project_key,
                    "finding_id": e.finding_id,
                    "date": e.date,
                    "name": e.name,
                    "family": e.family,
                    "tokens": sorted(e.tokens),
                    "hashvalues": e.hashvalues,
                }
                for e in entries
            ],
        )
        conn.execute(
            family_bands.insert(),
            [
                {"project_key": key, "tree": tree, "band": band}
                for key in keys
                for tree, band in enumerate(bands[key])
            ],
        )
    _move_counts(conn, df_change)
    for start in range(0, len(indexed), _CHUNK):
        conn.execute(
            update(findings)
            .where(findings.c.id.in_(indexed[start : start + _CHUNK]))
            .values(family_indexed=True)
        )


def _move_counts(conn: Connection, change: Counter[str]) -> None:
    moved = {token: count for token, count in change.items() if count}
    if not moved:
        return
    tokens = sorted(moved)
    known: dict[str, int] = {}
    for start in range(0, len(tokens), _CHUNK):
        chunk = tokens[start : start + _CHUNK]
        rows = conn.execute(
            select(family_terms.c.token, family_terms.c.df).where(family_terms.c.token.in_(chunk))
        )
        known.update((token, df) for token, df in rows)
    new = [{"token": t, "df": moved[t]} for t in tokens if t not in known and moved[t] > 0]
    changed = [{"t": t, "df": known[t] + moved[t]} for t in tokens if t in known]
    if new:
        conn.execute(family_terms.insert(), new)
    if changed:
        from sqlalchemy import bindparam

        conn.execute(
            update(family_terms)
            .where(family_terms.c.token == bindparam("t"))
            .values(df=bindparam("df")),
            changed,
        )
