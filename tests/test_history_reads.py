"""Reads of the history that answer for a day's findings only (issue #19): the family
index's neighbourhood, earlier findings by name, repositories already reported. Each is
checked against the answer computed from the whole history, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime

import pytest
from sqlalchemy import select

from research_radar.history.families import index_history
from research_radar.models import Finding
from research_radar.resolve.families import FamilyIndex
from research_radar.resolve.minhash import forest_neighbourhood
from research_radar.store.family_index import load_family_neighbourhood
from research_radar.store.history_reads import load_keys_named, load_reported_repos
from research_radar.store.schema import family_bands, findings
from research_radar.store.store import Store

WORDS = ["kv", "cache", "offload", "expert", "ssd", "speculative", "draft", "kernel"]


def _earlier(count: int, seed: int) -> list[Finding]:
    rng = random.Random(seed)
    return [
        Finding(
            project_key=f"gh:o/p{n}",
            name=f"p{n}",
            date=date(2026, 10, 1 + n % 20),
            mechanism=" ".join(rng.sample(WORDS, 3)),  # few words: forest keys shared a lot
        )
        for n in range(count)
    ]


@pytest.mark.parametrize("whole", [False, True, None], ids=["ranges", "whole", "chosen"])
@pytest.mark.parametrize("k", [1, 3, 40, 1000])
def test_the_family_neighbourhood_read_from_the_store_is_the_whole_forests(
    store: Store, k: int, whole: bool | None
) -> None:
    """Read range by range (pages of `k` keys, so k=1 reads many pages) or all at once,
    the projects a forest needs are those the forest of every stored key needs."""
    with store.transaction() as conn:
        store.save_findings(conn, _earlier(300, seed=4))
    index_history(store, before=date(2026, 10, 25))
    index = FamilyIndex()
    rng = random.Random(9)
    queries = [
        Finding(
            project_key=f"gh:o/new{n}",
            name=f"new{n}",
            date=date(2026, 10, 25),
            mechanism=" ".join(rng.sample(WORDS, 3)) if n else "nothing shared here",
        )
        for n in range(6)
    ]
    bands = [index.bands(signature) for signature in index.signatures(queries)]
    with store.engine.connect() as conn:
        rows = [
            (key, tree, bytes(band))
            for key, tree, band in conn.execute(
                select(family_bands.c.project_key, family_bands.c.tree, family_bands.c.band)
            )
        ]
    assert len({key for key, _, _ in rows}) == 300
    read = load_family_neighbourhood(store, bands, k, whole=whole)
    assert read == forest_neighbourhood(bands, rows, k)
    if k <= 40:
        assert len(read) < 300  # not the whole history


def test_an_empty_family_index_has_no_neighbourhood(store: Store) -> None:
    index = FamilyIndex()
    query = Finding(project_key="gh:o/q", name="q", date=date(2026, 10, 25), mechanism="kv")
    bands = [index.bands(signature) for signature in index.signatures([query])]
    assert load_family_neighbourhood(store, bands, 5, whole=False) == set()
    assert load_family_neighbourhood(store, bands, 5, whole=True) == set()


def test_earlier_findings_are_found_by_the_loose_form_of_their_name(store: Store) -> None:
    """As the reviewer matched names: the base name (versions dropped), letters and digits
    only, lower-case; before the day only; a renamed finding is found by its new name;
    rows written without the loose form (another writer) get it at the first read."""
    names = ["Strata 0.2.8", "strata", "STRATA-x", "project Strata", "Other", "斯特拉塔"]
    items = [
        Finding(project_key=f"gh:o/s{n}", name=name, date=date(2026, 8, 1 + n))
        for n, name in enumerate(names)
    ]
    with store.transaction() as conn:
        store.save_findings(conn, items)
        conn.execute(  # a finding written straight into the table, as older stores hold
            findings.insert().values(
                project_key="gh:o/raw",
                date=date(2026, 8, 2),
                origin="radar",
                name="Strata v1.0",
                data=Finding(
                    project_key="gh:o/raw", name="Strata v1.0", date=date(2026, 8, 2)
                ).model_dump(mode="json"),
                created_at=datetime(2026, 8, 2, tzinfo=UTC),
            )
        )
    later = date(2026, 9, 1)
    assert load_keys_named(store, {"strata"}, before=later) == {
        "gh:o/s0",
        "gh:o/s1",
        "gh:o/s3",
        "gh:o/raw",
    }
    assert load_keys_named(store, {"stratax", "other"}, before=later) == {"gh:o/s2", "gh:o/s4"}
    assert load_keys_named(store, {""}, before=later) == {"gh:o/s5"}  # no letter or digit
    assert load_keys_named(store, {"strata"}, before=date(2026, 8, 2)) == {"gh:o/s0"}
    with store.transaction() as conn:
        store.save_findings(conn, [items[0].model_copy(update={"name": "Renamed"})])
    assert load_keys_named(store, {"renamed"}, before=later) == {"gh:o/s0"}
    assert "gh:o/s0" not in load_keys_named(store, {"strata"}, before=later)
    many = {f"name{n}" for n in range(1200)} | {"other"}  # more than one IN (…) list
    assert load_keys_named(store, many, before=later) == {"gh:o/s4"}


def test_reported_repositories_are_looked_up_by_name(store: Store) -> None:
    """A repository counts as reported by its own key or one of its pull requests' or
    issues'; names are compared lower-case; papers and other keys never match."""
    keys = ["gh:o/a", "gh:o/b#12", "arxiv:2601.00001", "name:o/c", "gh:o/dd"]
    with store.transaction() as conn:
        store.save_findings(
            conn, [Finding(project_key=key, name=key, date=date(2026, 8, 1)) for key in keys]
        )
    asked = ["O/A", "o/b", "o/c", "o/d", "2601.00001", "x/y"]
    assert load_reported_repos(store, asked) == {"o/a", "o/b"}
    assert load_reported_repos(store, []) == set()
    many = [f"o/n{n}" for n in range(1200)] + ["o/dd"]
    assert load_reported_repos(store, many) == {"o/dd"}
