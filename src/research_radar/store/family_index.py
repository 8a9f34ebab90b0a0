"""The mechanism-family index kept in the store: one entry per project with its tokens and
MinHash, its LSH Forest keys (searched by prefix as byte ranges) and token document
frequencies. Written once per finding; read a neighbourhood at a time (issue #19)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Any

from sqlalchemy import Connection, and_, bindparam, func, or_, select, update

from research_radar.models import Finding
from research_radar.store.schema import family_bands, family_entries, family_terms, findings
from research_radar.store.store import Store

__all__ = [
    "FamilyEntry",
    "load_family_entries",
    "load_family_bands",
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


def load_family_bands(
    store: Store, prefixes: Iterable[tuple[int, bytes]]
) -> list[tuple[str, int, bytes]]:
    """(project key, tree, forest key) of every stored forest key in a tree that starts
    with one of `prefixes` ((tree, prefix) pairs), each range read by the (tree, band)
    index."""
    ranges = sorted(set(prefixes))
    rows: list[tuple[str, int, bytes]] = []
    with store.engine.connect() as conn:
        for start in range(0, len(ranges), _RANGES):
            chunk = ranges[start : start + _RANGES]
            chunk += [chunk[-1]] * (_RANGES - len(chunk))  # one statement for every chunk
            params: dict[str, Any] = {}
            for at, (tree, prefix) in enumerate(chunk):
                params |= {f"t{at}": tree, f"lo{at}": prefix, f"hi{at}": _upper(prefix)}
            result = conn.execute(_ranges_query(), params)
            rows.extend((key, tree, bytes(band)) for key, tree, band in result)
    return rows


_RANGES = 64
"""Forest key ranges read per query (each by the (tree, band) index)."""


@cache
def _ranges_query() -> Any:
    """(project key, tree, forest key) of the forest keys in any of `_RANGES` (tree,
    [lo, hi)) ranges, each row once: one statement, compiled once, instead of a statement
    per range (#19)."""
    return select(family_bands.c.project_key, family_bands.c.tree, family_bands.c.band).where(
        or_(
            *(
                and_(
                    family_bands.c.tree == bindparam(f"t{at}"),
                    family_bands.c.band >= bindparam(f"lo{at}"),
                    family_bands.c.band < bindparam(f"hi{at}"),
                )
                for at in range(_RANGES)
            )
        )
    )


def _upper(prefix: bytes) -> bytes:
    """The first key after every key that starts with `prefix`."""
    upper = (int.from_bytes(prefix, "big") + 1).to_bytes(len(prefix) + 1, "big")
    return upper[1:] if upper[0] == 0 else upper


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
