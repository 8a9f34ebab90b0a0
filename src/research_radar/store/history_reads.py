"""What a day's run asks of the history, answered for its own findings only (issue #19):
earlier findings of some projects or families, the projects of earlier findings under
some names, the repositories already reported among some names, and how many projects
the history holds. Each is a lookup by an indexed column, in chunks, never a read of the
whole history."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from sqlalchemy import bindparam, distinct, func, select, update

from research_radar.models import Finding
from research_radar.resolve.keys import github_key, github_repo
from research_radar.store.schema import findings
from research_radar.store.store import Store

__all__ = [
    "count_finding_keys",
    "load_findings_of",
    "load_keys_named",
    "load_reported_repos",
]

_CHUNK = 500
"""Values per IN (…) list."""


def load_findings_of(
    store: Store,
    keys: Iterable[str] = (),
    *,
    families: Iterable[str] = (),
    before: date | None = None,
) -> list[Finding]:
    """Findings of some projects or mechanism families, oldest first (`before` exclusive)."""
    found: dict[int, tuple[date, int, Any]] = {}
    with store.engine.connect() as conn:
        for column, values in ((findings.c.project_key, keys), (findings.c.family, families)):
            wanted = sorted(set(values))
            for start in range(0, len(wanted), _CHUNK):
                query = select(findings.c.id, findings.c.date, findings.c.data).where(
                    column.in_(wanted[start : start + _CHUNK])
                )
                if before is not None:
                    query = query.where(findings.c.date < before)
                for row_id, day, data in conn.execute(query):
                    found[row_id] = (day, row_id, data)
    return [Finding.model_validate(data) for _, _, data in sorted(found.values())]


def count_finding_keys(store: Store, *, before: date | None = None) -> int:
    """How many distinct project keys have a finding (before a day, exclusive)."""
    query = select(func.count(distinct(findings.c.project_key)))
    if before is not None:
        query = query.where(findings.c.date < before)
    with store.engine.connect() as conn:
        return int(conn.execute(query).scalar() or 0)


def load_keys_named(store: Store, slugs: Iterable[str], *, before: date) -> set[str]:
    """Project keys of the findings before a day (exclusive) whose name's loose form
    (`review.entries.name_slug` of its `base_name`) is one of `slugs`.

    Findings saved since the last such read get their loose form first."""
    _fill_name_slugs(store)
    wanted = sorted(set(slugs))
    keys: set[str] = set()
    with store.engine.connect() as conn:
        for start in range(0, len(wanted), _CHUNK):
            query = select(findings.c.project_key).where(
                findings.c.name_slug.in_(wanted[start : start + _CHUNK]),
                findings.c.date < before,
            )
            keys.update(key for (key,) in conn.execute(query))
    return keys


def _fill_name_slugs(store: Store) -> None:
    """Give every finding saved without it the loose form of its name."""
    from research_radar.review.entries import base_name, name_slug

    with store.engine.connect() as conn:
        rows = conn.execute(
            select(findings.c.id, findings.c.name).where(findings.c.name_slug.is_(None))
        ).all()
    if not rows:
        return
    statement = (
        update(findings)
        .where(findings.c.id == bindparam("row_id"))
        .values(name_slug=bindparam("slug"))
    )
    with store.transaction() as conn:
        conn.execute(
            statement,
            [{"row_id": row_id, "slug": name_slug(base_name(name))} for row_id, name in rows],
        )


def load_reported_repos(store: Store, names: Iterable[str]) -> set[str]:
    """The GitHub repositories among `names` (owner/name, any case) that a finding has
    reported, by its key or the key of one of its pull requests or issues
    (`gh:owner/name#N`); returned lower-case."""
    wanted = sorted({name.lower() for name in names})
    found: set[str] = set()
    with store.engine.connect() as conn:
        for start in range(0, len(wanted), _CHUNK):
            keys = [github_key(name) for name in wanted[start : start + _CHUNK]]
            query = select(findings.c.project_key).where(findings.c.project_key.in_(keys))
            found.update(str(github_repo(key)) for (key,) in conn.execute(query.distinct()))
        numbered = select(findings.c.project_key).where(findings.c.project_key.like("gh:%#%"))
        for (key,) in conn.execute(numbered.distinct()):
            found.add(str(github_repo(key)))
    return {repo.lower() for repo in found} & set(wanted)
