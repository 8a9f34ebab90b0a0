"""The mechanism-family index of the history kept in the store (issue #19).

Each finding is tokenised and MinHashed once, when a run first finds it unindexed; a run
then reads only the neighbourhood of its own findings (the entries that share a forest key
prefix with one of them) and the document frequencies of their tokens, so its cost does
not grow with the size of the history.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import date

from research_radar.models import Finding
from research_radar.resolve.families import FamilyIndex, family_id
from research_radar.resolve.minhash import Signature
from research_radar.store.family_index import (
    FamilyEntry,
    load_family_entries,
    load_family_neighbourhood,
    load_family_terms,
    load_findings_by_id,
    load_newest_family_date,
    load_unindexed_findings,
    save_family_entries,
)
from research_radar.store.store import Store

__all__ = ["index_history", "load_family_index"]

_CHUNK = 5000
"""Findings signed per transaction (bounds memory on a first run over a long history)."""


def index_history(store: Store, *, before: date) -> int:
    """Add to the store's family index the findings before a day it has not seen; a
    project's entry is its newest finding. Returns how many findings were added."""
    pending = load_unindexed_findings(store, before=before)
    signer = FamilyIndex()
    for start in range(0, len(pending), _CHUNK):
        chunk = load_findings_by_id(store, pending[start : start + _CHUNK])
        current = load_family_entries(store, {finding.project_key for _, finding in chunk})
        changed: dict[str, FamilyEntry] = {}
        counts: Counter[str] = Counter()
        signatures = signer.signatures([finding for _, finding in chunk])  # in bulk (#19)
        for (row_id, finding), signature in zip(chunk, signatures, strict=True):
            key = finding.project_key
            old = changed.get(key) or current.get(key)
            if old is not None and (old.date, old.finding_id) > (finding.date, row_id):
                continue
            if old is not None:
                counts.subtract(old.tokens)
            counts.update(signature.tokens)
            family = finding.family or (old.family if old else family_id(key))
            changed[key] = FamilyEntry(
                key, row_id, finding.date, finding.name, family, *_parts(signature)
            )
        bands = {
            key: signer.bands(Signature(entry.tokens, entry.hashvalues))
            for key, entry in changed.items()
        }
        with store.transaction() as conn:
            save_family_entries(
                conn, list(changed.values()), bands, counts, [row_id for row_id, _ in chunk]
            )
    return len(pending)


def _parts(signature: Signature) -> tuple[frozenset[str], bytes]:
    return signature.tokens, signature.hashvalues


def load_family_index(
    store: Store,
    *,
    before: date,
    queries: Sequence[Finding],
    signatures: Sequence[Signature] | None = None,
) -> FamilyIndex:
    """A family index that answers `queries` as the index of every finding before a day
    would: the neighbourhood of the queries, weighed by the whole index's frequencies.

    `signatures`: the queries' (`FamilyIndex.signatures`), when the caller computed them to
    pass on to `assign_family` too; else they are computed here.

    A run dated before findings already indexed (a back-dated run) rebuilds the index of
    the findings before its day instead, in memory.
    """
    index_history(store, before=before)
    newest = load_newest_family_date(store)
    index = FamilyIndex()
    if newest is not None and newest >= before:
        for finding in store.load_findings(before=before):
            index.add(finding)
        return index
    if signatures is None:
        signatures = index.signatures(queries)
    # only the entries the queries' forest searches can reach (issue #19)
    bands = [index.bands(sig) for sig in signatures]
    keys = load_family_neighbourhood(store, bands, index.candidates)
    keys |= {finding.project_key for finding in queries}
    found = load_family_entries(store, keys)
    entries = sorted(found.values(), key=lambda e: (e.date, e.finding_id))
    for entry in entries:
        index.add_signed(
            entry.project_key, entry.name, entry.family, Signature(entry.tokens, entry.hashvalues)
        )
    tokens: set[str] = set()
    for signature in signatures:
        tokens |= signature.tokens
    for entry in entries:
        tokens |= entry.tokens
    df, total = load_family_terms(store, tokens)
    index.use_counts(df, total)
    return index
