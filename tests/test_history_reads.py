"""Reads of the history that answer for a day's findings only (issue #19): the family
index's neighbourhood, earlier findings by name, repositories already reported. Each is
checked against the answer computed from the whole history, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import date

import pytest
from sqlalchemy import select

from research_radar.history.families import index_history
from research_radar.models import Finding
from research_radar.resolve.families import FamilyIndex
from research_radar.resolve.minhash import forest_neighbourhood
from research_radar.store.family_index import load_family_neighbourhood
from research_radar.store.schema import family_bands
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


@pytest.mark.parametrize("k", [1, 3, 40, 1000])
def test_the_family_neighbourhood_read_from_the_store_is_the_whole_forests(
    store: Store, k: int
) -> None:
    """Read range by range (pages of `k` keys, so k=1 reads many pages), the projects a
    forest needs are those the forest of every stored key needs."""
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
    read = load_family_neighbourhood(store, bands, k)
    assert read == forest_neighbourhood(bands, rows, k)
    if k <= 40:
        assert len(read) < 300  # not the whole history
